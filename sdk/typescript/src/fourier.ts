/** Fourier marginal reports, `pgw-fourier-v1` (wire-format §11). */
import { bernoulli, uniformInt } from './draws.js';
import { Decimal, decRat, lowerBoundL, mulRat, numerator, rat } from './exact.js';
import { strictExp } from './fdlibm.js';
import { LocalProtocol } from './fo.js';

function binom(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i; // exact for the small n here (n <= 12)
  return c;
}
function popcount(v: number): number { let c = 0; while (v) { v &= v - 1; c++; } return c; }
function krawtchouk(r: number, j: number, w: number): number {
  let s = 0;
  for (let i = 0; i <= j; i++) s += (i % 2 === 0 ? 1 : -1) * binom(w, i) * binom(r - w, j - i);
  return s;
}

export interface FourierParams { d: number; t: number; r: number; H: number; h: number; l: number; N: bigint; subsets: number[]; favoured: number[]; other: number[] }

/** §11.1: block size r, favoured weights H (bit mask), and the grid numerator N. */
export function fourierParams(d: number, t: number, eps: number, L: Decimal = lowerBoundL(eps)): FourierParams {
  if (!Number.isInteger(d) || d < 1 || d > 12) throw new RangeError('domain.attributes: 1 to 12 attributes');
  if (!Number.isInteger(t) || t < 1 || t > d) throw new RangeError('queries.way must be in [1, d]');
  const e = strictExp(eps);
  let best = Infinity, bestR = -1, bestH = -1;
  for (let r = t; r <= d; r++) {
    if (binom(d, r) * 2 ** r > 2 ** 16) continue;
    for (let H = 1; H < 2 ** (r + 1) - 1; H++) {
      let h = 0;
      for (let j = 0; j <= r; j++) if (H & (1 << j)) h += binom(r, j);
      const l = 2 ** r - h;
      const pi = (h * e) / (h * e + l);
      let obj = 0;
      for (let w = 1; w <= t; w++) {
        let lambda = 0;
        for (let j = 0; j <= r; j++) lambda += (H & (1 << j) ? pi / h : (1 - pi) / l) * krawtchouk(r, j, w);
        const P = binom(d - w, r - w) / binom(d, r);
        obj += binom(t, w) / (P * lambda * lambda);
      }
      if (obj < best) { best = obj; bestR = r; bestH = H; }
    }
  }
  const r = bestR, H = bestH;
  const favoured: number[] = [], other: number[] = [];
  for (let z = 0; z < 2 ** r; z++) (H & (1 << popcount(z)) ? favoured : other).push(z);
  const subsets: number[] = [];
  for (let m = 0; m < 2 ** d; m++) if (popcount(m) === r) subsets.push(m);
  const N = numerator(mulRat(decRat(L), rat(BigInt(favoured.length))), rat(BigInt(other.length)));
  return { d, t, r, H, h: favoured.length, l: other.length, N, subsets, favoured, other };
}

export function fourier(d: number, t: number, eps: number): LocalProtocol {
  const p = fourierParams(d, t, eps);
  const outputs = p.subsets.length * 2 ** p.r;
  return {
    mechanism: 'fourier', payloadBytes: 2, stateLength: outputs,
    derived: { k: 2 ** d, mechanism: 'fourier', payloadBytes: 2, stateLength: outputs },
    randomize(x, _base, src) {
      const s = uniformInt(src, p.subsets.length);
      const c = bernoulli(src, p.N);
      const i = uniformInt(src, p.h);
      const j = uniformInt(src, p.l);
      const S = p.subsets[s];
      let xs = 0, bit = 0;
      for (let a = 0; a < d; a++) if (S & (1 << a)) { if (x & (1 << a)) xs |= 1 << bit; bit++; }
      const o = s * 2 ** p.r + (xs ^ (c ? p.favoured[i] : p.other[j]));
      return new Uint8Array([o >> 8, o & 0xff]);
    },
    accumulate(state, payload) {
      if (payload.length !== 2) return false;
      const o = payload[0] * 256 + payload[1];
      if (o >= outputs) return false;
      state[o]++;
      return true;
    },
  };
}
