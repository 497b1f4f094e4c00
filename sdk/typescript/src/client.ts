/** The device client: check a value, charge the device's own budget, randomize, queue durably, send in batches. */
import { Domain, readSpec, Spec } from './spec.js';
import { parseVector, universeIndex } from './universe.js';
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
  | 'INVALID_VALUE' | 'BUDGET_EXHAUSTED' | 'QUEUE_FULL' | 'NOT_READY' | 'UNKNOWN_WORKLOAD' | 'STORE_FAILED' | 'CLOSED';

/**
 * What `report` returns: the outcome once the report is settled (refusals at once), and `durable`, which resolves
 * `true` once the charge and the report are in the device store (the write that holds them has completed: with
 * `FileStorage`, fsynced and renamed), or `false` if the report was refused or its write failed (`STORE_FAILED`).
 */
export type ReportPromise = Promise<Outcome> & { readonly durable: Promise<boolean> };

/**
 * A protocol of a vector-mean workload (domain `ball` or `box`, wire-format §10) may take the checked vector as
 * numbers; one that does not takes its string form (`randomizeRaw`, the coordinates joined by commas, each written
 * so that it reads back to the same double). The sequence of secret draws does not depend on the vector.
 */
export interface VectorProtocol extends LocalProtocol {
  randomizeVector(x: readonly number[], base: bigint, secret: WordSource): Uint8Array;
}

const NORM_SLACK = 1e-12;

/**
 * Why a vector is not in a ball or box domain (undefined when it is): the rule of docs/sdk.md "Vector values" (the
 * Java VectorValues). The length is the number of coordinates; every coordinate is a finite number; in a box
 * `lo <= x_q <= hi`; in a ball `sqrt(Σ x_q²) <= r·(1 + 10^-12)` (the plain sum of squares in index order) and
 * `ρ <= 1 + 10^-12` (wire-format §10.2, step 1). The message names the rule and the position, never a value.
 */
export function vectorRefusal(d: Domain, x: readonly number[]): string | undefined {
  if (d.kind !== 'ball' && d.kind !== 'box') return 'the workload does not take vectors';
  const n = d.coordinates.length;
  if (!Array.isArray(x) || x.length !== n) return 'a vector of ' + n + ' coordinates is expected';
  let sq = 0, m = 0;
  for (let q = 0; q < n; q++) {
    const v = x[q];
    if (typeof v !== 'number' || !Number.isFinite(v)) return 'coordinate ' + (q + 1) + ' (' + d.coordinates[q] + ') is not a finite number';
    if (d.kind === 'box' && (v < d.lo || v > d.hi)) return 'coordinate ' + (q + 1) + ' (' + d.coordinates[q] + ') is outside [' + d.lo + ', ' + d.hi + ']';
    sq += v * v;
  }
  if (d.kind === 'ball') {
    const r = d.radius;
    for (const v of x) m = Math.max(m, Math.abs(v / r));
    let rho = m;
    if (m !== 0 && Number.isFinite(m)) { let s = 0; for (const v of x) { const u = v / r / m; s += u * u; } rho = m * Math.sqrt(s); }
    if (Math.sqrt(sq) > r * (1 + NORM_SLACK) || !(rho <= 1 + NORM_SLACK)) return 'the vector is outside the ball of radius ' + r;
  }
  return undefined;
}

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
  /**
   * false (default): group commit; reports staged by `report` are written together by the sender (before it sends
   * any of them), or by `sync()`/`sendNow()`. true: `report` starts the write of its charge and report at once (no
   * wait for the sender; also with `sendInBackground: false`), and its `durable` resolves when that write is
   * fsynced. Either way a report is handed to the transport only after the write holding it completed.
   */
  syncWrites?: boolean;
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

const refused = (o: Outcome): ReportPromise => Object.assign(Promise.resolve(o), { durable: Promise.resolve(false) });

export class Client {
  private state: State | undefined;
  private readonly specs = new Map<string, { spec: Spec; protocol: LocalProtocol }>();
  private readonly waiting = new Map<number, (o: Outcome) => void>();
  private readonly durableWaiting = new Map<number, (d: boolean) => void>();
  private writes: Promise<void> = Promise.resolve();
  private opening!: Promise<void>;
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

  /**
   * Starts a client without waiting: opens the device store and reads (or fetches) the specs in the background,
   * checking each content hash it computes itself; until that is done `report` answers `NOT_READY` (charging
   * nothing) and `ready()` tells when it is. Bad configuration throws here, naming the field.
   */
  static start(config: ClientConfig): Client {
    const c = new Client(config);
    c.opening = c.open();
    c.opening.catch(() => undefined); // the error is the app's through ready() or create()
    return c;
  }

  /** `start`, then `ready()`: resolves with a client whose store is open and whose specs are loaded. */
  static async create(config: ClientConfig): Promise<Client> {
    const c = Client.start(config);
    await c.opening;
    return c;
  }

  private async open(): Promise<void> {
    const config = this.config;
    try {
      const text = await config.storage.load();
      const state: State = text ? JSON.parse(text) : { version: 1, charges: [], sequences: {}, queue: [], nextId: 0, stats: { accepted: 0, rejected: 0, dropped: 0 } };
      let served = config.workloads;
      if (!served) {
        if (!this.transport.workloads) throw new Error('workloads are required when the transport cannot fetch them');
        served = await this.transport.workloads();
      }
      for (const w of served) {
        const spec = await readSpec(w.canonical, w.contentHash);
        if (spec.mode !== 'local') continue;
        this.specs.set(spec.id, { spec, protocol: config.protocol(spec) });
      }
      for (const q of state.queue) this.durableIds.add(q.id);
      this.state = state;
    } catch (e) {
      await config.storage.close?.();
      throw e;
    }
    if (this.state.queue.length > 0) this.schedule(0);
  }

  /**
   * Resolves when the device store is open and the specs are loaded and their protocols built (rejects with the
   * reason when that failed: a store in use or corrupt, a content hash mismatch, a spec no protocol is built for).
   * With a workload id, rejects too if the client has no such (local) workload.
   */
  async ready(workloadId?: string): Promise<void> {
    await this.opening;
    if (workloadId !== undefined && !this.specs.has(workloadId)) throw new Error('unknown workload ' + workloadId);
  }

  /**
   * Reports a value: a raw string (wire-format §14), or for a vector-mean workload (domain `ball` or `box`) the
   * vector as numbers or as its string. Checks it (refusing, and charging nothing), admits it against the device's
   * own budget, randomizes it, stages the charge and the report, and returns. The promise resolves when the
   * report is settled; its `durable` when the charge and report are in the store (see `syncWrites`).
   */
  report(workloadId: string, value: string | readonly number[], eventTime: number = this.now()): ReportPromise {
    if (this.closed) return refused('CLOSED');
    const state = this.state;
    if (!state) return refused('NOT_READY');
    const w = this.specs.get(workloadId);
    if (!w) return refused('UNKNOWN_WORKLOAD');
    const { spec, protocol } = w;
    const d = spec.domain;
    const vp = protocol as Partial<VectorProtocol>;
    let randomize: (base: bigint) => Uint8Array | undefined;
    if (d.kind === 'ball' || d.kind === 'box') {
      const v = typeof value === 'string' ? parseVector(value, d.coordinates.length) : value;
      if (v === undefined || vectorRefusal(d, v) !== undefined) return refused('INVALID_VALUE');
      const copy = Array.from(v);
      if (vp.randomizeVector) randomize = (base) => vp.randomizeVector!(copy, base, this.secret);
      else if (protocol.randomizeRaw) randomize = (base) => protocol.randomizeRaw!(copy.map(String).join(','), base, this.secret);
      else return refused('INVALID_VALUE');
    } else {
      if (typeof value !== 'string') return refused('INVALID_VALUE');
      if (protocol.randomizeRaw) randomize = (base) => protocol.randomizeRaw!(value, base, this.secret);
      else {
        const x = universeIndex(spec.domain, value);
        if (x === undefined) return refused('INVALID_VALUE');
        randomize = (base) => protocol.randomize(x, base, this.secret);
      }
    }
    if (state.queue.length >= (this.config.maxQueued ?? 1000)) return refused('QUEUE_FULL');
    const period = Math.floor(eventTime / spec.budgetPeriodMillis);
    const keys = this.budgetKeys(spec);
    for (const [key, limit] of keys) {
      const spent = state.charges.filter((c) => c.key === key && c.period === period).map((c) => c.epsilon);
      if (!decimalLeq([...spent, spec.epsilonText!], limit)) return refused('BUDGET_EXHAUSTED');
    }
    const seqKey = spec.id + '|' + period;
    const sequence = state.sequences[seqKey] ?? 0;
    if (sequence >= 2 ** 31) return refused('BUDGET_EXHAUSTED');
    const coords = { deviceId: this.config.deviceId, period, sequence };
    const payload = randomize(baseWord(spec.contentHash, coords));
    if (payload === undefined) return refused('INVALID_VALUE');
    const until = (period + 1) * spec.budgetPeriodMillis + (this.config.retentionMillis ?? 31 * 86_400_000);
    for (const [key] of keys) state.charges.push({ key, period, epsilon: spec.epsilonText!, until });
    state.sequences[seqKey] = sequence + 1;
    const windowEnd = (Math.floor(eventTime / spec.windowSizeMillis) + 1) * spec.windowSizeMillis;
    const id = state.nextId++;
    state.queue.push({
      id, dropAt: windowEnd + spec.windowGraceMillis,
      record: { type: 'local', workloadId: spec.id, workloadVersion: spec.version, contentHash: spec.contentHash, deviceId: this.config.deviceId,
        period, sequence, eventTime, mechanism: spec.mechanism, epsilon: spec.epsilon, payload: bytesToHex(payload), protocolVersion: spec.protocolVersion },
    });
    this.dirty = true;
    const settled = new Promise<Outcome>((resolve) => this.waiting.set(id, resolve));
    const durable = new Promise<boolean>((resolve) => this.durableWaiting.set(id, resolve));
    if (this.config.syncWrites) void this.sync().catch(() => undefined);
    if (this.config.sendInBackground !== false) this.schedule(0);
    return Object.assign(settled, { durable });
  }

  private budgetKeys(spec: Spec): [string, string][] {
    const keys: [string, string][] = [['workload:' + spec.id, spec.budgetEpsilonText]];
    const budget = spec.json.budget as { [k: string]: unknown };
    const group = budget.group as { name: string; epsilonPerPeriod: NumberToken } | undefined;
    if (group) keys.push(['group:' + group.name, group.epsilonPerPeriod.text]);
    return keys;
  }

  /**
   * Writes everything staged so far in one atomic write (group commit); resolves when it is durable. Writes are
   * serialized: one at a time, each holding everything staged when it starts. A failed write keeps the charges in
   * memory (written with the next write) and drops the staged reports, which settle `STORE_FAILED`.
   */
  sync(): Promise<void> {
    const next = this.writes.then(() => this.writeOnce());
    this.writes = next.catch(() => undefined);
    return next;
  }

  private async writeOnce(): Promise<void> {
    const state = this.state;
    if (!this.dirty || !state) return;
    const now = this.now();
    state.charges = state.charges.filter((c) => c.until > now);
    const snapshot = JSON.stringify(state);
    const ids = state.queue.map((q) => q.id);
    this.dirty = false;
    try {
      await this.config.storage.save(snapshot);
    } catch (e) {
      this.dirty = true;
      // drop the staged (never durable, never sent) reports; their charges stay
      const staged = state.queue.filter((q) => !this.durableIds.has(q.id));
      state.queue = state.queue.filter((q) => this.durableIds.has(q.id));
      for (const q of staged) { this.markDurable(q.id, false); this.settle(q.id, 'STORE_FAILED'); }
      throw e;
    }
    for (const id of ids) { this.durableIds.add(id); this.markDurable(id, true); }
  }

  private markDurable(id: number, d: boolean) {
    const r = this.durableWaiting.get(id);
    this.durableWaiting.delete(id);
    r?.(d);
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
    await this.opening.catch(() => undefined);
    const state = this.state;
    if (!state) return;
    for (;;) {
      await this.sync().catch(() => undefined);
      const now = this.now();
      if (now < this.nextAttempt) { this.schedule(this.nextAttempt - now); return; }
      // drops: windows that can no longer accept the report (charges stay)
      const expired = state.queue.filter((q) => q.dropAt <= now);
      if (expired.length) {
        state.queue = state.queue.filter((q) => q.dropAt > now);
        state.stats.dropped += expired.length;
        this.dirty = true;
        for (const q of expired) { this.markDurable(q.id, false); this.settle(q.id, 'DROPPED'); }
      }
      const ready = state.queue.filter((q) => this.durableIds.has(q.id)).slice(0, this.batchSize);
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
        state.queue = state.queue.filter((q) => !done.has(q.id));
        for (const o of done.values()) { if (o === 'ACCEPTED') state.stats.accepted++; else state.stats.rejected++; }
        this.dirty = true;
        await this.sync().catch(() => undefined); // a report leaves the queue only in a later write, after it was settled
        for (const [id, o] of done) this.settle(id, o);
      }
      if (retryAfter >= 0) { this.nextAttempt = this.now() + this.backoff(retryAfter); this.schedule(this.nextAttempt - this.now()); return; }
    }
  }

  stats() {
    const st = this.state ?? { queue: [], stats: { accepted: 0, rejected: 0, dropped: 0 } };
    return { queued: st.queue.length, ...st.stats, failedAttempts: this.failures };
  }

  /** Stops sending; reports still queued settle STILL_QUEUED (the next client sends them). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (!(await this.opening.then(() => true, () => false))) return; // never opened: nothing to release
    await this.sending;
    await this.sync().catch(() => undefined);
    await this.config.storage.close?.();
    for (const id of [...this.waiting.keys()]) this.settle(id, 'STILL_QUEUED');
    for (const id of [...this.durableWaiting.keys()]) this.markDurable(id, false);
  }
}
