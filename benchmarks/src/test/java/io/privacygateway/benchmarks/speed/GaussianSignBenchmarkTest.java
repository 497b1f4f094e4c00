package io.privacygateway.benchmarks.speed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A smoke test of the benchmark harness (tiny sizes; the real figures come from its main method). */
class GaussianSignBenchmarkTest {
    @Test
    void producesOneRowPerDimension() {
        GaussianSignBenchmark.Result r = GaussianSignBenchmark.run(new int[] {4, 16}, 1, 3, 2_000);
        assertThat(r.rows()).hasSize(2);
        assertThat(r.rows().get(0).m()).isEqualTo(4);
        for (GaussianSignBenchmark.Row row : r.rows()) {
            assertThat(row.nsPerReport()).isPositive();
            assertThat(row.nsBaseline()).isPositive();
            assertThat(row.ratio()).isEqualTo(row.nsPerReport() / row.nsBaseline());
            assertThat(row.nsSipHash()).isPositive();
        }
        assertThat(r.table()).contains("ns/report").contains("ratio").contains("medians of 3 repetitions");
        assertThatThrownBy(() -> GaussianSignBenchmark.run(new int[] {0}, 0, 1, 10)).hasMessageContaining("m must be");
        assertThatThrownBy(() -> GaussianSignBenchmark.run(new int[] {4}, 0, 0, 10))
                .hasMessageContaining("repetitions");
    }
}
