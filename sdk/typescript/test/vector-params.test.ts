import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadVectors } from './vectors.js';
import { ballParameters, boxSampled } from '../src/vector-params.js';
import { ORDER_STATISTICS_HEX } from '../src/vector-tables.js';
import { HYBRID_EPSILON_STAR } from '../src/mean.js';
import { epsilonOf } from '../src/exact.js';

const file = loadVectors('vector-parameters');

test('vector-parameters.json: the embedded order statistics are the normative table', () => {
  let words = '';
  for (const e of file.orderStatistics) words += e.a.join('') + e.b.join('');
  assert.equal(ORDER_STATISTICS_HEX, words);
});

test('vector-parameters.json: hybrid ε* is the pinned double', () => {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, HYBRID_EPSILON_STAR);
  const m = dv.getBigUint64(0) & ((1n << 52n) - 1n);
  assert.equal('0x1.' + m.toString(16).padStart(13, '0').replace(/0+$/, '') + 'p-1', file.hybridEpsilonStar);
});

test('vector-parameters.json: every ball (t, s)', () => {
  for (const r of file.ball) {
    assert.deepEqual(ballParameters(r.d, epsilonOf(r.epsilon)), { t: r.candidateBits, s: r.topSize }, JSON.stringify(r));
  }
  assert.equal(file.ball.length, 42);
});

test('vector-parameters.json: every box k', () => {
  for (const r of file.box) {
    if (r.sampled === null) assert.throws(() => boxSampled(r.d, r.levels, r.mechanism, r.epsilon));
    else assert.equal(boxSampled(r.d, r.levels, r.mechanism, r.epsilon), r.sampled, JSON.stringify(r));
  }
  assert.equal(file.box.length, 270);
});
