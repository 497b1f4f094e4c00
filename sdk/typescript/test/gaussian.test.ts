import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { PublicGaussian, zigguratTables, biasNumerator, levelThreshold, levelBit } from '../src/gaussian.js';
import { baseWord, publicStream, SplitMix64, wordToHex } from '../src/coins.js';
import { strictLog } from '../src/fdlibm.js';
import { ScriptedWordSource } from '../src/words.js';

function hexDouble(v: number): string {
  const neg = v < 0 || Object.is(v, -0);
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, Math.abs(v));
  const bits = dv.getBigUint64(0);
  const e = Number((bits >> 52n) & 0x7ffn) - 1023;
  let m = (bits & ((1n << 52n) - 1n)).toString(16).padStart(13, '0').replace(/0+$/, '');
  if (m === '') m = '0';
  return (neg ? '-' : '') + '0x1.' + m + 'p' + e;
}

test('strictLog (fdlibm port) matches V8 Math.log (an fdlibm port) on 200000 arguments', () => {
  const s = new SplitMix64(7n);
  let diff = 0;
  for (let i = 0; i < 200000; i++) {
    const x = Number(s.nextWord() >> 11n) * 2 ** -53 * 2 ** (Number(s.nextWord() & 63n) - 32);
    if (x > 0 && strictLog(x) !== Math.log(x)) diff++;
  }
  assert.equal(diff, 0);
});

test('§6.5 tables: SHA-256 of X, F, K', () => {
  const { X, F, K } = zigguratTables();
  const buf = Buffer.alloc(8 * (257 + 257 + 256));
  let o = 0;
  for (const x of X) { buf.writeDoubleBE(x, o); o += 8; }
  for (const x of F) { buf.writeDoubleBE(x, o); o += 8; }
  for (const k of K) { buf.writeBigUInt64BE(k, o); o += 8; }
  assert.equal(createHash('sha256').update(buf).digest('hex'), 'aed1fe945a6a5d4c99a667d4a49aee827d8ca49ce2136b95c00734d6513a85ef');
});

const H = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';

test('§6.1–§6.3: base words, stream words, first 8 Gaussians', () => {
  assert.equal(wordToHex(baseWord(H, { deviceId: 'device-42', period: 19876, sequence: 3 })), 'f0d784ad51dac908');
  assert.equal(wordToHex(baseWord(H, { deviceId: 'dévice-ü', period: 0, sequence: 0 })), '3373fc6136528d68');
  assert.equal(wordToHex(baseWord(H, { deviceId: '0123456789abcdef-sensor', period: 1, sequence: 2147483647 })), '23b575fe509be47a');
  const base = baseWord(H, { deviceId: 'device-42', period: 19876, sequence: 3 });
  const s0 = publicStream(base, 0);
  assert.deepEqual([0, 1, 2].map(() => wordToHex(s0.nextWord())), ['a1a624bf02a6bc97', '82efe4b22839715f', 'e7de92ab2e7240e1']);
  const g0 = new PublicGaussian(publicStream(base, 0)), g1 = new PublicGaussian(publicStream(base, 1));
  const exp0 = ['-0x1.73c37bfd254dbp-2', '-0x1.4c831ac07c0dep-5', '-0x1.525386096120ep-1', '0x1.07e2674fae2fdp0',
    '-0x1.5c4c727548641p-2', '-0x1.06732538293p-3', '-0x1.8c8497ecb5e64p-3', '0x1.e210c3c2bce8ep-1'];
  const exp1 = ['-0x1.43e82dc746b25p-1', '-0x1.de437bc3ff4fcp0', '0x1.973d038cb8d83p0', '0x1.bbac5ff296fa7p-2',
    '0x1.80e98a096da9ep-2', '0x1.c59f06228ef37p-1', '-0x1.c66e8c9632db6p-3', '0x1.8f42f02cd631ap-4'];
  for (let k = 0; k < 8; k++) { assert.equal(hexDouble(g0.next()), exp0[k]); assert.equal(hexDouble(g1.next()), exp1[k]); }
});

test('§6.4 long-run fingerprint: 10^6 Gaussians of SplitMix64(0) (wedge and tail paths)', () => {
  let n = 0;
  const sm = new SplitMix64(0n);
  const counting = { nextWord: () => { n++; return sm.nextWord(); } };
  const g = new PublicGaussian(counting);
  const dv = new DataView(new ArrayBuffer(8));
  let sum = 0n;
  for (let i = 0; i < 1_000_000; i++) { dv.setFloat64(0, g.next()); sum += dv.getBigUint64(0); }
  assert.equal(wordToHex(sum & ((1n << 64n) - 1n)), 'f1bf0c9f60c01e11');
  assert.equal(n, 1_021_978);
  assert.equal(wordToHex(sm.nextWord()), 'bad85fc2ca01b429');
});

test('§6.6 certified bias numerators B(ε)', () => {
  const rows: [number, bigint][] = [[0.001, 4503599252070n], [0.5, 2206031193474849n], [1, 4162381314475385n],
    [2, 6859830313939860n], [20, 9007199217610549n], [40, 9007199254740991n]];
  for (const [eps, B] of rows) assert.equal(biasNumerator(eps), B, 'ε = ' + eps);
});

test('§6.7 a two-level report end to end: thresholds and payloads', () => {
  const base = baseWord(H, { deviceId: 'device-42', period: 19876, sequence: 3 });
  const levels = [
    { v: [[-0.6, 0.8, 0.0], [0, 0, 1]], r: 1.0, B: biasNumerator(1) },
    { v: [[0.1, 0.2, -0.2], [0, 0, 0]], r: 0.30000000000000004, B: biasNumerator(0.5) },
  ];
  const T = (x: number) => levels.map((l, j) => levelThreshold(l.v[x], l.r, l.B, () => new PublicGaussian(publicStream(base, j))));
  assert.deepEqual(T(0).map(wordToHex), ['002ec9a9ebab4579', '001829a0565978df']);
  assert.deepEqual(T(1).map(wordToHex), ['001136561454ba87', '0020000000000000']);
  for (const [x, payload] of [[0, 1], [1, 2]]) {
    const src = new ScriptedWordSource([0xbb26a7aead15e000n, 0x60a6815965e37c00n]);
    const bits = T(x).map((t) => levelBit(t, src));
    assert.equal(bits[0] | (bits[1] << 1), payload);
  }
});
