/**
 * In a real browser: headless Chromium loads a page that imports the bundled SDK, fetches the spec from a fake
 * ingestion service (GET /v1/workloads), reports 200 values through five clients and sends them to
 * POST /v1/reports with the JSON envelope. The service checks every report and the GRR estimate of the values.
 * Skipped (with a message) when no chromium is installed. Not the gateway's own ingestion service (see README).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { loadVectors } from './vectors.js';

const chromium = ['chromium', 'chromium-browser', 'google-chrome'].find((c) => spawnSync('sh', ['-c', 'command -v ' + c]).status === 0);

test('browser: the bundled SDK reports from headless Chromium to an HTTPS-style ingestion endpoint', { skip: chromium ? false : 'no chromium installed', timeout: 90_000 }, async () => {
  const W = loadVectors('grr').workloads[0]; // labels no, yes; ε = 1
  const root = new URL('../../', import.meta.url).pathname;
  const bundle = await build({ entryPoints: [join(root, 'src/index.ts')], bundle: true, format: 'esm', platform: 'browser', write: false, minify: true,
    plugins: [{ name: 'js-to-ts', setup(b) { b.onResolve({ filter: /^\.\/.*\.js$/ }, (a) => ({ path: join(a.resolveDir, a.path.replace(/\.js$/, '.ts')) })); } }] });
  const page = `<!doctype html><script type="module">
    import { Client, protocolFor, MemoryStorage, IndexedDbStorage } from '/sdk.js';
    const outcomes = [];
    try {
      // IndexedDB: a report queued while the endpoint is unreachable survives into a second client, which sends it
      const offline = { maxBatch: 500, send: async () => { throw new Error('offline'); } };
      const a = await Client.create({ deviceId: 'browser-idb', storage: new IndexedDbStorage('pgw-test'), protocol: protocolFor,
        transport: { ...offline, workloads: async () => (await fetch('/v1/workloads').then((r) => r.json())).map((d) => ({ canonical: d.canonicalForm, contentHash: d.contentHash })) }, sendInBackground: false });
      const first = a.report('vectors-labels-2-eps1', 'yes');
      await a.close();
      outcomes.push('idb:' + await first);
      const b = await Client.create({ deviceId: 'browser-idb', endpoint: location.origin, credential: 'v1.k.test', storage: new IndexedDbStorage('pgw-test'), protocol: protocolFor });
      outcomes.push('idb-queued:' + b.stats().queued);
      await b.sendNow();
      outcomes.push('idb-accepted:' + b.stats().accepted);
      await b.close();
      for (let d = 0; d < 5; d++) {
        const client = await Client.create({ deviceId: 'browser-' + d, endpoint: location.origin, credential: 'v1.k.test', storage: new MemoryStorage(), protocol: protocolFor });
        const pending = [];
        for (let i = 0; i < 40; i++) pending.push(client.report('vectors-labels-2-eps1', i < 30 ? 'yes' : 'no'));
        outcomes.push(...await Promise.all(pending));
        await client.close();
      }
    } catch (e) { outcomes.push(String(e)); }
    await fetch('/done', { method: 'POST', body: JSON.stringify(outcomes) });
  </script>`;
  const reports: any[] = [];
  let done: (o: string[]) => void;
  const finished = new Promise<string[]>((r) => { done = r; });
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      if (process.env.PGW_DEBUG) console.error('REQ', req.method, req.url);
      if (req.url === '/') { res.setHeader('Content-Type', 'text/html'); res.end(page); return; }
      if (req.url === '/sdk.js') { res.setHeader('Content-Type', 'text/javascript'); res.end(bundle.outputFiles[0].contents); return; }
      if (req.url === '/v1/workloads') { res.end(JSON.stringify([{ canonicalForm: W.canonical, contentHash: W.contentHash }])); return; }
      if (req.url === '/v1/reports' && req.method === 'POST') {
        assert.equal(req.headers['authorization'], 'Bearer v1.k.test');
        assert.equal(req.headers['content-type'], 'application/vnd.pgw.reports+json');
        const batch = JSON.parse(body);
        reports.push(...batch.reports);
        res.setHeader('Content-Type', 'application/vnd.pgw.results+json');
        res.end(JSON.stringify({ envelopeVersion: 1, results: batch.reports.map(() => ({ status: 'ACCEPTED', reason: '', retryAfterMillis: 0 })) }));
        return;
      }
      if (req.url === '/done') { res.end('ok'); done(JSON.parse(body)); return; }
      res.statusCode = 404; res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const profile = mkdtempSync(join(tmpdir(), 'pgw-chromium-'));
  const child = spawn(chromium!, ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', ...(process.env.PGW_DEBUG ? ['--enable-logging=stderr', '--v=0'] : []), '--user-data-dir=' + profile,
    `http://127.0.0.1:${port}/`], { stdio: process.env.PGW_DEBUG ? 'inherit' : 'ignore', detached: true });
  try {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const outcomes = await Promise.race([finished, new Promise<string[]>((_, rej) => { timer = setTimeout(() => rej(new Error('page did not finish')), 80_000); })])
      .finally(() => clearTimeout(timer));
    assert.deepEqual(outcomes.slice(0, 3), ['idb:STILL_QUEUED', 'idb-queued:1', 'idb-accepted:1']);
    assert.deepEqual(outcomes.slice(3), new Array(200).fill('ACCEPTED'));
    assert.equal(reports.length, 201);
    assert.equal(reports.shift().deviceId, 'browser-idb');
    const seen = new Set<string>();
    let ones = 0;
    for (const r of reports) {
      assert.equal(r.type, 'local');
      assert.equal(r.contentHash, W.contentHash);
      assert.equal(r.mechanism, 'grr');
      assert.equal(r.epsilon, 1);
      assert.ok(['AA==', 'AQ=='].includes(r.payload));
      if (r.payload === 'AQ==') ones++;
      seen.add(r.deviceId + '/' + r.period + '/' + r.sequence);
    }
    assert.equal(seen.size, 200, 'coordinates are unique');
    // GRR estimate of the frequency of 'yes' (true value 0.75) within 4 standard errors
    const p = 6584790284608188 / 2 ** 53, q = 1 - p;
    const est = (ones / 200 - q) / (p - q);
    const se = Math.sqrt(0.25 / 200) / (p - q);
    assert.ok(Math.abs(est - 0.75) < 4 * se, `estimate ${est} vs 0.75 ± ${4 * se}`);
  } finally {
    // the browser and its helper processes form one process group, started here: end that group only
    try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ }
    server.closeAllConnections();
    server.close();
    await new Promise((r) => setTimeout(r, 200));
    try { rmSync(profile, { recursive: true, force: true, maxRetries: 5 }); } catch { /* a leftover temp profile is harmless */ }
  }
});
