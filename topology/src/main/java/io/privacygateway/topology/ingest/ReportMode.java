package io.privacygateway.topology.ingest;

import io.privacygateway.mechanisms.runtime.CentralWorkload;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.InvalidValueException;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.topology.validate.RejectReason;
import io.privacygateway.topology.validate.ReportView;
import io.privacygateway.topology.validate.Verdict;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * What differs between the two kinds of report an ingest shard reads: how a record is decoded, how an admitted
 * report is added to its window's aggregate, and whether a rejection may copy the original bytes. Everything
 * else — identity, validation, the budget rule, windows, watermarks — is the same code for both.
 */
public sealed interface ReportMode permits ReportMode.LocalReports, ReportMode.CentralReports {

    Mode mode();

    /** Decodes a record value; wire-format faults propagate as {@code WireFormatException}. */
    ReportView decode(String topic, byte[] value);

    /**
     * Checks that the report can be added to an aggregate of {@code w} and returns the universe index (central)
     * or 0 (local), or a rejection — before anything is charged.
     */
    Verdict prepare(ReportView r, ResolvedWorkload w, int[] index);

    /**
     * Adds an admitted report to {@code state} with exact integer arithmetic.
     *
     * @return {@code false}, leaving {@code state} untouched, if the payload is not a valid encoding
     */
    boolean accumulate(ReportView r, ResolvedWorkload w, int index, long[] state);

    /**
     * Whether rejections may carry the original record bytes. Central reports carry raw values, which never go
     * to the rejections topic; their rejections keep topic, partition and offset.
     */
    boolean copiesOriginalValue();

    /** Local-mode reports: randomized payloads, aggregated by the protocol's exact {@code accumulate}. */
    record LocalReports(Deserializer<LocalReport> deserializer) implements ReportMode {
        @Override
        public Mode mode() {
            return Mode.LOCAL;
        }

        @Override
        public ReportView decode(String topic, byte[] value) {
            LocalReport r = deserializer.deserialize(topic, value);
            if (r == null) {
                throw new IllegalArgumentException("empty record");
            }
            byte[] payload = new byte[r.getPayload().remaining()];
            r.getPayload().duplicate().get(payload);
            return new ReportView(r.getWorkloadId(), r.getWorkloadVersion(), r.getContentHash(), r.getDeviceId(),
                    r.getPeriod(), r.getSequence(), r.getEventTime().toEpochMilli(), r.getMechanism(), r.getEpsilon(),
                    payload, null, r.getProtocolVersion());
        }

        @Override
        public Verdict prepare(ReportView r, ResolvedWorkload w, int[] index) {
            index[0] = 0;
            return Verdict.ACCEPT;
        }

        @Override
        public boolean accumulate(ReportView r, ResolvedWorkload w, int index, long[] state) {
            return ((LocalWorkload) w).accumulator().accumulate(r.payload(), r.deviceId(), r.period(), r.sequence(),
                    state); // every local protocol, universe or open domain (heavy-hitters)
        }

        @Override
        public boolean copiesOriginalValue() {
            return true;
        }
    }

    /**
     * Central-mode reports: raw values (the gateway is trusted), aggregated exactly as counts per universe value, or
     * for a wide workload as the marginal cell counts of its bit vector ({@link CentralWorkload#accumulate}).
     */
    record CentralReports(Deserializer<CentralReport> deserializer) implements ReportMode {
        @Override
        public Mode mode() {
            return Mode.CENTRAL;
        }

        @Override
        public ReportView decode(String topic, byte[] value) {
            CentralReport r = deserializer.deserialize(topic, value);
            if (r == null) {
                throw new IllegalArgumentException("empty record");
            }
            return new ReportView(r.getWorkloadId(), r.getWorkloadVersion(), r.getContentHash(), r.getDeviceId(),
                    r.getPeriod(), r.getSequence(), r.getEventTime().toEpochMilli(), null, Double.NaN, null,
                    r.getValue());
        }

        @Override
        public Verdict prepare(ReportView r, ResolvedWorkload w, int[] index) {
            try {
                index[0] = ((CentralWorkload) w).encode(r.value());
                return Verdict.ACCEPT;
            } catch (InvalidValueException e) {
                return Verdict.reject(RejectReason.INVALID_VALUE, "the value is not in the workload's domain");
            }
        }

        @Override
        public boolean accumulate(ReportView r, ResolvedWorkload w, int index, long[] state) {
            ((CentralWorkload) w).accumulate(index, state); // counts per value, or marginal cells (wide)
            return true;
        }

        @Override
        public boolean copiesOriginalValue() {
            return false;
        }
    }
}
