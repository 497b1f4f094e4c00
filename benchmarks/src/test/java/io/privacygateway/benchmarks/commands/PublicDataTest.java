package io.privacygateway.benchmarks.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.workload.Workload;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The public data sets load whole and map onto their workloads' grids as a distribution. */
class PublicDataTest {
    @Test
    void theDataSetsLoadWholeAndBecomeCellFrequencies() {
        assertThat(PublicData.DIABETES.rows()).hasNumberOfRows(442);
        assertThat(PublicData.BREAST_CANCER.rows()).hasNumberOfRows(569);
        assertThat(Arrays.stream(PublicData.BREAST_CANCER.rows()).filter(r -> r[2] == 1).count()).isEqualTo(212);
        for (AccuracyBenchmark.BenchWorkload bw : AnalyticsBenchmark.standardWorkloads()) {
            if (!bw.name().contains("public data")) {
                continue;
            }
            Workload w = Workload.of(bw.spec().toBuilder().mechanism(bw.spec().family().centralMechanisms().get(0))
                    .build());
            double[] f = AnalyticsBenchmark.frequencies(bw, w, 0);
            assertThat(f).hasSize(w.universeSize());
            assertThat(Arrays.stream(f).sum()).isCloseTo(1.0, within(1e-9));
            assertThat(Arrays.stream(f).filter(v -> v > 0).count()).as(bw.name()).isGreaterThan(10);
        }
    }
}
