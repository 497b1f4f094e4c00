// The child process of the crash-safety test (client-ready.test.ts): reports once, prints a line, then hangs until
// the parent kills it with SIGKILL. Does nothing unless PGW_CRASH_CHILD is set (the test runner loads every file).
import { Client } from '../src/client.js';
import { protocolFor } from '../src/protocols.js';
import { FileStorage } from '../src/node-storage.js';

const arg = process.env.PGW_CRASH_CHILD;
async function main(arg: string) {
  const { dir, workload, syncWrites, id, now } = JSON.parse(arg);
  const client = await Client.create({ deviceId: 'device-crash', storage: new FileStorage(dir), protocol: protocolFor, workloads: [workload],
    transport: { maxBatch: 500, send: () => new Promise(() => undefined) }, sendInBackground: false, syncWrites, now: () => now });
  const r = client.report(id, 'yes');
  if (syncWrites) {
    if (!(await r.durable)) throw new Error('not durable');
    process.stdout.write('durable\n');
  } else {
    process.stdout.write('reported\n');
  }
  setInterval(() => undefined, 1000);
}
if (arg) void main(arg);
