import { MASK64, WordSource } from './words.js';

export const GOLDEN = 0x9e3779b97f4a7c15n;

export function mix64(z0: bigint): bigint {
  let z = z0 & MASK64;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
  return z ^ (z >> 31n);
}

/** SplitMix64 (wire-format §1.5): a public word source. */
export class SplitMix64 implements WordSource {
  private state: bigint;
  constructor(seed: bigint) {
    this.state = seed & MASK64;
  }
  nextWord(): bigint {
    this.state = (this.state + GOLDEN) & MASK64;
    return mix64(this.state);
  }
}

function rotl(x: bigint, b: bigint): bigint {
  return ((x << b) | (x >> (64n - b))) & MASK64;
}

/** SipHash-2-4 with 64-bit output. */
export function sipHash24(k0: bigint, k1: bigint, msg: Uint8Array): bigint {
  let v0 = k0 ^ 0x736f6d6570736575n;
  let v1 = k1 ^ 0x646f72616e646f6dn;
  let v2 = k0 ^ 0x6c7967656e657261n;
  let v3 = k1 ^ 0x7465646279746573n;
  const round = () => {
    v0 = (v0 + v1) & MASK64; v1 = rotl(v1, 13n); v1 ^= v0; v0 = rotl(v0, 32n);
    v2 = (v2 + v3) & MASK64; v3 = rotl(v3, 16n); v3 ^= v2;
    v0 = (v0 + v3) & MASK64; v3 = rotl(v3, 21n); v3 ^= v0;
    v2 = (v2 + v1) & MASK64; v1 = rotl(v1, 17n); v1 ^= v2; v2 = rotl(v2, 32n);
  };
  const len = msg.length;
  const full = len - (len % 8);
  const le = (off: number, n: number) => {
    let m = 0n;
    for (let i = n - 1; i >= 0; i--) m = (m << 8n) | BigInt(msg[off + i]);
    return m;
  };
  for (let off = 0; off < full; off += 8) {
    const m = le(off, 8);
    v3 ^= m; round(); round(); v0 ^= m;
  }
  const last = (BigInt(len & 0xff) << 56n) | le(full, len - full);
  v3 ^= last; round(); round(); v0 ^= last;
  v2 ^= 0xffn;
  round(); round(); round(); round();
  return (v0 ^ v1 ^ v2 ^ v3) & MASK64;
}

export interface Coordinates {
  deviceId: string;
  period: number;
  sequence: number;
}

export function hexToBytes(hex: string): Uint8Array {
  if (hex.length % 2 !== 0 || /[^0-9a-fA-F]/.test(hex)) throw new Error('not a hex string');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}

export function bytesToHex(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s;
}

export function wordToHex(w: bigint): string {
  return w.toString(16).padStart(16, '0');
}

/** The report's public base word (wire-format §1.1–§1.4). */
export function baseWord(contentHashHex: string, c: Coordinates): bigint {
  const h = hexToBytes(contentHashHex);
  if (h.length !== 32) throw new Error('content hash must be 32 bytes');
  if (c.deviceId.length === 0) throw new Error('deviceId must be non-empty');
  if (!Number.isSafeInteger(c.period) || c.period < 0) throw new Error('period must be an integer >= 0');
  if (!Number.isInteger(c.sequence) || c.sequence < 0 || c.sequence >= 2 ** 31) throw new Error('sequence out of [0, 2^31)');
  let k0 = 0n, k1 = 0n;
  for (let i = 7; i >= 0; i--) { k0 = (k0 << 8n) | BigInt(h[i]); k1 = (k1 << 8n) | BigInt(h[8 + i]); }
  const id = new TextEncoder().encode(c.deviceId);
  const msg = new Uint8Array(id.length + 12);
  msg.set(id, 0);
  const dv = new DataView(msg.buffer);
  dv.setBigUint64(id.length, BigInt(c.period), true);
  dv.setUint32(id.length + 8, c.sequence, true);
  return sipHash24(k0, k1, msg);
}

/** Public stream s of a report (§1.5). */
export function publicStream(base: bigint, s: number): SplitMix64 {
  return new SplitMix64(base ^ mix64(((BigInt(s) + 1n) * GOLDEN) & MASK64));
}
