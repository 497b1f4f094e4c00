import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadVectors } from './vectors.js';
import { Client, vectorRefusal } from '../src/client.js';
import { vectorProtocolWith } from '../src/client-vectors.js';
import { protocolFor } from '../src/protocols.js';
import { MemoryStorage } from '../src/storage.js';
import { SplitMix64, baseWord, hexToBytes } from '../src/coins.js';
import { ballRandomize } from '../src/ball.js';
import { boxRandomize } from '../src/box.js';
import { readSpec, Spec } from '../src/spec.js';
import { LocalReport as Report } from '../src/envelope.js';

const V = loadVectors('vector-means');
const workloads = V.workloads.map((w: { canonical: string; contentHash: string }) => ({ canonical: w.canonical, contentHash: w.contentHash }));
const BALL = 'vectors-ball-3-eps2', BOX = 'vectors-box-2-duchi-eps1'; // ball r = 1, d = 3, ε = 2; box [0, 100]², ε = 1
const T = 1_717_286_400_000;
const vectorProtocol = (s: Spec) => (s.domain.kind === 'ball' ? vectorProtocolWith(s, { candidates: 8, s: 2 }) : s.domain.kind === 'box' ? vectorProtocolWith(s, { k: 1 }) : protocolFor(s));

async function client(sent: Report[] = [], seed = 7n) {
  return Client.create({ deviceId: 'device-42', storage: new MemoryStorage(), protocol: vectorProtocol, workloads, sendInBackground: false, now: () => T,
    secretRandomness: new SplitMix64(seed),
    transport: { maxBatch: 500, send: async (b) => { sent.push(...(b as Report[])); return b.map(() => ({ status: 'ACCEPTED' as const, reason: '', retryAfterMillis: 0 })); } } });
}

test('vector means: a ball and a box take a vector of numbers (or its string); the payload is §10 with the same words', async () => {
  const sent: Report[] = [];
  const c = await client(sent);
  const outs = [c.report(BALL, [0.5, -0.5, 0.25]), c.report(BALL, ' [0.5, -0.5 ,0.25] '), c.report(BOX, [100, 0]), c.report(BOX, '12.5, 40')];
  await c.sendNow();
  for (const o of outs) assert.equal(await o, 'ACCEPTED');
  assert.equal(sent.length, 4);
  // the same secret words through the protocol functions give the same payloads
  const words = new SplitMix64(7n);
  const specs = await Promise.all(V.workloads.map((w: { canonical: string }) => readSpec(w.canonical)));
  const ball = specs.find((s) => s.id === BALL)!, box = specs.find((s) => s.id === BOX)!;
  const at = (seq: number, s: Spec) => baseWord(s.contentHash, { deviceId: 'device-42', period: Math.floor(T / 86_400_000), sequence: seq });
  const p = { d: 3, radius: 1, candidates: 8, s: 2 };
  const bp = { d: 2, lo: 0, hi: 100, levels: 1025, mechanism: 'duchi' as const, k: 1 };
  const expected = [ballRandomize([0.5, -0.5, 0.25], at(0, ball), p, ball.epsilon, words)!.payload, ballRandomize([0.5, -0.5, 0.25], at(1, ball), p, ball.epsilon, words)!.payload,
    boxRandomize(['100', '0'], at(0, box), bp, '1', words)!.payload, boxRandomize(['12.5', '40'], at(1, box), bp, '1', words)!.payload];
  assert.deepEqual(sent.map((r) => Array.from(r.payload)), expected.map((e) => Array.from(e)));
  assert.deepEqual(sent.map((r) => r.mechanism), ['privunit-g', 'privunit-g', 'duchi', 'duchi']);
  assert.equal(hexToBytes('00').length, 1);
  await c.close();
});

test('vector means: values outside the domain are refused (INVALID_VALUE) and charge nothing', async () => {
  const c = await client();
  const refusedBall: unknown[] = [[0.5, 0.5], [0.5, 0.5, 0.5, 0.5], [NaN, 0, 0], [Infinity, 0, 0], [1e300, 1e300, 0], [0.8, 0.8, 0], [1 + 1e-11, 0, 0],
    '0.5, x, 0', '0.5, 0.5', 'Infinity, 0, 0', [1, 0, '0']];
  for (const v of refusedBall) assert.equal(await c.report(BALL, v as number[]), 'INVALID_VALUE', JSON.stringify(v));
  for (const v of [[-0.001, 5], [0, 100.0001], [50], [NaN, 1]]) assert.equal(await c.report(BOX, v), 'INVALID_VALUE', JSON.stringify(v));
  // the ball's edge: on the sphere, and within the 10^-12 relative slack, is inside
  const inside = [[1, 0, 0], [1 + 1e-13, 0, 0], [0, 0, -1], [0, 0, 0], [Math.SQRT1_2, Math.SQRT1_2, 0]];
  const outs = inside.map((v) => c.report(BALL, v));
  // budget 40 at ε = 2: the refusals charged nothing, so 20 reports are admitted in all
  for (let i = inside.length; i < 20; i++) outs.push(c.report(BALL, [0, 0.5, 0]));
  assert.equal(await c.report(BALL, [0, 0.5, 0]), 'BUDGET_EXHAUSTED');
  await c.sendNow();
  for (const o of outs) assert.equal(await o, 'ACCEPTED');
  await c.close();
});

test('vectorRefusal names the rule and the position, never a value; a scalar workload refuses a vector', async () => {
  const ball = { kind: 'ball' as const, coordinates: ['x', 'y'], radius: 2 };
  assert.equal(vectorRefusal(ball, [2, 0]), undefined);
  assert.equal(vectorRefusal(ball, [0.123456, NaN]), 'coordinate 2 (y) is not a finite number');
  assert.equal(vectorRefusal({ kind: 'box', coordinates: ['a'], lo: 0, hi: 1, levels: 3 }, [7.25]), 'coordinate 1 (a) is outside [0, 1]');
  assert.match(vectorRefusal(ball, [1.5, 1.5])!, /outside the ball of radius 2/);
  const grr = loadVectors('grr').workloads[0];
  const c = await Client.create({ deviceId: 'd', storage: new MemoryStorage(), protocol: protocolFor, workloads: [{ canonical: grr.canonical, contentHash: grr.contentHash }],
    transport: { maxBatch: 1, send: async () => [] }, sendInBackground: false });
  assert.equal(await c.report('vectors-labels-2-eps1', [1]), 'INVALID_VALUE');
  await c.close();
});

test('vector means: a protocol without randomizeVector gets the checked vector as its exact string (randomizeRaw)', async () => {
  const raws: string[] = [];
  const rawOnly = (s: Spec) => ({ ...vectorProtocolWith(s, s.domain.kind === 'ball' ? { candidates: 8, s: 2 } : { k: 1 }), randomizeVector: undefined,
    randomizeRaw: (raw: string) => { raws.push(raw); return new Uint8Array(s.domain.kind === 'ball' ? 1 : 2); } });
  const c = await Client.create({ deviceId: 'd', storage: new MemoryStorage(), protocol: rawOnly as never, workloads, sendInBackground: false, now: () => T,
    transport: { maxBatch: 500, send: async (b) => b.map(() => ({ status: 'ACCEPTED' as const, reason: '', retryAfterMillis: 0 })) } });
  const outs = [c.report(BALL, [0.1, -0.2, 1 / 3]), c.report(BOX, ' [ 12.5 , 40 ] ')];
  assert.equal(await c.report(BALL, [1.5, 0, 0]), 'INVALID_VALUE', 'the client checks the rule itself');
  await c.sendNow();
  for (const o of outs) assert.equal(await o, 'ACCEPTED');
  assert.deepEqual(raws, ['0.1,-0.2,0.3333333333333333', '12.5,40']);
  assert.deepEqual(raws[0].split(',').map(Number), [0.1, -0.2, 1 / 3]);
  await c.close();
});
