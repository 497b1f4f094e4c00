/** Vector means over the ℓ2 ball, `pgw-vec-v1` mechanism `privunit-g` (wire-format §10.1–§10.3), given (N, s). */
import { bernoulli, uniformInt, TWO53 } from './draws.js';
import { publicStream } from './coins.js';
import { Decimal, decRat, lowerBoundL, mulRat, numerator, rat } from './exact.js';
import { PublicGaussian } from './gaussian.js';
import { rint } from './fo.js';
import { WordSource } from './words.js';

export interface BallParams { d: number; radius: number; candidates: number; s: number }

/** §10.1: P, the largest integer with P·(N − s) <= L·s·(2^53 − P). */
export function ballNumerator(eps: number, candidates: number, s: number, L: Decimal = lowerBoundL(eps)): bigint {
  return numerator(mulRat(decRat(L), rat(BigInt(s))), rat(BigInt(candidates - s)));
}

/** The norm draw's numerator 2^52 + round(ρ·2^52), or undefined when ρ > 1 + 10^-12 (refused). */
export function ballNormNumerator(x: readonly number[], radius: number): { numerator: bigint; unit: number[] } | undefined {
  const u = x.map((v) => v / radius);
  let m = 0;
  for (const v of u) m = Math.max(m, Math.abs(v));
  let rho = 0;
  if (m !== 0) { let ss = 0; for (const v of u) ss += (v / m) * (v / m); rho = m * Math.sqrt(ss); }
  if (!(rho <= 1 + 1e-12)) return undefined;
  rho = Math.min(rho, 1);
  const unit = rho === 0 ? u.map((_, k) => (k === 0 ? 1 : 0)) : u.map((v) => v / rho);
  return { numerator: TWO53 / 2n + BigInt(Math.floor(rho * 2 ** 52 + 0.5)), unit };
}

export function ballCandidates(base: bigint, p: BallParams): number[][] {
  const half: number[][] = [];
  for (let j = 0; j < p.candidates / 2; j++) {
    const g = new PublicGaussian(publicStream(base, 0x400 + j));
    half.push(Array.from({ length: p.d }, () => g.next()));
  }
  return [...half, ...half.map((c) => c.map((v) => -v))];
}

export interface BallDraw { payload: Uint8Array; top: number[] }

export function ballRandomize(x: readonly number[], base: bigint, p: BallParams, eps: number, src: WordSource): BallDraw | undefined {
  if (x.length !== p.d || x.some((v) => !Number.isFinite(v))) return undefined;
  const norm = ballNormNumerator(x, p.radius);
  if (!norm) return undefined;
  const plus = bernoulli(src, norm.numerator);
  const xt = norm.unit.map((v) => (plus ? v : -v));
  const c = ballCandidates(base, p);
  const half = p.candidates / 2;
  const scores: number[] = [];
  for (let j = 0; j < half; j++) { let g = 0; for (let k = 0; k < p.d; k++) g += c[j][k] * xt[k]; scores[j] = g; }
  for (let j = 0; j < half; j++) scores[j + half] = -scores[j];
  const rank = scores.map((_, j) => j).sort((a, b) => (scores[a] > scores[b] ? -1 : scores[a] < scores[b] ? 1 : a - b));
  const P = ballNumerator(eps, p.candidates, p.s);
  const hit = bernoulli(src, P);
  const i = uniformInt(src, p.s);
  const o = uniformInt(src, p.candidates - p.s);
  return { payload: new Uint8Array([hit ? rank[i] : rank[p.s + o]]), top: rank.slice(0, p.s) };
}

/** §10.3: adds a report to the d-long fixed-point state; false when malformed. */
export function ballAccumulate(state: bigint[], payload: Uint8Array, base: bigint, p: BallParams): boolean {
  if (payload.length !== 1 || payload[0] >= p.candidates) return false;
  const J = payload[0], half = p.candidates / 2;
  const g = new PublicGaussian(publicStream(base, 0x400 + (J % half)));
  for (let k = 0; k < p.d; k++) {
    const q = BigInt(rint(g.next() * 2 ** 32));
    state[k] += J >= half ? -q : q;
  }
  return true;
}
