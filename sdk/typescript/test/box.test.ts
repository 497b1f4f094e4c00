import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { boxEpsilonText, boxRandomize } from '../src/box.js';
import { meanParams } from '../src/mean.js';
import { epsilonOf } from '../src/exact.js';
import { baseWord, bytesToHex } from '../src/coins.js';
import { WordSource } from '../src/words.js';

const page = readFileSync(new URL('../../../../docs/wire-format.md', import.meta.url), 'utf8');
const H = '6015932ad1cd6f1fa97220a61238031dd6db56d0387a5b8d67bb3b4ac777dbfd';

test('ε_k: ε/k rounded down to 30 significant digits', () => {
  assert.equal(boxEpsilonText('4', 3), '1.33333333333333333333333333333');
  assert.equal(boxEpsilonText('2', 2), '1');
  assert.equal(boxEpsilonText('6', 1), '6');
});

test('§10.6: every row (sampled coordinates, levels, payload of scripted outcomes)', () => {
  const rows = page.split('\n').filter((l) => /^\| (duchi|piecewise|hybrid) ε=\d+ k=\d+ ε_k=/.test(l));
  assert.equal(rows.length, 12);
  for (const row of rows) {
    const cells = row.split('|').slice(1, -1).map((c) => c.trim());
    const [, mech, eps, k, epsK] = /^(\w+) ε=(\d+) k=(\d+) ε_k=([\d.]+)$/.exec(cells[0])!;
    assert.equal(boxEpsilonText(eps, +k), epsK);
    const p = { d: 5, lo: 0, hi: 10, levels: 11, mechanism: mech as 'duchi', k: +k };
    const [dev, period, seq] = cells[1].split(',').map((v) => v.trim().replace(/`/g, ''));
    const base = baseWord(H, { deviceId: dev, period: +period, sequence: +seq });
    const values = cells[3].slice(1, -1).split(',').map((v) => v.trim());
    const mp = meanParams(11, epsilonOf(epsK));
    // scripted outcomes → words: booleans as 0 / all ones; integers are uniforms over w then R (piecewise order)
    const outcomes = cells[5].split(',').map((v) => v.trim());
    let ints = 0;
    const words = outcomes.map((o) => {
      if (o === 'true') return 0n;
      if (o === 'false') return (1n << 64n) - 1n;
      const n = ints++ % 2 === 0 ? mp.w : mp.R;
      return (((BigInt(o) + 1n) << 32n) - 1n) / BigInt(n) << 32n;
    });
    let used = 0;
    const src: WordSource = { nextWord: () => words[used++] };
    const r = boxRandomize(values, base, p, eps, src)!;
    assert.deepEqual(r.sampled, cells[2].slice(1, -1).split(' ').map(Number), row);
    assert.deepEqual(r.levels, cells[4].slice(1, -1).split(' ').map(Number), row);
    assert.equal(bytesToHex(r.payload), cells[6].replace(/`/g, ''), row);
    assert.equal(used, words.length);
  }
});

test('vector-means.json, box workloads (k derived from the spec, §10.5)', async () => {
  const { loadVectors } = await import('./vectors.js');
  const { readSpec } = await import('../src/spec.js');
  const { parseVector } = await import('../src/universe.js');
  const { ScriptedWordSource } = await import('../src/words.js');
  const { hexToBytes } = await import('../src/coins.js');
  const { boxAccumulate, scalarOutputs } = await import('../src/box.js');
  const { boxSampled } = await import('../src/vector-params.js');
  const file = loadVectors('vector-means');
  let cases = 0, aggregates = 0;
  for (const w of file.workloads) {
    const spec = await readSpec(w.canonical, w.contentHash);
    if (spec.domain.kind !== 'box') continue;
    const dom = spec.domain;
    const p = { d: dom.coordinates.length, lo: dom.lo, hi: dom.hi, levels: dom.levels, mechanism: spec.mechanism as 'duchi', k: boxSampled(dom.coordinates.length, dom.levels, spec.mechanism as 'duchi', spec.epsilonText!) };
    assert.equal(p.k, w.derived.sampled);
    assert.equal(2 * p.k, w.derived.payloadBytes);
    assert.equal(p.d * scalarOutputs(p.mechanism), w.derived.stateLength);
    for (const c of file.cases.filter((c: { workload: string }) => c.workload === w.name)) {
      const base = baseWord(spec.contentHash, c.coordinates);
      assert.equal(base.toString(16).padStart(16, '0'), c.baseWord);
      const x = parseVector(c.value, p.d)!;
      const src = ScriptedWordSource.fromHex(c.secretWords);
      const r = boxRandomize(x.map(String), base, p, spec.epsilonText!, src)!;
      assert.equal(bytesToHex(r.payload), c.payloadHex, c.name);
      assert.equal(src.consumed, c.wordsConsumed);
      cases++;
    }
    for (const a of file.aggregates.filter((a: { workload: string }) => a.workload === w.name)) {
      const state = new Array<number>(w.derived.stateLength).fill(0);
      let n = 0;
      for (const r of a.reports) if (boxAccumulate(state, hexToBytes(r.payloadHex), baseWord(spec.contentHash, r.coordinates), p)) n++;
      assert.equal(n, a.n);
      assert.deepEqual(state, a.state);
      aggregates++;
    }
  }
  assert.equal(cases, 3);
  assert.equal(aggregates, 2);
});
