/**
 * Gaussian-sign protocols from a spec (wire-format §3.1): the answer vectors Q(x), the nets of coarse projection and
 * chaining, the chaining levels and their ε split, and the protocol (§3–§5) over those levels.
 */
import { NumberToken } from './canonical.js';
import { publicStream } from './coins.js';
import { parseDecimal } from './exact.js';
import { strictExp, strictLog } from './fdlibm.js';
import { SplitMix64 } from './coins.js';
import { LocalProtocol, rint } from './fo.js';
import { biasNumerator, levelBit, levelThreshold, PublicGaussian } from './gaussian.js';
import { Spec } from './spec.js';
import { universeSize } from './universe.js';

/** One level: its ε (a double), one value vector per universe index, the public radius. */
export interface GaussianLevel { epsilon: number; vectors: number[][]; radius: number }

/** §3.1: the answer vectors Q(x) of a spec's family, one row per universe index. */
export function answerVectors(spec: Spec): number[][] {
  const k = universeSize(spec.domain);
  if (k === undefined) throw new Error('spec field domain: a Gaussian-sign protocol needs a universe');
  const rows: number[][] = [];
  switch (spec.family) {
    case 'histogram': case 'mode':
      for (let x = 0; x < k; x++) rows.push(Array.from({ length: k }, (_, i) => (i === x ? 1 : 0)));
      return rows;
    case 'cdf':
      for (let x = 0; x < k; x++) rows.push(Array.from({ length: k - 1 }, (_, t) => (x < t + 1 ? 1 : 0)));
      return rows;
    case 'range':
      for (let x = 0; x < k; x++) {
        const r: number[] = [];
        for (let a = 0; a < k; a++) for (let e = a; e < k; e++) r.push(a <= x && x <= e ? 1 : 0);
        rows.push(r);
      }
      return rows;
    case 'marginals': {
      const d = Math.log2(k), way = spec.queries.way!;
      const subsets: number[][] = [];
      const rec = (start: number, cur: number[]) => {
        if (cur.length === way) { subsets.push(cur.slice()); return; }
        for (let j = start; j <= d - (way - cur.length); j++) { cur.push(j); rec(j + 1, cur); cur.pop(); }
      };
      rec(0, []);
      for (let x = 0; x < k; x++) {
        const r: number[] = [];
        for (const s of subsets) {
          for (let cell = 0; cell < 1 << way; cell++) {
            let match = true;
            for (let i = 0; i < way && match; i++) match = ((x >>> s[i]) & 1) === ((cell >>> (way - 1 - i)) & 1);
            r.push(match ? 1 : 0);
          }
        }
        rows.push(r);
      }
      return rows;
    }
    case 'points': {
      const ps = (spec.json.domain as { points: { answer: NumberToken[] }[] }).points;
      return ps.map((p) => p.answer.map((t) => Number(t.text)));
    }
    default: throw new Error('spec field family: ' + spec.family + ' has no answer vectors for a Gaussian-sign protocol');
  }
}

/** §3.1: the canonical squared distance (coordinate i into accumulator i mod 4; (s0 + s1) + (s2 + s3)). */
export function canonicalSquaredDistance(u: readonly number[], v: readonly number[]): number {
  const s = [0, 0, 0, 0];
  for (let i = 0; i < u.length; i++) { const e = u[i] - v[i]; s[i & 3] += e * e; }
  return (s[0] + s[1]) + (s[2] + s[3]);
}

/** One net level: member flags, ascending net indices, and the nearest-net-point map π. */
export interface NetLevel { member: boolean[]; net: number[]; map: number[] }

/** §3.1: the greedy net at separation t (extending `start`'s members when given), with its map. */
export function greedyNet(P: number[][], t: number, start?: NetLevel): NetLevel {
  const n = P.length, m = P[0].length;
  const thr = t * t * m;
  const member = start ? start.member.slice() : new Array<boolean>(n).fill(false);
  const admitted: number[] = start ? start.net.slice() : [];
  for (let x = 0; x < n; x++) {
    if (member[x]) continue;
    if (admitted.every((s) => canonicalSquaredDistance(P[x], P[s]) > thr)) { member[x] = true; admitted.push(x); }
  }
  const net: number[] = [];
  for (let x = 0; x < n; x++) if (member[x]) net.push(x);
  const map = P.map((_, x) => {
    if (member[x]) return x;
    let best = -1, bestD = Infinity;
    for (const s of net) { const d = canonicalSquaredDistance(P[x], P[s]); if (d < bestD) { bestD = d; best = s; } }
    return best;
  });
  return { member, net, map };
}

const rowKey = (v: readonly number[]): string => v.map((x) => (Object.is(x, -0) ? '-0' : String(x))).join(',');
const norm = (v: readonly number[]): number => { let s = 0; for (const x of v) s += x * x; return Math.sqrt(s); };
const maxNorm = (rows: readonly number[][]): number => rows.reduce((mx, r) => Math.max(mx, norm(r)), 0);

/** k = ⌈log(2/α)/log 2 − 10^-12⌉ (fdlibm log). */
export function chainingLevels(alpha: number): number {
  return Math.ceil(strictLog(2.0 / alpha) / strictLog(2.0) - 1e-12);
}

/** The shortest decimal of a positive double as an exact fraction (numerator, power of ten). */
function decimalOf(v: number): { c: bigint; s: number } { return parseDecimal(String(v).includes('e') ? expandExp(String(v)) : String(v)); }
function expandExp(t: string): string {
  const [mant, e] = t.split('e');
  const exp = Number(e);
  const [ip, fp = ''] = mant.split('.');
  const digits = ip + fp;
  const point = ip.length + exp;
  if (point <= 0) return '0.' + '0'.repeat(-point) + digits;
  if (point >= digits.length) return digits + '0'.repeat(point - digits.length);
  return digits.slice(0, point) + '.' + digits.slice(point);
}
/** The exact binary value of a double as a fraction over 2^1074. */
function binaryOf(v: number): bigint {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, v);
  const bits = dv.getBigUint64(0);
  const e = Number((bits >> 52n) & 0x7ffn);
  const f = bits & ((1n << 52n) - 1n);
  return e === 0 ? f : (f | (1n << 52n)) << BigInt(e - 1);
}
function nextDown(v: number): number {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, v);
  dv.setBigUint64(0, dv.getBigUint64(0) - 1n);
  return dv.getFloat64(0);
}

/**
 * §3.1 capSum: lowers every positive share by one ulp at a time (at most 64 rounds) until both the sum of their
 * exact binary values and the sum of their shortest decimals are at most the declared ε.
 */
export function capSum(eps: number[], capText: string): number[] {
  const cap = parseDecimal(capText);
  const fits = (): boolean => {
    let bin = 0n; // over 2^1074
    let dec = { c: 0n, s: 0 };
    for (const v of eps) {
      if (v > 40) return false;
      if (v > 0) {
        bin += binaryOf(v);
        const d = decimalOf(v);
        const s = Math.max(dec.s, d.s);
        dec = { c: dec.c * 10n ** BigInt(s - dec.s) + d.c * 10n ** BigInt(s - d.s), s };
      }
    }
    // bin / 2^1074 <= cap.c / 10^cap.s  and  dec.c / 10^dec.s <= cap.c / 10^cap.s
    const okBin = bin * 10n ** BigInt(cap.s) <= cap.c * (1n << 1074n);
    const s = Math.max(dec.s, cap.s);
    const okDec = dec.c * 10n ** BigInt(s - dec.s) <= cap.c * 10n ** BigInt(s - cap.s);
    return okBin && okDec;
  };
  for (let attempt = 0; attempt < 64; attempt++) {
    if (fits()) return eps;
    for (let j = 0; j < eps.length; j++) if (eps[j] > 0) eps[j] = nextDown(eps[j]);
  }
  throw new Error('could not round the split below the total ' + capText);
}

/**
 * §3.1: the levels of a projection, coarse-projection or chaining spec. A chaining spec with `epsilonSplit: optimal`
 * needs `givenSplit` (the levels' ε from elsewhere, e.g. a served document or a vector file): that split is not yet
 * derivable from the wire format (§18 item 23), and without it the spec is refused.
 */
export function gaussianLevels(spec: Spec, givenSplit?: readonly number[]): GaussianLevel[] {
  const P = answerVectors(spec);
  const m = P[0].length;
  const alphaTok = spec.json.alpha as NumberToken | undefined;
  const alpha = alphaTok === undefined ? undefined : Number(alphaTok.text);
  if (spec.mechanism === 'projection') return [{ epsilon: spec.epsilon, vectors: P, radius: maxNorm(P) }];
  if (alpha === undefined) throw new Error('spec field alpha is required by ' + spec.mechanism);
  if (spec.mechanism === 'coarse-projection') {
    const net = greedyNet(P, alpha / 2);
    if (net.net.length < 2) throw new Error('spec field alpha: too large, every value rounds to the same point');
    const vectors = P.map((_, x) => P[net.map[x]].slice());
    return [{ epsilon: spec.epsilon, vectors, radius: maxNorm(vectors) }];
  }
  if (spec.mechanism !== 'chaining') throw new Error('not a Gaussian-sign mechanism: ' + spec.mechanism);
  const k = chainingLevels(alpha);
  const nets: NetLevel[] = [];
  for (let j = 1; j <= k; j++) nets.push(greedyNet(P, 2 ** -j, j === 1 ? undefined : nets[j - 2]));
  const n = P.length;
  // chain points: x_k = π_k(x), x_j = π_j(x_{j+1})
  const chain: number[][] = Array.from({ length: k }, () => new Array<number>(n));
  for (let x = 0; x < n; x++) {
    let cur = nets[k - 1].map[x];
    chain[k - 1][x] = cur;
    for (let j = k - 1; j >= 1; j--) { cur = nets[j - 1].map[cur]; chain[j - 1][x] = cur; }
  }
  const levelSets: number[][][] = [];
  const components: number[][][] = [];
  for (let j = 1; j <= k; j++) {
    const rowOf = new Map<number, number>();
    const rows: number[][] = [];
    if (j === 1) {
      nets[0].net.forEach((y, i) => { rowOf.set(y, i); rows.push(P[y].slice()); });
    } else {
      const seen = new Map<string, number>();
      for (const y of nets[j - 1].net) {
        const p = nets[j - 2].map[y];
        const v = P[y].map((c, q) => (c - P[p][q]) + 0.0);
        const key = rowKey(v);
        const row = seen.get(key);
        if (row === undefined) { seen.set(key, rows.length); rowOf.set(y, rows.length); rows.push(v); } else rowOf.set(y, row);
      }
    }
    levelSets.push(rows);
    components.push(P.map((_, x) => rows[rowOf.get(chain[j - 1][x])!]));
  }
  const informative: number[] = [];
  const offset = new Array<number>(m).fill(0);
  for (let j = 0; j < k; j++) {
    if (levelSets[j].length > 1) informative.push(j);
    else levelSets[j][0].forEach((c, q) => { offset[q] += c; });
  }
  if (informative.length === 0) throw new Error('spec field alpha: too large, every value has the same chaining decomposition');
  const equal = (): number[] => capSum(new Array<number>(informative.length).fill(spec.epsilon / informative.length), spec.epsilonText!);
  let split: number[];
  if (spec.json.epsilonSplit === 'equal') split = equal();
  else if (givenSplit !== undefined) split = givenSplit.slice();
  else if (spec.protocolVersion >= 2) {
    const levels = informative.map((j) => ({
      radius: maxNorm(levelSets[j]),
      width: levelSets[j].length <= 1 ? 0 : Math.max(0, publicWidth(levelSets[j])),
    }));
    const planned = spec.json.expectedReportsPerWindow === undefined ? 10000 : Number((spec.json.expectedReportsPerWindow as NumberToken).text);
    split = optimalSplit(levels, m, planned, spec.epsilon, spec.epsilonText!);
    if (split.some((e) => !(e > 0))) split = equal();
  } else throw new Error('spec field protocolVersion: chaining/1 with epsilonSplit optimal is not derivable from the wire format (wire-format §18, 23); chaining/2 is');
  const zero = offset.every((v) => v === 0);
  return informative.map((j, i) => {
    let vectors = components[j];
    if (i === 0 && !zero) vectors = vectors.map((v) => v.map((c, q) => c + offset[q]));
    return { epsilon: split[i], vectors, radius: maxNorm(vectors) };
  });
}

/** §3–§5: the Gaussian-sign protocol over given levels. */
export function gaussianSign(mechanism: string, k: number, levels: GaussianLevel[]): LocalProtocol {
  const L = levels.length;
  const m = levels[0].vectors[0].length;
  const B = levels.map((l) => (l.radius > 0 ? biasNumerator(l.epsilon) : 0n));
  const payloadBytes = (L + 7) >>> 3;
  const stateLength = L * m;
  const hex = (v: number): string => {
    const dv = new DataView(new ArrayBuffer(8));
    dv.setFloat64(0, v);
    const bits = dv.getBigUint64(0);
    if (bits === 0n) return '0x0.0p0';
    const e = Number((bits >> 52n) & 0x7ffn) - 1023;
    const f = (bits & ((1n << 52n) - 1n)).toString(16).padStart(13, '0').replace(/0+$/, '');
    return '0x1.' + (f === '' ? '0' : f) + 'p' + e;
  };
  // the protocol's ε: the exact sum of the levels' ε, as the largest double not above it
  const exact = levels.reduce((acc, l) => acc + binaryOf(l.epsilon), 0n);
  let epsilon = levels.reduce((acc, l) => acc + l.epsilon, 0);
  while (binaryOf(epsilon) > exact) epsilon = nextDown(epsilon);
  return {
    mechanism, payloadBytes, stateLength, epsilon,
    derived: { k, mechanism, payloadBytes, stateLength,
      levels: levels.map((l, j) => ({ epsilon: hex(l.epsilon), radius: hex(l.radius), biasNumerator: Number(B[j]) })) },
    randomize(x, base, src) {
      const out = new Uint8Array(payloadBytes);
      levels.forEach((l, j) => {
        const T = levelThreshold(l.vectors[x], l.radius, B[j], () => new PublicGaussian(publicStream(base, j)));
        if (levelBit(T, src)) out[j >>> 3] |= 1 << (j & 7);
      });
      return out;
    },
    accumulate(state, payload, base) {
      if (payload.length !== payloadBytes) return false;
      const used = L - 8 * (payloadBytes - 1);
      if (payload[payloadBytes - 1] >> used !== 0) return false;
      levels.forEach((l, j) => {
        if (!(l.radius > 0)) return;
        const g = new PublicGaussian(publicStream(base, j));
        const plus = ((payload[j >>> 3] >> (j & 7)) & 1) === 1;
        for (let q = 0; q < m; q++) {
          const v = rint(g.next() * 2 ** 32);
          state[j * m + q] += plus ? v : -v;
        }
      });
      return true;
    },
  };
}

/** The protocol of a projection, coarse-projection or chaining spec. */
export function gaussianSignFor(spec: Spec): LocalProtocol {
  return gaussianSign(spec.mechanism, universeSize(spec.domain)!, gaussianLevels(spec));
}


const SQRT_HALF_PI = Math.sqrt(Math.PI / 2);

/** §3.1 (chaining version 2): the Gaussian width of a level set with the public generator on SplitMix64(0x5EED6A55). */
export function publicWidth(rows: readonly number[][]): number {
  const g = new PublicGaussian(new SplitMix64(0x5eed6a55n));
  const m = rows[0].length;
  let sum = 0;
  for (let t = 0; t < 400; t++) {
    const z: number[] = [];
    for (let q = 0; q < m; q++) z.push(g.next());
    let mx = -Infinity;
    for (const r of rows) { let d = 0; for (let q = 0; q < m; q++) d += r[q] * z[q]; mx = Math.max(mx, d); }
    sum += mx;
  }
  return sum / 400;
}

interface SplitLevel { radius: number; width: number }
const trivial = (l: SplitLevel): boolean => l.radius === 0 || l.width === 0;
const tanhHalf = (eps: number): number => { const t = strictExp(-eps); return (1 - t) / (1 + t); };

function levelError(l: SplitLevel, m: number, n: number, eps: number): number {
  if (trivial(l)) return 0;
  if (eps === 0) return Infinity;
  const sigma = (l.radius * SQRT_HALF_PI) / (tanhHalf(eps) * Math.sqrt(n));
  return Math.sqrt(Math.min(sigma * sigma, (sigma * l.width) / m));
}
function predictedError(levels: SplitLevel[], m: number, n: number, eps: readonly number[]): number {
  let sum = 0;
  for (let j = 0; j < eps.length; j++) sum += levelError(levels[j], m, n, eps[j]);
  return sum;
}
function quarticDelta(kk: number): number {
  if (!(kk > 0)) return 0;
  let delta = Math.max(1.0, strictExp(strictLog(kk) / 3));
  for (let it = 0; it < 200; it++) {
    const f = delta * (4 + delta * (6 + delta * (4 + delta))) - kk * (1 + delta);
    const v = 1 + delta;
    const fp = 4 * v * v * v - kk;
    const next = delta - f / fp;
    if (!(next < delta) || next <= 0) {
      if (next <= 0) return kk / 4;
      break;
    }
    delta = next;
  }
  return delta;
}

/** §3.1 (chaining version 2): the ε split minimising the predicted error (LevelEpsilonSplit.optimal, version 2). */
export function optimalSplit(levels: SplitLevel[], m: number, n: number, total: number, totalText: string): number[] {
  const k = levels.length;
  const active: number[] = [];
  levels.forEach((l, j) => { if (!trivial(l)) active.push(j); });
  if (active.length === 0) return new Array<number>(k).fill(0);
  const q = active.length;
  const c = active.map((j) => (levels[j].radius * SQRT_HALF_PI) / Math.sqrt(n));
  const a = active.map((j) => levels[j].width / m);
  const ambiguous = c.map((ci, i) => ci < a[i]);
  const ambiguousIdx: number[] = [];
  ambiguous.forEach((b, i) => { if (b) ambiguousIdx.push(i); });
  const epsilonAt = (i: number, branchA: boolean, lambda: number): number => {
    let wMinus1: number;
    if (branchA) {
      const r = (2 * lambda) / c[i];
      wMinus1 = r / (Math.sqrt(1 + r) + 1);
    } else {
      const kk = (4 * lambda) / Math.sqrt(a[i] * c[i]);
      const delta = quarticDelta(kk);
      wMinus1 = delta * (2 + delta);
    }
    return strictLog(1 + 2 / wMinus1);
  };
  const solve = (branchA: boolean[]): { eps: number[]; error: number } => {
    let lo = -745, hi = 709;
    for (let it = 0; it < 200 && hi - lo > 1e-13 * Math.max(1, Math.abs(lo)); it++) {
      const mid = 0.5 * (lo + hi);
      const lambda = strictExp(mid);
      let s = 0;
      for (let i = 0; i < q; i++) s += epsilonAt(i, branchA[i], lambda);
      if (s > total) lo = mid; else hi = mid;
    }
    const lambda = strictExp(0.5 * (lo + hi));
    const epsActive: number[] = [];
    let s = 0;
    for (let i = 0; i < q; i++) { epsActive[i] = epsilonAt(i, branchA[i], lambda); s += epsActive[i]; }
    let eps = new Array<number>(k).fill(0);
    for (let i = 0; i < q; i++) eps[active[i]] = epsActive[i] * (total / s);
    eps = capSum(eps, totalText);
    return { eps, error: predictedError(levels, m, n, eps) };
  };
  let best: { eps: number[]; error: number } | undefined;
  const amb = ambiguousIdx.length;
  if (amb <= 12) {
    for (let mask = 0; mask < 1 << amb; mask++) {
      const branchA = new Array<boolean>(q).fill(false);
      for (let b = 0; b < amb; b++) branchA[ambiguousIdx[b]] = ((mask >> b) & 1) === 1;
      const cand = solve(branchA);
      if (best === undefined || cand.error < best.error) best = cand;
    }
  } else {
    const starts = [
      c.map((ci, i) => ambiguous[i] && ci / tanhHalf(total / q) < a[i]),
      ambiguous.slice(),
      new Array<boolean>(q).fill(false),
    ];
    for (const start of starts) {
      const branch = start.slice();
      let cur = solve(branch);
      let improved = true;
      while (improved) {
        improved = false;
        for (const i of ambiguousIdx) {
          branch[i] = !branch[i];
          const cand = solve(branch);
          if (cand.error < cur.error) { cur = cand; improved = true; } else branch[i] = !branch[i];
        }
      }
      if (best === undefined || cur.error < best.error) best = cur;
    }
  }
  let eq = new Array<number>(k).fill(0);
  for (const j of active) eq[j] = total / q;
  eq = capSum(eq, totalText);
  const eqError = predictedError(levels, m, n, eq);
  return eqError < best!.error ? eq : best!.eps;
}
