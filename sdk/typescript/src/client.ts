/** The device client: check a value, charge the device's own budget, randomize, queue durably, send in batches. */
import { readSpec, Spec } from './spec.js';
import { universeIndex } from './universe.js';
import { LocalProtocol } from './fo.js';
import { baseWord, bytesToHex, hexToBytes } from './coins.js';
import { CryptoWordSource, WordSource } from './words.js';
import { parseDecimal } from './exact.js';
import { NumberToken } from './canonical.js';
import { Report } from './envelope.js';
import { HttpTransport, ServedWorkload, Transport, TransportError } from './transport.js';
import { DeviceStorage } from './storage.js';

export type Outcome =
  | 'ACCEPTED' | 'REJECTED' | 'DROPPED' | 'STILL_QUEUED'
  | 'INVALID_VALUE' | 'BUDGET_EXHAUSTED' | 'QUEUE_FULL' | 'UNKNOWN_WORKLOAD' | 'STORE_FAILED' | 'CLOSED';

export interface ClientConfig {
  deviceId: string;
  storage: DeviceStorage;
  /** Resolved specs as served (canonical form and the served hash); absent: fetched from GET /v1/workloads. */
  workloads?: ServedWorkload[];
  /** Base URL of the ingestion service (POST /v1/reports, GET /v1/workloads), or a transport. */
  endpoint?: string;
  credential?: string;
  transport?: Transport & { workloads?(): Promise<ServedWorkload[]> };
  /** Picks a protocol for a spec: pass `protocolFor` (all protocols) or a smaller factory to keep bundles small. */
  protocol: (spec: Spec) => LocalProtocol;
  now?: () => number;
  secretRandomness?: WordSource;
  /** Public jitter in [0, 1) for the backoff; default from crypto.getRandomValues. */
  jitter?: () => number;
  backoffBaseMillis?: number;
  backoffCapMillis?: number;
  retentionMillis?: number;
  maxQueued?: number;
  sendInBackground?: boolean;
}

interface Charge { key: string; period: number; epsilon: string; until: number }
interface Queued { id: number; record: Record<string, unknown>; dropAt: number }
interface State {
  version: 1;
  charges: Charge[];
  sequences: Record<string, number>;
  queue: Queued[];
  nextId: number;
  stats: { accepted: number; rejected: number; dropped: number };
}

/** Exact decimal sums for the ledger (ε's are decimals in the spec; no rounding). */
function decimalLeq(terms: string[], limit: string): boolean {
  let s = 0;
  const ds = [...terms, limit].map(parseDecimal);
  for (const d of ds) s = Math.max(s, d.s);
  const scaled = ds.map((d) => d.c * 10n ** BigInt(s - d.s));
  const lim = scaled.pop()!;
  return scaled.reduce((a, b) => a + b, 0n) <= lim;
}

const defaultJitter = () => Number(new CryptoWordSource().nextWord() >> 11n) / 2 ** 53;

export class Client {
  private state!: State;
  private readonly specs = new Map<string, { spec: Spec; protocol: LocalProtocol }>();
  private readonly waiting = new Map<number, (o: Outcome) => void>();
  private durableIds = new Set<number>();
  private dirty = false;
  private closed = false;
  private batchSize: number;
  private failures = 0;
  private nextAttempt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private sending: Promise<void> | undefined;
  private readonly now: () => number;
  private readonly secret: WordSource;
  private readonly transport: Transport & { workloads?(): Promise<ServedWorkload[]> };

  private constructor(private readonly config: ClientConfig) {
    if (!config.deviceId) throw new Error('deviceId is required');
    if (!config.storage) throw new Error('storage is required');
    if (!config.protocol) throw new Error('protocol is required');
    this.transport = config.transport ?? (config.endpoint ? new HttpTransport(config.endpoint, { credential: config.credential }) : undefined)!;
    if (!this.transport) throw new Error('endpoint or transport is required');
    this.batchSize = this.transport.maxBatch;
    this.now = config.now ?? (() => Date.now());
    this.secret = config.secretRandomness ?? new CryptoWordSource();
  }

  /** Opens the device store, reads (or fetches) the specs and checks each content hash it computes itself. */
  static async create(config: ClientConfig): Promise<Client> {
    const c = new Client(config);
    const text = await config.storage.load();
    c.state = text ? JSON.parse(text) : { version: 1, charges: [], sequences: {}, queue: [], nextId: 0, stats: { accepted: 0, rejected: 0, dropped: 0 } };
    for (const q of c.state.queue) c.durableIds.add(q.id);
    let served = config.workloads;
    if (!served) {
      if (!c.transport.workloads) throw new Error('workloads are required when the transport cannot fetch them');
      served = await c.transport.workloads();
    }
    for (const w of served) {
      const spec = await readSpec(w.canonical, w.contentHash);
      if (spec.mode !== 'local') continue;
      c.specs.set(spec.id, { spec, protocol: config.protocol(spec) });
    }
    if (c.state.queue.length > 0) c.schedule(0);
    return c;
  }

  /** Reports a raw value (or refuses it, charging nothing); resolves when the report is settled. */
  report(workloadId: string, value: string, eventTime: number = this.now()): Promise<Outcome> {
    if (this.closed) return Promise.resolve('CLOSED');
    const w = this.specs.get(workloadId);
    if (!w) return Promise.resolve('UNKNOWN_WORKLOAD');
    const { spec, protocol } = w;
    const x = protocol.randomizeRaw ? undefined : universeIndex(spec.domain, value);
    if (x === undefined && !protocol.randomizeRaw) return Promise.resolve('INVALID_VALUE');
    if (this.state.queue.length >= (this.config.maxQueued ?? 1000)) return Promise.resolve('QUEUE_FULL');
    const period = Math.floor(eventTime / spec.budgetPeriodMillis);
    const keys = this.budgetKeys(spec);
    for (const [key, limit] of keys) {
      const spent = this.state.charges.filter((c) => c.key === key && c.period === period).map((c) => c.epsilon);
      if (!decimalLeq([...spent, spec.epsilonText!], limit)) return Promise.resolve('BUDGET_EXHAUSTED');
    }
    const seqKey = spec.id + '|' + period;
    const sequence = this.state.sequences[seqKey] ?? 0;
    if (sequence >= 2 ** 31) return Promise.resolve('BUDGET_EXHAUSTED');
    const coords = { deviceId: this.config.deviceId, period, sequence };
    const base = baseWord(spec.contentHash, coords);
    const payload = x === undefined ? protocol.randomizeRaw!(value, base, this.secret) : protocol.randomize(x, base, this.secret);
    if (payload === undefined) return Promise.resolve('INVALID_VALUE');
    const until = (period + 1) * spec.budgetPeriodMillis + (this.config.retentionMillis ?? 31 * 86_400_000);
    for (const [key] of keys) this.state.charges.push({ key, period, epsilon: spec.epsilonText!, until });
    this.state.sequences[seqKey] = sequence + 1;
    const windowEnd = (Math.floor(eventTime / spec.windowSizeMillis) + 1) * spec.windowSizeMillis;
    const id = this.state.nextId++;
    this.state.queue.push({
      id, dropAt: windowEnd + spec.windowGraceMillis,
      record: { type: 'local', workloadId: spec.id, workloadVersion: spec.version, contentHash: spec.contentHash, deviceId: this.config.deviceId,
        period, sequence, eventTime, mechanism: spec.mechanism, epsilon: spec.epsilon, payload: bytesToHex(payload), protocolVersion: spec.protocolVersion },
    });
    this.dirty = true;
    const settled = new Promise<Outcome>((resolve) => this.waiting.set(id, resolve));
    if (this.config.sendInBackground !== false) this.schedule(0);
    return settled;
  }

  private budgetKeys(spec: Spec): [string, string][] {
    const keys: [string, string][] = [['workload:' + spec.id, spec.budgetEpsilonText]];
    const budget = spec.json.budget as { [k: string]: unknown };
    const group = budget.group as { name: string; epsilonPerPeriod: NumberToken } | undefined;
    if (group) keys.push(['group:' + group.name, group.epsilonPerPeriod.text]);
    return keys;
  }

  /** Writes everything staged so far in one atomic write. A failed write keeps the charges in memory. */
  async sync(): Promise<void> {
    if (!this.dirty) return;
    const now = this.now();
    this.state.charges = this.state.charges.filter((c) => c.until > now);
    const snapshot = JSON.stringify(this.state);
    const ids = this.state.queue.map((q) => q.id);
    this.dirty = false;
    try {
      await this.config.storage.save(snapshot);
    } catch (e) {
      this.dirty = true;
      // drop the staged (never durable, never sent) reports; their charges stay
      const staged = this.state.queue.filter((q) => !this.durableIds.has(q.id));
      this.state.queue = this.state.queue.filter((q) => this.durableIds.has(q.id));
      for (const q of staged) this.settle(q.id, 'STORE_FAILED');
      throw e;
    }
    for (const id of ids) this.durableIds.add(id);
  }

  private settle(id: number, o: Outcome) {
    const r = this.waiting.get(id);
    this.waiting.delete(id);
    r?.(o);
  }

  private schedule(delay: number) {
    if (this.closed || this.config.sendInBackground === false) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.timer = undefined; void this.sendNow().catch(() => undefined); }, Math.max(0, delay));
  }

  /** Sends the durable queue, oldest first, in batches; resolves when no more can be sent now. */
  sendNow(): Promise<void> {
    if (!this.sending) this.sending = this.sendLoop().finally(() => { this.sending = undefined; });
    return this.sending;
  }

  private backoff(retryAfter: number): number {
    this.failures++;
    const base = this.config.backoffBaseMillis ?? 1000, cap = this.config.backoffCapMillis ?? 15 * 60_000;
    const d = Math.min(cap, base * 2 ** (this.failures - 1));
    const u = (this.config.jitter ?? defaultJitter)();
    return Math.max(retryAfter, d / 2 + (u * d) / 2);
  }

  private async sendLoop(): Promise<void> {
    for (;;) {
      await this.sync().catch(() => undefined);
      const now = this.now();
      if (now < this.nextAttempt) { this.schedule(this.nextAttempt - now); return; }
      // drops: windows that can no longer accept the report (charges stay)
      const expired = this.state.queue.filter((q) => q.dropAt <= now);
      if (expired.length) {
        this.state.queue = this.state.queue.filter((q) => q.dropAt > now);
        this.state.stats.dropped += expired.length;
        this.dirty = true;
        for (const q of expired) this.settle(q.id, 'DROPPED');
      }
      const ready = this.state.queue.filter((q) => this.durableIds.has(q.id)).slice(0, this.batchSize);
      if (ready.length === 0) { await this.sync().catch(() => undefined); return; }
      if (this.closed) return;
      const batch: Report[] = ready.map((q) => ({ ...(q.record as unknown as Report), payload: hexToBytes(q.record.payload as string) } as Report));
      const done = new Map<number, Outcome>();
      let retryAfter = -1;
      try {
        const results = await this.transport.send(batch);
        results.forEach((r, i) => {
          if (r.status === 'ACCEPTED' || r.status === 'DUPLICATE') done.set(ready[i].id, 'ACCEPTED');
          else if (r.status === 'REJECTED') done.set(ready[i].id, 'REJECTED');
          else retryAfter = Math.max(retryAfter, r.retryAfterMillis);
        });
        if (retryAfter < 0) this.failures = 0;
      } catch (e) {
        if (!(e instanceof TransportError)) throw e;
        if (e.kind === 'TOO_LARGE') {
          if (ready.length === 1) done.set(ready[0].id, 'REJECTED');
          else { this.batchSize = Math.max(1, Math.floor(ready.length / 2)); continue; }
        } else if (e.kind === 'PERMANENT') for (const q of ready) done.set(q.id, 'REJECTED');
        else retryAfter = e.retryAfterMillis;
      }
      if (done.size) {
        this.state.queue = this.state.queue.filter((q) => !done.has(q.id));
        for (const o of done.values()) { if (o === 'ACCEPTED') this.state.stats.accepted++; else this.state.stats.rejected++; }
        this.dirty = true;
        await this.sync().catch(() => undefined); // a report leaves the queue only in a later write, after it was settled
        for (const [id, o] of done) this.settle(id, o);
      }
      if (retryAfter >= 0) { this.nextAttempt = this.now() + this.backoff(retryAfter); this.schedule(this.nextAttempt - this.now()); return; }
    }
  }

  stats() {
    return { queued: this.state.queue.length, ...this.state.stats, failedAttempts: this.failures };
  }

  /** Stops sending; reports still queued settle STILL_QUEUED (the next client sends them). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.sending;
    await this.sync().catch(() => undefined);
    await this.config.storage.close?.();
    for (const id of [...this.waiting.keys()]) this.settle(id, 'STILL_QUEUED');
  }
}
