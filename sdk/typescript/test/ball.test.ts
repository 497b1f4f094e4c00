import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ballAccumulate, ballNormNumerator, ballNumerator, ballRandomize } from '../src/ball.js';
import { baseWord, bytesToHex } from '../src/coins.js';
import { WordSource } from '../src/words.js';

const page = readFileSync(new URL('../../../../docs/wire-format.md', import.meta.url), 'utf8');
const H = '6015932ad1cd6f1fa97220a61238031dd6db56d0387a5b8d67bb3b4ac777dbfd';

test('§10.1 table: P for (ε, d, N, s)', () => {
  const rows = page.split('\n').filter((l) => /^\| [\d.]+ \| \d+ \| \d+ \| \d+ \| \d+ \| \d+ \|$/.test(l));
  assert.equal(rows.length, 16);
  for (const row of rows) {
    const [eps, , N, s, P] = row.split('|').slice(1, -1).map((c) => c.trim());
    assert.equal(ballNumerator(+eps, +N, +s), BigInt(P), row);
  }
});

test('§10.4: every row (norm numerator, top set, payload, state)', () => {
  const rows = page.split('\n').filter((l) => /^\| ε=\d+ N=\d+ s=\d+ \|/.test(l));
  assert.equal(rows.length, 24);
  for (const row of rows) {
    const cells = row.split('|').slice(1, -1).map((c) => c.trim());
    const [, eps, N, s] = /ε=(\d+) N=(\d+) s=(\d+)/.exec(cells[0])!.map(Number);
    const p = { d: 3, radius: 2, candidates: N, s };
    const [dev, period, seq] = cells[1].split(',').map((v) => v.trim().replace(/`/g, ''));
    const base = baseWord(H, { deviceId: dev, period: +period, sequence: +seq });
    const x = cells[2].slice(1, -1).split(',').map(Number);
    assert.equal(ballNormNumerator(x, 2)!.numerator, BigInt(cells[3]), row);
    let [plus, hit, i, o] = cells[4].split(',').map((v) => v.trim());
    let input = x;
    if (plus === 'false' && ballNormNumerator(x, 2)!.numerator === 1n << 53n) {
      // The row scripts an outcome no word can give (bernoulli(2^53) is always true): the same unit vector −x̃
      // comes from −x with the outcome true, and every other draw is unchanged.
      input = x.map((v) => -v);
      plus = 'true';
    }
    const uw = (y: number, n: number) => (((BigInt(y) + 1n) << 32n) - 1n) / BigInt(n) << 32n;
    const words = [plus === 'true' ? 0n : (1n << 64n) - 1n, hit === 'true' ? 0n : (1n << 64n) - 1n, uw(+i, s), uw(+o, N - s)];
    let n = 0;
    const src: WordSource = { nextWord: () => words[n++] };
    const r = ballRandomize(input, base, p, eps, src)!;
    assert.equal(n, 4);
    assert.deepEqual(r.top, cells[5].slice(1, -1).split(' ').map(Number), row);
    assert.equal(bytesToHex(r.payload), cells[6].replace(/`/g, ''), row);
    const state = [0n, 0n, 0n];
    assert.ok(ballAccumulate(state, r.payload, base, p));
    assert.deepEqual(state, cells[7].split(',').map((v) => BigInt(v.trim())), row);
  }
});
