/** Vector means over a box, `pgw-vec-v1` mechanisms duchi, piecewise, hybrid (wire-format §10.5), given k. */
import { uniformInt } from './draws.js';
import { publicStream } from './coins.js';
import { epsilonOf } from './exact.js';
import { meanParams, scalarOutputs, scalarSymbol } from './mean.js';
import { universeIndex } from './universe.js';
import { WordSource } from './words.js';

export interface BoxParams { d: number; lo: number; hi: number; levels: number; mechanism: 'duchi' | 'piecewise' | 'hybrid'; k: number }

/** ε/k rounded down to 30 significant decimal digits, as a decimal string (exact input: the spec's decimal). */
export function boxEpsilonText(epsilonText: string, k: number): string {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(epsilonText);
  if (!m) throw new Error('epsilonPerReport must be a plain decimal');
  const frac = m[2] ?? '';
  const num = BigInt(m[1] + frac);
  const scale = frac.length;
  // q = num / (k·10^scale); find 30 significant digits, truncated
  const den = BigInt(k) * 10n ** BigInt(scale);
  let e = 0; // q·10^e has exactly 30 integer digits
  while ((num * 10n ** BigInt(Math.max(0, e))) / (den * 10n ** BigInt(Math.max(0, -e))) >= 10n ** 30n) e--;
  while ((num * 10n ** BigInt(Math.max(0, e))) / (den * 10n ** BigInt(Math.max(0, -e))) < 10n ** 29n) e++;
  const digits = ((num * 10n ** BigInt(Math.max(0, e))) / (den * 10n ** BigInt(Math.max(0, -e)))).toString();
  if (e <= 0) return (BigInt(digits) * 10n ** BigInt(-e)).toString();
  const pad = digits.padStart(e + 1, '0');
  return (pad.slice(0, pad.length - e) + '.' + pad.slice(pad.length - e)).replace(/\.?0+$/, '');
}

/** §10.5.1: the sampled coordinates, Floyd on public stream 0x500, sorted. */
export function boxCoordinates(base: bigint, d: number, k: number): number[] {
  const s = publicStream(base, 0x500);
  const list: number[] = [];
  for (let j = d - k; j <= d - 1; j++) {
    const v = uniformInt(s, j + 1);
    list.push(list.includes(v) ? j : v);
  }
  return list.sort((a, b) => a - b);
}

export function boxRandomize(values: readonly string[], base: bigint, p: BoxParams, epsilonText: string, src: WordSource): { payload: Uint8Array; sampled: number[]; levels: number[] } | undefined {
  if (values.length !== p.d) return undefined;
  const range = { kind: 'range' as const, lo: p.lo, hi: p.hi, levels: p.levels };
  const levels = values.map((v) => universeIndex(range, v));
  if (levels.some((l) => l === undefined)) return undefined;
  const params = meanParams(p.levels, epsilonOf(boxEpsilonText(epsilonText, p.k)));
  const S = boxCoordinates(base, p.d, p.k);
  const out = new Uint8Array(2 * p.k);
  S.forEach((c, i) => {
    const y = scalarSymbol(p.mechanism, params, levels[c]!, src);
    out[2 * i] = y >> 8; out[2 * i + 1] = y & 0xff;
  });
  return { payload: out, sampled: S, levels: S.map((c) => levels[c]!) };
}

export { scalarOutputs };

/** §10.5.4: adds a report to long[d·outputCount]; false when malformed. */
export function boxAccumulate(state: number[], payload: Uint8Array, base: bigint, p: BoxParams): boolean {
  const outputs = scalarOutputs(p.mechanism);
  if (payload.length !== 2 * p.k) return false;
  const ys: number[] = [];
  for (let i = 0; i < p.k; i++) { const y = payload[2 * i] * 256 + payload[2 * i + 1]; if (y >= outputs) return false; ys.push(y); }
  boxCoordinates(base, p.d, p.k).forEach((c, i) => { state[c * outputs + ys[i]]++; });
  return true;
}
