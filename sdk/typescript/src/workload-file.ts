/**
 * A workload file (its YAML as JSON) to its canonical form (wire-format §16). Tools and tests need it; a device
 * receives canonical forms and does not (this module is not in the device bundle).
 */
import { Json, NumberToken, canonicalize } from './canonical.js';
import { javaTrim } from './universe.js';

type Obj = { [k: string]: Json };
const isObj = (v: Json | undefined): v is Obj =>
  v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v) && !(v instanceof NumberToken);

/** Workload-file durations: `<n>ms|s|m|h|d`, or ISO-8601 `PnDTnHnMn.nS`; to Java Duration.toString. */
export function isoDuration(text: string, field: string): string {
  let nanos: bigint;
  const simple = /^(\d+)(ms|s|m|h|d)$/.exec(text.trim());
  const iso = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:\.(\d{1,9}))?S)?)?$/.exec(text.trim());
  if (simple) {
    const unit = { ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n, d: 86_400_000_000_000n }[simple[2]]!;
    nanos = BigInt(simple[1]) * unit;
  } else if (iso && text.trim() !== 'P' && !text.trim().endsWith('T')) {
    nanos = ((BigInt(iso[1] ?? 0) * 24n + BigInt(iso[2] ?? 0)) * 60n + BigInt(iso[3] ?? 0)) * 60n * 1_000_000_000n
      + BigInt(iso[4] ?? 0) * 1_000_000_000n + BigInt((iso[5] ?? '').padEnd(9, '0') || 0);
  } else throw new Error('workload field ' + field + ' is not a duration: ' + text);
  const secs = nanos / 1_000_000_000n, frac = nanos % 1_000_000_000n;
  const h = secs / 3600n, m = (secs % 3600n) / 60n, s = secs % 60n;
  let out = 'PT';
  if (h) out += h + 'H';
  if (m) out += m + 'M';
  if (s || frac || nanos === 0n) out += s + (frac ? '.' + frac.toString().padStart(9, '0').replace(/0+$/, '') : '') + 'S';
  return out;
}

const CURRENT_VERSION: { [m: string]: number } = { tree: 2, factorization: 3 };

/** Parses, defaults and canonicalizes a workload file given as JSON (numbers as NumberToken). */
export function canonicalFromWorkloadFile(input: Obj): string {
  const s: Obj = JSON.parse(JSON.stringify(input, (_k, v) => (v instanceof NumberToken ? { $n: v.text } : v)),
    (_k, v) => (v && typeof v === 'object' && '$n' in v ? new NumberToken(v.$n) : v));
  const trimStrings = (v: Json | undefined): Json | undefined =>
    typeof v === 'string' ? javaTrim(v) : Array.isArray(v) ? v.map((x) => trimStrings(x)!) : v;
  s.protocol = 'pgw-v1';
  s.id = trimStrings(s.id)!;
  s.mode = s.mode ?? 'local';
  s.confidence = s.confidence ?? new NumberToken('0.95');
  s.epsilonSplit = s.epsilonSplit ?? 'optimal';
  const mech = s.mechanism as string;
  if (s.protocolVersion === undefined && CURRENT_VERSION[mech]) s.protocolVersion = new NumberToken(String(CURRENT_VERSION[mech]));
  if (s.protocolVersion instanceof NumberToken && s.protocolVersion.value <= 1) delete s.protocolVersion;
  const q: Obj = isObj(s.queries) ? s.queries : {};
  if (q.way instanceof NumberToken && q.way.value <= 0) delete q.way;
  if (Array.isArray(q.labels) && q.labels.length === 0) delete q.labels;
  if (Array.isArray(q.labels)) q.labels = trimStrings(q.labels)!;
  s.queries = q;
  if (s.expectedReportsPerWindow instanceof NumberToken && s.expectedReportsPerWindow.value <= 0) delete s.expectedReportsPerWindow;
  const d = s.domain as Obj;
  if (Array.isArray(d.labels)) d.labels = trimStrings(d.labels)!;
  if (Array.isArray(d.attributes)) d.attributes = trimStrings(d.attributes)!;
  if (isObj(d.range) && d.range.levels === undefined) d.range.levels = new NumberToken('1025');
  if (isObj(d.strings) && d.strings.maxBytes === undefined) d.strings.maxBytes = new NumberToken('16');
  if (Array.isArray(d.points)) for (const p of d.points) if (isObj(p)) p.label = trimStrings(p.label)!;
  const b = s.budget as Obj;
  b.period = isoDuration(b.period as string, 'budget.period');
  if (isObj(b.group)) b.group.name = trimStrings(b.group.name)!;
  const w = s.window as Obj;
  w.size = isoDuration(w.size as string, 'window.size');
  w.grace = isoDuration((w.grace as string | undefined) ?? '0s', 'window.grace');
  if (Array.isArray(w.horizons)) {
    if (w.horizons.length === 0) delete w.horizons;
    else w.horizons = w.horizons.map((x, i) => (x === 'since-activation' ? x : isoDuration(x as string, 'window.horizons[' + i + ']')));
  }
  return canonicalize(s);
}
