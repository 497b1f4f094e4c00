package io.privacygateway.topology.processors;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.GatewayMetrics;
import io.privacygateway.topology.state.LedgerEntry;
import io.privacygateway.topology.state.WindowKey;
import io.privacygateway.topology.validate.RejectReason;
import io.privacygateway.topology.validate.ReportView;
import io.privacygateway.topology.validate.Verdict;
import io.privacygateway.topology.workload.ActiveWorkload;
import io.privacygateway.topology.workload.WorkloadCache;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * A shard of local-mode reports. Ledger: a (device, workload, period, sequence) is accepted once, and a
 * report is accepted only if its ε keeps the device within its budget for the period. Aggregation: the
 * protocol's exact {@code accumulate} (fixed-point sums or counts).
 */
public final class LocalIngestProcessor extends IngestProcessor {
    private final Deserializer<LocalReport> deserializer;

    public LocalIngestProcessor(GatewayConfig config, WorkloadCache cache, GatewayMetrics metrics,
            Deserializer<LocalReport> deserializer, String workloadsStore, String ledgerStore, String partialsStore,
            String watermarkStore) {
        super(config, cache, metrics, workloadsStore, ledgerStore, partialsStore, watermarkStore);
        this.deserializer = deserializer;
    }

    @Override
    protected Mode mode() {
        return Mode.LOCAL;
    }

    @Override
    protected int partitions() {
        return config.localPartitions();
    }

    @Override
    protected String topic() {
        return config.localReportsTopic();
    }

    @Override
    protected ReportView decode(byte[] value) {
        LocalReport r = deserializer.deserialize(topic(), value);
        if (r == null) {
            throw new IllegalArgumentException("empty record");
        }
        byte[] payload = new byte[r.getPayload().remaining()];
        r.getPayload().duplicate().get(payload);
        return new ReportView(r.getWorkloadId(), r.getWorkloadVersion(), r.getContentHash(), r.getDeviceId(),
                r.getPeriod(), r.getSequence(), r.getEventTime().toEpochMilli(), r.getMechanism(), r.getEpsilon(),
                payload, null);
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
        double eps = s.epsilonPerReport().value();
        if (entry.budgetExhausted(s.reportsPerPeriod())) {
            return Verdict.reject(RejectReason.BUDGET_EXHAUSTED, "the device has made its " + entry.paid()
                    + " report(s) of period " + r.period() + " (budget " + s.budget().epsilonPerPeriod().value()
                    + " at ε " + eps + " per report)");
        }
        ReportCoordinates coords = new ReportCoordinates(r.deviceId(), r.period(), r.sequence());
        if (!w.local().protocol().accumulate(r.payload(), coords, aggregate)) {
            return Verdict.reject(RejectReason.BAD_PAYLOAD, "the payload is not a valid " + s.mechanism().wireName()
                    + " encoding");
        }
        ledger.put(key, entry.charge(r.sequence(), eps).toBytes());
        return Verdict.ACCEPT;
    }
}
