import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadVectors } from './vectors.js';
import { readSpec } from '../src/spec.js';
import { protocolFor } from '../src/protocols.js';
import { canonicalSquaredDistance, chainingLevels, greedyNet } from '../src/gaussian-spec.js';

test('chaining/1 with the optimal split is refused (its widths are not specified); chaining/2 is derived', async () => {
  const w = loadVectors('gaussian-sign').workloads.find((x: { name: string }) => x.name === 'chaining-cdf-8-eps2');
  const v2 = await readSpec(w.canonical, w.contentHash);
  assert.equal(v2.protocolVersion, 2);
  assert.equal(protocolFor(v2).payloadBytes, 1);
  const v1 = await readSpec(w.canonical.replace('"protocolVersion":2,', ''));
  assert.equal(v1.protocolVersion, 1);
  assert.throws(() => protocolFor(v1), /chaining\/1 with epsilonSplit optimal is not derivable/);
});

test('§3.1 nets: canonical distance accumulators, greedy admission, ties to the lowest index, K', () => {
  // accumulators by i mod 4: (e0² + e4²) + e1² … combined (s0 + s1) + (s2 + s3)
  assert.equal(canonicalSquaredDistance([1, 2, 3, 4, 5], [0, 0, 0, 0, 0]), (1 + 25 + 4) + (9 + 16));
  const P = [[0, 0], [0.5, 0], [1, 0], [0.25, 0]];
  const net = greedyNet(P, 0.3); // θ = 0.09·2 = 0.18: 0.5² = 0.25 > θ admits 1; 0.25² = 0.0625 <= θ covers 3
  assert.deepEqual(net.net, [0, 1, 2]);
  assert.equal(net.map[3], 0); // equidistant from 0 and 1: the lower index
  assert.equal(chainingLevels(0.25), 3);
  assert.equal(chainingLevels(0.1), 5);
});
