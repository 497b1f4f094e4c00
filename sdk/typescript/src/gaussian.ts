/** The public Gaussian generator (wire-format §2) and the Gaussian-sign level draw (§3–§4). */
import { SplitMix64 } from './coins.js';
import { strictExp, strictLog } from './fdlibm.js';
import { Decimal, decRat, lowerBoundL } from './exact.js';
import { WordSource } from './words.js';
import { TWO53 } from './draws.js';

const R = 3.654152885361009; // 0x1.d3bb48209ad33p1
const V = 0.004928673233974655; // 0x1.43016a5a43732p-8

const f = (x: number) => strictExp(-0.5 * (x * x));

export interface ZigguratTables { X: Float64Array; F: Float64Array; K: bigint[]; W: Float64Array }

let tables: ZigguratTables | undefined;
/** §2.2, computed with the fdlibm ports (equal to Appendix A: checked by the SHA-256 of §6.5). */
export function zigguratTables(): ZigguratTables {
  if (tables) return tables;
  const X = new Float64Array(257), F = new Float64Array(257), W = new Float64Array(256);
  const K: bigint[] = [];
  X[0] = V / f(R);
  X[1] = R;
  for (let i = 1; i <= 254; i++) X[i + 1] = Math.sqrt(-2.0 * strictLog(V / X[i] + f(X[i])));
  X[256] = 0.0;
  F[0] = 0.0;
  for (let i = 1; i <= 255; i++) F[i] = f(X[i]);
  F[256] = 1.0;
  for (let i = 0; i <= 255; i++) {
    K.push(BigInt(Math.floor((X[i + 1] / X[i]) * 2 ** 52)));
    W[i] = X[i] * 2 ** -52;
  }
  return (tables = { X, F, K, W });
}

/** Gaussians from one public word source (a SplitMix64 stream). */
export class PublicGaussian {
  private readonly t = zigguratTables();
  constructor(private readonly stream: WordSource) {}
  static forStream(s: SplitMix64): PublicGaussian { return new PublicGaussian(s); }
  next(): number {
    const { K, W, F } = this.t;
    for (;;) {
      const w = this.stream.nextWord();
      const i = Number(w & 0xffn);
      const u = (w >> 11n) & ((1n << 52n) - 1n);
      const negative = w >> 63n === 1n;
      const sign = (y: number) => (negative ? -y : y);
      if (u < K[i]) return sign(Number(u) * W[i]);
      if (i === 0) return sign(this.tail());
      const x = Number(u) * W[i];
      const U = Number(this.stream.nextWord() >> 11n) * 2 ** -53;
      if (F[i] + U * (F[i + 1] - F[i]) < f(x)) return sign(x);
    }
  }
  private tail(): number {
    for (;;) {
      const a = -strictLog((Number(this.stream.nextWord() >> 11n) + 1) * 2 ** -53) / R;
      const b = -strictLog((Number(this.stream.nextWord() >> 11n) + 1) * 2 ** -53);
      if (b + b > a * a) return R + a;
    }
  }
}

/** §4.1: B(ε), the largest B in [0, 2^53) with (2^53 + B) <= L·(2^53 − B), L the certified bound. */
export function biasNumerator(eps: number, L: Decimal = lowerBoundL(eps)): bigint {
  const { num, den } = decRat(L);
  // (2^53 + B)·den <= num·(2^53 − B)  ⇔  B <= 2^53·(num − den)/(num + den)
  const b = (TWO53 * (num - den)) / (num + den);
  return b >= TWO53 ? TWO53 - 1n : b;
}

/** §4.2: the threshold T of one level (value vector v, radius r, bias numerator B, public stream Gaussians z). */
export function levelThreshold(v: readonly number[], r: number, B: bigint, gaussians: () => PublicGaussian): bigint {
  if (r === 0) return TWO53;
  let ss = 0;
  for (const x of v) ss += x * x;
  let q = Math.sqrt(ss) / r;
  if (q > 1) q = 1;
  let Bu = BigInt(Math.floor(Number(B) * q));
  if (Bu > B) Bu = B;
  if (Bu === 0n) return TWO53;
  const g = gaussians();
  let dot = 0;
  for (let k = 0; k < v.length; k++) dot += g.next() * v[k];
  return dot >= 0 ? TWO53 + Bu : TWO53 - Bu;
}

/** §4.2: the level's bit from one secret word: (w >>> 10) < T. */
export function levelBit(T: bigint, secret: WordSource): number {
  return secret.nextWord() >> 10n < T ? 1 : 0;
}
