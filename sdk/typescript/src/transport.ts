/** POST /v1/reports and GET /v1/workloads over fetch ("Report envelope over HTTPS"). */
import { binaryBatch, decodeBinaryResults, decodeJsonResults, jsonBatch, BINARY_TYPE, JSON_TYPE, MAX_BATCH, Report, ReportResult } from './envelope.js';

export type TransportErrorKind = 'RETRY' | 'TOO_LARGE' | 'PERMANENT';
export class TransportError extends Error {
  constructor(readonly kind: TransportErrorKind, readonly reason: string, readonly retryAfterMillis = 0) {
    super(kind + ' ' + reason);
  }
}

export interface Transport {
  readonly maxBatch: number;
  /** One result per report, in order; or throws TransportError for the whole batch. */
  send(batch: readonly Report[]): Promise<ReportResult[]>;
}

/** A served workload: its canonical form and the content hash the server states. */
export interface ServedWorkload { canonical: string; contentHash: string }

export type FetchLike = (url: string, init?: { method?: string; headers?: Record<string, string>; body?: Uint8Array | string }) =>
  Promise<{ status: number; headers: { get(name: string): string | null }; text(): Promise<string>; arrayBuffer(): Promise<ArrayBuffer> }>;

/** Retry-After: seconds or an HTTP date, to milliseconds from now (0 when absent or unreadable). */
export function retryAfterMillis(value: string | null, now: number): number {
  if (value === null) return 0;
  const v = value.trim();
  if (/^\d+$/.test(v)) return parseInt(v, 10) * 1000;
  const t = Date.parse(v);
  return Number.isNaN(t) ? 0 : Math.max(0, t - now);
}

export interface HttpTransportOptions {
  credential?: string;
  /** 'json' (default, browsers) or 'binary' (Avro). */
  form?: 'json' | 'binary';
  maxBatch?: number;
  fetch?: FetchLike;
  now?: () => number;
}

export class HttpTransport implements Transport {
  readonly maxBatch: number;
  private readonly fetch: FetchLike;
  private readonly now: () => number;
  constructor(private readonly baseUrl: string, private readonly options: HttpTransportOptions = {}) {
    const u = new URL(baseUrl);
    const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
    if (u.protocol !== 'https:' && !(u.protocol === 'http:' && loopback)) throw new Error('endpoint baseUrl must be https (http only on loopback)');
    this.maxBatch = options.maxBatch ?? MAX_BATCH;
    if (!Number.isInteger(this.maxBatch) || this.maxBatch < 1 || this.maxBatch > MAX_BATCH) throw new Error('maxBatch must be in [1, 500]');
    // fetch must be called unbound from its window (a stored reference called as a method throws 'Illegal invocation')
    this.fetch = options.fetch ?? ((url, init) => (globalThis.fetch as unknown as FetchLike)(url, init));
    this.now = options.now ?? (() => Date.now());
  }
  private headers(contentType?: string): Record<string, string> {
    const h: Record<string, string> = {};
    if (contentType) h['Content-Type'] = contentType;
    if (this.options.credential) h['Authorization'] = 'Bearer ' + this.options.credential;
    return h;
  }
  async send(batch: readonly Report[]): Promise<ReportResult[]> {
    const binary = this.options.form === 'binary';
    let res;
    try {
      res = await this.fetch(this.baseUrl.replace(/\/$/, '') + '/v1/reports', {
        method: 'POST', headers: this.headers(binary ? BINARY_TYPE : JSON_TYPE), body: binary ? binaryBatch(batch) : jsonBatch(batch),
      });
    } catch (e) {
      throw new TransportError('RETRY', 'CONNECTION');
    }
    const s = res.status;
    if (s === 200) {
      const results = binary ? decodeBinaryResults(new Uint8Array(await res.arrayBuffer())) : decodeJsonResults(await res.text());
      if (results.length !== batch.length) throw new TransportError('RETRY', 'RESULT_COUNT');
      return results;
    }
    if (s === 400) throw new TransportError('PERMANENT', 'HTTP_400');
    if (s === 401 || s === 403) throw new TransportError('PERMANENT', 'CREDENTIAL');
    if (s === 413) throw new TransportError('TOO_LARGE', 'HTTP_413');
    if (s === 429 || s === 503) throw new TransportError('RETRY', 'HTTP_' + s, retryAfterMillis(res.headers.get('Retry-After'), this.now()));
    if (s === 408 || s >= 500) throw new TransportError('RETRY', 'HTTP_' + s);
    throw new TransportError('PERMANENT', 'HTTP_' + s);
  }
  /**
   * GET /v1/workloads. Assumed answer (the endpoint is not specified yet): {"workloads": [{"canonical": "…",
   * "contentHash": "…"}, …]}; the client recomputes every hash itself.
   */
  async workloads(): Promise<ServedWorkload[]> {
    const res = await this.fetch(this.baseUrl.replace(/\/$/, '') + '/v1/workloads', { method: 'GET', headers: this.headers() });
    if (res.status !== 200) throw new Error('GET /v1/workloads answered ' + res.status);
    // The ingestion service's document (docs/ingest.md): a JSON array, one object per active workload, each with
    // `canonicalForm` (the exact text whose SHA-256 is `contentHash`) among other fields the SDK recomputes itself.
    const o = JSON.parse(await res.text());
    if (!Array.isArray(o)) throw new Error('GET /v1/workloads: not a JSON array of workload documents');
    return o.map((w: { canonicalForm?: unknown; contentHash?: unknown }) => {
      if (typeof w.canonicalForm !== 'string' || typeof w.contentHash !== 'string') {
        throw new Error('GET /v1/workloads: a document without canonicalForm and contentHash');
      }
      return { canonical: w.canonicalForm, contentHash: w.contentHash };
    });
  }
}
