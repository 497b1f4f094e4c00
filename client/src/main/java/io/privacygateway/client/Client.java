package io.privacygateway.client;

import io.privacygateway.mechanisms.budget.BudgetLedger;
import io.privacygateway.mechanisms.budget.DeviceLedger;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.workload.InvalidValueException;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The device SDK: report a value in two statements.
 * <pre>{@code
 * Client client = Client.create(ClientConfig.builder("device-42", filesDir.toPath().resolve("pgw"))
 *         .workload(spec).endpoint("https://ingest.example.com", credential).build());
 * CompletableFuture<ReportOutcome> outcome = client.report("daily-active", "b");
 * }</pre>
 *
 * <p><b>On the caller's thread</b> ({@link #report}): check the value, run the gateway's admission rule on the
 * device's budget, randomize (local mode), and write the charge and the report to the device store in one atomic
 * durable write ({@link FileDeviceStore}: temp file, fsync, rename). That write is the only I/O on the caller's
 * thread: microseconds of computation plus one fsync of the state file (milliseconds on flash). Nothing touches the
 * network.
 *
 * <p><b>On background threads:</b> the protocol of each workload is built on a build thread when the client is
 * created (slow for some mechanisms: factorization strategies, nets); until it is ready, {@link #report} fails fast
 * with {@link ReportOutcome.Status#NOT_READY}, charging nothing (the app can wait on {@link #ready}). A sender thread
 * sends the queue in batches through the {@link Transport}, oldest first, and settles each report: accepted (or
 * duplicate), rejected for good (the gateway's reason code), or, after failures, resent with {@link Backoff} (never
 * earlier than the server's {@code Retry-After}). A report is dropped only when its window can no longer accept it
 * (window end plus grace passed), and then counted ({@link #stats()}).
 *
 * <p><b>Guarantees.</b>
 * <ul>
 *   <li>Never overspends: admission is the gateway's own rule on the device's ledger; each sequence number (local)
 *       or window slot (central) is used at most once, across restarts.
 *   <li>Crash safety: after {@link #report} returned a future that is not yet complete, the charge and the report are
 *       both on disk; a kill -9 at any point loses neither, and the next client on the directory sends the report.
 *       A report whose acceptance was not recorded before a crash is sent again: the gateway counts a report's
 *       coordinates once (a resend is a {@code DUPLICATE}, reported to the device as accepted), so it is counted at
 *       most once.
 *   <li>Secret randomness only from the configured {@code RandomBits} ({@code SecureRandomBits} by default); time
 *       only from the configured clock; nothing is logged; values and payloads never appear in outcomes.
 * </ul>
 * Thread-safe. One client per store directory (a second fails at {@link #create}).
 */
public final class Client implements AutoCloseable {
    private final ClientConfig config;
    private final FileDeviceStore store;
    private final Transport transport;
    private final long retentionMillis;
    private final Map<String, CompletableFuture<WorkloadBinding>> bindings = new LinkedHashMap<>();
    private final ExecutorService builder;
    private final ScheduledExecutorService sender;
    private final Object sendLock = new Object();
    private final Map<Long, CompletableFuture<ReportOutcome>> pending = new ConcurrentHashMap<>();
    private final Map<Long, Retry> retries = new HashMap<>(); // guarded by sendLock
    private ScheduledFuture<?> wake; // guarded by this
    private long wakeAt = Long.MAX_VALUE; // guarded by this
    private int batchLimit;
    private long failedAttempts;
    private volatile String lastFailure = "";
    private volatile boolean closed;

    private record Retry(int attempts, long nextAt, String reason) {}

    private Client(ClientConfig config, FileDeviceStore store) {
        this.config = config;
        this.store = store;
        this.transport = config.transport;
        this.retentionMillis = config.retention.toMillis();
        this.batchLimit = Math.max(1, Math.min(transport.maxBatch(), ReportEnvelope.MAX_REPORTS));
        this.builder = config.buildExecutor == null ? Executors.newSingleThreadExecutor(daemon("pgw-sdk-build")) : null;
        Executor build = builder != null ? builder : config.buildExecutor;
        this.sender = config.sendInBackground ? Executors.newSingleThreadScheduledExecutor(daemon("pgw-sdk-send"))
                : null;
        for (WorkloadSpec spec : config.workloads.values()) {
            CompletableFuture<WorkloadBinding> f = CompletableFuture.supplyAsync(() -> {
                WorkloadBinding w = WorkloadBinding.of(spec);
                DeviceAdmission.joinGroup(store, w.rules(), config.clock.millis(), retentionMillis);
                return w;
            }, build);
            bindings.put(spec.id(), f);
        }
    }

    private static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /**
     * Opens the device store, starts building the workloads' protocols and (by default) the sender, which sends any
     * report a previous run left queued.
     *
     * @throws IOException if the store cannot be opened (in use by another client, corrupt, not writable)
     */
    public static Client create(ClientConfig config) throws IOException {
        Objects.requireNonNull(config, "config");
        FileDeviceStore store = FileDeviceStore.open(config.directory, config.maxQueuedReports, config.maxQueuedBytes);
        Client c = new Client(config, store);
        c.wakeSender(0);
        return c;
    }

    /**
     * Completes when the workload's protocol is built (exceptionally if it cannot be built or is unknown). Before
     * that, {@link #report} answers {@link ReportOutcome.Status#NOT_READY}.
     */
    public CompletableFuture<Void> ready(String workloadId) {
        CompletableFuture<WorkloadBinding> b = bindings.get(workloadId);
        if (b == null) {
            CompletableFuture<Void> unknown = new CompletableFuture<>(); // (failedFuture is not on older Androids)
            unknown.completeExceptionally(new IllegalArgumentException("unknown workload " + workloadId));
            return unknown;
        }
        return b.thenApply(w -> null);
    }

    /** Completes when every workload's protocol is built. */
    public CompletableFuture<Void> ready() {
        return CompletableFuture.allOf(bindings.values().toArray(new CompletableFuture<?>[0]));
    }

    /**
     * Reports one value, without I/O on the caller's thread: checks it, charges the device's budget and randomizes it
     * (the protocol the gateway runs), stages the charge and the report in memory, and returns (microseconds). The
     * background sender writes the charge and the report to disk in one atomic write before it sends anything
     * ({@link #sync()}; or at once with {@link ClientConfig.Builder#syncWrites}). The future completes when the report
     * is settled: {@code ACCEPTED}, {@code REJECTED}, {@code DROPPED} (or {@code STILL_QUEUED} at
     * {@link #close}). Refusals ({@code INVALID_VALUE}, {@code BUDGET_EXHAUSTED}, {@code CONTRIBUTION_LIMIT},
     * {@code QUEUE_FULL}, {@code NOT_READY}, {@code UNKNOWN_WORKLOAD}, {@code STORE_FAILED}, {@code CLOSED}) come
     * back already completed and charge nothing.
     *
     * @param value as in a values file: a label, a number (buckets), comma-separated 0/1 attributes, or the string
     *     of a heavy-hitters workload
     * @throws IllegalStateException if the clock reads before the epoch
     */
    public CompletableFuture<ReportOutcome> report(String workloadId, String value) {
        Objects.requireNonNull(value, "value");
        Object b = binding(workloadId);
        if (b instanceof ReportOutcome refused) {
            return CompletableFuture.completedFuture(refused);
        }
        WorkloadBinding w = (WorkloadBinding) b;
        try {
            w.checkValue(value);
        } catch (InvalidValueException e) {
            return done(ReportOutcome.Status.INVALID_VALUE, null, "the value is not in the domain of workload "
                    + w.id());
        }
        return admitAndQueue(w, (c, now) -> w.report(value, c, now, config.secret));
    }

    /** Reports one vector (mean of a ball or a box), as {@link #report(String, String)}. The array is not kept. */
    public CompletableFuture<ReportOutcome> report(String workloadId, double[] value) {
        Object b = binding(workloadId);
        if (b instanceof ReportOutcome refused) {
            return CompletableFuture.completedFuture(refused);
        }
        WorkloadBinding w = (WorkloadBinding) b;
        if (!w.takesVectors()) {
            return done(ReportOutcome.Status.INVALID_VALUE, null, "workload " + w.id() + " (" + w.describeValues()
                    + ") does not take vector values");
        }
        double[] v = Objects.requireNonNull(value, "value").clone();
        try {
            w.checkVector(v);
        } catch (InvalidValueException e) {
            return done(ReportOutcome.Status.INVALID_VALUE, null, "the vector is not in the domain of workload "
                    + w.id() + ": " + e.getMessage());
        }
        return admitAndQueue(w, (c, now) -> w.report(v, c, now, config.secret));
    }

    private Object binding(String workloadId) {
        if (closed) {
            return ReportOutcome.refused(ReportOutcome.Status.CLOSED, null, "the client is closed");
        }
        CompletableFuture<WorkloadBinding> f = bindings.get(Objects.requireNonNull(workloadId, "workloadId"));
        if (f == null) {
            return ReportOutcome.refused(ReportOutcome.Status.UNKNOWN_WORKLOAD, null,
                    "this client has no workload " + workloadId);
        }
        if (!f.isDone()) {
            return ReportOutcome.refused(ReportOutcome.Status.NOT_READY, null, "the protocol of workload "
                    + workloadId + " is still being built (wait on ready(\"" + workloadId + "\"))");
        }
        if (f.isCompletedExceptionally()) {
            return ReportOutcome.refused(ReportOutcome.Status.UNKNOWN_WORKLOAD, null, "the protocol of workload "
                    + workloadId + " could not be built");
        }
        return f.join();
    }

    @FunctionalInterface
    private interface ReportMaker {
        DeviceReport make(ReportCoordinates coords, long now) throws InvalidValueException;
    }

    private CompletableFuture<ReportOutcome> admitAndQueue(WorkloadBinding w, ReportMaker maker) {
        CompletableFuture<ReportOutcome> future = new CompletableFuture<>();
        synchronized (store) { // read, admit, randomize and persist as one step for every client of this store
            if (closed) {
                return done(ReportOutcome.Status.CLOSED, null, "the client is closed");
            }
            long now = config.clock.millis();
            Instant eventTime = Instant.ofEpochMilli(Math.max(0, now));
            if (!store.hasRoomFor(0)) {
                return done(ReportOutcome.Status.QUEUE_FULL, eventTime, "the offline queue is full");
            }
            DeviceAdmission.Decision d;
            try {
                d = DeviceAdmission.admit(DeviceAdmission.current(store, now, retentionMillis), w.rules(),
                        config.deviceId, now);
            } catch (UncheckedIOException e) {
                return done(ReportOutcome.Status.STORE_FAILED, eventTime, "cannot write the device store: "
                        + e.getCause().getClass().getSimpleName());
            }
            if (d instanceof DeviceAdmission.Refused r) {
                return done(r.reason() == BudgetLedger.Refusal.CONTRIBUTION_LIMIT
                        ? ReportOutcome.Status.CONTRIBUTION_LIMIT : ReportOutcome.Status.BUDGET_EXHAUSTED,
                        eventTime, r.message());
            }
            DeviceAdmission.Admitted a = (DeviceAdmission.Admitted) d;
            DeviceReport report;
            try {
                report = maker.make(a.coordinates(), now);
            } catch (InvalidValueException e) { // checked before: the value does not change in between
                throw new IllegalStateException("a value that passed its check was refused by the protocol", e);
            }
            FileDeviceStore.Entry e;
            try {
                e = config.syncWrites ? store.enqueue(a.updated(), report, w.acceptUntil(now))
                        : store.stage(a.updated(), report, w.acceptUntil(now));
            } catch (FileDeviceStore.QueueFullException ex) {
                return done(ReportOutcome.Status.QUEUE_FULL, eventTime, ex.getMessage());
            } catch (IOException ex) {
                return done(ReportOutcome.Status.STORE_FAILED, eventTime, "cannot write the device store: "
                        + ex.getClass().getSimpleName());
            }
            pending.put(e.id(), future);
        }
        wakeSender(0);
        return future;
    }

    private static CompletableFuture<ReportOutcome> done(ReportOutcome.Status s, Instant t, String detail) {
        return CompletableFuture.completedFuture(ReportOutcome.refused(s, t, detail));
    }

    // ---------------------------------------------------------------- sending

    /**
     * Makes every report queued so far durable: the charges and the reports staged by {@link #report} (which does no
     * I/O unless {@link ClientConfig.Builder#syncWrites} is set) are written to the device store in one atomic write
     * (group commit). The background sender calls it before every send, so a report is never sent before its charge
     * is on disk; an app may call it to know its reports survive a crash. A failed write completes the futures of the
     * reports it dropped with {@code STORE_FAILED} (their charges stay counted).
     *
     * @return whether every report queued so far is durable
     */
    public boolean sync() {
        List<FileDeviceStore.Entry> lost;
        synchronized (store) {
            lost = store.flush();
        }
        for (FileDeviceStore.Entry e : lost) {
            CompletableFuture<ReportOutcome> f = pending.remove(e.id());
            if (f != null) {
                f.complete(outcome(e, ReportOutcome.Status.STORE_FAILED, "", "cannot write the device store"));
            }
        }
        return lost.isEmpty();
    }

    /**
     * Sends what is due now, on the caller's thread (blocking network I/O): drops reports whose window closed, sends
     * one batch per call of {@link Transport#maxBatch()} due reports at most, settles the answers. For apps that
     * send on their own schedule ({@link ClientConfig.Builder#sendInBackground}{@code (false)}) and for tests.
     *
     * @return how many reports were settled (accepted, rejected or dropped)
     */
    public int sendNow() {
        synchronized (sendLock) {
            sync();
            long now = config.clock.millis();
            Map<Long, FileDeviceStore.Settlement> settle = new HashMap<>();
            Map<Long, ReportOutcome> outcomes = new HashMap<>();
            List<FileDeviceStore.Entry> due = new ArrayList<>();
            for (FileDeviceStore.Entry e : store.durableQueued()) {
                Retry r = retries.get(e.id());
                if (e.acceptUntil() < now) {
                    settle.put(e.id(), FileDeviceStore.Settlement.DROPPED);
                    outcomes.put(e.id(), outcome(e, ReportOutcome.Status.DROPPED, r == null ? "" : r.reason(),
                            "its window closed before the gateway accepted it"));
                } else if ((r == null || r.nextAt() <= now) && due.size() < batchLimit) {
                    due.add(e);
                }
            }
            if (!due.isEmpty()) {
                send(due, now, settle, outcomes);
            }
            if (!settle.isEmpty()) {
                try {
                    store.settle(settle);
                } catch (IOException ex) { // nothing settled on disk: the reports stay queued, resends are duplicates
                    lastFailure = "STORE";
                    return 0;
                }
                settle.keySet().forEach(retries::remove);
                outcomes.forEach((id, o) -> {
                    CompletableFuture<ReportOutcome> f = pending.remove(id);
                    if (f != null) {
                        f.complete(o);
                    }
                });
            }
            return settle.size();
        }
    }

    private void send(List<FileDeviceStore.Entry> due, long now, Map<Long, FileDeviceStore.Settlement> settle,
            Map<Long, ReportOutcome> outcomes) {
        List<DeviceReport> batch = new ArrayList<>(due.size());
        due.forEach(e -> batch.add(e.report()));
        List<ReportEnvelope.Result> results;
        try {
            results = transport.send(batch);
            if (results.size() != batch.size()) {
                throw new TransportException(TransportException.Kind.RETRY, "BAD_RESPONSE", 0,
                        results.size() + " results for " + batch.size() + " reports", null);
            }
        } catch (TransportException e) {
            failedAttempts++;
            lastFailure = e.reason();
            if (e.kind() == TransportException.Kind.TOO_LARGE && due.size() > 1) {
                batchLimit = Math.max(1, due.size() / 2); // resend at once in smaller batches
                return;
            }
            if (e.kind() == TransportException.Kind.RETRY) {
                due.forEach(x -> backOff(x, now, e.retryAfterMillis(), e.reason()));
                return;
            }
            for (FileDeviceStore.Entry x : due) { // permanent (or one report too large): never acceptable as sent
                settle.put(x.id(), FileDeviceStore.Settlement.REJECTED);
                outcomes.put(x.id(), outcome(x, ReportOutcome.Status.REJECTED, e.reason(), e.getMessage()));
            }
            return;
        } catch (RuntimeException e) { // a transport's bug must not stop the sender
            failedAttempts++;
            lastFailure = "ERROR";
            due.forEach(x -> backOff(x, now, 0, "ERROR"));
            return;
        }
        for (int i = 0; i < due.size(); i++) {
            FileDeviceStore.Entry x = due.get(i);
            ReportEnvelope.Result r = results.get(i);
            switch (r.status()) {
                case ACCEPTED, DUPLICATE -> {
                    settle.put(x.id(), FileDeviceStore.Settlement.ACCEPTED);
                    outcomes.put(x.id(), outcome(x, ReportOutcome.Status.ACCEPTED, "", r.status() == ReportEnvelope
                            .Status.DUPLICATE ? "accepted before (a resend)" : "accepted"));
                }
                case REJECTED -> {
                    settle.put(x.id(), FileDeviceStore.Settlement.REJECTED);
                    outcomes.put(x.id(), outcome(x, ReportOutcome.Status.REJECTED, r.reason(), "rejected by the"
                            + " gateway: " + r.reason()));
                }
                case RETRY -> {
                    failedAttempts++;
                    lastFailure = "RETRY";
                    backOff(x, now, r.retryAfterMillis(), "RETRY");
                }
            }
        }
    }

    private void backOff(FileDeviceStore.Entry e, long now, long retryAfterMillis, String reason) {
        Retry prev = retries.get(e.id());
        int attempts = prev == null ? 1 : prev.attempts() + 1;
        double u = config.jitter.getAsDouble();
        long delay = config.backoff.delayMillis(attempts, u >= 0 && u < 1 ? u : 0, retryAfterMillis);
        retries.put(e.id(), new Retry(attempts, now + delay, reason));
    }

    private static ReportOutcome outcome(FileDeviceStore.Entry e, ReportOutcome.Status s, String reason, String d) {
        DeviceReport r = e.report();
        return new ReportOutcome(s, r.coordinates(), Instant.ofEpochMilli(r.eventTime()), reason, d);
    }

    /** The earliest time (clock ms) something in the queue is due (a resend or a drop), or MAX_VALUE. */
    private long nextDue() {
        synchronized (sendLock) {
            long next = Long.MAX_VALUE;
            int due = 0;
            for (FileDeviceStore.Entry e : store.queued()) {
                Retry r = retries.get(e.id());
                long at = r == null ? 0 : r.nextAt();
                next = Math.min(next, Math.min(at, e.acceptUntil() + 1));
                due += at <= config.clock.millis() ? 1 : 0;
            }
            return due > 0 ? 0 : next;
        }
    }

    private void wakeSender(long delayMillis) {
        if (sender == null || closed) {
            return;
        }
        synchronized (this) {
            long at = System.nanoTime() / 1_000_000 + delayMillis;
            if (wake != null && !wake.isDone() && wakeAt <= at) {
                return;
            }
            if (wake != null) {
                wake.cancel(false);
            }
            wakeAt = at;
            try {
                wake = sender.schedule(this::pump, delayMillis, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                // closing
            }
        }
    }

    private void pump() {
        // Forget the wake that started this run before reading the queue: a report staged from now on schedules a
        // run of its own (wakeSender sees no pending wake) instead of trusting this one, which may already have read
        // the queue without it (a lost wake-up: the report would wait for the next report or flush).
        synchronized (this) {
            wake = null;
            wakeAt = Long.MAX_VALUE;
        }
        if (closed) {
            return;
        }
        try {
            sendNow();
        } catch (RuntimeException e) {
            lastFailure = "ERROR";
        }
        long next = nextDue();
        if (next != Long.MAX_VALUE) {
            long delay = Math.max(0, next - config.clock.millis());
            wakeSender(Math.min(delay, 3_600_000L)); // re-read the clock at least hourly
        }
    }

    /**
     * Waits until the queue is empty (every report settled), for tests and for apps about to stop. Sends on the
     * caller's thread if there is no background sender.
     *
     * @return whether the queue is empty
     */
    public boolean flush(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (!store.queued().isEmpty()) {
            if (System.nanoTime() > end) {
                return false;
            }
            if (sender == null) {
                sendNow();
            } else {
                wakeSender(0);
            }
            Thread.sleep(5);
        }
        return true;
    }

    // ---------------------------------------------------------------- inspection

    /** Counters of the device's reports. */
    public ClientStats stats() {
        return new ClientStats(store.queued().size(), store.queuedBytes(), store.accepted(), store.rejected(),
                store.dropped(), failedAttempts, lastFailure);
    }

    /**
     * How many more reports (local) or newly paid windows (central) the device's budget allows for the workload in
     * the current period (0 if its protocol is not ready).
     */
    public int remainingInCurrentPeriod(String workloadId) {
        if (!(binding(workloadId) instanceof WorkloadBinding w)) {
            return 0;
        }
        synchronized (store) {
            long now = config.clock.millis();
            return DeviceAdmission.remaining(store.ledger(), w.rules(), now);
        }
    }

    /** The device's ledger (a snapshot; for diagnostics and tests). */
    public DeviceLedger ledger() {
        return store.ledger();
    }

    /** The device id. */
    public String deviceId() {
        return config.deviceId;
    }

    /**
     * Stops the threads (a batch in flight finishes first: at most the transport's timeouts), closes the transport and
     * releases the store.
     * Reports still queued stay on disk (their futures complete {@code STILL_QUEUED}); the next client sends them.
     */
    @Override
    public void close() {
        synchronized (store) {
            if (closed) {
                return;
            }
            closed = true;
        }
        if (builder != null) {
            builder.shutdownNow();
        }
        if (sender != null) {
            sender.shutdown();
            try {
                sender.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            sender.shutdownNow();
        }
        synchronized (sendLock) {
            sync(); // staged reports stay queued on disk for the next client
            transport.close();
            store.close();
        }
        pending.forEach((id, f) -> f.complete(new ReportOutcome(ReportOutcome.Status.STILL_QUEUED, null, null, "",
                "the client closed; the report stays queued on disk")));
        pending.clear();
    }
}
