import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadVectors } from './vectors.js';
import { Client, Outcome } from '../src/client.js';
import { protocolFor } from '../src/protocols.js';
import { MemoryStorage } from '../src/storage.js';
import { FileStorage } from '../src/node-storage.js';
import { contentHash } from '../src/canonical.js';
import { ServedWorkload } from '../src/transport.js';

const W = loadVectors('grr').workloads[0]; // labels no, yes; ε = 1; budget 40 per PT24H; window PT1M
const served = { canonical: W.canonical as string, contentHash: W.contentHash as string };
const ID = 'vectors-labels-2-eps1';
const T = 1_717_286_400_000;
const accepting = { maxBatch: 500, send: async (b: readonly unknown[]) => b.map(() => ({ status: 'ACCEPTED' as const, reason: '', retryAfterMillis: 0 })) };
/** The grr workload with a budget of one report per period (ε = 1 of 1). */
export async function oneReportWorkload(): Promise<ServedWorkload> {
  const canonical = served.canonical.replace('"epsilonPerPeriod":40', '"epsilonPerPeriod":1');
  return { canonical, contentHash: await contentHash(canonical) };
}
const pending = (p: Promise<unknown>) => Promise.race([p.then(() => 'settled'), new Promise((r) => setTimeout(() => r('pending'), 30))]);

test('ready(): before the specs are loaded report answers NOT_READY and charges nothing; then it reports', async () => {
  let release!: (w: ServedWorkload[]) => void;
  const specs = new Promise<ServedWorkload[]>((r) => { release = r; });
  const client = Client.start({ deviceId: 'd', storage: new MemoryStorage(), protocol: protocolFor, sendInBackground: false, now: () => T,
    transport: { ...accepting, workloads: () => specs } });
  assert.equal(await client.report(ID, 'yes'), 'NOT_READY');
  assert.equal(await client.report(ID, 'yes').durable, false);
  assert.equal(await pending(client.ready()), 'pending');
  release([await oneReportWorkload()]);
  await client.ready();
  await client.ready(ID);
  await assert.rejects(client.ready('nope'), /unknown workload nope/);
  const o = client.report(ID, 'yes'); // the one report of the period: the NOT_READY ones charged nothing
  await client.sendNow();
  assert.equal(await o, 'ACCEPTED');
  assert.equal(await client.report(ID, 'no'), 'BUDGET_EXHAUSTED');
  await client.close();
});

test('ready() rejects when opening fails (content hash mismatch), and the store is released', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pgw-ready-'));
  const client = Client.start({ deviceId: 'd', storage: new FileStorage(dir), protocol: protocolFor, transport: accepting,
    workloads: [{ ...served, contentHash: '00'.repeat(32) }] });
  await assert.rejects(client.ready(), /content hash mismatch/);
  assert.equal(await client.report(ID, 'yes'), 'NOT_READY');
  await client.close();
  const again = await Client.create({ deviceId: 'd', storage: new FileStorage(dir), protocol: protocolFor, transport: accepting, workloads: [served] });
  await again.close();
  assert.throws(() => Client.start({ deviceId: '', storage: new MemoryStorage(), protocol: protocolFor, transport: accepting }), /deviceId/);
});

test('syncWrites: report starts its own write (no sender, no sync call) and durable resolves after it; default waits for the group commit', async () => {
  const saves: string[] = [];
  const storage = { load: async () => undefined, save: async (t: string) => { saves.push(t); } };
  const sync = await Client.create({ deviceId: 'd', storage, protocol: protocolFor, transport: accepting, workloads: [served],
    sendInBackground: false, syncWrites: true, now: () => T });
  const r = sync.report(ID, 'yes');
  assert.equal(await r.durable, true);
  assert.equal(saves.length, 1);
  assert.equal(JSON.parse(saves[0]).queue.length, 1);
  assert.equal(JSON.parse(saves[0]).charges.length, 1);
  await sync.sendNow();
  assert.equal(await r, 'ACCEPTED');
  await sync.close();

  const grouped: string[] = [];
  const group = await Client.create({ deviceId: 'd', storage: { load: async () => undefined, save: async (t: string) => { grouped.push(t); } },
    protocol: protocolFor, transport: accepting, workloads: [served], sendInBackground: false, now: () => T });
  const a = group.report(ID, 'yes'), b = group.report(ID, 'no');
  assert.equal(await pending(a.durable), 'pending');
  assert.equal(grouped.length, 0);
  await group.sync();
  assert.equal(await a.durable, true);
  assert.equal(await b.durable, true);
  assert.equal(grouped.length, 1, 'one write for both reports');
  await group.close();
});

test('syncWrites: a failed write settles STORE_FAILED, durable false, and keeps the charge', async () => {
  let fail = true;
  const storage = { load: async () => undefined, save: async () => { if (fail) throw new Error('disk full'); } };
  const client = await Client.create({ deviceId: 'd', storage, protocol: protocolFor, transport: accepting, workloads: [await oneReportWorkload()],
    sendInBackground: false, syncWrites: true, now: () => T });
  const r = client.report(ID, 'yes');
  assert.equal(await r.durable, false);
  assert.equal(await r, 'STORE_FAILED');
  fail = false;
  assert.equal(await client.report(ID, 'yes'), 'BUDGET_EXHAUSTED', 'the charge of a report that failed to be written stays');
  await client.close();
});

const CHILD = fileURLToPath(new URL('./crash-child.js', import.meta.url));

/** Runs the child on dir; resolves with its last line once it printed `line`, after killing it with SIGKILL. */
function runAndKill(dir: string, workload: ServedWorkload, syncWrites: boolean, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD], {
      env: { ...process.env, PGW_CRASH_CHILD: JSON.stringify({ dir, workload, syncWrites, id: ID, now: T }) }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes(line + '\n')) child.kill('SIGKILL');
    });
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error('child exited ' + code + ': ' + out))));
  });
}

test('crash safety (Node file store): a child killed by SIGKILL after durable resolved keeps the charge and the report', async () => {
  const workload = await oneReportWorkload();
  const dir = mkdtempSync(join(tmpdir(), 'pgw-crash-'));
  await runAndKill(dir, workload, true, 'durable');
  const sent: unknown[] = [];
  const next = await Client.create({ deviceId: 'device-crash', storage: new FileStorage(dir), protocol: protocolFor, workloads: [workload],
    transport: { maxBatch: 500, send: async (b) => { sent.push(...b); return accepting.send(b); } }, sendInBackground: false, now: () => T });
  assert.equal(next.stats().queued, 1, 'the report survived');
  assert.equal(await next.report(ID, 'no'), 'BUDGET_EXHAUSTED', 'the ledger spend survived');
  await next.sendNow();
  assert.equal(sent.length, 1);
  assert.equal((sent[0] as { sequence: number }).sequence, 0);
  await next.close();

  // the control: without syncWrites and without a sender nothing was written, so nothing was spent or queued
  const dir2 = mkdtempSync(join(tmpdir(), 'pgw-crash-'));
  await runAndKill(dir2, workload, false, 'reported');
  const fresh = await Client.create({ deviceId: 'device-crash', storage: new FileStorage(dir2), protocol: protocolFor, workloads: [workload],
    transport: accepting, sendInBackground: false, now: () => T });
  assert.equal(fresh.stats().queued, 0);
  const o: Outcome[] = [];
  const r = fresh.report(ID, 'no');
  await fresh.sendNow();
  o.push(await r);
  assert.deepEqual(o, ['ACCEPTED']);
  await fresh.close();
});

test('store writes never overlap: a sync() while a write is in flight waits for it (one temp file, one writer)', async () => {
  let inFlight = 0, most = 0, writes = 0;
  const storage = { load: async () => undefined, save: async () => {
    inFlight++; most = Math.max(most, inFlight); writes++;
    await new Promise((r) => setTimeout(r, 20));
    inFlight--;
  } };
  const client = await Client.create({ deviceId: 'd', storage, protocol: protocolFor, transport: accepting, workloads: [served], sendInBackground: false, now: () => T });
  const a = client.report(ID, 'yes');
  const first = client.sync();
  await new Promise((r) => setTimeout(r, 5)); // the first write is in flight
  const b = client.report(ID, 'no');
  const second = client.sync();
  await Promise.all([first, second]);
  assert.equal(most, 1);
  assert.equal(writes, 2);
  assert.equal(await a.durable, true);
  assert.equal(await b.durable, true);
  await client.close();
});
