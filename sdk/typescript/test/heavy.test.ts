import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { defaultPayloadBits, heavyBucket, heavyCoins, heavyHitters, heavyItem } from '../src/heavy.js';
import { baseWord, bytesToHex } from '../src/coins.js';
import { numerator, decRat, lowerBoundL, rat } from '../src/exact.js';
import { WordSource } from '../src/words.js';

const page = readFileSync(new URL('../../../../docs/wire-format.md', import.meta.url), 'utf8');
const H = '54b45569a5f96694bf3c01f6fe6c2773f211373961b7c6e83e4e6677430955a8';

test('§9.3 numerators and default t', () => {
  const rows: [number, number, bigint][] = [[0.5, 1, 5606615224107920n], [1, 1, 6584790284608188n], [1, 2, 4281724265078805n],
    [2, 1, 7933514784340426n], [2, 3, 4625369456476972n], [4, 1, 8845193877774825n], [4, 6, 4181838031892251n]];
  for (const [eps, t, N] of rows) assert.equal(numerator(decRat(lowerBoundL(eps)), rat(BigInt(2 ** t - 1))), N);
  assert.equal(defaultPayloadBits(1), 2);
  assert.equal(defaultPayloadBits(2), 3);
  assert.equal(defaultPayloadBits(4), 6);
});

test('§9.5: every row of the golden table (coins, bucket, payload of scripted draws)', () => {
  const rows = page.split('\n').filter((l) => /^\| ε=[\d.]+ L=\d+ b=/.test(l));
  assert.equal(rows.length, 32);
  for (const row of rows) {
    const cells = row.split('|').slice(1, -1).map((c) => c.trim());
    const pm = /ε=([\d.]+) L=(\d+) b=(\d) R=(\d+) W=(\d+) t=(\d)/.exec(cells[0])!;
    const p = { L: +pm[2], b: +pm[3], R: +pm[4], W: +pm[5], t: +pm[6] };
    const [dev, period, seq] = cells[1].split(',').map((s) => s.trim().replace(/`/g, ''));
    const coords = { deviceId: dev, period: +period, sequence: +seq };
    let item = cells[2].replace(/`/g, '');
    // "For L = 5 the longer items are cut to their first two characters"
    const base = baseWord(H, coords);
    const coins = heavyCoins(base, p);
    const [g, r, js] = /^(\d+), (\d+), \(([\d ]+)\)$/.exec(cells[3])!.slice(1);
    assert.deepEqual([coins.g, coins.r, coins.j], [+g, +r, js.split(' ').map(Number)], row);
    const x = heavyItem(item, p)!;
    assert.equal(heavyBucket(H, coins, x, p), +cells[4], row);
    const [keep, u] = cells[5].split(',').map((s) => s.trim());
    const words = [keep === 'true' ? 0n : (1n << 64n) - 1n, (((BigInt(u) + 1n) << 32n) - 1n) / BigInt(2 ** p.t - 1) << 32n];
    let n = 0;
    const src: WordSource = { nextWord: () => words[n++] };
    assert.equal(bytesToHex(heavyHitters(H, +pm[1], p).randomizeRaw!(item, base, src)!), cells[6].replace(/`/g, ''), row);
    assert.equal(n, 2);
  }
});

test('heavy-hitter items: 1 to L UTF-8 bytes, no U+0000, no lone surrogate, not trimmed', () => {
  const p = { L: 5, b: 1, R: 2, W: 8, t: 1 };
  assert.equal(heavyItem('', p), undefined);
  assert.equal(heavyItem('abcdef', p), undefined);
  assert.equal(heavyItem('a\u0000', p), undefined);
  assert.equal(heavyItem('\uD800', p), undefined);
  assert.deepEqual([...heavyItem(' a', p)!], [32, 97, 0, 0, 0]);
});
