package io.privacygateway.topology.ingest;

import io.privacygateway.mechanisms.budget.BudgetLedger;
import io.privacygateway.mechanisms.budget.DeviceLedger;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.GatewayMetrics;
import io.privacygateway.topology.state.TypedStore;
import io.privacygateway.topology.state.WindowAggregate;
import io.privacygateway.topology.state.WindowKey;
import io.privacygateway.topology.validate.RejectReason;
import io.privacygateway.topology.validate.ReportValidator;
import io.privacygateway.topology.validate.ReportView;
import io.privacygateway.topology.validate.Verdict;
import io.privacygateway.topology.workload.Registration;
import io.privacygateway.topology.workload.WorkloadCatalog;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.utils.Utils;

/**
 * The per-report logic of an ingest shard, apart from Kafka Streams' plumbing: decides whether one decoded
 * report counts and, if it does, charges the device's budget and adds it to its window's aggregate. The
 * decision — identity, registration, validation, window, budget — is made completely before any state
 * changes, so a defect that throws while deciding leaves nothing half-done.
 *
 * <p>Per workload, the registration, meters and derived values are resolved once and reused while the
 * registration stays the same (no per-report string building or registry lookups).
 *
 * <p>Not thread-safe: one instance per shard.
 */
public final class ReportAdmission {
    private final GatewayConfig config;
    private final ReportMode mode;
    private final WorkloadCatalog catalog;
    private final GatewayMetrics metrics;
    private final DeviceLedgers budgets;
    private final TypedStore<WindowKey, WindowAggregate> aggregates;
    private final ReportValidator validator;
    private final int partitions;
    private final int[] index = new int[1];
    private final Map<String, Active> active = new HashMap<>();
    private RejectReason reason;
    private String message;
    private long newWindowCloses = Long.MAX_VALUE;

    /**
     * A registration as this shard uses it, resolved once, with the last window key it met (an immutable
     * value, reused by the reports of the same window instead of formed per report).
     */
    private static final class Active {
        final Registration registration;
        final GatewayMetrics.WorkloadMeters meters;
        final long firstWindowStart;
        private WindowKey windowKey;

        Active(Registration registration, GatewayMetrics.WorkloadMeters meters, long firstWindowStart) {
            this.registration = registration;
            this.meters = meters;
            this.firstWindowStart = firstWindowStart;
        }

        Registration registration() {
            return registration;
        }

        GatewayMetrics.WorkloadMeters meters() {
            return meters;
        }

        long firstWindowStart() {
            return firstWindowStart;
        }

        /** The key of the window starting at {@code start}: equal to {@code new WindowKey(id, hash, start)}. */
        WindowKey windowKey(ResolvedWorkload w, long start) {
            WindowKey k = windowKey;
            if (k == null || k.start() != start) {
                k = new WindowKey(w.id(), w.contentHash(), start);
                windowKey = k;
            }
            return k;
        }
    }

    public ReportAdmission(GatewayConfig config, ReportMode mode, WorkloadCatalog catalog, GatewayMetrics metrics,
            DeviceLedgers budgets, TypedStore<WindowKey, WindowAggregate> aggregates) {
        this.config = config;
        this.mode = mode;
        this.catalog = catalog;
        this.metrics = metrics;
        this.budgets = budgets;
        this.aggregates = aggregates;
        this.validator = new ReportValidator(config.maxFutureSkew(), config.maxEventAge());
        this.partitions = config.partitions(mode.mode());
    }

    /**
     * Decides one decoded report and counts it if it is admitted.
     *
     * @param key the record key (must be the device id's UTF-8 bytes)
     * @param headers the record headers (device credential in enrolled mode)
     * @param appendTime the broker's append time of the record
     * @param watermark the shard's watermark (windows closed at it are late)
     * @param partition the shard's partition
     * @return {@code true} if the report was counted; otherwise {@link #reason()} and {@link #message()} say why
     *     (and {@link #rejectedWithReport()} whether the decoded report may be named in the rejection)
     */
    public boolean admit(byte[] key, Headers headers, ReportView report, long appendTime, long watermark,
            int partition) {
        newWindowCloses = Long.MAX_VALUE;
        if (!recordIsTheDevicesOwn(key, headers, report, partition)) {
            return false;
        }
        Active a = active(report.workloadId());
        if (a == null) {
            return refuse(RejectReason.UNKNOWN_WORKLOAD, "no workload with this id is registered");
        }
        ResolvedWorkload w = a.registration().workload();
        Verdict v = validator.check(report, w, mode.mode(), appendTime);
        if (!v.accepted()) {
            return refuse(v.reason(), v.message());
        }
        WorkloadSpec.Window win = w.window();
        long start = win.startOf(report.eventTime());
        if (win.closedAt(start, watermark)) {
            return refuse(RejectReason.LATE, "window [" + start + ", " + win.endOf(start)
                    + ") closed at this shard (watermark " + watermark + ", grace " + win.graceMillis() + " ms)");
        }
        if (start < a.firstWindowStart()) {
            return refuse(RejectReason.NOT_ACTIVE, "the window starts before version " + w.spec().version()
                    + " became active");
        }
        v = mode.prepare(report, w, index);
        if (!v.accepted()) {
            return refuse(v.reason(), v.message());
        }
        WindowKey wk = a.windowKey(w, start);
        WindowAggregate agg = aggregates.get(wk);
        // each shard may fill its share of what a window can hold exactly, so the merged window always releases
        long shardShare = w.maxReportsPerWindow() / partitions;
        if (agg != null && agg.n() >= shardShare) {
            return refuse(RejectReason.WINDOW_FULL, "the window already holds the " + shardShare + " reports this"
                    + " partition may add to it (" + w.spec().mechanism().wireName() + " sums at most "
                    + w.maxReportsPerWindow() + " reports per window exactly); nothing was charged");
        }
        BudgetLedger.GroupView group = w.group().isPresent() ? catalog.groupView(w.group().get().name()) : null;
        DeviceLedger ledger = budgets.ledger(report.deviceId());
        // the one budget-admission routine, the one the device ran before sending (WorkloadRules.admit)
        BudgetLedger.Admission admission = w.rules().admit(ledger, report.eventTime(), report.sequence(), group,
                budgets.forgotten());
        if (admission instanceof BudgetLedger.Refused refused) {
            return refuse(RejectReason.valueOf(refused.reason().name()), refused.message());
        }
        BudgetLedger.Admitted admitted = (BudgetLedger.Admitted) admission;
        // decided: below, the report is counted
        boolean fresh = agg == null;
        if (fresh) {
            agg = WindowAggregate.empty(w.contentHash(), w.aggregateLength());
        }
        if (!mode.accumulate(report, w, index[0], agg.state())) {
            return refuse(RejectReason.BAD_PAYLOAD, "the payload is not a valid " + w.spec().mechanism().wireName()
                    + " encoding");
        }
        agg.countOne();
        if (fresh) {
            aggregates.put(wk, agg);
            newWindowCloses = win.closesAt(start);
        } else {
            aggregates.markDirty(wk);
        }
        budgets.record(report.deviceId(), admitted.updated());
        try {
            a.meters().accepted(admitted.charged().doubleValue());
        } catch (RuntimeException e) {
            // metrics never decide about a report
        }
        return true;
    }

    /**
     * The checks of the record before its workload is looked up: a well-formed identity, keyed by its device id,
     * on the partition the default partitioner gives that key, carrying a valid credential for it. On
     * {@code false}, {@link #reason()} and {@link #message()} say which failed.
     */
    private boolean recordIsTheDevicesOwn(byte[] key, Headers headers, ReportView report, int partition) {
        Verdict v = ReportValidator.checkIdentity(report);
        if (!v.accepted()) {
            return refuse(v.reason(), v.message());
        }
        if (key == null || !isUtf8Of(key, report.deviceId())) {
            return refuse(RejectReason.KEY_MISMATCH, "reports are keyed by their device id; the record key "
                    + (key == null ? "is missing" : "differs from it"));
        }
        int expected = Utils.toPositive(Utils.murmur2(key)) % partitions; // the key is the device id's bytes
        if (expected != partition) {
            return refuse(RejectReason.WRONG_PARTITION, "the device belongs on partition " + expected + " of "
                    + config.reportsTopic(mode.mode()) + " (keyed by device id, default partitioner), not " + partition);
        }
        if (!config.authentication().verifies(report.deviceId(), headers)) {
            return refuse(RejectReason.UNAUTHENTICATED, "no valid device credential for this device id");
        }
        return true;
    }

    /** Whether {@code bytes} is the UTF-8 encoding of {@code s} (without allocating for ASCII ids). */
    static boolean isUtf8Of(byte[] bytes, String s) {
        int n = s.length();
        if (bytes.length == n) {
            boolean ascii = true;
            for (int i = 0; i < n; i++) {
                char c = s.charAt(i);
                if (c >= 0x80) {
                    ascii = false;
                    break;
                }
                if (bytes[i] != (byte) c) {
                    return false;
                }
            }
            if (ascii) {
                return true;
            }
        }
        return Arrays.equals(bytes, Utils.utf8(s));
    }

    /** The current registration of a workload as this shard uses it, or {@code null} if none is active. */
    private Active active(String workloadId) {
        Registration reg = catalog.current(workloadId);
        if (reg == null || reg.deleted()) {
            return null;
        }
        Active a = active.get(workloadId);
        if (a == null || a.registration() != reg) {
            a = new Active(reg, metrics.forWorkload(workloadId, mode.mode().wireName()),
                    reg.workload().window().startOf(reg.since()));
            active.put(workloadId, a);
        }
        return a;
    }

    private boolean refuse(RejectReason r, String m) {
        reason = r;
        message = m;
        return false;
    }

    /** Why the last report was refused. */
    public RejectReason reason() {
        return reason;
    }

    /** The message of the last refusal (never a payload or raw value). */
    public String message() {
        return message;
    }

    /** Whether the last refusal may name the decoded report (not for identity failures before lookup). */
    public boolean rejectedWithReport() {
        return reason != RejectReason.MALFORMED;
    }

    /** The close time of the window the last admitted report opened, or {@code Long.MAX_VALUE}. */
    public long newWindowCloses() {
        return newWindowCloses;
    }
}
