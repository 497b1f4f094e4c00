/** Report records, their Avro binary encoding and the HTTPS batch envelope (wire-format §17, "Report envelope over HTTPS"). */

export interface LocalReport {
  type: 'local';
  workloadId: string;
  workloadVersion: number;
  contentHash: string;
  deviceId: string;
  period: number | bigint;
  sequence: number;
  eventTime: number | bigint;
  mechanism: string;
  epsilon: number;
  payload: Uint8Array;
  protocolVersion: number;
}
export interface CentralReport {
  type: 'central';
  workloadId: string;
  workloadVersion: number;
  contentHash: string;
  deviceId: string;
  period: number | bigint;
  sequence: number;
  eventTime: number | bigint;
  value: string;
}
export type Report = LocalReport | CentralReport;

const enc = new TextEncoder();

class Writer {
  private buf = new Uint8Array(256);
  private n = 0;
  private ensure(extra: number) {
    if (this.n + extra <= this.buf.length) return;
    const b = new Uint8Array(Math.max(this.buf.length * 2, this.n + extra));
    b.set(this.buf.subarray(0, this.n));
    this.buf = b;
  }
  byte(b: number) { this.ensure(1); this.buf[this.n++] = b; }
  bytes(b: Uint8Array) { this.ensure(b.length); this.buf.set(b, this.n); this.n += b.length; }
  /** Avro int/long: zig-zag, then base-128 varint, least significant group first. */
  long(v: number | bigint) {
    const x = BigInt(v);
    if (x < -(1n << 63n) || x >= 1n << 63n) throw new RangeError('long out of range');
    let z = BigInt.asUintN(64, (x << 1n) ^ (x >> 63n));
    while (z >= 0x80n) { this.byte(Number(z & 0x7fn) | 0x80); z >>= 7n; }
    this.byte(Number(z));
  }
  int(v: number) {
    if (!Number.isInteger(v) || v < -(2 ** 31) || v >= 2 ** 31) throw new RangeError('int out of range: ' + v);
    this.long(v);
  }
  string(s: string) { const b = enc.encode(s); this.long(b.length); this.bytes(b); }
  byteString(b: Uint8Array) { this.long(b.length); this.bytes(b); }
  double(v: number) { const d = new DataView(new ArrayBuffer(8)); d.setFloat64(0, v, true); this.bytes(new Uint8Array(d.buffer)); }
  result(): Uint8Array { return this.buf.slice(0, this.n); }
}

function writeRecord(w: Writer, r: Report) {
  w.string(r.workloadId);
  w.int(r.workloadVersion);
  w.string(r.contentHash);
  w.string(r.deviceId);
  w.long(r.period);
  w.int(r.sequence);
  w.long(r.eventTime);
  if (r.type === 'local') {
    w.string(r.mechanism);
    w.double(r.epsilon);
    w.byteString(r.payload);
    w.int(r.protocolVersion);
  } else {
    w.string(r.value);
  }
}

/** The Avro binary encoding of one record alone. */
export function avroRecord(r: Report): Uint8Array {
  const w = new Writer();
  writeRecord(w, r);
  return w.result();
}

/** Confluent framing: magic 0, the schema id (4 bytes big-endian), the record (§17). */
export function framedRecord(r: Report, schemaId: number): Uint8Array {
  const body = avroRecord(r);
  const out = new Uint8Array(5 + body.length);
  new DataView(out.buffer).setUint32(1, schemaId);
  out.set(body, 5);
  return out;
}

export const MAX_BATCH = 500;
export const BINARY_TYPE = 'application/vnd.pgw.reports+avro';
export const JSON_TYPE = 'application/vnd.pgw.reports+json';

/** The binary body of POST /v1/reports: a ReportBatch. */
export function binaryBatch(reports: readonly Report[]): Uint8Array {
  if (reports.length > MAX_BATCH) throw new RangeError('at most ' + MAX_BATCH + ' reports a batch');
  const w = new Writer();
  w.int(1);
  if (reports.length > 0) {
    w.long(reports.length);
    for (const r of reports) { w.long(r.type === 'local' ? 0 : 1); writeRecord(w, r); }
  }
  w.byte(0);
  return w.result();
}

function base64(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += String.fromCharCode(x);
  return btoa(s);
}

/** The JSON body of POST /v1/reports (browsers). */
export function jsonBatch(reports: readonly Report[]): string {
  if (reports.length > MAX_BATCH) throw new RangeError('at most ' + MAX_BATCH + ' reports a batch');
  const items = reports.map((r) => {
    const common = `"workloadId":${JSON.stringify(r.workloadId)},"workloadVersion":${r.workloadVersion},` +
      `"contentHash":${JSON.stringify(r.contentHash)},"deviceId":${JSON.stringify(r.deviceId)},"period":${r.period},` +
      `"sequence":${r.sequence},"eventTime":${r.eventTime}`;
    return r.type === 'local'
      ? `{"type":"local",${common},"mechanism":${JSON.stringify(r.mechanism)},"epsilon":${JSON.stringify(r.epsilon)},` +
        `"payload":"${base64(r.payload)}","protocolVersion":${r.protocolVersion}}`
      : `{"type":"central",${common},"value":${JSON.stringify(r.value)}}`;
  });
  return `{"envelopeVersion":1,"reports":[${items.join(',')}]}`;
}

export type ResultStatus = 'ACCEPTED' | 'DUPLICATE' | 'REJECTED' | 'RETRY';
export interface ReportResult { status: ResultStatus; reason: string; retryAfterMillis: number }

class Reader {
  private i = 0;
  constructor(private readonly b: Uint8Array) {}
  long(): bigint {
    let z = 0n, shift = 0n;
    for (let n = 0; ; n++) {
      if (n >= 10) throw new Error('varint longer than 10 bytes');
      if (this.i >= this.b.length) throw new Error('varint past the end');
      const x = this.b[this.i++];
      z |= BigInt(x & 0x7f) << shift;
      shift += 7n;
      if ((x & 0x80) === 0) break;
    }
    z = BigInt.asUintN(64, z);
    return BigInt.asIntN(64, (z >> 1n) ^ -(z & 1n));
  }
  int(): number { return Number(this.long()); }
  string(): string {
    const n = this.int();
    if (n < 0 || this.i + n > this.b.length) throw new Error('length past the end');
    const s = new TextDecoder('utf-8', { fatal: true }).decode(this.b.subarray(this.i, this.i + n));
    this.i += n;
    return s;
  }
  end() { if (this.i !== this.b.length) throw new Error('trailing bytes'); }
}

const STATUSES: ResultStatus[] = ['ACCEPTED', 'DUPLICATE', 'REJECTED', 'RETRY'];

/** Decodes a binary ReportResults answer (negative block counts accepted). */
export function decodeBinaryResults(body: Uint8Array): ReportResult[] {
  const r = new Reader(body);
  if (r.int() !== 1) throw new Error('unknown envelopeVersion');
  const out: ReportResult[] = [];
  for (;;) {
    let count = r.int();
    if (count === 0) break;
    if (count < 0) { count = -count; r.long(); }
    for (let i = 0; i < count; i++) {
      const s = STATUSES[r.int()];
      if (!s) throw new Error('unknown status');
      out.push({ status: s, reason: r.string(), retryAfterMillis: Number(r.long()) });
    }
  }
  r.end();
  return out;
}

/** Decodes a JSON ReportResults answer. */
export function decodeJsonResults(text: string): ReportResult[] {
  const o = JSON.parse(text);
  if (o.envelopeVersion !== 1 || !Array.isArray(o.results)) throw new Error('not a ReportResults answer');
  return o.results.map((x: ReportResult) => {
    if (!STATUSES.includes(x.status)) throw new Error('unknown status');
    return { status: x.status, reason: String(x.reason ?? ''), retryAfterMillis: Number(x.retryAfterMillis ?? 0) };
  });
}
