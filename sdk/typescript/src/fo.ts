/** The six frequency oracles (wire-format §15). Each is a separate export, so bundles tree-shake per protocol. */
import { bernoulli, uniformInt, TWO53 } from './draws.js';
import { GOLDEN, mix64, publicStream, SplitMix64 } from './coins.js';
import { MASK64, WordSource } from './words.js';
import { Decimal, decRat, lowerBoundL, mulRat, numerator, rat } from './exact.js';
import { strictExp } from './fdlibm.js';

/** What every local protocol offers a device (and, for the tests, the gateway's accumulation). */
export interface LocalProtocol {
  readonly mechanism: string;
  readonly payloadBytes: number;
  readonly stateLength: number;
  /**
   * The ε a report costs when it differs from the spec's (a Gaussian-sign protocol's exact sum of its levels' ε,
   * as the largest double not above it); absent: the spec's.
   */
  readonly epsilon?: number;
  /** Parameters a device derives from the spec (the vectors' `derived`). */
  readonly derived: Record<string, unknown>;
  /** Randomizes universe index x; the sequence of secret draws does not depend on x. */
  randomize(x: number, base: bigint, secret: WordSource): Uint8Array;
  /** Protocols without a universe (heavy hitters) take the raw value; undefined when the value is refused. */
  randomizeRaw?(raw: string, base: bigint, secret: WordSource): Uint8Array | undefined;
  /** Adds a well-formed payload to state; false (state untouched) when malformed. */
  accumulate(state: number[], payload: Uint8Array, base: bigint): boolean;
}

export function width(r: number): number {
  return r <= 0x100 ? 1 : r <= 0x10000 ? 2 : r <= 0x1000000 ? 3 : 4;
}
function indexPayload(y: number, w: number): Uint8Array {
  const out = new Uint8Array(w);
  for (let i = w - 1; i >= 0; i--) { out[i] = y & 0xff; y = Math.floor(y / 256); }
  return out;
}
function readIndex(p: Uint8Array): number {
  let y = 0;
  for (const b of p) y = y * 256 + b;
  return y;
}
function bitsPayload(bits: boolean[]): Uint8Array {
  const out = new Uint8Array(Math.ceil(bits.length / 8));
  bits.forEach((b, x) => { if (b) out[x >> 3] |= 1 << (x & 7); });
  return out;
}
function readBits(p: Uint8Array, k: number): number[] | undefined {
  if (p.length !== Math.ceil(k / 8)) return undefined;
  const set: number[] = [];
  for (let x = 0; x < p.length * 8; x++) {
    if (p[x >> 3] & (1 << (x & 7))) { if (x >= k) return undefined; set.push(x); }
  }
  return set;
}
/** rint: round half to even. */
export function rint(v: number): number {
  const f = Math.floor(v);
  const d = v - f;
  return d < 0.5 ? f : d > 0.5 ? f + 1 : f % 2 === 0 ? f : f + 1;
}
function checkK(k: number) {
  if (!Number.isInteger(k) || k < 2 || k > 2 ** 24) throw new RangeError('k must be in [2, 2^24]: ' + k);
}
/** OLH's range g = rint(StrictMath.exp(ε) + 1) clamped to [2, 2^31 − 1] (§15.4). */
export function olhRange(eps: number): number {
  return Math.min(2 ** 31 - 1, Math.max(2, rint(strictExp(eps) + 1)));
}
/** The OLH hash of value v under key (§15.4). */
export function olhHash(key: bigint, v: number, g: number): number {
  return uniformInt(new SplitMix64(key ^ mix64(((BigInt(v) + 1n) * GOLDEN) & MASK64)), g);
}
const p53 = (n: bigint) => Number(n) / 2 ** 53;

export function grr(k: number, eps: number, L: Decimal = lowerBoundL(eps)): LocalProtocol {
  checkK(k);
  const N = numerator(decRat(L), rat(BigInt(k - 1)));
  const w = width(k);
  return {
    mechanism: 'grr', payloadBytes: w, stateLength: k, derived: { k, payloadBytes: w, stateLength: k, keepNumerator: Number(N) },
    randomize(x, _base, src) {
      const hit = bernoulli(src, N);
      const o = uniformInt(src, k - 1);
      return indexPayload(hit ? x : o >= x ? o + 1 : o, w);
    },
    accumulate(state, p) {
      if (p.length !== w) return false;
      const y = readIndex(p);
      if (y >= k) return false;
      state[y]++;
      return true;
    },
  };
}

export function oue(k: number, eps: number, L: Decimal = lowerBoundL(eps)): LocalProtocol {
  checkK(k);
  const M = TWO53 - numerator(decRat(L), rat(1n));
  const bytes = Math.ceil(k / 8);
  return {
    mechanism: 'oue', payloadBytes: bytes, stateLength: k, derived: { k, payloadBytes: bytes, stateLength: k, qNumerator: Number(M) },
    randomize(x, _base, src) {
      const bits: boolean[] = [];
      for (let j = 0; j < k; j++) bits.push(bernoulli(src, M));
      bits[x] = bernoulli(src, TWO53 / 2n);
      return bitsPayload(bits);
    },
    accumulate(state, p) {
      const set = readBits(p, k);
      if (!set) return false;
      for (const j of set) state[j]++;
      return true;
    },
  };
}

export function olh(k: number, eps: number, L: Decimal = lowerBoundL(eps)): LocalProtocol {
  checkK(k);
  const g = olhRange(eps);
  const N = numerator(decRat(L), rat(BigInt(g - 1)));
  const w = width(g);
  const keyOf = (base: bigint) => publicStream(base, 0x100).nextWord();
  return {
    mechanism: 'olh', payloadBytes: w, stateLength: k, derived: { k, payloadBytes: w, stateLength: k, g, keepNumerator: Number(N) },
    randomize(x, base, src) {
      const hit = bernoulli(src, N);
      const o = uniformInt(src, g - 1);
      const t = olhHash(keyOf(base), x, g);
      return indexPayload(hit ? t : o >= t ? o + 1 : o, w);
    },
    accumulate(state, p, base) {
      if (p.length !== w) return false;
      const y = readIndex(p);
      if (y >= g) return false;
      const key = keyOf(base);
      for (let v = 0; v < k; v++) if (olhHash(key, v, g) === y) state[v]++;
      return true;
    },
  };
}

/** Subset selection's subset size d (§15.5), in doubles in the order written. */
export function subsetSize(k: number, eps: number): number {
  const e = strictExp(eps);
  let best = 1, bestV = Infinity;
  for (let d = 1; d <= k - 1; d++) {
    const pi = (d * e) / ((d * e + k) - d);
    const q = (pi * (d - 1) + (1 - pi) * d) / (k - 1);
    const V = (pi * (1 - pi) + ((k - 1) * q) * (1 - q)) / ((pi - q) * (pi - q));
    if (V < bestV) { bestV = V; best = d; }
  }
  return best;
}

export function subsetSelection(k: number, eps: number, L: Decimal = lowerBoundL(eps)): LocalProtocol {
  checkK(k);
  const d = subsetSize(k, eps);
  const N = numerator(mulRat(decRat(L), rat(BigInt(d))), rat(BigInt(k - d)));
  const bytes = Math.ceil(k / 8);
  return {
    mechanism: 'subset-selection', payloadBytes: bytes, stateLength: k,
    derived: { k, payloadBytes: bytes, stateLength: k, d, piNumerator: Number(N) },
    randomize(x, _base, src) {
      const hit = bernoulli(src, N);
      const chosen = new Set<number>();
      const picks: number[] = [];
      for (let i = 0; i < d; i++) {
        const j = k - 1 - d + i;
        const t = uniformInt(src, j + 1);
        const pick = chosen.has(t) ? j : t;
        chosen.add(pick);
        picks.push(pick);
      }
      const drop = d > 1 ? uniformInt(src, d) : 0;
      const bits = new Array<boolean>(k).fill(false);
      for (let i = 0; i < d; i++) {
        if (hit && i === drop) continue;
        bits[picks[i] >= x ? picks[i] + 1 : picks[i]] = true;
      }
      if (hit) bits[x] = true;
      return bitsPayload(bits);
    },
    accumulate(state, p) {
      const set = readBits(p, k);
      if (!set || set.length !== d) return false;
      for (const j of set) state[j]++;
      return true;
    },
  };
}

function popcount(v: number): number {
  let c = 0;
  while (v) { v &= v - 1; c++; }
  return c;
}

export function hadamardResponse(k: number, eps: number, L: Decimal = lowerBoundL(eps)): LocalProtocol {
  checkK(k);
  let K = 1;
  while (K <= k) K *= 2;
  const N = numerator(decRat(L), rat(1n));
  const w = width(K);
  return {
    mechanism: 'hadamard-response', payloadBytes: w, stateLength: K,
    derived: { k, payloadBytes: w, stateLength: K, K, piNumerator: Number(N) },
    randomize(x, _base, src) {
      let j = uniformInt(src, K);
      const want = bernoulli(src, N);
      const row = x + 1;
      if ((popcount(row & j) % 2 === 0) !== want) j ^= row & -row;
      return indexPayload(j, w);
    },
    accumulate(state, p) {
      if (p.length !== w) return false;
      const j = readIndex(p);
      if (j >= K) return false;
      state[j]++;
      return true;
    },
  };
}

export { p53 };
