/** Open-domain heavy-hitter reports, `pgw-hh-v1`: mechanism `prefix-tree-sketch` (wire-format §9). */
import { bernoulli, uniformInt } from './draws.js';
import { publicStream, sipHash24 } from './coins.js';
import { decRat, lowerBoundL, numerator, rat } from './exact.js';
import { strictExp } from './fdlibm.js';
import { LocalProtocol } from './fo.js';

export interface HeavyParams { L: number; b: number; R: number; W: number; t: number }

function popcount(v: number): number { let c = 0; while (v) { v &= v - 1; c++; } return c; }

/**
 * The default payload bits (wire-format §9.1): the t in [1, 8] minimising (d − 1)/(d·p − 1)², d = 2^t,
 * p = e/(e + d − 1), e = fdlibm exp(ε), in doubles as written; the first t on a tie.
 */
export function defaultPayloadBits(eps: number): number {
  const e = strictExp(eps);
  let best = 1, bestV = Infinity;
  for (let t = 1; t <= 8; t++) {
    const d = 2 ** t;
    const p = e / (e + d - 1);
    const a = d * p - 1;
    const v = a > 0 ? (d - 1) / (a * a) : Infinity;
    if (v < bestV) { bestV = v; best = t; }
  }
  return best;
}

/** The parameters a device derives from a heavy-hitters spec (wire-format §9.1): maxBytes L and ε. */
export function heavyDefaults(L: number, eps: number): HeavyParams {
  if (!(Number.isInteger(L) && L >= 1 && L <= 64)) throw new RangeError('spec field domain.strings.maxBytes: must be in [1, 64]');
  const b = L >= 2 ? 2 : 1;
  const G = Math.ceil(L / b);
  let W = 1024;
  let R = Math.min(8, Math.floor(32768 / (G * (W + 1))));
  while (R < 2 && W > 256) {
    W /= 2;
    R = Math.min(8, Math.floor(32768 / (G * (W + 1))));
  }
  return { L, b, R, W, t: defaultPayloadBits(eps) };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The item bytes (UTF-8, 1 to L bytes, no 0x00, no unpaired surrogate), padded to G·b; undefined if refused. */
export function heavyItem(item: string, p: HeavyParams): Uint8Array | undefined {
  if (LONE_SURROGATE.test(item)) return undefined;
  const u = new TextEncoder().encode(item);
  if (u.length < 1 || u.length > p.L || u.includes(0)) return undefined;
  const G = Math.ceil(p.L / p.b);
  const x = new Uint8Array(G * p.b);
  x.set(u);
  return x;
}

export interface HeavyCoins { g: number; r: number; j: number[] }
export function heavyCoins(base: bigint, p: HeavyParams): HeavyCoins {
  const s = publicStream(base, 0x300);
  const G = Math.ceil(p.L / p.b);
  const g = uniformInt(s, G);
  const r = uniformInt(s, p.R);
  const j: number[] = [];
  for (let i = 0; i < p.t; i++) j.push(uniformInt(s, p.W));
  return { g, r, j };
}

export function heavyBucket(contentHashHex: string, c: HeavyCoins, x: Uint8Array, p: HeavyParams): number {
  let k0 = 0n, k1 = 0n;
  for (let i = 7; i >= 0; i--) {
    k0 = (k0 << 8n) | BigInt(parseInt(contentHashHex.substr(2 * (16 + i), 2), 16));
    k1 = (k1 << 8n) | BigInt(parseInt(contentHashHex.substr(2 * (24 + i), 2), 16));
  }
  const n = (c.g + 1) * p.b;
  const msg = new Uint8Array(8 + n);
  const dv = new DataView(msg.buffer);
  dv.setInt32(0, c.g, true);
  dv.setInt32(4, c.r, true);
  msg.set(x.subarray(0, n), 8);
  return Number(sipHash24(k0, k1, msg) & BigInt(p.W - 1));
}

export function heavyHitters(contentHashHex: string, eps: number, p: HeavyParams): LocalProtocol {
  if (!(p.L >= 1 && p.L <= 64) || !(p.b === 1 || p.b === 2) || !(p.t >= 1 && p.t <= 8) || p.R < 1 || p.W < 1 || (p.W & (p.W - 1)) !== 0)
    throw new RangeError('heavy-hitter parameters out of range');
  const N = numerator(decRat(lowerBoundL(eps)), rat(BigInt(2 ** p.t - 1)));
  const G = Math.ceil(p.L / p.b);
  const stateLength = G * p.R * (p.W + 1);
  const draw = (x: Uint8Array, base: bigint, src: Parameters<LocalProtocol['randomize']>[2]) => {
    const coins = heavyCoins(base, p);
    const c = heavyBucket(contentHashHex, coins, x, p);
    let v = 0;
    coins.j.forEach((js, s) => { v += (popcount(js & c) % 2) * 2 ** s; });
    const keep = bernoulli(src, N);
    const u = uniformInt(src, 2 ** p.t - 1);
    return new Uint8Array([keep ? v : v ^ (1 + u)]);
  };
  return {
    mechanism: 'prefix-tree-sketch', payloadBytes: 1, stateLength,
    derived: { mechanism: 'prefix-tree-sketch', payloadBytes: 1, stateLength, segmentBytes: p.b, rows: p.R, width: p.W, payloadBits: p.t },
    randomize() { throw new Error('heavy hitters take the raw string: randomizeRaw'); },
    randomizeRaw(raw, base, src) {
      const x = heavyItem(raw, p);
      return x === undefined ? undefined : draw(x, base, src);
    },
    accumulate(state, payload, base) {
      if (payload.length !== 1 || payload[0] >= 2 ** p.t) return false;
      const y = payload[0];
      const { g, r, j } = heavyCoins(base, p);
      for (let m = 1; m < 2 ** p.t; m++) {
        let jm = 0;
        for (let s = 0; s < p.t; s++) if (m & (1 << s)) jm ^= j[s];
        state[(g * p.R + r) * p.W + jm] += popcount(y & m) % 2 === 0 ? 1 : -1;
      }
      state[G * p.R * p.W + g * p.R + r]++;
      return true;
    },
  };
}
