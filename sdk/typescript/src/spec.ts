/** A resolved workload spec as a device receives it (its canonical form, wire-format §16). */
import { Json, NumberToken, canonicalize, contentHash, parseJson, Sha256 } from './canonical.js';
import { epsilonOf } from './exact.js';

export type Domain =
  | { kind: 'labels'; labels: string[] }
  | { kind: 'points'; labels: string[] }
  | { kind: 'buckets'; edges: number[] }
  | { kind: 'attributes'; names: string[] }
  | { kind: 'range'; lo: number; hi: number; levels: number }
  | { kind: 'strings'; maxBytes: number }
  | { kind: 'ball'; coordinates: string[]; radius: number }
  | { kind: 'box'; coordinates: string[]; lo: number; hi: number; levels: number }
  | { kind: 'grid' };

export interface Spec {
  readonly canonical: string;
  readonly contentHash: string;
  readonly json: { [k: string]: Json };
  readonly id: string;
  readonly version: number;
  readonly family: string;
  readonly mode: 'local' | 'central';
  readonly mechanism: string;
  /** The declared decimal (local mode). */
  readonly epsilonText?: string;
  /** §13.1: the largest double not above epsilonPerReport. */
  readonly epsilon: number;
  readonly protocolVersion: number;
  readonly domain: Domain;
  readonly queries: { way?: number; labels?: string[] };
  readonly budgetEpsilonText: string;
  readonly budgetPeriodMillis: number;
  readonly windowSizeMillis: number;
  readonly windowGraceMillis: number;
}

type Obj = { [k: string]: Json };
function obj(v: Json | undefined, field: string): Obj {
  if (v === null || v === undefined || typeof v !== 'object' || Array.isArray(v) || v instanceof NumberToken)
    throw new Error('spec field ' + field + ' must be an object');
  return v as Obj;
}
function str(v: Json | undefined, field: string): string {
  if (typeof v !== 'string') throw new Error('spec field ' + field + ' must be a string');
  return v;
}
function num(v: Json | undefined, field: string): number {
  if (!(v instanceof NumberToken)) throw new Error('spec field ' + field + ' must be a number');
  return v.value;
}
function int(v: Json | undefined, field: string): number {
  const n = num(v, field);
  if (!Number.isSafeInteger(n)) throw new Error('spec field ' + field + ' must be an integer');
  return n;
}
function strs(v: Json | undefined, field: string): string[] {
  if (!Array.isArray(v)) throw new Error('spec field ' + field + ' must be an array');
  return v.map((x, i) => str(x, field + '[' + i + ']'));
}
function nums(v: Json | undefined, field: string): number[] {
  if (!Array.isArray(v)) throw new Error('spec field ' + field + ' must be an array');
  return v.map((x, i) => num(x, field + '[' + i + ']'));
}

/** Java Duration.toString form (PT…H…M…S) to milliseconds. */
export function parseIsoDuration(text: string, field: string): number {
  const m = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:\.(\d{1,9}))?S)?$/.exec(text);
  if (!m || text === 'PT') throw new Error('spec field ' + field + ' is not a duration: ' + text);
  const frac = (m[4] ?? '').padEnd(3, '0').slice(0, 3);
  return ((+(m[1] ?? 0) * 60 + +(m[2] ?? 0)) * 60 + +(m[3] ?? 0)) * 1000 + +(frac || 0);
}

function domainOf(d: Obj): Domain {
  if ('labels' in d) return { kind: 'labels', labels: strs(d.labels, 'domain.labels') };
  if ('buckets' in d) return { kind: 'buckets', edges: nums(d.buckets, 'domain.buckets') };
  if ('attributes' in d) return { kind: 'attributes', names: strs(d.attributes, 'domain.attributes') };
  if ('points' in d) {
    const ps = d.points;
    if (!Array.isArray(ps)) throw new Error('spec field domain.points must be an array');
    return { kind: 'points', labels: ps.map((p, i) => str(obj(p, 'domain.points[' + i + ']').label, 'domain.points[' + i + '].label')) };
  }
  if ('range' in d) {
    const r = obj(d.range, 'domain.range');
    return { kind: 'range', lo: num(r.lo, 'domain.range.lo'), hi: num(r.hi, 'domain.range.hi'), levels: int(r.levels, 'domain.range.levels') };
  }
  if ('strings' in d) return { kind: 'strings', maxBytes: int(obj(d.strings, 'domain.strings').maxBytes, 'domain.strings.maxBytes') };
  if ('ball' in d) {
    const b = obj(d.ball, 'domain.ball');
    return { kind: 'ball', coordinates: strs(b.coordinates, 'domain.ball.coordinates'), radius: num(b.radius, 'domain.ball.radius') };
  }
  if ('box' in d) {
    const b = obj(d.box, 'domain.box');
    return { kind: 'box', coordinates: strs(b.coordinates, 'domain.box.coordinates'), lo: num(b.lo, 'domain.box.lo'),
      hi: num(b.hi, 'domain.box.hi'), levels: int(b.levels, 'domain.box.levels') };
  }
  if ('features' in d) return { kind: 'grid' };
  throw new Error('spec field domain has no known kind');
}

/**
 * Reads a canonical form (§16 "Reading a canonical form back") and checks it: re-serializing must reproduce the
 * text byte for byte, and, when `expectedHash` is given, the content hash computed here must equal it.
 */
export async function readSpec(canonical: string, expectedHash?: string, sha256?: Sha256): Promise<Spec> {
  const json = obj(parseJson(canonical), 'spec');
  if (canonicalize(json) !== canonical) throw new Error('spec is not in canonical form');
  const hash = await contentHash(canonical, sha256);
  if (expectedHash !== undefined && expectedHash.toLowerCase() !== hash)
    throw new Error('content hash mismatch: served ' + expectedHash + ', computed ' + hash);
  if (json.protocol !== 'pgw-v1') throw new Error('spec field protocol must be "pgw-v1"');
  const mode = str(json.mode, 'mode');
  if (mode !== 'local' && mode !== 'central') throw new Error('spec field mode must be local or central');
  const q = obj(json.queries ?? {}, 'queries');
  const budget = obj(json.budget, 'budget');
  const window = obj(json.window, 'window');
  const epsilonText = mode === 'local' ? (json.epsilonPerReport as NumberToken | undefined)?.text : undefined;
  if (mode === 'local' && epsilonText === undefined) throw new Error('spec field epsilonPerReport is required in local mode');
  return {
    canonical, contentHash: hash, json,
    id: str(json.id, 'id'),
    version: int(json.version, 'version'),
    family: str(json.family, 'family'),
    mode,
    mechanism: str(json.mechanism, 'mechanism'),
    epsilonText,
    epsilon: epsilonText === undefined ? NaN : epsilonOf(epsilonText),
    protocolVersion: json.protocolVersion === undefined ? 1 : int(json.protocolVersion, 'protocolVersion'),
    domain: domainOf(obj(json.domain, 'domain')),
    queries: { way: q.way === undefined ? undefined : int(q.way, 'queries.way'), labels: q.labels === undefined ? undefined : strs(q.labels, 'queries.labels') },
    budgetEpsilonText: (budget.epsilonPerPeriod as NumberToken).text,
    budgetPeriodMillis: parseIsoDuration(str(budget.period, 'budget.period'), 'budget.period'),
    windowSizeMillis: parseIsoDuration(str(window.size, 'window.size'), 'window.size'),
    windowGraceMillis: parseIsoDuration(str(window.grace, 'window.grace'), 'window.grace'),
  };
}
