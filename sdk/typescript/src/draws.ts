import { WordSource } from './words.js';

export const TWO53 = 1n << 53n;

/** bernoulli(N), 0 <= N <= 2^53: one word w; true iff (w >>> 11) < N (wire-format §13.2). */
export function bernoulli(src: WordSource, n: bigint): boolean {
  if (n < 0n || n > TWO53) throw new RangeError('bernoulli numerator out of [0, 2^53]: ' + n);
  return src.nextWord() >> 11n < n;
}

/** uniformInt(n), 1 <= n < 2^31: Lemire's multiply-and-reject on the top 32 bits of each word (§13.2). */
export function uniformInt(src: WordSource, n: number): number {
  if (!Number.isInteger(n) || n < 1 || n >= 2 ** 31) throw new RangeError('uniformInt bound out of [1, 2^31): ' + n);
  const bn = BigInt(n);
  const threshold = (1n << 32n) % bn;
  for (;;) {
    const x = src.nextWord() >> 32n;
    const m = x * bn;
    if ((m & 0xffffffffn) >= threshold) return Number(m >> 32n);
  }
}
