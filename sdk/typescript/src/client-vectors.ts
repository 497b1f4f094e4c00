/**
 * Vector-mean protocols for the client (`VectorProtocol`, wire-format §10) given the parameters the gateway chose:
 * the ball's candidate count `N = 2^t` and top-set size `s` (§10.1), the box's sampled coordinates `k` (§10.5).
 * The canonical spec does not carry them (wire-format §18, item 24); the Java reference derives them with
 * `BallCandidates.optimalParameters` and `BoxCoordinates.best`.
 */
import { Domain, Spec } from './spec.js';
import { parseVector } from './universe.js';
import { ballAccumulate, ballRandomize } from './ball.js';
import { boxAccumulate, boxRandomize, scalarOutputs } from './box.js';
import { VectorProtocol } from './client.js';
import { WordSource } from './words.js';

const NORM_SLACK = 1e-12;

/**
 * Why a vector is not in a ball or box domain (undefined when it is), the rule of docs/sdk.md "Vector values" (the
 * Java VectorValues): the length is the number of coordinates; every coordinate is a finite number; in a box,
 * `lo <= x_q <= hi`; in a ball, `sqrt(Σ x_q²) <= r·(1 + 10^-12)` (the plain sum of squares in index order) and
 * `ρ <= 1 + 10^-12` (wire-format §10.2, step 1). The message names the rule and the coordinate's position, never a
 * value.
 */
export function vectorRefusal(d: Domain, x: readonly number[]): string | undefined {
  if (d.kind !== 'ball' && d.kind !== 'box') return 'the workload does not take vectors';
  const n = d.coordinates.length;
  if (!Array.isArray(x) || x.length !== n) return 'a vector of ' + n + ' coordinates is expected';
  let sq = 0;
  for (let q = 0; q < n; q++) {
    const v = x[q];
    if (typeof v !== 'number' || !Number.isFinite(v)) return 'coordinate ' + (q + 1) + ' (' + d.coordinates[q] + ') is not a finite number';
    if (d.kind === 'box' && (v < d.lo || v > d.hi)) return 'coordinate ' + (q + 1) + ' (' + d.coordinates[q] + ') is outside [' + d.lo + ', ' + d.hi + ']';
    sq += v * v;
  }
  if (d.kind === 'ball') {
    const r = d.radius;
    let m = 0;
    for (const v of x) m = Math.max(m, Math.abs(v / r));
    let rho = m;
    if (m !== 0 && Number.isFinite(m)) { let s = 0; for (const v of x) { const u = v / r / m; s += u * u; } rho = m * Math.sqrt(s); }
    if (Math.sqrt(sq) > r * (1 + NORM_SLACK) || !(rho <= 1 + NORM_SLACK)) return 'the vector is outside the ball of radius ' + r;
  }
  return undefined;
}

const noUniverse = (): never => { throw new Error('a vector-mean protocol takes vectors (randomizeVector)'); };

/** `privunit-g` over the spec's ball with `N` candidates and top set `s`. */
export function ballProtocol(spec: Spec, params: { candidates: number; s: number }): VectorProtocol {
  const d = spec.domain;
  if (d.kind !== 'ball' || spec.mechanism !== 'privunit-g') throw new Error('spec field domain: ballProtocol needs a ball and privunit-g');
  const { candidates: N, s } = params;
  if (!(Number.isInteger(Math.log2(N)) && N >= 2 && N <= 256 && Number.isInteger(s) && s >= 1 && s <= N / 2))
    throw new Error('ball parameters: candidates must be 2^t (t in 1..8) and s in [1, N/2]');
  const p = { d: d.coordinates.length, radius: d.radius, candidates: N, s };
  return {
    mechanism: spec.mechanism, payloadBytes: 1, stateLength: p.d, derived: { candidates: N, s },
    randomize: noUniverse,
    parseVector: (raw) => parseVector(raw, p.d),
    vectorRefusal: (x) => vectorRefusal(d, x),
    randomizeVector(x: readonly number[], base: bigint, secret: WordSource): Uint8Array {
      const r = ballRandomize(x, base, p, spec.epsilon, secret);
      if (!r) throw new Error('the vector is outside the ball');
      return r.payload;
    },
    accumulate(state: number[], payload: Uint8Array, base: bigint): boolean {
      const big = state.map((v) => BigInt(v));
      if (!ballAccumulate(big, payload, base, p)) return false;
      big.forEach((v, k) => { state[k] = Number(v); });
      return true;
    },
  };
}

/** duchi, piecewise or hybrid over the spec's box, `k` coordinates sampled per report. */
export function boxProtocol(spec: Spec, params: { k: number }): VectorProtocol {
  const d = spec.domain;
  const m = spec.mechanism;
  if (d.kind !== 'box' || (m !== 'duchi' && m !== 'piecewise' && m !== 'hybrid')) throw new Error('spec field domain: boxProtocol needs a box and duchi, piecewise or hybrid');
  const n = d.coordinates.length;
  if (!(Number.isInteger(params.k) && params.k >= 1 && params.k <= Math.min(n, 16))) throw new Error('box parameter k must be in [1, min(d, 16)]');
  const p = { d: n, lo: d.lo, hi: d.hi, levels: d.levels, mechanism: m, k: params.k } as const;
  return {
    mechanism: m, payloadBytes: 2 * p.k, stateLength: n * scalarOutputs(m), derived: { k: p.k },
    randomize: noUniverse,
    parseVector: (raw) => parseVector(raw, n),
    vectorRefusal: (x) => vectorRefusal(d, x),
    randomizeVector(x: readonly number[], base: bigint, secret: WordSource): Uint8Array {
      // String(v) round-trips a double exactly, so the level is §7.1's of v itself
      const r = boxRandomize(x.map(String), base, p, spec.epsilonText!, secret);
      if (!r) throw new Error('the vector is outside the box');
      return r.payload;
    },
    accumulate: (state: number[], payload: Uint8Array, base: bigint) => boxAccumulate(state, payload, base, p),
  };
}
