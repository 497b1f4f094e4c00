package io.privacygateway.topology.release;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.continual.ContinualCounter;
import io.privacygateway.mechanisms.continual.ContinualState;
import io.privacygateway.mechanisms.runtime.CentralWorkload;
import io.privacygateway.mechanisms.runtime.ReleaseResult;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.runtime.WindowRelease;
import io.privacygateway.mechanisms.workload.Horizon;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.schemas.avro.SyntheticData;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.GatewayMetrics;
import io.privacygateway.topology.state.HorizonKey;
import io.privacygateway.topology.state.WindowAggregate;
import io.privacygateway.topology.state.WindowKey;
import io.privacygateway.topology.state.WriteBehindStore;
import io.privacygateway.topology.wire.ShardMessage;
import io.privacygateway.topology.workload.Registration;
import io.privacygateway.topology.workload.WorkloadCatalog;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The release step, one task per partition of the internal partials topic (keyed by workload id, so all of a
 * workload's windows meet here). It merges the shards' exact partial aggregates of each window, tracks every
 * shard's progress, and releases <b>every scheduled window exactly once</b> — one answer per window from each
 * version's activation on ({@link ReleaseSchedule}), also when no report arrived — as soon as every partition
 * of the workload's report topic has passed the window's end + grace: estimation and projection or chaining
 * (local), or noise, projection and purification (central), error bars, and the answer record (and for a wide
 * workload that declares {@code central.synthetic}, its synthetic records on their own topic), in the same
 * transaction that deletes the window's aggregate and advances the schedule.
 *
 * <p>Everything read from the partials topic is validated ({@link ShardMessage}); an invalid message is counted
 * in {@code pgw.partials.invalid} and skipped, never a crash. A local window whose release fails (a defect) is
 * counted in {@code pgw.release.failed}, logged without data, and skipped, so one window can never stop the others. A
 * <b>central</b> window is never skipped: whatever makes its release fail (the failure paths of
 * {@code docs/published-fields.md} §Failure paths) it is answered with the data-independent fallback
 * ({@link WindowRelease.Central#fallback}, flagged {@code fallback}) and charged exactly as a computed answer, so neither
 * whether a window is answered nor the account ({@code cumulativeEpsilon}) depends on the data.
 */
public final class ReleaseProcessor implements Processor<String, byte[], String, Object> {
    private static final Logger LOG = LoggerFactory.getLogger(ReleaseProcessor.class);
    public static final String ANSWERS_SINK = "answers-sink";
    /** Synthetic records of wide workloads that declare {@code central.synthetic} ({@code SyntheticData}). */
    public static final String SYNTHETIC_SINK = "synthetic-sink";
    /** The most windows one workload releases per invocation (a backlog after an outage is spread out). */
    static final int MAX_RELEASES_PER_CALL = 64;

    private final GatewayConfig config;
    private final WorkloadCatalog catalog;
    private final GatewayMetrics metrics;
    private final CentralReleaser central;
    private final ReleaseStores names;
    private final LongSupplier monotonicMillis;
    /** Central windows found due and waiting for their publication time, by workload, in window order. */
    private final Map<String, ArrayDeque<Pending>> pending = new HashMap<>();
    /** The last computation started for each workload (its next one starts after it ends). */
    private final Map<String, CompletableFuture<?>> lanes = new HashMap<>();
    private final Executor executor;
    /** The workloads whose {@code pgw.release.overdue} gauge this task has set (removed when it closes). */
    private final Set<String> overdueReported = new HashSet<>();
    private ProcessorContext<String, Object> context;
    private WriteBehindStore<WindowKey, WindowAggregate> merged;
    private WriteBehindStore<String, Long> progress;
    private WriteBehindStore<String, ReleaseSchedule> schedules;
    private WriteBehindStore<String, ReleaseAccount> accounts;
    private WriteBehindStore<HorizonKey, WindowAggregate> horizons;
    private WriteBehindStore<String, byte[]> totals;

    /**
     * A central window found due: its computation (running or done) and its publication time.
     *
     * @param workload the version's runtime, held so the window is written even if the catalog drops it meanwhile
     * @param segment the schedule segment (version) of the window
     * @param n the window's exact report count (the public count under replace-one; metrics)
     * @param counts the window's exact counts, copied when it was found due (running totals), or null if its
     *     aggregate is unusable
     * @param epsilon what the window is charged, computed or fallback
     * @param dueAt when it is written (monotonic), fixed when it was found due
     * @param result the release, computed off the stream thread (null: it failed, the fallback is published)
     */
    private record Pending(WindowRelease.Central release, ReleaseSchedule.Segment segment, long windowStart, long n,
            long[] counts, BigDecimal epsilon, long dueAt, CompletableFuture<ReleaseResult> result) {
        CentralWorkload workload() {
            return release.workload();
        }
    }

    ReleaseProcessor(GatewayConfig config, WorkloadCatalog catalog, GatewayMetrics metrics, CentralReleaser central,
            ReleaseStores names, LongSupplier monotonicMillis) {
        this.config = config;
        this.catalog = catalog;
        this.metrics = metrics;
        this.central = central;
        this.names = names;
        this.monotonicMillis = monotonicMillis;
        this.executor = central.executor();
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        merged = context.getStateStore(names.merged());
        progress = context.getStateStore(names.progress());
        schedules = context.getStateStore(names.schedules());
        accounts = context.getStateStore(names.accounts());
        horizons = context.getStateStore(names.horizons());
        totals = context.getStateStore(names.runningTotals());
        merged.loadAll();
        horizons.loadAll();
        totals.loadAll();
        progress.loadAll();
        schedules.loadAll();
        accounts.loadAll();
        pending.clear(); // a restart computes every unwritten window again (none was written, none is skipped)
        lanes.clear();
        context.schedule(config.punctuateEvery(), PunctuationType.WALL_CLOCK_TIME, t -> {
            long now = monotonicMillis.getAsLong(); // one reading: nothing computed here moves a publication time
            writePending(now);
            releaseAllDue(now);
        });
    }

    @Override
    public void close() {
        for (String id : overdueReported) { // this task no longer releases them (revoked, or the gateway stopping)
            metrics.removeReleaseOverdue(id);
        }
        overdueReported.clear();
        pending.clear(); // results still being computed are discarded; their windows are not written
        lanes.clear();
    }

    @Override
    public void process(Record<String, byte[]> record) {
        String workloadId = record.key();
        ShardMessage msg;
        try {
            if (workloadId == null || workloadId.isEmpty() || workloadId.length() > 100) {
                throw new IllegalArgumentException("bad key");
            }
            msg = ShardMessage.fromBytes(record.value(),
                    Math.max(config.localPartitions(), config.centralPartitions()));
        } catch (IllegalArgumentException e) {
            metrics.invalidPartial();
            LOG.warn("skipping an invalid message on the partials topic: {}", e.getMessage());
            return;
        }
        if (msg.sourcePartition() >= config.partitions(msg.mode())) {
            metrics.invalidPartial();
            LOG.warn("skipping a partials message from a partition the gateway does not have");
            return;
        }
        if (msg instanceof ShardMessage.Partial p) {
            if (!p.window().workloadId().equals(workloadId)) {
                metrics.invalidPartial();
                LOG.warn("skipping a partial whose key and window name different workloads");
                return;
            }
            // the registration may have changed since this task last looked (a version registered again)
            ReleaseSchedule schedule = refreshed(workloadId);
            ReleaseSchedule.Segment seg = schedule.segment(p.window().contentHash(), p.window().start());
            if (schedule.segment(p.window().contentHash()) != null && (seg == null || !seg.pending(p.window().start()))) {
                metrics.discarded(workloadId, "partial-after-release");
                LOG.error("a partial for an already released or unscheduled window of {} arrived; not counted",
                        workloadId);
                return;
            }
            WindowAggregate prior = merged.get(p.window());
            if (prior == null) {
                merged.put(p.window(), p.aggregate());
            } else {
                try {
                    prior.add(p.aggregate());
                } catch (IllegalArgumentException | ArithmeticException e) {
                    metrics.invalidPartial();
                    LOG.warn("skipping a partial that does not match its window's aggregate: {}", e.getMessage());
                    return;
                }
                merged.markDirty(p.window());
            }
        } else {
            ShardMessage.Progress g = (ShardMessage.Progress) msg;
            String key = progressKey(workloadId, g.mode(), g.sourcePartition());
            Long prior = progress.get(key);
            if (prior == null || g.watermark() > prior) {
                progress.put(key, g.watermark());
            }
        }
        releaseDue(workloadId, monotonicMillis.getAsLong());
    }

    private void releaseAllDue(long now) {
        List<String> ids = new ArrayList<>();
        for (Registration r : catalog.registrations()) {
            ids.add(r.id());
        }
        schedules.forEach((id, s) -> {
            if (!ids.contains(id)) {
                ids.add(id);
            }
        });
        for (String id : ids) {
            if (ownsWorkload(id)) {
                releaseDue(id, now);
                reportOverdue(id);
            }
        }
    }

    /**
     * Sets {@code pgw.release.overdue} of a workload this task releases: how long ago, on the gateway's clock, its
     * oldest unreleased window should have been answered (window end + grace, plus the release delay for central
     * workloads), 0 when none is late. A function of the schedule and the registration (public), never of reports.
     * Removed once the workload has no window left to answer (deleted, every segment done).
     */
    private void reportOverdue(String workloadId) {
        ReleaseSchedule schedule = schedules.get(workloadId);
        long due = Long.MAX_VALUE;
        if (schedule != null) {
            for (ReleaseSchedule.Segment seg : schedule.segments()) {
                ResolvedWorkload w = seg.done() ? null : resolve(seg.contentHash());
                if (w != null) {
                    long delay = w instanceof CentralWorkload c ? releaseDelay(c) : 0;
                    due = Math.min(due, w.window().closesAt(seg.nextStart()) + delay);
                }
            }
        }
        if (due == Long.MAX_VALUE) {
            if (overdueReported.remove(workloadId)) {
                metrics.removeReleaseOverdue(workloadId);
            }
            return;
        }
        overdueReported.add(workloadId);
        metrics.releaseOverdue(workloadId, Duration.ofMillis(Math.max(0, context.currentSystemTimeMs() - due)));
    }

    /** Whether this task's partials partition is the one {@code workloadId} is keyed to. */
    private boolean ownsWorkload(String workloadId) {
        return schedules.get(workloadId) != null || progressKnown(workloadId);
    }

    private boolean progressKnown(String workloadId) {
        for (Mode m : Mode.values()) {
            for (int p = 0; p < config.partitions(m); p++) {
                if (progress.get(progressKey(workloadId, m, p)) != null) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The workload's schedule brought up to date with its registration changes (stored if it changed). */
    private ReleaseSchedule refreshed(String workloadId) {
        ReleaseSchedule schedule = schedules.get(workloadId);
        ReleaseSchedule updated = update(schedule == null ? ReleaseSchedule.EMPTY : schedule, workloadId);
        if (!updated.equals(schedule) && !updated.equals(ReleaseSchedule.EMPTY)) {
            schedules.put(workloadId, updated);
        }
        return updated;
    }

    /**
     * Brings the schedule up to date with the registration, then releases every due window of the workload (central:
     * starts its computation, to be written at {@code now} plus the workload's delay).
     */
    private void releaseDue(String workloadId, long now) {
        ReleaseSchedule schedule = schedules.get(workloadId);
        ReleaseSchedule updated = update(schedule == null ? ReleaseSchedule.EMPTY : schedule, workloadId);
        int released = 0;
        boolean progressed = true;
        while (progressed && released < MAX_RELEASES_PER_CALL) {
            progressed = false;
            for (ReleaseSchedule.Segment seg : updated.segments()) {
                if (seg.done()) {
                    continue;
                }
                ResolvedWorkload w = resolve(seg.contentHash());
                if (w == null) {
                    continue;
                }
                long min = minimumProgress(workloadId, seg.mode());
                if (w.window().closedAt(seg.nextStart(), min)) {
                    if (w.windowRelease() instanceof WindowRelease.Central c) { // written later, at a public time
                        released += prepareCentral(c, seg, min, MAX_RELEASES_PER_CALL - released, now);
                        break;
                    }
                    release(w, seg, seg.nextStart(), min);
                    updated = updated.advance(seg);
                    released++;
                    progressed = true;
                    break;
                }
            }
        }
        if (!updated.equals(schedule)) {
            schedules.put(workloadId, updated);
        }
        if (released > 0) {
            context.commit();
        }
    }

    /**
     * The schedule after every registration change of the workload it has not applied yet, in order (from the
     * catalog's {@linkplain WorkloadCatalog#history history}); a new schedule applies the whole history. If the last
     * change it applied is no longer in the history (an older schedule, or more changes than the history keeps),
     * only the current registration is applied.
     */
    private ReleaseSchedule update(ReleaseSchedule schedule, String workloadId) {
        List<Registration> history = catalog.history(workloadId);
        if (history.isEmpty()) {
            return schedule;
        }
        Registration current = history.get(history.size() - 1);
        int from = -1;
        for (int i = history.size() - 1; i >= 0 && !schedule.applied().isEmpty(); i--) {
            if (history.get(i).storeValue().equals(schedule.applied())) {
                from = i + 1;
                break;
            }
        }
        if (from < 0 && schedule.segments().isEmpty() && schedule.applied().isEmpty()) {
            from = 0; // a workload new to this task: every change it has seen, in order
        }
        ReleaseSchedule s = schedule;
        if (from < 0) { // not known which changes were applied: bring it to the current registration
            if (!schedule.applied().isEmpty()) {
                LOG.warn("the release schedule of {} missed registration changes; it follows the current one", workloadId);
            }
            boolean nothingOpen = s.last() == null || !s.last().open();
            if (!current.deleted() || s.segment(current.contentHash()) == null || !nothingOpen) {
                s = applied(s, new Registration(current.id(), current.contentHash(), current.since(),
                        current.workload()));
            }
            from = history.size() - 1;
            if (!current.deleted()) {
                from++;
            }
        }
        for (int i = from; i < history.size(); i++) {
            s = applied(s, history.get(i));
        }
        if (s != schedule) {
            for (ReleaseSchedule.Segment old : schedule.segments()) {
                if (!old.done() && s.segments().stream().noneMatch(old::sameRun)) { // beyond MAX_STORED
                    metrics.releaseFailed(workloadId);
                    LOG.error("the release schedule of {} holds at most {} versions; the unreleased windows of an old"
                            + " version are given up", workloadId, ReleaseSchedule.MAX_STORED);
                }
            }
        }
        return s.withApplied(current.storeValue());
    }

    /** The schedule after one registration change (an activation, or a deletion of the open version). */
    private static ReleaseSchedule applied(ReleaseSchedule s, Registration r) {
        if (r.deleted()) {
            return s.registered(null, null, 0, r.deletedAt());
        }
        ResolvedWorkload w = r.workload();
        return s.registered(r.contentHash(), w.mode(), w.window().sizeMillis(), r.since());
    }

    private ResolvedWorkload resolve(String contentHash) {
        try {
            return catalog.byHash(contentHash);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private WindowAggregate aggregate(ResolvedWorkload w, WindowKey key) {
        WindowAggregate agg = merged.get(key);
        if (agg != null && agg.state().length != w.aggregateLength()) {
            metrics.invalidPartial();
            return null;
        }
        return agg;
    }

    /**
     * Releases a local window now (its timing is not private: local answers are post-processing of reports), adds
     * its exact aggregate to every declared horizon span containing it, and releases each span whose last window
     * this is (or the version's last window: a span cut short by a new version covers the windows it had).
     */
    private void release(ResolvedWorkload w, ReleaseSchedule.Segment seg, long start, long streamTime) {
        WindowKey key = new WindowKey(w.id(), w.contentHash(), start);
        WindowAggregate agg = aggregate(w, key);
        long n = agg == null ? 0 : agg.n();
        try {
            ReleaseResult r = w.windowRelease().release(localWindow(agg, w.window().sizeMillis()), central.secret());
            write(w, AnswerRecords.toRecord(r, w, AnswerRecords.Span.window(w, start), AnswerRecords.NONE, streamTime),
                    n);
        } catch (RuntimeException e) {
            metrics.releaseFailed(w.id());
            LOG.error("releasing window {} of {} failed; the window is skipped ({})", start, w.id(),
                    e.getClass().getSimpleName(), e);
        }
        for (Horizon h : w.window().horizons()) {
            if (h instanceof Horizon.Span span) {
                rollUp(w, seg, span, start, agg, streamTime);
            }
        }
        if (merged.get(key) != null) {
            merged.delete(key);
        }
    }

    /**
     * Adds a released window's exact aggregate to its span of {@code span} and releases the span after its last
     * window: the same estimator, projection and error bars as a window, applied to the sum of the span's exact
     * window aggregates — identical to aggregating the span's reports as one window, at no extra ε.
     */
    private void rollUp(ResolvedWorkload w, ReleaseSchedule.Segment seg, Horizon.Span span, long windowStart,
            WindowAggregate window, long streamTime) {
        long spanStart = span.startOf(windowStart);
        HorizonKey key = new HorizonKey(w.id(), w.contentHash(), span.millis(), spanStart);
        WindowAggregate sum = horizons.get(key);
        if (window != null && window.n() > 0) {
            if (sum == null) {
                sum = WindowAggregate.empty(w.contentHash(), w.aggregateLength());
                sum.add(window);
                horizons.put(key, sum);
            } else {
                sum.add(window);
                horizons.markDirty(key);
            }
        }
        long windowEnd = w.window().endOf(windowStart);
        if (windowEnd < spanStart + span.millis() && windowEnd < seg.endStart()) {
            return; // the span has more windows of this version to come
        }
        long n = sum == null ? 0 : sum.n();
        long from = Math.max(spanStart, seg.firstStart());
        try {
            ReleaseResult r = w.windowRelease().release(localWindow(sum, span.millis()), central.secret());
            write(w, AnswerRecords.toRecord(r, w, new AnswerRecords.Span(from, windowEnd, span.wireName()),
                    AnswerRecords.NONE, streamTime), n);
        } catch (RuntimeException e) {
            metrics.releaseFailed(w.id());
            LOG.error("releasing the {} span from {} of {} failed; the span is skipped ({})", span.wireName(),
                    spanStart, w.id(), e.getClass().getSimpleName(), e);
        }
        if (sum != null) {
            horizons.delete(key);
        }
    }

    /**
     * A local window's (or span's) exact aggregate as its release reads it, with the crowd the device identity vouches
     * for among its reports (amplification).
     */
    private WindowRelease.Window localWindow(WindowAggregate agg, long spanMillis) {
        long n = agg == null ? 0 : agg.n();
        return new WindowRelease.Window(n, agg == null ? new long[0] : agg.state(), spanMillis,
                config.authentication().vouchedCrowd(n), config.authentication().crowdBasis());
    }

    /**
     * The delay between the moment a central window is found due and the moment its answer is written: the configured
     * {@code centralReleaseDelay} or the mechanism's own minimum ({@link CentralWorkload#minimumReleaseDelay()}, a
     * function of the registered version), whichever is longer. Public, fixed at registration.
     */
    private long releaseDelay(CentralWorkload c) {
        return Math.max(config.centralReleaseDelay().toMillis(), c.minimumReleaseDelay().toMillis());
    }

    /**
     * Starts the computation of a central segment's due windows that are not started yet, <b>off the stream
     * thread</b> ({@link CentralReleaser#executor()}, one computation at a time per workload), and fixes each window's
     * publication time now: {@code dueAt = now + (i + 1)·delay} for the i-th window (from 0) of the workload found due
     * in this call (a backlog after an outage gets one delay per window, since its computations run one after
     * another). A function of public information only (when the window was found due, the workload's delay, the
     * schedule), never of any workload's data or computation time. The window's exact counts are copied here, on the stream
     * thread; the computation reads nothing else. Returns how many were started.
     */
    private int prepareCentral(WindowRelease.Central r, ReleaseSchedule.Segment seg, long progress, int max,
            long now) {
        CentralWorkload c = r.workload();
        ArrayDeque<Pending> queue = pending.computeIfAbsent(c.id(), k -> new ArrayDeque<>());
        long start = seg.nextStart();
        for (Pending p : queue) {
            if (p.segment().sameRun(seg)) {
                start = Math.max(start, p.windowStart() + seg.windowMillis());
            }
        }
        long due = now;
        long delay = releaseDelay(c);
        int started = 0;
        while (started < max && start < seg.endStart() && c.window().closedAt(start, progress)) {
            WindowKey key = new WindowKey(c.id(), c.contentHash(), start);
            boolean unusable = merged.get(key) != null && merged.get(key).state().length != c.aggregateLength();
            WindowAggregate agg = aggregate(c, key);
            long[] counts = agg == null ? new long[c.aggregateLength()] : agg.state().clone();
            long n = agg == null ? 0 : agg.n();
            long windowStart = start;
            CompletableFuture<ReleaseResult> result = submit(c.id(),
                    () -> compute(central, r, windowStart, counts, n, unusable));
            due += delay;
            queue.addLast(new Pending(r, seg, start, n, unusable ? null : counts,
                    c.parameters().epsilonPerCharge().exact(), due, result));
            start += seg.windowMillis();
            started++;
        }
        return started;
    }

    /** Runs {@code job} on the releaser's executor after the workload's previous computation has ended. */
    private CompletableFuture<ReleaseResult> submit(String workloadId, Supplier<ReleaseResult> job) {
        CompletableFuture<?> tail = lanes.get(workloadId);
        CompletableFuture<ReleaseResult> f;
        try {
            f = tail == null || tail.isDone()
                    ? CompletableFuture.supplyAsync(job, executor)
                    : tail.handle((r, e) -> null).thenApplyAsync(x -> job.get(), executor);
        } catch (RejectedExecutionException e) {
            f = CompletableFuture.completedFuture(null); // the window falls back at its due time
        }
        lanes.put(workloadId, f);
        return f;
    }

    /**
     * A window's release, computed off the stream thread from the copied counts (or, if it fails, null, and the stream
     * thread publishes the fallback). Touches no state of the processor.
     */
    private static ReleaseResult compute(CentralReleaser central, WindowRelease.Central r, long start, long[] counts,
            long n, boolean unusable) {
        try {
            if (unusable) {
                throw new IllegalStateException("the window's aggregate does not fit the workload version");
            }
            return central.release(r, WindowRelease.Window.central(n, counts, r.workload().window().sizeMillis()));
        } catch (RuntimeException e) {
            LOG.error("releasing window {} of {} failed; its data-independent fallback is published instead ({})",
                    start, r.workload().id(), e.getClass().getSimpleName(), e);
            return null;
        }
    }

    /** The running totals after a window, and their results. */
    private record RunningTotals(ContinualState state, List<WindowRelease.HorizonResult> results) {}

    /**
     * Adds a window to the running totals and releases them (on the stream thread, at the window's publication
     * time: the update's running time depends on the secret noise only, and their answers are post-processing
     * of the noisy totals). If that fails, the window is added with zero counts (the tree needs every window in order;
     * none of this window's reports is in any later total) and every horizon's answer is the data-independent
     * fallback, at the same cost; if even that fails (an inconsistent state), the tree starts again with this window.
     * Either way every horizon is answered for this window.
     *
     * @param counts the window's counts, or null when its aggregate is unusable
     */
    private RunningTotals runningTotals(WindowRelease.Central r, ContinualState before, long start, long[] counts) {
        CentralWorkload c = r.workload();
        try {
            ContinualState after = central.runningTotals(r, before, start, counts);
            return new RunningTotals(after, r.runningTotals(after));
        } catch (RuntimeException e) {
            metrics.releaseFailed(c.id());
            LOG.error("the running totals of {} after window {} failed; their fallback is published instead ({})",
                    c.id(), start, e.getClass().getSimpleName(), e);
        }
        long[] none = new long[c.aggregateLength()];
        ContinualState after;
        try {
            after = central.runningTotals(r, before, start, none);
        } catch (RuntimeException e) {
            after = central.runningTotals(r, c.runningTotals().orElseThrow().start(start), start, none);
        }
        return new RunningTotals(after, r.runningTotalsFallback(after));
    }

    /**
     * The running totals' state before the window starting at {@code start}: as stored (windows are written in order,
     * so the store holds the state after the version's previous window), else a new tree starting with this window.
     */
    private ContinualState totalsBefore(CentralWorkload c, long start) {
        ContinualCounter counter = c.runningTotals().orElseThrow();
        byte[] stored = totals.get(totalsKey(c));
        if (stored != null) {
            try {
                return counter.codec().decode(stored);
            } catch (IllegalArgumentException e) {
                metrics.invalidPartial();
                LOG.error("the stored running totals of {} are unreadable; they start again", c.id());
            }
        }
        return counter.start(start);
    }

    private static String totalsKey(ResolvedWorkload w) {
        return w.id() + "#" + w.contentHash();
    }

    /**
     * Writes every central answer whose publication time has come, in window order, charging the privacy account: the
     * computed answer if its computation has finished, else (still running, or failed) the data-independent fallback
     * — at the same time and the same cost either way; a late result is discarded. Only the stream thread forwards
     * records and changes state, here, in one transaction per punctuation.
     */
    private void writePending(long now) {
        if (pending.isEmpty()) {
            return;
        }
        boolean wrote = false;
        for (var e : pending.entrySet()) {
            String id = e.getKey();
            ArrayDeque<Pending> queue = e.getValue();
            while (!queue.isEmpty() && now >= queue.peekFirst().dueAt()) {
                Pending p = queue.pollFirst();
                CentralWorkload w = p.workload(); // every window is answered (computed or fallback) and charged
                long start = p.windowStart();
                long closesAt = w.window().closesAt(start);
                ReleaseResult r = p.result().isDone() && !p.result().isCompletedExceptionally()
                        ? p.result().join() : null;
                if (!p.result().isDone()) {
                    metrics.releaseOverrun(id);
                    LOG.warn("the release of window {} of {} had not finished at its publication time; its"
                            + " data-independent fallback is published instead", start, id);
                }
                List<WindowRelease.HorizonResult> runningTotals = List.of();
                if (w.runningTotals().isPresent()) {
                    RunningTotals t = runningTotals(p.release(), totalsBefore(w, start), start, p.counts());
                    runningTotals = t.results();
                    totals.put(totalsKey(w), w.runningTotals().orElseThrow().codec().encode(t.state()));
                }
                ReleaseAccount before = accounts.get(id);
                before = before == null ? ReleaseAccount.EMPTY : before;
                Written out = null;
                if (r != null) {
                    try {
                        out = written(p, r, before, closesAt);
                    } catch (RuntimeException ex) { // a result no record can hold: the fallback, as for a failure
                        LOG.error("the records of window {} of {} could not be built; its data-independent fallback is"
                                + " published instead ({})", start, id, ex.getClass().getSimpleName(), ex);
                    }
                }
                if (out == null) {
                    metrics.releaseFailed(id);
                    out = written(p, p.release().fallback(p.n()), before, closesAt);
                }
                accounts.put(id, out.account());
                PrivacyCost.Pure cumulative = out.account().cumulative();
                metrics.cumulativeEpsilon(id, cumulative.epsilon());
                write(w, out.answer(), p.n());
                if (out.synthetic() != null) {
                    context.forward(new Record<>(id, out.synthetic(), w.window().endOf(start)), SYNTHETIC_SINK);
                }
                for (WindowAnswer total : runningTotalRecords(p.release(), runningTotals, cumulative, closesAt)) {
                    write(w, total, total.getN());
                }
                WindowKey key = new WindowKey(id, p.segment().contentHash(), start);
                if (merged.get(key) != null) {
                    merged.delete(key);
                }
                ReleaseSchedule schedule = schedules.get(id);
                ReleaseSchedule.Segment current = schedule == null ? null
                        : schedule.segment(p.segment().contentHash(), start);
                if (current != null && current.nextStart() == start) {
                    ReleaseSchedule advanced = schedule.advance(current);
                    schedules.put(id, advanced);
                    ReleaseSchedule.Segment after = advanced.segment(p.segment().contentHash(), p.windowStart());
                    String totalsKey = id + "#" + p.segment().contentHash();
                    if (after != null && after.done() && totals.get(totalsKey) != null) {
                        totals.delete(totalsKey); // the version's last window: its running totals end with it
                    }
                }
                wrote = true;
            }
        }
        pending.values().removeIf(ArrayDeque::isEmpty);
        lanes.values().removeIf(CompletableFuture::isDone);
        if (wrote) {
            context.commit();
        }
    }

    /** A central window's records and the account after it. */
    private record Written(ReleaseAccount account, WindowAnswer answer, SyntheticData synthetic) {}

    /**
     * The records of a central window's result, with the account after its charge (the cumulative ε passed in as a
     * value: the account's exact total rounded up once). Throws if a record cannot hold the result.
     */
    private static Written written(Pending p, ReleaseResult r, ReleaseAccount before, long closesAt) {
        CentralWorkload w = p.workload();
        long start = p.windowStart();
        ReleaseAccount account = before.plus(start, r.mechanism(), p.epsilon());
        WindowAnswer answer = AnswerRecords.toRecord(r, w, AnswerRecords.Span.window(w, start), account.cumulative(),
                closesAt);
        SyntheticData synthetic = r.synthetic().isPresent() ? AnswerRecords.synthetic(r, w, start, closesAt) : null;
        return new Written(account, answer, synthetic);
    }

    /**
     * The running totals' records after a window; if a record cannot hold a result, every horizon's data-independent
     * fallback at the same cost (from the same tree), so every horizon is still answered.
     */
    private List<WindowAnswer> runningTotalRecords(WindowRelease.Central r, List<WindowRelease.HorizonResult> results,
            PrivacyCost.Pure cumulative, long closesAt) {
        try {
            return records(r.workload(), results, cumulative, closesAt);
        } catch (RuntimeException e) {
            metrics.releaseFailed(r.workload().id());
            LOG.error("the running totals' records of {} could not be built; their fallback is published instead ({})",
                    r.workload().id(), e.getClass().getSimpleName(), e);
            List<WindowRelease.HorizonResult> fallback = new ArrayList<>();
            for (WindowRelease.HorizonResult h : results) {
                fallback.add(new WindowRelease.HorizonResult(h.span(), r.horizonFallback(h.span())));
            }
            return records(r.workload(), fallback, cumulative, closesAt);
        }
    }

    private static List<WindowAnswer> records(CentralWorkload w, List<WindowRelease.HorizonResult> results,
            PrivacyCost.Pure cumulative, long closesAt) {
        List<WindowAnswer> out = new ArrayList<>(results.size());
        for (WindowRelease.HorizonResult h : results) {
            AnswerRecords.Span span = new AnswerRecords.Span(h.span().start(), h.span().end(),
                    h.span().horizon().wireName());
            out.add(AnswerRecords.toRecord(h.result(), w, span, cumulative, closesAt));
        }
        return out;
    }

    private void write(ResolvedWorkload w, WindowAnswer record, long n) {
        long end = record.getWindowEnd().toEpochMilli();
        context.forward(new Record<>(w.id(), record, end), ANSWERS_SINK);
        metrics.published(w.id(), w.mode().wireName());
        metrics.released(w.id(), w.mode().wireName(), n,
                Duration.ofMillis(context.currentSystemTimeMs() - (end + w.window().graceMillis())));
    }

    /** The smallest watermark over every partition of the mode's report topic (MIN_VALUE if one is missing). */
    private long minimumProgress(String workloadId, Mode mode) {
        long min = Long.MAX_VALUE;
        for (int p = 0; p < config.partitions(mode); p++) {
            Long wm = progress.get(progressKey(workloadId, mode, p));
            if (wm == null) {
                return Long.MIN_VALUE;
            }
            min = Math.min(min, wm);
        }
        return min;
    }

    static String progressKey(String workloadId, Mode mode, int partition) {
        return workloadId + "|" + mode.wireName() + "|" + partition;
    }

    /** The exact ε a central workload has released so far (tests). */
    BigDecimal released(String workloadId) {
        ReleaseAccount a = accounts.get(workloadId);
        return a == null ? BigDecimal.ZERO : a.total();
    }
}
