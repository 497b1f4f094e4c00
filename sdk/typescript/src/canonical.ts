/** Canonical form of a workload spec and its content hash (wire-format §16). */
import { doubleParts, parseDecimal } from './exact.js';
import { bytesToHex } from './coins.js';

/** A JSON value whose numbers keep their token text. */
export type Json = null | boolean | string | NumberToken | Json[] | { [key: string]: Json };
export class NumberToken {
  constructor(readonly text: string) {}
  get value(): number { return Number(this.text); }
}

/** Parses JSON text keeping every number token as text. */
export function parseJson(text: string): Json {
  let i = 0;
  const ws = () => { while (i < text.length && ' \t\n\r'.includes(text[i])) i++; };
  const fail = (what: string): never => { throw new Error('bad JSON at ' + i + ': ' + what); };
  const value = (): Json => {
    ws();
    const ch = text[i];
    if (ch === '{') {
      i++; const o: { [k: string]: Json } = {}; ws();
      if (text[i] === '}') { i++; return o; }
      for (;;) {
        ws(); if (text[i] !== '"') fail('key');
        const k = str(); ws(); if (text[i++] !== ':') fail(':');
        if (Object.prototype.hasOwnProperty.call(o, k)) fail('duplicate key ' + k);
        o[k] = value(); ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') { i++; return o; }
        fail('object');
      }
    }
    if (ch === '[') {
      i++; const a: Json[] = []; ws();
      if (text[i] === ']') { i++; return a; }
      for (;;) {
        a.push(value()); ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') { i++; return a; }
        fail('array');
      }
    }
    if (ch === '"') return str();
    if (text.startsWith('true', i)) { i += 4; return true; }
    if (text.startsWith('false', i)) { i += 5; return false; }
    if (text.startsWith('null', i)) { i += 4; return null; }
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) return fail('value');
    i += m[0].length;
    return new NumberToken(m[0]);
  };
  const str = (): string => {
    const start = i++;
    while (i < text.length && text[i] !== '"') { if (text[i] === '\\') i++; i++; }
    if (i >= text.length) fail('string');
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const v = value(); ws();
  if (i !== text.length) fail('trailing text');
  return v;
}

const EXACT = new Set(['epsilonPerReport', 'epsilonPerPeriod', 'epsilonPerRelease', 'epsilonPerRunningTotal']);
const INTEGER = new Set(['version', 'levels', 'maxBytes', 'way', 'contributionsPerWindow', 'records',
  'expectedReportsPerWindow', 'protocolVersion']);

/** A string as §16 writes it. */
export function canonicalString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c < 0x20) out += '\\u00' + c.toString(16).padStart(2, '0');
    else out += ch;
  }
  return out + '"';
}

/** An exact decimal with trailing zeros stripped, plain notation. */
export function canonicalDecimal(text: string): string {
  let { c, s } = parseDecimal(text);
  while (s > 0 && c % 10n === 0n) { c /= 10n; s--; }
  return plain(c, s);
}

function plain(c0: bigint, s: number): string {
  const neg = c0 < 0n;
  let digits = (neg ? -c0 : c0).toString();
  if (c0 === 0n) return '0';
  if (s > 0) {
    digits = digits.padStart(s + 1, '0');
    digits = digits.slice(0, digits.length - s) + '.' + digits.slice(digits.length - s);
  }
  return (neg ? '-' : '') + digits;
}

/** The exact decimal expansion of a double, trailing zeros stripped, plain, no ".0" (§16). */
export function exactExpansion(v: number): string {
  const { mant, exp } = doubleParts(v);
  if (mant === 0n) return '0';
  if (exp >= 0) return plain(mant << BigInt(exp), 0);
  let c = mant * 5n ** BigInt(-exp);
  let s = -exp;
  while (s > 0 && c % 10n === 0n) { c /= 10n; s--; }
  return plain(c, s);
}

function number(key: string | undefined, t: NumberToken): string {
  if (key !== undefined && EXACT.has(key)) return canonicalDecimal(t.text);
  if (key !== undefined && INTEGER.has(key)) {
    const d = parseDecimal(t.text);
    if (d.s !== 0 && d.c % 10n ** BigInt(d.s) !== 0n) throw new Error(key + ' must be an integer');
    return (d.c / 10n ** BigInt(d.s)).toString();
  }
  return exactExpansion(t.value);
}

/** Serializes a parsed spec by the rules of §16 (keys sorted by UTF-16 code units, at every level). */
export function canonicalize(v: Json, key?: string): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return canonicalString(v);
  if (v instanceof NumberToken) return number(key, v);
  if (Array.isArray(v)) return '[' + v.map((x) => canonicalize(x, key)).join(',') + ']';
  const keys = Object.keys(v).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return '{' + keys.map((k) => canonicalString(k) + ':' + canonicalize(v[k], k)).join(',') + '}';
}

/** SHA-256 behind one small interface: Web Crypto (browsers, Node 20). */
export type Sha256 = (data: Uint8Array) => Promise<Uint8Array>;
export const webCryptoSha256: Sha256 = async (data) =>
  new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', data));

export async function contentHash(canonical: string, sha256: Sha256 = webCryptoSha256): Promise<string> {
  return bytesToHex(await sha256(new TextEncoder().encode(canonical)));
}
