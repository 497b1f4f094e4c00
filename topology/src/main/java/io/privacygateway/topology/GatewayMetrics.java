package io.privacygateway.topology;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.topology.validate.RejectReason;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;

/**
 * The gateway's Micrometer meters. Every record the gateway does not count is counted here (and written to
 * the rejections topic): nothing is dropped without a trace.
 *
 * <p><b>Bounded tags.</b> A workload tag is the id of a <em>registered</em> workload (at most
 * {@value #MAX_TAG_LENGTH} characters, and registered ids are validated to 100); any other id a record names —
 * unknown, deleted, forged — is tagged {@value #UNKNOWN}, so attacker-chosen ids cannot create meters.
 * Reason and mode tags come from enums.
 *
 * <ul>
 *   <li>{@code pgw.reports.accepted} (workload, mode), {@code pgw.reports.rejected} (reason, workload)
 *   <li>{@code pgw.epsilon.charged} (workload, mode): ε charged to devices' budgets (a sum over devices)
 *   <li>{@code pgw.answers.published} (workload, mode); {@code pgw.central.cumulative.epsilon} (workload, gauge)
 *   <li>{@code pgw.release.latency} (workload, mode; timer with percentiles): window end + grace → answer written,
 *       measured on the gateway's clock
 *   <li>{@code pgw.window.reports} (workload, mode; summary): reports per released window
 *   <li>{@code pgw.watermark.lag} (topic, partition; gauge, seconds): gateway clock minus a shard's watermark
 *   <li>{@code pgw.release.overdue} (workload; gauge, seconds): how late the oldest unreleased window of a workload
 *       is (0 when none is), set by the task that releases it and removed when that task closes
 *   <li>{@code pgw.device.spend} (budget: workload id or {@code group:<name>}; histogram with the fixed buckets
 *       {@link #DEVICE_SPEND_BUCKETS}, no client-side quantiles): ε each device spent per period, recorded when the
 *       period ends
 *   <li>{@code pgw.windows.discarded} (workload, why), {@code pgw.release.failed} (workload),
 *       {@code pgw.release.overrun} (workload: central computations longer than the fixed write delay),
 *       {@code pgw.workloads.invalid}, {@code pgw.partials.invalid}
 * </ul>
 *
 * <p>Every meter has a description (the {@code # HELP} line on {@code /metrics}). A shard's watermark-lag gauge is
 * removed when its task is closed ({@link #removeWatermarkLag}: the partition was revoked or the gateway stops), so
 * an instance never reports a partition it no longer owns.
 *
 * <p><b>Central workloads.</b> A central answer publishes a noisy n; a meter that counts one central workload's
 * reports exactly would give the exact n to whoever reads the (unauthenticated) metrics endpoint, per window by
 * differencing two scrapes. So unless {@link #centralCounts exact central counts} are enabled
 * ({@link GatewayConfig#exactCentralCounts()}), {@code pgw.reports.accepted}, {@code pgw.epsilon.charged} and
 * {@code pgw.window.reports} are not registered for central workloads, and {@code pgw.device.spend} is not recorded
 * for a budget charged by central reports (its count is the number of devices that contributed). What remains for
 * a central workload depends on public information or on refused records only: answers published, cumulative ε,
 * release latency, overruns and failures (visible on the answers topic too), rejections by reason (records that
 * never enter a window). No total across workloads includes central accepted reports.
 */
public final class GatewayMetrics {
    /** The workload tag of ids that are not registered. */
    public static final String UNKNOWN = "unknown";
    /** Tags longer than this are cut (registered ids never are). */
    public static final int MAX_TAG_LENGTH = 100;
    private static final String CENTRAL = Mode.CENTRAL.wireName();
    /**
     * The upper bounds (ε) of {@code pgw.device.spend}'s buckets, fixed so that instances and restarts aggregate
     * ({@code sum by (le)}); a budget is at most a few ε per period, larger spends fall in {@code +Inf}.
     */
    public static final double[] DEVICE_SPEND_BUCKETS = {0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32};
    /** The {@code # HELP} text of each meter registered through {@link #counter}. */
    private static final Map<String, String> DESCRIPTIONS = Map.of(
            "pgw.reports.rejected", "records refused, by reason code (each is also written to the rejections topic)",
            "pgw.answers.published", "answers written to the answers topic (one per scheduled window and horizon span)",
            "pgw.windows.discarded", "partial aggregates that arrived for a window already released (should stay 0)",
            "pgw.release.overrun", "central releases still computing at their publication time (the fallback was"
                    + " written instead)",
            "pgw.release.failed", "releases that could not finish: a central window answered with its fallback, a"
                    + " local window skipped (should stay 0)",
            "pgw.workloads.invalid", "records on the workloads topic the gateway could not use (skipped)",
            "pgw.partials.invalid", "messages on the internal partials topic that failed validation (skipped)");
    private final MeterRegistry registry;
    private final Map<String, Object> meters = new ConcurrentHashMap<>();
    private final Map<String, WorkloadMeters> workloads = new ConcurrentHashMap<>();
    /** Workload id → the tag of its {@code pgw.release.overdue} gauge. */
    private final Map<String, String> overdueTags = new ConcurrentHashMap<>();
    private volatile Predicate<String> registered = id -> false;
    private volatile boolean exactCentralCounts;
    private volatile Predicate<String> centralBudget = budget -> false;

    public GatewayMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** Tells which workload ids are registered (others are tagged {@value #UNKNOWN}). */
    public void registeredIds(Predicate<String> isRegistered) {
        this.registered = isRegistered;
    }

    /**
     * Decides whether the meters that count one central workload's reports exactly are registered (see the class
     * comment). Call it before the first meter is used (the topology does, when it is built); off until then.
     *
     * @param exact register them ({@code metrics.exactCentralCounts: true})
     * @param chargedByCentralReports whether a budget ({@link #deviceSpend}) is charged by central reports
     */
    public void centralCounts(boolean exact, Predicate<String> chargedByCentralReports) {
        this.exactCentralCounts = exact;
        this.centralBudget = Objects.requireNonNull(chargedByCentralReports, "chargedByCentralReports");
    }

    /** Whether meters count central workloads' reports exactly ({@link #centralCounts}). */
    public boolean exactCentralCounts() {
        return exactCentralCounts;
    }

    /** Whether the exact report counts of a workload in this mode may be registered. */
    private boolean countsExactly(String mode) {
        return exactCentralCounts || !CENTRAL.equals(mode);
    }

    /** The tag value for a workload id a record names. */
    public String workloadTag(String id) {
        if (id == null || !registered.test(id)) {
            return UNKNOWN;
        }
        return id.length() > MAX_TAG_LENGTH ? id.substring(0, MAX_TAG_LENGTH) : id;
    }

    /**
     * The meters of one workload in one mode, resolved once (the hot path keeps the handle, so no per-report
     * registry lookup or tag hashing happens).
     */
    public WorkloadMeters forWorkload(String id, String mode) {
        String tag = workloadTag(id);
        return workloads.computeIfAbsent(tag + '|' + mode, k -> new WorkloadMeters(tag, mode));
    }

    /**
     * The handles of one workload's meters. For a central workload without exact central counts, accepted reports
     * and ε charged are not counted (no meter is registered).
     */
    public final class WorkloadMeters {
        private final String workload;
        private final String mode;
        private final Counter accepted; // null: not counted
        private final Counter epsilon;
        private final Map<RejectReason, Counter> rejected = new EnumMap<>(RejectReason.class);

        private WorkloadMeters(String workload, String mode) {
            this.workload = workload;
            this.mode = mode;
            boolean counted = countsExactly(mode);
            this.accepted = !counted ? null : Counter.builder("pgw.reports.accepted")
                    .description("reports validated, charged to their device's budget and added to their window")
                    .tags("workload", workload, "mode", mode).register(registry);
            this.epsilon = !counted ? null : Counter.builder("pgw.epsilon.charged")
                    .tags("workload", workload, "mode", mode)
                    .description("pure ε charged to devices' budgets, summed over devices").register(registry);
        }

        public void accepted(double epsilonCharged) {
            if (accepted == null) {
                return;
            }
            accepted.increment();
            if (epsilonCharged > 0) {
                epsilon.increment(epsilonCharged);
            }
        }

        public void rejected(RejectReason reason) {
            Counter c;
            synchronized (rejected) {
                c = rejected.computeIfAbsent(reason, r -> rejectedCounter(r, workload));
            }
            c.increment();
        }
    }

    private Counter rejectedCounter(RejectReason reason, String workloadTag) {
        return counter("pgw.reports.rejected", "reason", reason.name(), "workload", workloadTag);
    }

    @SuppressWarnings("unchecked")
    private <T> T meter(String key, Supplier<T> make) {
        Object m = meters.get(key);
        if (m == null) {
            m = meters.computeIfAbsent(key, k -> make.get());
        }
        return (T) m;
    }

    private Counter counter(String name, String... tags) {
        return meter(name + '|' + String.join("|", tags), () -> Counter.builder(name).tags(tags)
                .description(DESCRIPTIONS.get(name)).register(registry));
    }

    /** Runs a metric update; a failing meter is logged, never propagated (metrics never decide anything). */
    private static void safely(Runnable update) {
        try {
            update.run();
        } catch (RuntimeException e) {
            LoggerFactory.getLogger(GatewayMetrics.class).warn("a metric could not be updated: {}",
                    e.toString());
        }
    }

    /** Counts a rejection of a record whose workload id is {@code workloadId} (possibly unknown or null). */
    public void rejected(RejectReason reason, String workloadId) {
        safely(() -> rejectedCounter(reason, workloadTag(workloadId)).increment());
    }

    public void published(String workload, String mode) {
        safely(() -> counter("pgw.answers.published", "workload", workloadTag(workload), "mode", mode).increment());
    }

    /**
     * Records one released window: its report count (not for a central workload without exact central counts)
     * and how long after window end + grace it was written.
     */
    public void released(String workload, String mode, long reports, Duration latency) {
        safely(() -> recordRelease(workload, mode, reports, latency));
    }

    private void recordRelease(String workload, String mode, long reports, Duration latency) {
        String tag = workloadTag(workload);
        if (countsExactly(mode)) {
            meter("pgw.window.reports|" + tag + '|' + mode, () -> DistributionSummary.builder("pgw.window.reports")
                    .description("reports per released window")
                    .tags("workload", tag, "mode", mode).register(registry)).record(reports);
        }
        meter("pgw.release.latency|" + tag + '|' + mode, () -> Timer.builder("pgw.release.latency")
                .description("from window end + grace to the answer being written, on the gateway's clock")
                .tags("workload", tag, "mode", mode).publishPercentiles(0.5, 0.9, 0.99).publishPercentileHistogram()
                .register(registry)).record(latency.isNegative() ? Duration.ZERO : latency);
    }

    /** Sets the cumulative ε a central workload has released so far. */
    public void cumulativeEpsilon(String workload, double epsilon) {
        safely(() -> setCumulative(workload, epsilon));
    }

    private void setCumulative(String workload, double epsilon) {
        String tag = workloadTag(workload);
        AtomicLong bits = meter("pgw.central.cumulative.epsilon|" + tag, () -> {
            AtomicLong v = new AtomicLong();
            Gauge.builder("pgw.central.cumulative.epsilon", v, a -> Double.longBitsToDouble(a.get()))
                    .description("the ε a central workload has released so far (also in every answer)")
                    .tags("workload", tag).register(registry);
            return v;
        });
        bits.set(Double.doubleToLongBits(epsilon));
    }

    /** Sets how far a shard's watermark is behind the gateway clock. */
    public void watermarkLag(String topic, int partition, Duration lag) {
        safely(() -> setLag(topic, partition, lag));
    }

    private void setLag(String topic, int partition, Duration lag) {
        AtomicLong millis = meter("pgw.watermark.lag|" + topic + '|' + partition, () -> {
            AtomicLong v = new AtomicLong();
            Gauge.builder("pgw.watermark.lag", v, a -> a.get() / 1000.0).baseUnit("seconds")
                    .description("how far a report partition's watermark is behind the gateway's clock")
                    .tags("topic", topic, "partition", Integer.toString(partition)).register(registry);
            return v;
        });
        millis.set(lag.toMillis());
    }

    /**
     * Removes a shard's watermark-lag gauge: its task was closed (the partition revoked, or the gateway stopping), so
     * this instance no longer knows the partition's watermark. The next {@link #watermarkLag} registers it again.
     */
    public void removeWatermarkLag(String topic, int partition) {
        safely(() -> {
            if (meters.remove("pgw.watermark.lag|" + topic + '|' + partition) != null) {
                Gauge g = registry.find("pgw.watermark.lag").tags("topic", topic, "partition",
                        Integer.toString(partition)).gauge();
                if (g != null) {
                    registry.remove(g);
                }
            }
        });
    }

    /**
     * Sets how long ago a workload's oldest unreleased window should have been answered (0: none is late); see
     * {@code ReleaseProcessor}. A workload that stopped answering shows here before any counter could.
     */
    public void releaseOverdue(String workload, Duration overdue) {
        safely(() -> {
            // the tag of the id when it was first reported (it stays while a deleted workload's last windows wait)
            String tag = overdueTags.computeIfAbsent(workload, this::workloadTag);
            if (UNKNOWN.equals(tag)) {
                overdueTags.remove(workload);
                return; // an unregistered id never gets a series of its own
            }
            AtomicLong millis = meter("pgw.release.overdue|" + tag, () -> {
                AtomicLong v = new AtomicLong();
                Gauge.builder("pgw.release.overdue", v, a -> a.get() / 1000.0).baseUnit("seconds")
                        .description("how long ago a workload's oldest unreleased window should have been answered"
                                + " (window end + grace + release delay); 0 when none is late")
                        .tags("workload", tag).register(registry);
                return v;
            });
            millis.set(overdue.toMillis());
        });
    }

    /** Removes a workload's overdue gauge (its release task closed, or nothing is left to answer). */
    public void removeReleaseOverdue(String workload) {
        safely(() -> {
            String tag = overdueTags.remove(workload);
            if (tag != null && meters.remove("pgw.release.overdue|" + tag) != null) {
                Gauge g = registry.find("pgw.release.overdue").tags("workload", tag).gauge();
                if (g != null) {
                    registry.remove(g);
                }
            }
        });
    }

    public void discarded(String workload, String why) {
        safely(() -> counter("pgw.windows.discarded", "workload", workloadTag(workload), "why", why).increment());
    }

    /**
     * Records one device's total spending of a budget in a period that has ended (recorded when the period's
     * entry expires): the distribution over devices of ε spent per period, per workload or budget group. Not
     * recorded for a budget charged by central reports unless exact central counts are enabled (its count is the
     * number of devices that contributed to a window).
     *
     * @param budget a registered workload id, or {@code group:<name>} of a registered workload's group
     */
    public void deviceSpend(String budget, double epsilon) {
        safely(() -> {
            if (!exactCentralCounts && centralBudget.test(budget)) {
                return;
            }
            String tag = budget.startsWith("group:") ? budget : workloadTag(budget);
            meter("pgw.device.spend|" + tag, () -> DistributionSummary.builder("pgw.device.spend")
                    .description("ε a device spent of a budget in one period, recorded when the period ends")
                    .tags("budget", tag).serviceLevelObjectives(DEVICE_SPEND_BUCKETS).register(registry))
                    .record(epsilon);
        });
    }

    /** A central release whose computation took longer than the fixed delay before it is written. */
    public void releaseOverrun(String workload) {
        safely(() -> counter("pgw.release.overrun", "workload", workloadTag(workload)).increment());
    }

    public void releaseFailed(String workload) {
        safely(() -> counter("pgw.release.failed", "workload", workloadTag(workload)).increment());
    }

    public void invalidWorkload() {
        safely(() -> counter("pgw.workloads.invalid").increment());
    }

    public void invalidPartial() {
        safely(() -> counter("pgw.partials.invalid").increment());
    }

    /** The current value of a counter (0 if it was never incremented), for tests and the dashboard. */
    public double count(String name, String... tags) {
        double total = 0;
        for (Counter c : registry.find(name).tags(tags).counters()) {
            total += c.count();
        }
        return total;
    }
}
