import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fourier, fourierParams } from '../src/fourier.js';
import { bytesToHex } from '../src/coins.js';
import { WordSource } from '../src/words.js';

test('§11.1 parameter table: r, H, outputs, N', () => {
  const rows: [number, number, number, number, number[], number, bigint][] = [
    [8, 3, 0.5, 4, [0, 1, 4], 1120, 4479222727859873n], [8, 3, 1, 4, [0, 1, 4], 1120, 5583670158654932n],
    [8, 3, 4, 5, [0], 1792, 5745175755531564n], [4, 2, 0.5, 2, [0], 24, 3194504496177128n],
    [4, 2, 1, 2, [0], 24, 4281724265078805n], [4, 2, 4, 4, [0], 16, 7065940920190815n],
    [12, 2, 0.5, 4, [0, 1, 4], 7920, 4479222727859873n], [12, 2, 1, 5, [0, 1, 5], 25344, 3892723909817814n],
    [12, 2, 4, 4, [0], 7920, 7065940920190815n],
  ];
  for (const [d, t, eps, r, H, outputs, N] of rows) {
    const p = fourierParams(d, t, eps);
    assert.equal(p.r, r, `r for ${d} ${t} ${eps}`);
    assert.equal(p.H, H.reduce((m, j) => m | (1 << j), 0), `H for ${d} ${t} ${eps}`);
    assert.equal(p.subsets.length * 2 ** p.r, outputs);
    assert.equal(p.N, N, `N for ${d} ${t} ${eps}`);
  }
});

test('§11.2 payloads of scripted draws (d = 4, t = 2, ε = 1)', () => {
  const p = fourier(4, 2, 1);
  const uniformWord = (y: number, n: number) => (((BigInt(y) + 1n) * (1n << 32n) - 1n) / BigInt(n)) << 32n;
  const rows: [number, number, boolean, number, number, string][] = [
    [0, 0, true, 0, 0, '0000'], [0, 0, false, 0, 0, '0001'], [0, 3, true, 0, 2, '000c'], [0, 3, false, 0, 2, '000f'],
    [11, 0, true, 0, 0, '0003'], [11, 0, false, 0, 0, '0002'], [11, 3, true, 0, 2, '000f'], [11, 3, false, 0, 2, '000c'],
  ];
  for (const [x, s, c, i, j, hex] of rows) {
    const words = [uniformWord(s, 6), c ? 0n : (1n << 64n) - 1n, uniformWord(i, 1), uniformWord(j, 3)];
    let n = 0;
    const src: WordSource = { nextWord: () => words[n++] };
    assert.equal(bytesToHex(p.randomize(x, 0n, src)), hex, `x=${x} s=${s} c=${c} j=${j}`);
    assert.equal(n, 4);
  }
});
