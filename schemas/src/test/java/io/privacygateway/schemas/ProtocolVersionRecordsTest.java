package io.privacygateway.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.WorkloadSpecRecord;
import org.junit.jupiter.api.Test;

/**
 * A spec's protocol version survives the workloads topic (canonical JSON and back) with its content hash, whether the
 * canonical form names it (above 1) or omits it (version 1).
 */
class ProtocolVersionRecordsTest {
    static WorkloadSpec spec(String mechanism, String protocolVersion) throws java.io.IOException {
        return WorkloadSpecRecordsTest.parseYaml("""
                id: lat
                version: 2
                family: cdf
                domain: {buckets: [0, 1, 2, 3, 4, 5, 6, 7, 8]}
                mechanism: %s
                epsilonPerReport: 1.0
                budget: {epsilonPerPeriod: 2.0, period: 1d}
                window: {size: 1m, grace: 10s}
                %s
                """.formatted(mechanism, protocolVersion == null ? "" : "protocolVersion: " + protocolVersion));
    }

    @Test
    void everyVersionRoundTripsThroughTheWorkloadRecord() throws Exception {
        for (WorkloadSpec s : new WorkloadSpec[] {spec("tree", "1"), spec("tree", null), spec("factorization", "1"),
                spec("factorization", null), spec("grr", null), spec("grr", "1")}) {
            WorkloadSpecRecord r = WorkloadSpecRecords.toRecord(s);
            WorkloadSpec back = WorkloadSpecRecords.toSpec(r);
            assertThat(back.protocolVersion()).as(CanonicalForm.of(s)).isEqualTo(s.protocolVersion());
            assertThat(back).isEqualTo(s);
            assertThat(r.getContentHash()).isEqualTo(CanonicalForm.contentHash(s));
        }
        assertThat(spec("tree", null).protocolVersion()).isEqualTo(2);
        assertThat(spec("factorization", null).protocolVersion()).isEqualTo(3);
    }
}
