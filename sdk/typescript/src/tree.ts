/** `tree` protocol version 2: hierarchical histograms over ordered buckets (wire-format §15.7). */
import { bernoulli, uniformInt } from './draws.js';
import { publicStream } from './coins.js';
import { WordSource } from './words.js';
import { Decimal, decRat, lowerBoundL, numerator, rat } from './exact.js';
import { LocalProtocol, olhHash, olhRange, width } from './fo.js';

interface Level {
  nodes: number;
  oracle: 'grr' | 'olh';
  g: number; // olh only
  N: bigint;
  p: number;
  q: number;
  range: number;
}

interface Shape { B: number; h: number; D: number[]; span: number[] }

function shape(k: number, B: number): Shape {
  let h = 0, pw = 1;
  while (pw < k) { pw *= B; h++; }
  const D: number[] = [], span: number[] = [];
  for (let l = 0; l <= h; l++) { span.push(B ** (h - l)); D.push(Math.ceil(k / B ** (h - l))); }
  return { B, h, D, span };
}

function uModel(D: number, p: number, q: number, n: number): number {
  const f = 1.0 / D;
  const v = ((f * p) * (1 - p) + ((1 - f) * q) * (1 - q)) / ((n * (p - q)) * (p - q));
  let sum = 0;
  for (let x = 0; x < D; x++) sum += v;
  return sum / D;
}

function levels(s: Shape, eps: number, L: Decimal): Level[] {
  const g = olhRange(eps);
  const Nolh = numerator(decRat(L), rat(BigInt(g - 1)));
  const out: Level[] = [];
  for (let l = 1; l <= s.h; l++) {
    const D = s.D[l];
    const Ngrr = numerator(decRat(L), rat(BigInt(D - 1)));
    const pg = Number(Ngrr) / 2 ** 53, qg = (1 - pg) / (D - 1);
    const po = Number(Nolh) / 2 ** 53, qo = 1.0 / g;
    if (uModel(D, po, qo, 1.0) < uModel(D, pg, qg, 1.0)) out.push({ nodes: D, oracle: 'olh', g, N: Nolh, p: po, q: qo, range: g });
    else out.push({ nodes: D, oracle: 'grr', g: 0, N: Ngrr, p: pg, q: qg, range: D });
  }
  return out;
}

function children(s: Shape, l: number, u: number): [number, number] {
  return [u * s.B, Math.min((u + 1) * s.B, s.D[l + 1])];
}

/** The model variance sum S(B) of the workload's queries (§15.7), or +∞ handling as specified. */
function querySum(k: number, s: Shape, lv: Level[], family: string): number {
  const { h, D } = s;
  const n = 1.0, m = n / h;
  // design weights
  const w: number[] = [0];
  for (let l = 1; l <= h; l++) {
    const o = lv[l - 1];
    const V = uModel(D[l], o.p, o.q, m) + ((1.0 / D[l]) * (1 - 1.0 / D[l])) * Math.max(0, 1 / m - 1 / n);
    w.push(1 / V);
  }
  // plan(w)
  const alpha: number[][] = [], sv: number[][] = [], beta: number[][] = [];
  for (let l = h; l >= 0; l--) {
    alpha[l] = []; sv[l] = [];
    for (let u = 0; u < D[l]; u++) {
      let sc: number;
      if (l === h) sc = Infinity;
      else { sc = 0; const [a, b] = children(s, l, u); for (let c = a; c < b; c++) sc += sv[l + 1][c]; }
      let al: number, sl: number;
      if (w[l] > 0 && Number.isFinite(sc)) { al = (w[l] * sc) / (w[l] * sc + 1); sl = sc / (w[l] * sc + 1); }
      else if (w[l] > 0) { al = 1; sl = 1 / w[l]; }
      else { al = 0; sl = sc; }
      alpha[l][u] = al; sv[l][u] = sl;
    }
  }
  for (let l = 0; l < h; l++) {
    beta[l + 1] = [];
    for (let p = 0; p < D[l]; p++) {
      const [a, b] = children(s, l, p);
      let inf = 0, S = 0;
      for (let c = a; c < b; c++) { if (sv[l + 1][c] === Infinity) inf++; else S += sv[l + 1][c]; }
      for (let c = a; c < b; c++) beta[l + 1][c] = inf > 0 ? (sv[l + 1][c] === Infinity ? 1.0 / inf : 0) : sv[l + 1][c] / S;
    }
  }
  // F_l with uniform frequencies
  const f = 1.0 / k;
  const F: number[][] = [];
  for (let l = 1; l <= h; l++) {
    F[l] = [];
    for (let u = 0; u < D[l]; u++) {
      let acc = 0;
      const lo = u * s.span[l], hi = Math.min(k, (u + 1) * s.span[l]);
      for (let x = lo; x < hi; x++) acc += f;
      F[l][u] = Math.min(1, acc);
    }
  }
  const variance = (c: number[]): number => {
    const fbar: number[][] = [], zbar: number[][] = [], ybar: number[][] = [];
    fbar[h] = c;
    for (let l = h; l >= 1; l--) {
      zbar[l] = new Array(D[l]).fill(0);
      fbar[l - 1] = new Array(D[l - 1]).fill(0);
      for (let p = 0; p < D[l - 1]; p++) {
        const [a, b] = children(s, l - 1, p);
        let r = 0;
        for (let u = a; u < b; u++) { zbar[l][u] += fbar[l][u]; r += beta[l][u] * fbar[l][u]; }
        fbar[l - 1][p] += r;
        for (let u = a; u < b; u++) zbar[l][u] -= r;
      }
    }
    for (let l = 1; l <= h; l++) {
      ybar[l] = [];
      for (let u = 0; u < D[l]; u++) {
        ybar[l][u] = alpha[l][u] * zbar[l][u];
        if (l < h) { const [a, b] = children(s, l, u); for (let c2 = a; c2 < b; c2++) zbar[l + 1][c2] += (1 - alpha[l][u]) * zbar[l][u]; }
      }
    }
    let total = 0;
    for (let l = 1; l <= h; l++) {
      const o = lv[l - 1];
      const r0 = o.oracle === 'olh' ? 1 / (o.g * o.g) : 0;
      const r1 = o.oracle === 'olh' ? o.p / o.g : 0;
      const cv = ybar[l];
      let c1 = 0, c2 = 0;
      for (const x of cv) { c1 += x; c2 += x * x; }
      let t = 0;
      for (let v = 0; v < D[l]; v++) {
        if (F[l][v] === 0) continue;
        const rest = c1 - cv[v];
        const second = o.q * c2 + (o.p - o.q) * cv[v] * cv[v] + r0 * (rest * rest - (c2 - cv[v] * cv[v])) + 2 * r1 * cv[v] * rest;
        const mean = o.q * c1 + (o.p - o.q) * cv[v];
        t += F[l][v] * Math.max(0, second - mean * mean);
      }
      total += t / ((m * (o.p - o.q)) * (o.p - o.q));
    }
    if (h > 1) {
      let samp = 0;
      for (let x = 0; x < k; x++) {
        if (f === 0) continue;
        let s1 = 0, s2 = 0;
        for (let l = 1; l <= h; l++) { const r = ybar[l][Math.floor(x / s.span[l])]; s1 += r; s2 += r * r; }
        samp += f * Math.max(0, h * s2 - s1 * s1);
      }
      total += samp / n;
    }
    return total;
  };
  let S = 0;
  const c = new Array<number>(k).fill(0);
  if (family === 'histogram') {
    for (let q = 0; q < k; q++) { c.fill(0); c[q] = 1; S += variance(c.slice()); }
  } else if (family === 'cdf') {
    for (let t = 1; t <= k - 1; t++) { for (let x = 0; x < k; x++) c[x] = x < t ? 1 : 0; S += variance(c.slice()); }
  } else if (family === 'range') {
    for (let a = 0; a < k; a++) for (let e = a; e < k; e++) {
      for (let x = 0; x < k; x++) c[x] = a <= x && x <= e ? 1 : 0;
      S += variance(c.slice());
    }
  } else throw new Error('spec field family: tree serves cdf, range or histogram over buckets, not ' + family);
  return S;
}

/** The branching factor B of tree version 2 (§15.7). */
export function branching(k: number, eps: number, family: string, L: Decimal = lowerBoundL(eps)): number {
  if (k > 2048) return 4;
  let best = 2, bestS = Infinity;
  for (let B = 2; B <= Math.min(16, k); B++) {
    const s = shape(k, B);
    const S = querySum(k, s, levels(s, eps, L), family);
    if (S < bestS) { bestS = S; best = B; }
  }
  return best;
}

export function tree(k: number, eps: number, family: string, L: Decimal = lowerBoundL(eps)): LocalProtocol {
  const B = branching(k, eps, family, L);
  const s = shape(k, B);
  const lv = levels(s, eps, L);
  const w = Math.max(...lv.map((o) => width(o.range)));
  const offsets: number[] = [];
  let stateLength = s.h;
  for (const o of lv) { offsets.push(stateLength); stateLength += o.nodes; }
  const levelOf = (base: bigint) => 1 + uniformInt(publicStream(base, 0x200), s.h);
  const keyOf = (base: bigint) => publicStream(base, 0x201).nextWord();
  return {
    mechanism: 'tree', payloadBytes: w, stateLength,
    derived: {
      k, payloadBytes: w, stateLength, B, height: s.h,
      levels: lv.map((o, i) => o.oracle === 'olh'
        ? { level: i + 1, nodes: o.nodes, oracle: 'olh', g: o.g, keepNumerator: Number(o.N) }
        : { level: i + 1, nodes: o.nodes, oracle: 'grr', keepNumerator: Number(o.N) }),
    },
    randomize(x: number, base: bigint, src: WordSource) {
      const l = levelOf(base);
      const o = lv[l - 1];
      const a = Math.floor(x / s.span[l]);
      const hit = bernoulli(src, o.N);
      const r = uniformInt(src, o.range - 1);
      const t = o.oracle === 'olh' ? olhHash(keyOf(base), a, o.g) : a;
      let y = hit ? t : r >= t ? r + 1 : r;
      const out = new Uint8Array(w);
      for (let i = w - 1; i >= 0; i--) { out[i] = y & 0xff; y = Math.floor(y / 256); }
      return out;
    },
    accumulate(state, p, base) {
      if (p.length !== w) return false;
      const l = levelOf(base);
      const o = lv[l - 1];
      let y = 0;
      for (const b of p) y = y * 256 + b;
      if (y >= o.range) return false;
      state[l - 1]++;
      if (o.oracle === 'grr') state[offsets[l - 1] + y]++;
      else {
        const key = keyOf(base);
        for (let v = 0; v < o.nodes; v++) if (olhHash(key, v, o.g) === y) state[offsets[l - 1] + v]++;
      }
      return true;
    },
  };
}
