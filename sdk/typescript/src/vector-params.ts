/**
 * Vector means from a spec (wire-format §10.1 and §10.5): the ball's (t, s) and the box's k, and the vector-mean
 * protocols built from them. Every variance below is IEEE-754 double arithmetic evaluated as written, left to
 * right; `exp` is fdlibm's.
 */
import { TWO53 } from './draws.js';
import { decRat, epsilonOf, lowerBoundL, mulRat, numerator, rat } from './exact.js';
import { strictExp } from './fdlibm.js';
import { LocalProtocol } from './fo.js';
import { ballAccumulate, ballRandomize } from './ball.js';
import { boxAccumulate, boxEpsilonText, boxRandomize, scalarOutputs } from './box.js';
import { HYBRID_EPSILON_STAR } from './mean.js';
import { parseVector } from './universe.js';
import { ORDER_STATISTICS_HEX } from './vector-tables.js';

/** A later choice replaces the best only when smaller than best·(1 − 10^-9) (§10.1, §10.5). */
const clearlyBelow = (v: number, best: number): boolean => v < best * (1 - 1e-9);

let prefixes: { A: number[]; B: number[] }[] | undefined;
/** The prefix sums A_s = Σ_{r≤s} a_r, B_s = Σ_{r≤s} b_r (from 0.0, in order) for M = 2^0..2^7. */
function orderPrefixes(): { A: number[]; B: number[] }[] {
  if (prefixes) return prefixes;
  const dv = new DataView(new ArrayBuffer(8));
  const word = (i: number): number => { dv.setBigUint64(0, BigInt('0x' + ORDER_STATISTICS_HEX.substr(16 * i, 16))); return dv.getFloat64(0); };
  const out: { A: number[]; B: number[] }[] = [];
  let at = 0;
  for (let M = 1; M <= 128; M *= 2) {
    const A = [0], B = [0];
    for (let r = 0; r < M; r++) A.push(A[r] + word(at + r));
    for (let r = 0; r < M; r++) B.push(B[r] + word(at + M + r));
    at += 2 * M;
    out.push({ A, B });
  }
  return (prefixes = out);
}

/** §10.1: the ball's (t, s) for dimension d at ε (the double of §13.1). */
export function ballParameters(d: number, eps: number): { t: number; s: number } {
  if (!(Number.isInteger(d) && d >= 1 && d <= 256)) throw new RangeError('spec field domain.ball.coordinates: 1 to 256');
  const e = strictExp(eps);
  let bestT = 1, bestS = 1, best = Infinity;
  const pre = orderPrefixes();
  for (let t = 1; t <= 8; t++) {
    const n = 2 ** t, m = n / 2;
    if (m * d > 65536) break;
    const { A, B } = pre[t - 1];
    for (let s = 1; s <= m; s++) {
      const den = e * s + n - s;
      const inside = e / den;
      const outside = 1 / den;
      const kappa = (inside - outside) * A[s];
      const g = inside * B[s] + outside * (n - B[s]);
      const v = (d - 1 + g) / (kappa * kappa);
      if (clearlyBelow(v, best)) { best = v; bestT = t; bestS = s; }
    }
  }
  return { t: bestT, s: bestS };
}

type Scalar = 'duchi' | 'piecewise' | 'hybrid';
const CELLS = 1024;

/** §10.5: the worst per-report variance of one coordinate, in doubles; +∞ when the scalar is not realisable at ε_k. */
export function scalarWorstVariance(mech: Scalar, levels: number, epsK: number): number {
  const L = lowerBoundL(epsK);
  const l = levels - 1;
  let duchiVar: ((x: number) => number) | undefined;
  let pieceVar: ((x: number) => number) | undefined;
  if (mech !== 'piecewise') {
    const N1 = numerator(decRat(L), rat(1n));
    let dd = N1 - TWO53 / 2n;
    dd -= dd % BigInt(l);
    if (dd <= 0n) return Infinity;
    const g = (2.0 * Number(dd)) / 2 ** 53;
    duchiVar = (x) => { const t = (2.0 * x) / l - 1; return 1 / (g * g) - t * t; };
  }
  if (mech !== 'duchi') {
    const half = strictExp(epsK / 2);
    const window = Math.max(1, Math.min(CELLS - 1, Math.round(CELLS / (half + 1))));
    const rest = CELLS - window;
    const N = numerator(mulRat(decRat(L), rat(BigInt(window))), rat(BigInt(rest)));
    const p = Number(N) / 2 ** 53;
    const a = p / window;
    const b = (1 - p) / rest;
    if (!(a > b)) return Infinity;
    const dd = (a - b) * window;
    const offset = (b * CELLS * (CELLS - 1.0)) / 2 + ((a - b) * window * (window - 1.0)) / 2;
    const slope = dd * rest;
    const sumSquares = (n: number): number => ((n - 1.0) * n * (2.0 * n - 1)) / 6;
    const first = (s: number): number => offset + (a - b) * window * s;
    const second = (s: number): number => b * sumSquares(CELLS) + (a - b) * (sumSquares(s + window) - sumSquares(s));
    pieceVar = (x) => {
      const xr = x * rest; // below 2^26: exact
      const s0 = Math.floor(xr / l);
      const up = (BigInt(xr % l) * TWO53) / BigInt(l);
      const f = Number(up) / 2 ** 53;
      const m1 = (1 - f) * first(s0) + f * first(s0 + 1);
      const m2 = (1 - f) * second(s0) + f * second(s0 + 1);
      const varJ = Math.max(0, m2 - m1 * m1);
      const scale = 2 / slope;
      return varJ * scale * scale;
    };
  }
  let variance: (x: number) => number;
  if (mech === 'duchi') variance = duchiVar!;
  else if (mech === 'piecewise') variance = pieceVar!;
  else {
    const bd = epsK > HYBRID_EPSILON_STAR ? 1 - strictExp(-epsK / 2) : 0;
    const beta = Math.floor(bd * 2 ** 53) / 2 ** 53;
    variance = (x) => beta * pieceVar!(x) + (1 - beta) * duchiVar!(x);
  }
  let v = 0;
  for (let x = 0; x < levels; x++) v = Math.max(v, variance(x));
  return v;
}

/** §10.5: the box's k ∈ 1..min(d, 16) (the declared ε as its decimal text). */
export function boxSampled(d: number, levels: number, mech: Scalar, epsilonText: string): number {
  let bestK = 0, best = Infinity;
  for (let k = 1; k <= Math.min(d, 16); k++) {
    const worst = scalarWorstVariance(mech, levels, epsilonOf(boxEpsilonText(epsilonText, k)));
    const ratio = d / k;
    const v = ratio * worst + ratio - 1;
    if (bestK === 0 || clearlyBelow(v, best)) { best = v; bestK = k; }
  }
  if (!Number.isFinite(best)) throw new RangeError('spec field epsilonPerReport: too small for the ' + mech + ' randomizer with ' + levels + ' levels');
  return bestK;
}

/** The protocol of a ball spec (privunit-g): raw values are vectors (§14). */
export function ballProtocol(d: number, radius: number, eps: number): LocalProtocol {
  const { t, s } = ballParameters(d, eps);
  const p = { d, radius, candidates: 2 ** t, s };
  return {
    mechanism: 'privunit-g', payloadBytes: 1, stateLength: d,
    derived: { mechanism: 'privunit-g', payloadBytes: 1, stateLength: d, candidateBits: t, topSize: s },
    randomize() { throw new Error('vector means take the raw vector: randomizeRaw'); },
    randomizeRaw(raw, base, src) {
      const x = parseVector(raw, d);
      return x === undefined ? undefined : ballRandomize(x, base, p, eps, src)?.payload;
    },
    accumulate(state, payload, base) {
      const big = state.map(BigInt);
      if (!ballAccumulate(big, payload, base, p)) return false;
      big.forEach((v, k) => { state[k] = Number(v); });
      return true;
    },
  };
}

/** The protocol of a box spec (duchi, piecewise, hybrid per sampled coordinate). */
export function boxProtocol(d: number, lo: number, hi: number, levels: number, mech: Scalar, epsilonText: string): LocalProtocol {
  const k = boxSampled(d, levels, mech, epsilonText);
  const p = { d, lo, hi, levels, mechanism: mech, k };
  const stateLength = d * scalarOutputs(mech);
  return {
    mechanism: mech, payloadBytes: 2 * k, stateLength,
    derived: { mechanism: mech, payloadBytes: 2 * k, stateLength, sampled: k },
    randomize() { throw new Error('vector means take the raw vector: randomizeRaw'); },
    randomizeRaw(raw, base, src) {
      const x = parseVector(raw, d);
      return x === undefined ? undefined : boxRandomize(x.map(String), base, p, epsilonText, src)?.payload;
    },
    accumulate(state, payload, base) { return boxAccumulate(state, payload, base, p); },
  };
}
