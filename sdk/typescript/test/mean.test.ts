import { test } from 'node:test';
import assert from 'node:assert/strict';
import { meanParams, meanProtocol } from '../src/mean.js';
import { TWO53 } from '../src/draws.js';
import { bytesToHex } from '../src/coins.js';
import { WordSource } from '../src/words.js';

test('§7.4 laws at levels = 1025: duchi numerators, piecewise w, N, up(1), hybrid β (ε = 0.75 pins fdlibm)', () => {
  const rows: [number, bigint, bigint, number, bigint, bigint, bigint][] = [
    [0.5, 3400584030633984n, 5606615224107008n, 448, 5060721462519172n, 5066549580791808n, 0n],
    [0.75, 2889701381693440n, 6117497873047552n, 417, 5337303771417759n, 5339228464480256n, 2816647775023474n],
    [1, 2422408970133504n, 6584790284607488n, 387, 5610117773025198n, 5603111255146496n, 3544056748599798n],
    [4, 162005376966656n, 8845193877774336n, 122, 7932953408972012n, 7934075906031616n, 7788207392432013n],
  ];
  for (const [eps, p0, p1024, w, N, up1, beta] of rows) {
    const p = meanParams(1025, eps);
    assert.equal(TWO53 / 2n + (0n - 1024n) * p.s, p0, 'duchi P(+|0) at ' + eps);
    assert.equal(TWO53 / 2n + (2048n - 1024n) * p.s, p1024, 'duchi P(+|1024) at ' + eps);
    assert.equal(p.w, w, 'w at ' + eps);
    assert.equal(p.N, N, 'N at ' + eps);
    assert.equal(((BigInt(p.R) % 1024n) * TWO53) / 1024n, up1, 'up(1) at ' + eps);
    assert.equal(p.beta, beta, 'β at ' + eps);
  }
});

/** Scripts draw outcomes as words: true → 0, false → all ones, a uniform outcome y of uniformInt(n) → its word. */
function outcomes(list: (boolean | [number, number])[]): WordSource & { used: () => number } {
  let i = 0;
  return {
    used: () => i,
    nextWord() {
      const o = list[i++];
      if (typeof o === 'boolean') return o ? 0n : (1n << 64n) - 1n;
      const [y, n] = o;
      return (((BigInt(y) + 1n) * (1n << 32n) - 1n) / BigInt(n)) << 32n;
    },
  };
}

test('§7.5 payloads of scripted draw outcomes (ε = 1, levels = 1025)', () => {
  const { w, R } = meanParams(1025, 1);
  const rows: [string, number, (boolean | [number, number])[], string][] = [
    ['duchi', 700, [true], '0001'],
    ['piecewise', 700, [true, true, [17, w], [5, R]], '01c5'],
    ['piecewise', 700, [false, false, [17, w], [500, R]], '0377'],
    ['hybrid', 3, [false, true, true, false, [0, w], [0, R]], '0401'],
  ];
  for (const [m, x, draws, hex] of rows) {
    const src = outcomes(draws);
    assert.equal(bytesToHex(meanProtocol(m as 'duchi', 1025, 1).randomize(x, 0n, src)), hex, m + ' ' + x);
    assert.equal(src.used(), draws.length);
  }
});
