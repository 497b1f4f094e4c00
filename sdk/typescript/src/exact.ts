/** Exact arithmetic for ε (wire-format §13.1) and the grid numerators (§13.3). */
import { TWO53 } from './draws.js';

/** A double's exact value as mant·2^exp (mant a signed BigInt). */
export function doubleParts(v: number): { mant: bigint; exp: number } {
  if (!Number.isFinite(v)) throw new RangeError('not finite');
  if (v === 0) return { mant: 0n, exp: 0 };
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, v);
  const bits = dv.getBigUint64(0);
  const neg = bits >> 63n === 1n;
  const be = Number((bits >> 52n) & 0x7ffn);
  let m = bits & ((1n << 52n) - 1n);
  let e: number;
  if (be === 0) e = -1074; else { m |= 1n << 52n; e = be - 1075; }
  return { mant: neg ? -m : m, exp: e };
}

/** An exact decimal c·10^-s parsed from a plain or exponent decimal string. */
export interface Decimal { c: bigint; s: number }

const DECIMAL = /^([+-]?)(\d+)?(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

export function parseDecimal(text: string): Decimal {
  const m = DECIMAL.exec(text);
  if (!m || (m[2] === undefined && (m[3] === undefined || m[3] === ''))) throw new Error('not a decimal: ' + text);
  const intPart = m[2] ?? '';
  const frac = m[3] ?? '';
  let c = BigInt((intPart + frac) || '0');
  if (m[1] === '-') c = -c;
  let s = frac.length - (m[4] ? parseInt(m[4], 10) : 0);
  if (s < 0) { c *= 10n ** BigInt(-s); s = 0; }
  return { c, s };
}

/** Compare the exact value of double v with decimal d: -1, 0, 1. */
export function compareDoubleDecimal(v: number, d: Decimal): number {
  const { mant, exp } = doubleParts(v);
  // v = mant·2^exp, d = c/10^s. Compare mant·2^exp·10^s with c.
  let left = mant * 10n ** BigInt(d.s);
  let right = d.c;
  if (exp >= 0) left <<= BigInt(exp); else right <<= BigInt(-exp);
  return left < right ? -1 : left > right ? 1 : 0;
}

function nextDown(v: number): number {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, v);
  const bits = dv.getBigUint64(0);
  if (v > 0) dv.setBigUint64(0, bits - 1n);
  else if (v < 0) dv.setBigUint64(0, bits + 1n);
  else return -Number.MIN_VALUE;
  return dv.getFloat64(0);
}

/** §13.1: the largest double not above the declared decimal; valid values in (0, 40]. */
export function epsilonOf(decimal: string): number {
  const d = parseDecimal(decimal);
  let v = Number(decimal);
  if (compareDoubleDecimal(v, d) > 0) v = nextDown(v);
  if (!(v > 0 && v <= 40)) throw new RangeError('epsilonPerReport must be in (0, 40]: ' + decimal);
  return v;
}

const PREC = 50;
function digits(c: bigint): number { return c === 0n ? 1 : c.toString().length; }
function round50(x: Decimal): Decimal {
  const n = digits(x.c < 0n ? -x.c : x.c);
  if (n <= PREC) return x;
  const drop = n - PREC;
  return { c: x.c / 10n ** BigInt(drop), s: x.s - drop }; // BigInt division truncates toward zero
}
function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const s = Math.max(a.s, b.s);
  return [a.c * 10n ** BigInt(s - a.s), b.c * 10n ** BigInt(s - b.s), s];
}

/** §13.3: L = ExpBounds.lowerBoundExact(ε, 40) as a decimal c·10^-s (c > 0). */
export function lowerBoundL(eps: number): Decimal {
  if (!(eps >= 0 && eps <= 700)) throw new RangeError('ε out of [0, 700]');
  const { mant, exp } = doubleParts(eps);
  const e: Decimal = exp >= 0 ? { c: mant << BigInt(exp), s: 0 } : { c: mant * 5n ** BigInt(-exp), s: -exp };
  let term: Decimal = { c: 1n, s: 0 };
  let sum: Decimal = { c: 1n, s: 0 };
  for (let i = 1n; ; i++) {
    const prod = round50({ c: term.c * e.c, s: term.s + e.s });
    // quotient prod / i, truncated to 50 significant digits: scale up first so the floor keeps > 50 digits
    const extra = PREC + 20;
    term = round50({ c: (prod.c * 10n ** BigInt(extra)) / i, s: prod.s + extra });
    const [a, b, s] = align(sum, term);
    const next = round50({ c: a + b, s });
    const [x, y] = align(next, sum);
    if (x === y) return sum;
    sum = next;
  }
}

/** A non-negative rational num/den. */
export interface Rat { num: bigint; den: bigint }
export const rat = (num: bigint, den: bigint = 1n): Rat => ({ num, den });
export const decRat = (d: Decimal): Rat => ({ num: d.c, den: 10n ** BigInt(d.s) });
export const mulRat = (a: Rat, b: Rat): Rat => ({ num: a.num * b.num, den: a.den * b.den });

/** §13.3: N(a, b) = min(2^53, ⌊2^53·a/(a + b)⌋), exactly. */
export function numerator(a: Rat, b: Rat): bigint {
  const an = a.num * b.den;
  const bn = b.num * a.den;
  if (an < 0n || bn < 0n || an + bn === 0n) throw new RangeError('N(a, b) needs a, b >= 0 not both 0');
  const n = (TWO53 * an) / (an + bn);
  return n > TWO53 ? TWO53 : n;
}
