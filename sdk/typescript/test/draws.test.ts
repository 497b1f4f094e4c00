import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { bernoulli, uniformInt, TWO53 } from '../src/draws.js';
import { ScriptedWordSource, CryptoWordSource, WordSource } from '../src/words.js';
import { SplitMix64 } from '../src/coins.js';
import { strictExp } from '../src/fdlibm.js';
import { epsilonOf, lowerBoundL } from '../src/exact.js';
import { grr, oue, olh, subsetSelection, hadamardResponse, LocalProtocol } from '../src/fo.js';
import { tree } from '../src/tree.js';
import { meanProtocol } from '../src/mean.js';

test('bernoulli reads the top 53 bits: w >>> 11 == N is a miss, N - 1 a hit', () => {
  const N = 6584790284608188n;
  assert.equal(bernoulli(new ScriptedWordSource([N << 11n]), N), false);
  assert.equal(bernoulli(new ScriptedWordSource([((N - 1n) << 11n) | 0x7ffn]), N), true);
  assert.equal(bernoulli(new ScriptedWordSource([(1n << 64n) - 1n]), TWO53), true);
  assert.equal(bernoulli(new ScriptedWordSource([0n]), 0n), false);
});

test('uniformInt: top 32 bits, Lemire rejection of the word 0 unless n is a power of two', () => {
  const s = new ScriptedWordSource([0n, 0xffffffff00000000n]);
  assert.equal(uniformInt(s, 299), 298);
  assert.equal(s.consumed, 2);
  assert.equal(uniformInt(new ScriptedWordSource([0n]), 16), 0);
  const one = new ScriptedWordSource([12345n]);
  assert.equal(uniformInt(one, 1), 0);
  assert.equal(one.consumed, 1);
});

test('uniformInt law: over every 32-bit top x with a small stand-in width the accepted outputs are exactly uniform', () => {
  // The rule only involves x·n mod 2^32 and x·n >>> 32; check exact uniformity of the accepted set analytically for
  // several n: each output y is hit by exactly floor(2^32 / n) accepted x (count with the closed form).
  for (const n of [3, 5, 7, 20, 299, 1000003, 2 ** 31 - 1]) {
    const N = BigInt(n), T = 2n ** 32n;
    const threshold = T % N;
    // accepted x for output y: x·n in [y·2^32 + threshold, (y+1)·2^32), count = ceil((y+1)2^32/n) - ceil((y·2^32+threshold)/n)
    const ceil = (a: bigint) => (a + N - 1n) / N;
    const counts = new Set<bigint>();
    for (const y of [0n, 1n, N / 2n, N - 1n]) counts.add(ceil((y + 1n) * T) - ceil(y * T + threshold));
    assert.deepEqual([...counts], [T / N], 'n = ' + n);
  }
});

test('crypto word source gives 64-bit words', () => {
  const s = new CryptoWordSource();
  const seen = new Set<bigint>();
  for (let i = 0; i < 100; i++) { const w = s.nextWord(); assert.ok(w >= 0n && w < 1n << 64n); seen.add(w); }
  assert.ok(seen.size > 90);
});

test('strictExp (fdlibm port) matches V8 Math.exp (itself an fdlibm port) on 200000 arguments, and the OLH g flip', () => {
  const src = new SplitMix64(42n);
  let diff = 0;
  for (let i = 0; i < 200000; i++) {
    const x = (Number(src.nextWord() >> 11n) / 2 ** 53 - 0.5) * 80;
    if (strictExp(x) !== Math.exp(x)) diff++;
  }
  assert.equal(diff, 0);
  assert.equal(strictExp(0.405465) + 1 < 2.5, true);
  assert.equal(strictExp(0.4054652) + 1 > 2.5, true);
  assert.equal(strictExp(1), 2.7182818284590455); // StrictMath.exp(1), one ulp above Math.E
});

test('ε is the largest double not above the decimal; L is below e^ε', () => {
  assert.equal(epsilonOf('0.1'), 0.09999999999999999);
  assert.equal(epsilonOf('1'), 1);
  assert.throws(() => epsilonOf('40.0000000000001'));
  const L = lowerBoundL(1);
  const approx = Number(L.c) / 10 ** L.s;
  assert.ok(approx <= Math.E && Math.E - approx < 1e-15);
});

/** Records how many words each randomization draws; the words come from a seeded public generator. */
function wordsUsed(p: LocalProtocol, x: number, seed: bigint): number {
  let n = 0;
  const inner = new SplitMix64(seed);
  const src: WordSource = { nextWord: () => { n++; return inner.nextWord(); } };
  p.randomize(x, 0x1234n, src);
  return n;
}

test('the secret draw sequence does not depend on the value: same words, same count, for every value', () => {
  const protocols: [string, LocalProtocol, number][] = [
    ['grr', grr(20, 1), 20], ['oue', oue(9, 0.5), 9], ['olh', olh(30, 2), 30], ['subset-selection', subsetSelection(10, 1), 10],
    ['hadamard-response', hadamardResponse(8, 2), 8], ['tree', tree(100, 1, 'cdf'), 100], ['duchi', meanProtocol('duchi', 1025, 1), 1025],
    ['piecewise', meanProtocol('piecewise', 1025, 0.5), 1025], ['hybrid', meanProtocol('hybrid', 1025, 4), 1025],
  ];
  for (const [name, p, k] of protocols) {
    for (let seed = 1n; seed <= 50n; seed++) {
      const counts = new Set<number>();
      for (let x = 0; x < k; x++) counts.add(wordsUsed(p, x, seed));
      assert.equal(counts.size, 1, name + ' seed ' + seed);
    }
  }
});

function sources(dir: URL): string[] {
  return readdirSync(dir).flatMap((f) => {
    const u = new URL(f, dir);
    return statSync(u).isDirectory() ? sources(new URL(f + '/', dir)) : f.endsWith('.ts') ? [u.pathname] : [];
  });
}

test('lint: Math dot random appears nowhere in the sources', () => {
  const root = new URL('../../', import.meta.url);
  const files = [...sources(new URL('src/', root)), ...sources(new URL('test/', root))];
  assert.ok(files.length > 5);
  const needle = ['Math', 'random'].join('.');
  for (const f of files) assert.ok(!readFileSync(f, 'utf8').includes(needle), f + ' uses ' + needle);
});
