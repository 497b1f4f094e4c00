/** The universe index of a raw value (wire-format §14). */
import { Domain } from './spec.js';

/** Java String.trim: removes leading and trailing characters <= U+0020. */
export function javaTrim(s: string): string {
  let a = 0, b = s.length;
  while (a < b && s.charCodeAt(a) <= 0x20) a++;
  while (b > a && s.charCodeAt(b - 1) <= 0x20) b--;
  return s.slice(a, b);
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** Parses a decimal number to the nearest double; refuses other Java forms (§14 "Number syntax"). */
export function parseNumber(s: string): number | undefined {
  if (!NUMBER.test(s)) return undefined;
  const v = Number(s);
  return Number.isFinite(v) ? v : undefined;
}

export function universeSize(d: Domain): number | undefined {
  switch (d.kind) {
    case 'labels': case 'points': return d.labels.length;
    case 'buckets': return d.edges.length - 1;
    case 'attributes': return 2 ** d.names.length;
    case 'range': return d.levels;
    default: return undefined;
  }
}

/** The index of a raw value, or undefined when the value is refused. */
export function universeIndex(d: Domain, raw: string): number | undefined {
  const t = javaTrim(raw);
  switch (d.kind) {
    case 'labels': case 'points': {
      const i = d.labels.indexOf(t);
      return i < 0 ? undefined : i;
    }
    case 'buckets': {
      const v = parseNumber(t);
      const e = d.edges;
      if (v === undefined || !(v >= e[0] && v <= e[e.length - 1])) return undefined;
      let i = e.length - 2;
      while (i > 0 && e[i] > v) i--;
      return i;
    }
    case 'attributes': {
      const parts = t.split(',');
      if (parts.length !== d.names.length) return undefined;
      let x = 0;
      for (let j = 0; j < parts.length; j++) {
        const p = javaTrim(parts[j]);
        if (p === '1') x += 2 ** j; else if (p !== '0') return undefined;
      }
      return x;
    }
    case 'range': {
      const v = parseNumber(t);
      if (v === undefined || !(v >= d.lo && v <= d.hi)) return undefined;
      const pos = ((v - d.lo) / (d.hi - d.lo)) * (d.levels - 1);
      const b = Math.min(d.levels - 1, Math.floor(pos));
      return b < d.levels - 1 && pos - b > 0.5 ? b + 1 : b;
    }
    default:
      return undefined;
  }
}

/** §14 `ball`, `box`: trimmed, one pair of surrounding brackets removed, split at ',', each trimmed and parsed. */
export function parseVector(raw: string, d: number): number[] | undefined {
  let t = javaTrim(raw);
  if (t.startsWith('[') && t.endsWith(']')) t = t.slice(1, -1);
  const parts = t.split(',');
  if (parts.length !== d) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    const v = parseNumber(javaTrim(p));
    if (v === undefined) return undefined;
    out.push(v);
  }
  return out;
}
