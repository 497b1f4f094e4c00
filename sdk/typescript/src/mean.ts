/** Mean reports, `pgw-mean-v1`: duchi, piecewise, hybrid over a range domain (wire-format §7). */
import { bernoulli, uniformInt, TWO53 } from './draws.js';
import { Decimal, decRat, lowerBoundL, mulRat, numerator, rat } from './exact.js';
import { strictExp } from './fdlibm.js';
import { LocalProtocol } from './fo.js';

const M = 1024;

/**
 * Hybrid's threshold ε* ≈ 0.61 (Wang et al. 2019), pinned as the double wire-format §7.2 gives:
 * `0x1.37fd0cca93a43p-1` (the reference's StrictMath value of
 * ln((−5 + 2·∛(6353 − 405√241) + 2·∛(6353 + 405√241)) / 27)).
 */
export const HYBRID_EPSILON_STAR = 0x137fd0cca93a43 / 2 ** 53;

export interface MeanParams { levels: number; s: bigint; w: number; R: number; N: bigint; beta: bigint }

export function meanParams(levels: number, eps: number, L: Decimal = lowerBoundL(eps)): MeanParams {
  const Lv = levels - 1;
  const N1 = numerator(decRat(L), rat(1n));
  const s = (N1 - TWO53 / 2n) / BigInt(Lv);
  const w = Math.min(M - 1, Math.max(1, Math.round(M / (strictExp(eps / 2) + 1))));
  const R = M - w;
  const N = numerator(mulRat(decRat(L), rat(BigInt(w))), rat(BigInt(R)));
  const beta = eps > HYBRID_EPSILON_STAR ? BigInt(Math.floor((1 - strictExp(-eps / 2)) * 2 ** 53)) : 0n;
  return { levels, s, w, R, N, beta };
}

function duchiDraw(p: MeanParams, x: number, src: Parameters<LocalProtocol['randomize']>[2]): number {
  const Lv = BigInt(p.levels - 1);
  return bernoulli(src, TWO53 / 2n + (2n * BigInt(x) - Lv) * p.s) ? 1 : 0;
}

function piecewiseDraws(p: MeanParams, x: number, src: Parameters<LocalProtocol['randomize']>[2]): number {
  const Lv = BigInt(p.levels - 1);
  const xr = BigInt(x) * BigInt(p.R);
  const up = ((xr % Lv) * TWO53) / Lv;
  const start = Number(xr / Lv) + (bernoulli(src, up) ? 1 : 0);
  const inside = bernoulli(src, p.N);
  const u = uniformInt(src, p.w);
  const v = uniformInt(src, p.R);
  return inside ? start + u : v < start ? v : v + p.w;
}

/** One scalar report's symbol (§7.2), every draw always made. */
export function scalarSymbol(mechanism: 'duchi' | 'piecewise' | 'hybrid', p: MeanParams, x: number, src: Parameters<LocalProtocol['randomize']>[2]): number {
  if (mechanism === 'duchi') return duchiDraw(p, x, src);
  if (mechanism === 'piecewise') return piecewiseDraws(p, x, src);
  const pw = bernoulli(src, p.beta);
  const d = duchiDraw(p, x, src);
  const pc = piecewiseDraws(p, x, src);
  return pw ? pc : M + d;
}

/** The number of outputs of a scalar mechanism (§7.2). */
export const scalarOutputs = (m: 'duchi' | 'piecewise' | 'hybrid') => (m === 'duchi' ? 2 : m === 'piecewise' ? M : M + 2);

export function meanProtocol(mechanism: 'duchi' | 'piecewise' | 'hybrid', levels: number, eps: number): LocalProtocol {
  if (!Number.isInteger(levels) || levels < 2) throw new RangeError('domain.range.levels must be >= 2');
  const p = meanParams(levels, eps);
  const outputs = mechanism === 'duchi' ? 2 : mechanism === 'piecewise' ? M : M + 2;
  return {
    mechanism, payloadBytes: 2, stateLength: outputs,
    derived: { k: levels, mechanism, payloadBytes: 2, stateLength: outputs },
    randomize(x, _base, src) {
      const y = scalarSymbol(mechanism, p, x, src);
      return new Uint8Array([y >> 8, y & 0xff]);
    },
    accumulate(state, payload) {
      if (payload.length !== 2) return false;
      const y = payload[0] * 256 + payload[1];
      if (y >= outputs) return false;
      state[y]++;
      return true;
    },
  };
}
