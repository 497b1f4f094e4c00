/**
 * Vector-mean protocols for the client (`VectorProtocol`, wire-format §10) given the parameters the gateway chose:
 * the ball's candidate count `N = 2^t` and top-set size `s` (§10.1), the box's sampled coordinates `k` (§10.5).
 * The canonical spec does not carry them (wire-format §18, item 24); the Java reference derives them with
 * `BallCandidates.optimalParameters` and `BoxCoordinates.best`.
 */
import { Spec } from './spec.js';
import { ballAccumulate, ballRandomize } from './ball.js';
import { boxAccumulate, boxRandomize, scalarOutputs } from './box.js';
import { VectorProtocol } from './client.js';
import { WordSource } from './words.js';

const noUniverse = (): never => { throw new Error('a vector-mean protocol takes vectors (randomizeVector)'); };

/**
 * The vector protocol of a ball or box spec with explicit parameters: `{candidates, s}` (ball, `privunit-g`) or
 * `{k}` (box: duchi, piecewise, hybrid). Throws naming the field when they do not fit the spec.
 */
export function vectorProtocolWith(spec: Spec, params: { candidates: number; s: number } | { k: number }): VectorProtocol {
  return 'k' in params ? boxWith(spec, params) : ballWith(spec, params);
}

/** `privunit-g` over the spec's ball with `N` candidates and top set `s`. */
function ballWith(spec: Spec, params: { candidates: number; s: number }): VectorProtocol {
  const d = spec.domain;
  if (d.kind !== 'ball' || spec.mechanism !== 'privunit-g') throw new Error('spec field domain: ballProtocol needs a ball and privunit-g');
  const { candidates: N, s } = params;
  if (!(Number.isInteger(Math.log2(N)) && N >= 2 && N <= 256 && Number.isInteger(s) && s >= 1 && s <= N / 2))
    throw new Error('ball parameters: candidates must be 2^t (t in 1..8) and s in [1, N/2]');
  const p = { d: d.coordinates.length, radius: d.radius, candidates: N, s };
  return {
    mechanism: spec.mechanism, payloadBytes: 1, stateLength: p.d, derived: { candidates: N, s },
    randomize: noUniverse,
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
function boxWith(spec: Spec, params: { k: number }): VectorProtocol {
  const d = spec.domain;
  const m = spec.mechanism;
  if (d.kind !== 'box' || (m !== 'duchi' && m !== 'piecewise' && m !== 'hybrid')) throw new Error('spec field domain: boxProtocol needs a box and duchi, piecewise or hybrid');
  const n = d.coordinates.length;
  if (!(Number.isInteger(params.k) && params.k >= 1 && params.k <= Math.min(n, 16))) throw new Error('box parameter k must be in [1, min(d, 16)]');
  const p = { d: n, lo: d.lo, hi: d.hi, levels: d.levels, mechanism: m, k: params.k } as const;
  return {
    mechanism: m, payloadBytes: 2 * p.k, stateLength: n * scalarOutputs(m), derived: { k: p.k },
    randomize: noUniverse,
    randomizeVector(x: readonly number[], base: bigint, secret: WordSource): Uint8Array {
      // String(v) round-trips a double exactly, so the level is §7.1's of v itself
      const r = boxRandomize(x.map(String), base, p, spec.epsilonText!, secret);
      if (!r) throw new Error('the vector is outside the box');
      return r.payload;
    },
    accumulate: (state: number[], payload: Uint8Array, base: bigint) => boxAccumulate(state, payload, base, p),
  };
}
