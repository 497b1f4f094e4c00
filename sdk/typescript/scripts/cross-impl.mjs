// Drives the bundled SDK (dist/full.min.js) under Node for the Java cross-implementation test
// (ingest CrossImplementationTest). Reads one JSON request on stdin, writes one JSON answer on stdout.
//   {"now": ms, "workloads": [{canonical, contentHash, ball?: {candidates, s}, box?: {k}}],
//    "devices": [{deviceId, seed, reports: [{workload, value}]}],          value: a string, or numbers (vectors)
//    "fingerprints": [{canonical, contentHash, ball?, box?}], "checks": [{workload, value}], "supports": [{canonical, …}]}
// -> {"devices": [{deviceId, outcomes, envelope}], "fingerprints": [hex | "unsupported: …"], "checks": [accepted],
//     "supports": [true | reason]}
// Secret randomness is a SplitMix64 stream from each device's public test seed: for tests only.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';

const bundle = process.argv[2] ?? new URL('../dist/full.min.js', import.meta.url).pathname;
const sdk = await import(pathToFileURL(bundle).href);
const req = JSON.parse(readFileSync(0, 'utf8'));

// The SDK's own derivation first; for a vector mean it cannot derive, the gateway's parameters (Java's choice).
const protocolOf = (entries) => (spec) => {
  const w = entries.find((x) => x.contentHash === spec.contentHash);
  try {
    return sdk.protocolFor(spec);
  } catch (e) {
    if (w && (w.ball || w.box)) return sdk.vectorProtocolWith(spec, w.ball ?? w.box);
    throw e;
  }
};

// Which specs this SDK derives a protocol for: true, or the reason it does not.
const supports = [];
for (const w of req.supports ?? []) {
  try { protocolOf([w])(await sdk.readSpec(w.canonical, w.contentHash)); supports.push(true); } catch (e) { supports.push(String(e && e.message || e)); }
}

const devices = [];
for (const dev of req.devices ?? []) {
  const sent = [];
  const client = await sdk.Client.create({
    deviceId: dev.deviceId, storage: new sdk.MemoryStorage(), protocol: protocolOf(req.workloads),
    workloads: req.workloads.map((w) => ({ canonical: w.canonical, contentHash: w.contentHash })),
    secretRandomness: new sdk.SplitMix64(BigInt(dev.seed)), sendInBackground: false, now: () => req.now,
    transport: { maxBatch: 500, send: async (b) => { sent.push(...b); return b.map(() => ({ status: 'ACCEPTED', reason: '', retryAfterMillis: 0 })); } },
  });
  const pending = dev.reports.map((r) => client.report(r.workload, r.value));
  while (client.stats().queued > 0) await client.sendNow();
  const outcomes = await Promise.all(pending);
  await client.close();
  devices.push({ deviceId: dev.deviceId, outcomes, envelope: sdk.jsonBatch(sent) });
}

// The protocol fingerprint of docs/wire-format.md §12 ("The fingerprint recipe").
const int32 = (v) => { const b = new Uint8Array(4); new DataView(b.buffer).setInt32(0, v); return b; };
const fingerprints = [];
for (const f of req.fingerprints ?? []) {
  try {
    const spec = await sdk.readSpec(f.canonical, f.contentHash);
    const p = protocolOf([f])(spec);
    const h = createHash('sha256');
    h.update(spec.mechanism + '/' + spec.protocolVersion);
    h.update(int32(p.payloadBytes)); h.update(int32(p.stateLength));
    const base = sdk.baseWord(spec.contentHash, { deviceId: 'fingerprint-device', period: 3, sequence: 0 });
    const add = (payload) => { h.update(int32(payload.length)); h.update(payload); };
    const d = spec.domain;
    if (d.kind === 'ball' || d.kind === 'box') {
      const dim = d.coordinates.length;
      for (let i = 0; i < 64; i++) {
        const t = i / 63;
        const v = Array.from({ length: dim }, (_, j) => { const s = ((i + j) % 3) / 2.0 * t; return d.kind === 'box' ? d.lo + (d.hi - d.lo) * s : d.radius * (2 * s - 1) / Math.sqrt(dim); });
        const src = new sdk.SplitMix64(BigInt(i));
        add(p.randomizeVector ? p.randomizeVector(v, base, src) : p.randomizeRaw(v.map(String).join(','), base, src));
      }
    } else if (p.randomizeRaw) {
      for (let i = 0; i < 64; i++) add(p.randomizeRaw('v' + i.toString(36), base, new sdk.SplitMix64(BigInt(i))));
    } else {
      const k = Math.min(64, sdk.universeSize(d));
      for (let x = 0; x < k; x++) add(p.randomize(x, base, new sdk.SplitMix64(BigInt(x))));
    }
    fingerprints.push(h.digest('hex'));
  } catch (e) {
    fingerprints.push('unsupported: ' + (e && e.message || e));
  }
}
// The vector rule (docs/sdk.md "Vector values"): accepted or not, for each {workload, value}.
const checks = [];
if (req.checks) {
  const specs = new Map();
  for (const w of req.workloads) { const s = await sdk.readSpec(w.canonical, w.contentHash); specs.set(s.id, s.domain); }
  for (const c of req.checks) {
    const d = specs.get(c.workload);
    const v = typeof c.value === 'string' ? sdk.parseVector(c.value, d.coordinates.length) : c.value;
    checks.push(v !== undefined && sdk.vectorRefusal(d, v) === undefined);
  }
}
process.stdout.write(JSON.stringify({ supports, devices, fingerprints, checks }));
