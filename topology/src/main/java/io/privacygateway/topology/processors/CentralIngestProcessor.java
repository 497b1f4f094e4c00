package io.privacygateway.topology.processors;

import io.privacygateway.mechanisms.workload.InvalidValueException;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.GatewayMetrics;
import io.privacygateway.topology.state.LedgerEntry;
import io.privacygateway.topology.state.WindowKey;
import io.privacygateway.topology.validate.RejectReason;
import io.privacygateway.topology.validate.ReportView;
import io.privacygateway.topology.validate.Verdict;
import io.privacygateway.topology.workload.ActiveWorkload;
import io.privacygateway.topology.workload.WorkloadCache;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A shard of central-mode reports (raw values; the gateway is trusted). Each device may contribute at
 * most L reports to a window (more are rejected with {@code CONTRIBUTION_LIMIT}, never clipped
 * silently); the first contribution to a window charges the device the release's pure ε, so the number
 * of windows a device contributes to per period is bounded by its budget ({@code BUDGET_EXHAUSTED}).
 * Aggregation: exact counts per universe value.
 */
public final class CentralIngestProcessor extends IngestProcessor {
    private final Deserializer<CentralReport> deserializer;
    private final String contributionsStoreName;
    private KeyValueStore<String, Integer> contributions;

    public CentralIngestProcessor(GatewayConfig config, WorkloadCache cache, GatewayMetrics metrics,
            Deserializer<CentralReport> deserializer, String workloadsStore, String ledgerStore, String partialsStore,
            String watermarkStore, String contributionsStore) {
        super(config, cache, metrics, workloadsStore, ledgerStore, partialsStore, watermarkStore);
        this.deserializer = deserializer;
        this.contributionsStoreName = contributionsStore;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        super.init(context);
        contributions = context.getStateStore(contributionsStoreName);
    }

    @Override
    protected Mode mode() {
        return Mode.CENTRAL;
    }

    @Override
    protected boolean copyOriginalBytes() {
        return false; // raw values never go to the rejections topic
    }

    @Override
    protected int partitions() {
        return config.centralPartitions();
    }

    @Override
    protected String topic() {
        return config.centralReportsTopic();
    }

    @Override
    protected ReportView decode(byte[] value) {
        CentralReport r = deserializer.deserialize(topic(), value);
        if (r == null) {
            throw new IllegalArgumentException("empty record");
        }
        return new ReportView(r.getWorkloadId(), r.getWorkloadVersion(), r.getContentHash(), r.getDeviceId(),
                r.getPeriod(), r.getSequence(), r.getEventTime().toEpochMilli(), null, Double.NaN, null, r.getValue());
    }

    @Override
    protected Verdict admit(ReportView r, ActiveWorkload w, WindowKey window, long[] aggregate) {
        WorkloadSpec s = w.spec();
        String key = ledgerKey(w.id(), r.period(), r.deviceId());
        LedgerEntry entry = LedgerEntry.fromBytes(ledger.get(key));
        if (entry.hasSequence(r.sequence())) {
            return Verdict.reject(RejectReason.DUPLICATE, "sequence " + r.sequence() + " of period " + r.period()
                    + " was already accepted from this device");
        }
        String contributionKey = window.asString() + "|" + r.deviceId();
        Integer prior = contributions.get(contributionKey);
        int count = prior == null ? 0 : prior;
        int limit = s.central().contributionsPerWindow();
        if (count >= limit) {
            return Verdict.reject(RejectReason.CONTRIBUTION_LIMIT, "the device already contributed " + count
                    + " report(s) to this window (L = " + limit + ")");
        }
        int x;
        try {
            x = w.workload().encode(r.value());
        } catch (InvalidValueException e) {
            return Verdict.reject(RejectReason.INVALID_VALUE, "the value is not in the workload's domain");
        }
        double eps = s.central().epsilonPerRelease().value();
        boolean firstInWindow = count == 0;
        if (firstInWindow && entry.budgetExhausted(s.reportsPerPeriod())) {
            return Verdict.reject(RejectReason.BUDGET_EXHAUSTED, "the device has contributed to its " + entry.paid()
                    + " paid window(s) of period " + r.period() + " (budget " + s.budget().epsilonPerPeriod().value()
                    + " at ε " + eps + " per release)");
        }
        aggregate[x]++;
        contributions.put(contributionKey, count + 1);
        ledger.put(key, entry.charge(r.sequence(), firstInWindow ? eps : 0.0).toBytes());
        return Verdict.ACCEPT;
    }

    @Override
    protected void onWindowClosed(WindowKey window) {
        List<String> keys = new ArrayList<>();
        try (KeyValueIterator<String, Integer> it = contributions.prefixScan(window.asString() + "|",
                new StringSerializer())) {
            while (it.hasNext()) {
                keys.add(it.next().key);
            }
        }
        keys.forEach(contributions::delete);
    }
}
