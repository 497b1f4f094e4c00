/**
 * Workload-factorization reports, `pgw-wfm-v1..v3`: mechanism `factorization` (wire-format §8). The strategy is
 * derived from the spec by the optimiser of §8.1, every step an IEEE-754 double operation in the order written there.
 */
import { uniformInt } from './draws.js';
import { GOLDEN, mix64 } from './coins.js';
import { lowerBoundL } from './exact.js';
import { strictExp } from './fdlibm.js';
import { LocalProtocol } from './fo.js';
import { MASK64 } from './words.js';

const ITERATIONS = 300;
const SEARCH_ITERATIONS = 40;
const MAX_HALVINGS = 40;
const GRID_BITS = 30;
const ONE = 2 ** GRID_BITS;
const K_MULTIPLIERS = [1, 1.5, 2, 3, 4];

/** §8.1: Java's SplittableRandom(seed).nextDouble(): (SplitMix64 output >>> 11)·2^-53. */
function uniformDoubles(seed: bigint): () => number {
  let state = seed & MASK64;
  return () => {
    state = (state + GOLDEN) & MASK64;
    return Number(mix64(state) >> 11n) * 2 ** -53;
  };
}

/** §8.1: G = WᵀW over the answer vectors (per query in order, its non-zero entries in increasing x). */
export function gramOf(answers: readonly number[][]): number[][] {
  const k = answers.length, m = answers[0].length;
  const g = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (let c = 0; c < m; c++) {
    const nz: number[] = [], val: number[] = [];
    for (let x = 0; x < k; x++) if (answers[x][c] !== 0) { nz.push(x); val.push(answers[x][c]); }
    for (let i = 0; i < nz.length; i++) for (let j = 0; j < nz.length; j++) g[nz[i]][nz[j]] += val[i] * val[j];
  }
  return g;
}

/** §8.1: the inverse of a symmetric positive definite matrix by Cholesky, or undefined if a pivot is not > 0. */
function inverseSpd(a: number[][]): number[][] | undefined {
  const n = a.length;
  const l = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i][j];
      for (let k = 0; k < j; k++) s -= l[i][k] * l[j][k];
      if (i === j) {
        if (!(s > 0)) return undefined;
        l[i][i] = Math.sqrt(s);
      } else l[i][j] = s / l[j][j];
    }
  }
  const li = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    li[i][i] = 1 / l[i][i];
    for (let j = 0; j < i; j++) {
      let s = 0;
      for (let k = j; k < i; k++) s -= l[i][k] * li[k][j];
      li[i][j] = s / l[i][i];
    }
  }
  const out = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = 0;
      for (let k = Math.max(i, j); k < n; k++) s += li[k][i] * li[k][j];
      out[i][j] = s;
      out[j][i] = s;
    }
  }
  return out;
}

/** §8.1: C = A·B, C[i][j] accumulated over k in increasing order, skipping the k with A[i][k] = 0. */
function multiply(a: number[][], b: number[][]): number[][] {
  const n = a.length, m = b[0].length, inner = b.length;
  const c = Array.from({ length: n }, () => new Array<number>(m).fill(0));
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < inner; k++) {
      const v = a[i][k];
      if (v === 0) continue;
      for (let j = 0; j < m; j++) c[i][j] += v * b[k][j];
    }
  }
  return c;
}

class Optimizer {
  readonly n: number;
  readonly e: number;
  constructor(readonly gram: number[][], epsilon: number, readonly p: number, readonly k: number) {
    this.n = gram.length;
    this.e = strictExp(epsilon);
  }

  strategy(s: number[][]): number[][] {
    const z = this.p + (this.e - 1) * this.k;
    return s.map((r) => r.map((v) => (1 + (this.e - 1) * v) / z));
  }

  project(s: number[][]): void {
    const { n, p, k } = this;
    for (let i = 0; i < n; i++) {
      let lo = Infinity, hi = -Infinity;
      for (let o = 0; o < p; o++) { lo = Math.min(lo, s[o][i] - 1); hi = Math.max(hi, s[o][i]); }
      for (let it = 0; it < 100; it++) {
        const t = (lo + hi) / 2;
        let sum = 0;
        for (let o = 0; o < p; o++) sum += Math.min(1, Math.max(0, s[o][i] - t));
        if (sum > k) lo = t; else hi = t;
      }
      const t = (lo + hi) / 2;
      for (let o = 0; o < p; o++) s[o][i] = Math.min(1, Math.max(0, s[o][i] - t));
    }
  }

  loss(s: number[][], grad?: number[][]): number {
    return this.lossOf(this.strategy(s), grad, (this.e - 1) / (this.p + (this.e - 1) * this.k));
  }

  lossOf(q: number[][], grad?: number[][], chain = 0): number {
    const n = this.n, rows = q.length;
    const d = q.map((r) => { let t = 0; for (let i = 0; i < n; i++) t += r[i]; return t; });
    const m = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    for (let o = 0; o < rows; o++) {
      const r = q[o];
      const w = 1 / d[o];
      for (let i = 0; i < n; i++) {
        const v = r[i] * w;
        for (let j = 0; j < n; j++) m[i][j] += v * r[j];
      }
    }
    const mi = inverseSpd(m);
    if (mi === undefined) return Infinity;
    let loss = 0;
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) loss += mi[i][j] * this.gram[j][i];
    if (grad !== undefined) {
      const a = multiply(multiply(mi, this.gram), mi);
      const b = multiply(q, a);
      for (let o = 0; o < rows; o++) {
        let c = 0;
        for (let j = 0; j < n; j++) c += b[o][j] * q[o][j];
        c /= d[o] * d[o];
        for (let i = 0; i < n; i++) grad[o][i] = ((-2 * b[o][i]) / d[o] + c) * chain;
      }
    }
    return loss;
  }

  optimise(iterations: number, seed: bigint): number[][] {
    const { n, p } = this;
    const rnd = uniformDoubles(seed);
    let s = Array.from({ length: p }, () => Array.from({ length: n }, () => rnd()));
    this.project(s);
    const g = Array.from({ length: p }, () => new Array<number>(n).fill(0));
    let loss = this.loss(s, g);
    let step = 1e-3;
    let next = Array.from({ length: p }, () => new Array<number>(n).fill(0));
    for (let it = 0; it < iterations; it++) {
      let trial: number;
      for (let halvings = 0; ; halvings++) {
        for (let o = 0; o < p; o++) for (let i = 0; i < n; i++) next[o][i] = s[o][i] - step * g[o][i];
        this.project(next);
        trial = this.loss(next);
        if (trial < loss || halvings === MAX_HALVINGS) break;
        step /= 2;
      }
      if (!(trial < loss)) break;
      const t = s; s = next; next = t;
      loss = this.loss(s, g);
      step *= 1.5;
    }
    return s;
  }
}

/** §8.1 rounding of the strategy at mixing λ to integer weights w[o][x], every column summing to 2^30. */
function round(q: number[][], lambda: number): number[][] {
  const outputs = q.length, values = q[0].length;
  const w = Array.from({ length: outputs }, () => new Array<number>(values).fill(0));
  for (let x = 0; x < values; x++) {
    const frac = new Array<number>(outputs);
    let sum = 0;
    for (let o = 0; o < outputs; o++) {
      const v = ((1 - lambda) * q[o][x] + lambda / outputs) * ONE;
      const f = Math.floor(v);
      w[o][x] = f;
      frac[o] = v - f;
      sum += f;
    }
    let left = ONE - sum;
    if (left < 0 || left > outputs) throw new Error('factorization: the strategy column ' + x + ' does not sum to 1');
    while (left > 0) {
      let best = 0;
      for (let o = 1; o < outputs; o++) if (frac[o] > frac[best]) best = o;
      w[best][x]++;
      frac[best] = -1;
      left--;
    }
  }
  return w;
}

/** Every row: min > 0 and max <= L·min exactly (L the certified lower bound of e^ε, §13.3). */
function passes(w: number[][], eps: number): boolean {
  const L = lowerBoundL(eps);
  const scale = 10n ** BigInt(L.s);
  return w.every((row) => {
    let min = Infinity, max = -Infinity;
    for (const v of row) { min = Math.min(min, v); max = Math.max(max, v); }
    return min > 0 && BigInt(max) * scale <= L.c * BigInt(min);
  });
}

/** §8.1: the integer strategy w[o][x] (p = 4k outputs) of a workload's answer vectors at ε, protocol version 1–3. */
export function factorizationWeights(answers: readonly number[][], eps: number, version: number): { weights: number[][]; lambda: number } {
  const k = answers.length;
  if (k < 2 || k > 128) throw new RangeError('spec field domain: factorization takes 2 to 128 buckets');
  const p = 4 * k;
  const design = version >= 3 && eps > 6 ? 6 : eps;
  const gram = gramOf(answers);
  const seed = 7n;
  const base = p / (strictExp(design) + 1);
  let best = new Optimizer(gram, design, p, base);
  if (version >= 2) {
    let bestLoss = best.loss(best.optimise(SEARCH_ITERATIONS, seed));
    for (let i = 1; i < K_MULTIPLIERS.length; i++) {
      const kk = K_MULTIPLIERS[i] * base;
      if (!(kk < p)) break;
      const trial = new Optimizer(gram, design, p, kk);
      const loss = trial.loss(trial.optimise(SEARCH_ITERATIONS, seed));
      if (!(loss < bestLoss)) break;
      best = trial;
      bestLoss = loss;
    }
  }
  const q = best.strategy(best.optimise(ITERATIONS, seed));
  let lambda = 0;
  let w = round(q, 0);
  for (let j = -20; !passes(w, design); j++) {
    if (j > 0) throw new Error('spec field epsilonPerReport: no rounding of the factorization strategy passed the ratio check');
    lambda = 2 ** j;
    w = round(q, lambda);
  }
  return { weights: w, lambda };
}

/** The factorization protocol (§8.2): one uniformInt(2^30), the output whose cumulative interval holds it. */
export function factorization(answers: readonly number[][], eps: number, version: number): LocalProtocol {
  const k = answers.length, p = 4 * k;
  const { weights } = factorizationWeights(answers, eps, version);
  const cumulative = Array.from({ length: k }, (_, x) => { let c = 0; return weights.map((row) => (c += row[x])); });
  return {
    mechanism: 'factorization', payloadBytes: 2, stateLength: p,
    derived: { k, mechanism: 'factorization', payloadBytes: 2, stateLength: p },
    randomize(x, _base, src) {
      const u = uniformInt(src, ONE);
      const c = cumulative[x];
      let o = 0;
      while (c[o] <= u) o++;
      return new Uint8Array([o >> 8, o & 0xff]);
    },
    accumulate(state, payload) {
      if (payload.length !== 2) return false;
      const o = payload[0] * 256 + payload[1];
      if (o >= p) return false;
      state[o]++;
      return true;
    },
  };
}
