import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { VECTORS, loadVectors } from './vectors.js';
import { NumberToken, canonicalize, contentHash, parseJson } from '../src/canonical.js';
import { canonicalFromWorkloadFile } from '../src/workload-file.js';
import { readSpec } from '../src/spec.js';
import { avroRecord, binaryBatch, framedRecord, jsonBatch, LocalReport, Report, decodeBinaryResults } from '../src/envelope.js';
import { bytesToHex, hexToBytes } from '../src/coins.js';

test('canonical-form.json: every input gives canonical and contentHash, and canonical reads back to itself', async (t) => {
  // token-preserving parse: the inputs' number tokens matter (0.1 vs 0.1000…)
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const file = parseJson(readFileSync(new URL('canonical-form.json', VECTORS), 'utf8')) as any;
  for (const c of file.cases) {
    await t.test(c.name, async () => {
      assert.equal(canonicalFromWorkloadFile(c.input), c.canonical);
      assert.equal(await contentHash(c.canonical), c.contentHash);
      assert.equal(canonicalize(parseJson(c.canonical)), c.canonical);
      const spec = await readSpec(c.canonical, c.contentHash);
      assert.equal(spec.contentHash, c.contentHash);
    });
  }
});

test('readSpec refuses a served hash that differs from the computed one, and a non-canonical text', async () => {
  const c = loadVectors('grr').workloads[0];
  await assert.rejects(readSpec(c.canonical, '00'.repeat(32)), /content hash mismatch/);
  await assert.rejects(readSpec(c.canonical.replace('"epsilonPerReport":1', '"epsilonPerReport":1.0')), /canonical/);
});

function reportOf(c: { record: string; fields: Record<string, unknown> }): Report {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const f = c.fields as any;
  const exact = (v: NumberToken) => (Number.isSafeInteger(v.value) ? v.value : BigInt(v.text));
  const common = {
    workloadId: f.workloadId, workloadVersion: f.workloadVersion.value, contentHash: f.contentHash, deviceId: f.deviceId,
    period: exact(f.period), sequence: f.sequence.value, eventTime: exact(f.eventTime),
  };
  return c.record === 'LocalReport'
    ? { type: 'local', ...common, mechanism: f.mechanism, epsilon: f.epsilon.value, payload: hexToBytes(f.payload), protocolVersion: f.protocolVersion.value }
    : { type: 'central', ...common, value: f.value };
}

test('envelope.json: Avro record, framing, credential', async (t) => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const file = parseJson(readFileSync(new URL('envelope.json', VECTORS), 'utf8')) as any;
  for (const c of file.cases) {
    await t.test(c.name, async () => {
      const r = reportOf(c);
      assert.equal(bytesToHex(avroRecord(r)), c.avroHex);
      assert.equal(bytesToHex(framedRecord(r, c.schemaId.value)), c.framedHex);
      assert.equal(c.kafka.keyHex, bytesToHex(new TextEncoder().encode(r.deviceId)));
      if (c.credential !== undefined) {
        const key = await crypto.subtle.importKey('raw', hexToBytes(c.credentialKeyHex), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
        const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode('pgw-device-credential-v1|' + r.deviceId)));
        const b64url = Buffer.from(mac).toString('base64url');
        assert.equal('v1.' + c.credentialKeyId + '.' + b64url, c.credential);
      }
    });
  }
});

const example: LocalReport = { type: 'local', workloadId: 'w', workloadVersion: 1, contentHash: 'h', deviceId: 'd', period: 1, sequence: 0,
  eventTime: 0, mechanism: 'grr', epsilon: 1.0, payload: new Uint8Array([1]), protocolVersion: 1 };

test('HTTPS binary body: the example of "Report envelope over HTTPS"', () => {
  assert.equal(bytesToHex(binaryBatch([example])).replace(/(..)/g, '$1 ').trim(),
    '02 02 00 02 77 02 02 68 02 64 02 00 00 06 67 72 72 00 00 00 00 00 00 f0 3f 02 01 02 00');
});

test('HTTPS JSON body and results', () => {
  const body = JSON.parse(jsonBatch([example, { type: 'central', workloadId: 'c', workloadVersion: 2, contentHash: 'x', deviceId: 'd', period: 0, sequence: 1, eventTime: 0, value: 'b' }]));
  assert.deepEqual(body.reports[0], { type: 'local', workloadId: 'w', workloadVersion: 1, contentHash: 'h', deviceId: 'd', period: 1,
    sequence: 0, eventTime: 0, mechanism: 'grr', epsilon: 1, payload: 'AQ==', protocolVersion: 1 });
  assert.equal(body.reports[1].type, 'central');
  // ReportResults: version 1, 2 results (ACCEPTED "" 0; RETRY "" 1500), end
  const bin = new Uint8Array([2, 4, 0, 0, 0, 6, 0, 0xb8, 0x17, 0]);
  assert.deepEqual(decodeBinaryResults(bin), [
    { status: 'ACCEPTED', reason: '', retryAfterMillis: 0 }, { status: 'RETRY', reason: '', retryAfterMillis: 1500 }]);
  assert.throws(() => decodeBinaryResults(new Uint8Array([2, 0, 0])), /trailing/);
});
