import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { factorizationWeights } from '../src/factorization.js';

const page = readFileSync(new URL('../../../../docs/wire-format.md', import.meta.url), 'utf8');

function cdf(k: number): number[][] {
  return Array.from({ length: k }, (_, x) => Array.from({ length: k - 1 }, (_, t) => (x < t + 1 ? 1 : 0)));
}

test('§8.1: every row of the strategy table (λ, first weights, SHA-256 of all weights), version 3', () => {
  const rows = page.split('\n').filter((l) => /^\| cdf, k = \d+ \| [\d.]+ \| \d+ \|/.test(l));
  assert.equal(rows.length, 6);
  for (const row of rows) {
    const cells = row.split('|').slice(1, -1).map((c) => c.trim());
    const k = +/k = (\d+)/.exec(cells[0])![1];
    const { weights, lambda } = factorizationWeights(cdf(k), +cells[1], 3);
    assert.equal(weights.length, +cells[2], row);
    assert.equal(lambda, cells[3] === '0' ? 0 : 2 ** +/2\^(-?\d+)/.exec(cells[3])![1], row);
    assert.equal(weights[0].slice(0, 4).join(', '), cells[4].replace(/`/g, ''), row);
    const bytes = Buffer.alloc(8 * weights.length * k);
    let at = 0;
    for (const r of weights) for (const w of r) { bytes.writeBigInt64BE(BigInt(w), at); at += 8; }
    assert.equal(createHash('sha256').update(bytes).digest('hex'), cells[5].replace(/`/g, ''), row);
  }
});
