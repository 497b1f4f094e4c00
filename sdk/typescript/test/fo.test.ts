import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadVectors } from './vectors.js';
import { readSpec } from '../src/spec.js';
import { universeIndex, universeSize } from '../src/universe.js';
import { protocolFor } from '../src/protocols.js';
import { baseWord, bytesToHex, hexToBytes, wordToHex } from '../src/coins.js';
import { ScriptedWordSource } from '../src/words.js';
function hexDouble(v: number): string {
  // Java Double.toHexString for normal positive doubles
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, v);
  const bits = dv.getBigUint64(0);
  const e = Number((bits >> 52n) & 0x7ffn) - 1023;
  let m = (bits & ((1n << 52n) - 1n)).toString(16).padStart(13, '0').replace(/0+$/, '');
  if (m === '') m = '0';
  return '0x1.' + m + 'p' + e;
}

for (const name of ['grr', 'oue', 'olh', 'subset-selection', 'hadamard-response', 'tree', 'mean', 'fourier', 'heavy-hitters', 'vector-means', 'gaussian-sign', 'factorization']) {
  const file = loadVectors(name);
  test(name + ' golden vectors', async (t) => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const specs = new Map<string, any>();
    for (const w of file.workloads) {
      await t.test('workload ' + w.name, async () => {
        const spec = await readSpec(w.canonical, w.contentHash);
        const k = universeSize(spec.domain);
        const p = protocolFor(spec);
        assert.equal(k, w.derived.k);
        assert.equal(hexDouble(p.epsilon ?? spec.epsilon), w.derived.epsilonValue);
        const derived = { ...p.derived, epsilonValue: hexDouble(p.epsilon ?? spec.epsilon) };
        assert.deepEqual(derived, w.derived);
        specs.set(w.name, { spec, p });
      });
    }
    for (const c of file.cases) {
      await t.test('case ' + c.name, () => {
        const { spec, p } = specs.get(c.workload);
        const base = baseWord(spec.contentHash, c.coordinates);
        assert.equal(wordToHex(base), c.baseWord);
        const src = ScriptedWordSource.fromHex(c.secretWords);
        let payload: Uint8Array;
        if (c.universeIndex === undefined) payload = p.randomizeRaw(c.value, base, src);
        else {
          const x = universeIndex(spec.domain, c.value);
          assert.equal(x, c.universeIndex);
          payload = p.randomize(x!, base, src);
        }
        assert.equal(bytesToHex(payload), c.payloadHex);
        assert.equal(src.consumed, c.wordsConsumed);
      });
    }
    for (const a of file.aggregates) {
      await t.test('aggregate ' + a.name, () => {
        const { spec, p } = specs.get(a.workload);
        const state = new Array<number>(p.stateLength).fill(0);
        let n = 0;
        for (const r of a.reports) {
          if (p.accumulate(state, hexToBytes(r.payloadHex), baseWord(spec.contentHash, r.coordinates))) n++;
        }
        assert.equal(n, a.n);
        assert.deepEqual(state, a.state);
      });
    }
  });
}
