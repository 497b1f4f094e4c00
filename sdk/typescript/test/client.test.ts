import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadVectors } from './vectors.js';
import { Client } from '../src/client.js';
import { protocolFor } from '../src/protocols.js';
import { HttpTransport, FetchLike, retryAfterMillis } from '../src/transport.js';
import { MemoryStorage } from '../src/storage.js';
import { FileStorage } from '../src/node-storage.js';
import { grr } from '../src/fo.js';

const W = loadVectors('grr').workloads[0]; // labels no, yes; ε = 1; budget 40 per PT24H; window PT1M
const served = { canonical: W.canonical, contentHash: W.contentHash };

interface Call { url: string; method?: string; headers?: Record<string, string>; body?: string | Uint8Array }
/** A fake ingestion service: GET /v1/workloads, POST /v1/reports answering with the given statuses. */
function fakeServer(answers: (batch: any, n: number) => { status: number; retryAfter?: string; results?: string[] }) {
  const calls: Call[] = [];
  let posts = 0;
  const fetch: FetchLike = async (url, init) => {
    calls.push({ url, ...init });
    const reply = (status: number, body: string, headers: Record<string, string> = {}) => ({
      status, headers: { get: (n: string) => headers[n] ?? null }, text: async () => body, arrayBuffer: async () => new TextEncoder().encode(body).buffer,
    });
    if (url.endsWith('/v1/workloads')) return reply(200, JSON.stringify([{ id: 'x', canonicalForm: served.canonical, contentHash: served.contentHash }]));
    const batch = JSON.parse(init!.body as string);
    const a = answers(batch, posts++);
    const results = (a.results ?? batch.reports.map(() => 'ACCEPTED')).map((s: string) => ({ status: s, reason: s === 'REJECTED' ? 'LATE' : '', retryAfterMillis: 0 }));
    return reply(a.status, JSON.stringify({ envelopeVersion: 1, results }), a.retryAfter ? { 'Retry-After': a.retryAfter } : {});
  };
  return { calls, fetch, posts: () => posts };
}

test('two statements: fetch specs (hash checked), report, accepted; the body is the JSON envelope', async () => {
  const server = fakeServer(() => ({ status: 200 }));
  const client = await Client.create({ deviceId: 'device-42', storage: new MemoryStorage(), protocol: protocolFor,
    transport: new HttpTransport('https://ingest.example.com', { credential: 'v1.k.x', fetch: server.fetch }) });
  assert.equal(await client.report('vectors-labels-2-eps1', 'yes'), 'ACCEPTED');
  const post = server.calls.find((c) => c.method === 'POST')!;
  assert.equal(post.headers!['Authorization'], 'Bearer v1.k.x');
  assert.equal(post.headers!['Content-Type'], 'application/vnd.pgw.reports+json');
  const r = JSON.parse(post.body as string).reports[0];
  assert.equal(r.contentHash, W.contentHash);
  assert.equal(r.mechanism, 'grr');
  assert.equal(r.protocolVersion, 1);
  assert.ok(['AA==', 'AQ=='].includes(r.payload));
  assert.equal(await client.report('vectors-labels-2-eps1', 'maybe'), 'INVALID_VALUE');
  assert.equal(await client.report('nope', 'yes'), 'UNKNOWN_WORKLOAD');
  await client.close();
});

test('a served content hash that differs from the computed one fails create', async () => {
  await assert.rejects(Client.create({ deviceId: 'd', storage: new MemoryStorage(), protocol: protocolFor,
    transport: { maxBatch: 500, send: async () => [] }, workloads: [{ ...served, contentHash: '00'.repeat(32) }] }), /content hash mismatch/);
});

test('budget: 40 reports of ε = 1 in a period of budget 40, then BUDGET_EXHAUSTED; the next period is fresh', async () => {
  let t = 1_717_286_400_000;
  const client = await Client.create({ deviceId: 'd', storage: new MemoryStorage(), protocol: protocolFor, workloads: [served],
    transport: { maxBatch: 500, send: async (b) => b.map(() => ({ status: 'ACCEPTED' as const, reason: '', retryAfterMillis: 0 })) },
    sendInBackground: false, now: () => t });
  const outcomes = [];
  for (let i = 0; i < 41; i++) outcomes.push(client.report('vectors-labels-2-eps1', 'no'));
  assert.equal(await outcomes[40], 'BUDGET_EXHAUSTED');
  await client.sendNow();
  for (let i = 0; i < 40; i++) assert.equal(await outcomes[i], 'ACCEPTED');
  t += 86_400_000;
  const next = client.report('vectors-labels-2-eps1', 'no');
  await client.sendNow();
  assert.equal(await next, 'ACCEPTED');
  await client.close();
});

test('retry: 503 with Retry-After is honoured (nothing sent before it), then accepted; 413 halves the batch', async () => {
  let t = 1_717_286_400_000;
  const server = fakeServer((batch, n) => (n === 0 ? { status: 503, retryAfter: '5' } : batch.reports.length > 2 ? { status: 413 } : { status: 200 }));
  const client = await Client.create({ deviceId: 'd', storage: new MemoryStorage(), protocol: protocolFor, workloads: [served],
    transport: new HttpTransport('https://x.example', { fetch: server.fetch, now: () => t }), sendInBackground: false, now: () => t, jitter: () => 0.5 });
  const outs = [0, 1, 2, 3, 4].map(() => client.report('vectors-labels-2-eps1', 'yes'));
  await client.sendNow();
  assert.equal(server.posts(), 1);
  t += 4_000;
  await client.sendNow();
  assert.equal(server.posts(), 1, 'nothing before Retry-After');
  t += 1_001;
  await client.sendNow();
  for (const o of outs) assert.equal(await o, 'ACCEPTED');
  assert.deepEqual(client.stats().accepted, 5);
  assert.ok(server.posts() >= 4); // 503, 413 (5), then batches of at most 2
  await client.close();
});

test('window closed before acceptance: DROPPED, budget stays charged', async () => {
  let t = 1_717_286_400_000;
  const client = await Client.create({ deviceId: 'd', storage: new MemoryStorage(), protocol: protocolFor, workloads: [served],
    transport: { maxBatch: 500, send: async () => { throw new Error('unreachable'); } }, sendInBackground: false, now: () => t });
  const o = client.report('vectors-labels-2-eps1', 'yes');
  await client.sync();
  t += 120_000;
  await client.sendNow();
  assert.equal(await o, 'DROPPED');
  assert.equal(client.stats().dropped, 1);
  await client.close();
});

test('file store: the queue and the charges survive a restart; a corrupted file is refused, not reset', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pgw-'));
  const t = 1_717_286_400_000;
  const offline = { maxBatch: 500, send: async () => { throw new (await import('../src/transport.js')).TransportError('RETRY', 'CONNECTION'); } };
  const a = await Client.create({ deviceId: 'd', storage: new FileStorage(dir), protocol: protocolFor, workloads: [served], transport: offline,
    sendInBackground: false, now: () => t });
  for (let i = 0; i < 39; i++) void a.report('vectors-labels-2-eps1', 'no');
  await a.close();
  const b = await Client.create({ deviceId: 'd', storage: new FileStorage(dir), protocol: protocolFor, workloads: [served],
    transport: { maxBatch: 500, send: async (batch) => batch.map(() => ({ status: 'ACCEPTED' as const, reason: '', retryAfterMillis: 0 })) },
    sendInBackground: false, now: () => t });
  assert.equal(b.stats().queued, 39);
  const fortieth = b.report('vectors-labels-2-eps1', 'no'); // the 40th is admitted
  await b.sendNow();
  assert.equal(await fortieth, 'ACCEPTED');
  assert.equal(await b.report('vectors-labels-2-eps1', 'no'), 'BUDGET_EXHAUSTED');
  assert.equal(b.stats().queued, 0);
  await b.close();
  // a second client on a directory in use fails; a lock left by a dead process is taken over
  const held = new FileStorage(dir);
  await held.load();
  await assert.rejects(new FileStorage(dir).load(), /in use by process/);
  await held.close();
  writeFileSync(join(dir, 'pgw-device.lock'), '999999999');
  const taken = new FileStorage(dir);
  await taken.load();
  await taken.close();
  const f = join(dir, 'pgw-device.state');
  writeFileSync(f, readFileSync(f, 'utf8').replace('"accepted":40', '"accepted":41'));
  await assert.rejects(new FileStorage(dir).load(), /checksum/);
});

test('Retry-After: seconds or an HTTP date', () => {
  assert.equal(retryAfterMillis('7', 0), 7000);
  assert.equal(retryAfterMillis(new Date(10_000).toUTCString(), 4_000), 6000);
  assert.equal(retryAfterMillis(null, 0), 0);
});

test('one protocol factory keeps the bundle small: grr alone works as the protocol of a client', async () => {
  const client = await Client.create({ deviceId: 'd', storage: new MemoryStorage(), workloads: [served], protocol: (s) => grr(2, s.epsilon),
    transport: { maxBatch: 500, send: async (b) => b.map(() => ({ status: 'ACCEPTED' as const, reason: '', retryAfterMillis: 0 })) } });
  assert.equal(await client.report('vectors-labels-2-eps1', 'no'), 'ACCEPTED');
  await client.close();
});

test('HttpTransport binary form: Avro body, binary results, status codes mapped', async () => {
  const { binaryBatch } = await import('../src/envelope.js');
  const { TransportError } = await import('../src/transport.js');
  const report = { type: 'local' as const, workloadId: 'w', workloadVersion: 1, contentHash: 'h', deviceId: 'd', period: 1, sequence: 0,
    eventTime: 0, mechanism: 'grr', epsilon: 1, payload: new Uint8Array([1]), protocolVersion: 1 };
  let status = 200;
  let seen: Uint8Array | undefined;
  const fetch: FetchLike = async (_url, init) => {
    seen = init!.body as Uint8Array;
    const body = new Uint8Array([2, 2, 4, 0x10, 0x42, 0x41, 0x44, 0x5f, 0x56, 0x45, 0x52, 0x53, 0, 0]); // REJECTED "BAD_VERS" 0
    return { status, headers: { get: (n: string) => (n === 'Retry-After' ? '3' : null) }, text: async () => '', arrayBuffer: async () => body.buffer };
  };
  const t = new HttpTransport('http://127.0.0.1:1', { form: 'binary', fetch, now: () => 0 });
  assert.deepEqual(await t.send([report]), [{ status: 'REJECTED', reason: 'BAD_VERS', retryAfterMillis: 0 }]);
  assert.deepEqual(seen, binaryBatch([report]));
  const kinds: [number, string, number][] = [[400, 'PERMANENT', 0], [401, 'PERMANENT', 0], [403, 'PERMANENT', 0], [413, 'TOO_LARGE', 0],
    [429, 'RETRY', 3000], [503, 'RETRY', 3000], [408, 'RETRY', 0], [500, 'RETRY', 0]];
  for (const [s, kind, wait] of kinds) {
    status = s;
    await assert.rejects(t.send([report]), (e: unknown) => e instanceof TransportError && e.kind === kind && e.retryAfterMillis === wait);
  }
  assert.throws(() => new HttpTransport('http://ingest.example.com'), /https/);
});
