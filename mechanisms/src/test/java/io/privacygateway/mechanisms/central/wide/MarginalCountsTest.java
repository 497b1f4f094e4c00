package io.privacygateway.mechanisms.central.wide;

import static io.privacygateway.mechanisms.testing.MarginalCountsFixtures.random;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.workload.Workload;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The wide aggregate: aggregation, merge, invariants, labels in the workload's order (the benchmark's codec is tested in module benchmarks). */
class MarginalCountsTest {
    @Test
    void aggregationMatchesBruteForceAndTheWorkloadsLabels() {
        MarginalWorkload w = MarginalWorkload.of(List.of("p", "q", "r", "s", "t"), 3);
        MarginalCounts c = MarginalCounts.empty(w);
        long[] values = {0b10110, 0b00001, 0b11111, 0b10110, 0};
        for (long v : values) {
            c.add(v);
        }
        // the materialised workload's answer vectors are the reference
        Workload ref = WideFixtures.centralMarginals(5, 3, "central-projection", 1.0, "add-remove", 1, 100);
        assertThat(w.labels()).isEqualTo(ref.queryLabels().stream().map(l -> l.replace("a0", "p").replace("a1", "q")
                .replace("a2", "r").replace("a3", "s").replace("a4", "t")).toList());
        for (int q = 0; q < w.queryCount(); q++) {
            long expected = 0;
            for (long v : values) {
                expected += (long) ref.points().get((int) v, q);
            }
            assertThat(c.count(q)).as("query %s", w.label(q)).isEqualTo(expected);
        }
        assertThat(c.n()).isEqualTo(5);
    }

    @Test
    void mergeIsExactAndOrderIndependent() {
        MarginalWorkload w = MarginalWorkload.anonymous(7, 2);
        MarginalCounts a = random(w, 300, 1);
        MarginalCounts b = random(w, 200, 2);
        MarginalCounts ab = a.copy().merge(b);
        MarginalCounts ba = b.copy().merge(a);
        assertThat(ab).isEqualTo(ba);
        assertThat(ab.n()).isEqualTo(500);
        assertThatThrownBy(() -> a.copy().merge(MarginalCounts.empty(MarginalWorkload.anonymous(7, 3))))
                .hasMessageContaining("different workloads");
    }

    @Test
    void refusedReportsLeaveTheStateUntouched() {
        MarginalWorkload w = MarginalWorkload.anonymous(5, 2);
        MarginalCounts c = random(w, 10, 3);
        MarginalCounts before = c.copy();
        assertThatThrownBy(() -> c.add(1L << 5)).hasMessageContaining("beyond attribute 4");
        assertThatThrownBy(() -> c.add(new long[] {1, 0})).hasMessageContaining("1 words");
        assertThat(c).isEqualTo(before);
    }

    @Test
    void multiWordValues() {
        MarginalWorkload w = MarginalWorkload.anonymous(70, 1);
        MarginalCounts c = MarginalCounts.empty(w);
        c.add(new long[] {1L << 63, 1L << 5});
        assertThat(c.count(63 * 2 + 1)).isEqualTo(1);
        assertThat(c.count(69 * 2 + 1)).isEqualTo(1);
        assertThat(c.count(0)).isEqualTo(1); // attribute 0 = 0
    }

    @Test
    void invariantsOfDecodedOrBuiltCounts() {
        MarginalWorkload w = MarginalWorkload.anonymous(4, 2);
        MarginalCounts c = random(w, 50, 4);
        long[] cells = c.cells();
        assertThat(MarginalCounts.of(w, 50, cells)).isEqualTo(c);
        long[] negative = cells.clone();
        negative[0] = -1;
        assertThatThrownBy(() -> MarginalCounts.of(w, 50, negative)).hasMessageContaining("cells[0]");
        long[] unbalanced = cells.clone();
        unbalanced[0]++;
        assertThatThrownBy(() -> MarginalCounts.of(w, 50, unbalanced)).hasMessageContaining("subset 0");
        // move one count between cells of subset 0 keeping its sum: its 1-way margins now disagree with others'
        long[] inconsistent = cells.clone();
        int from = inconsistent[0] > 0 ? 0 : 1;
        inconsistent[from]--;
        inconsistent[3]++;
        if (from != 3) {
            assertThatThrownBy(() -> MarginalCounts.of(w, 50, inconsistent)).hasMessageContaining("disagrees");
        }
        assertThatThrownBy(() -> MarginalCounts.of(w, 50, new long[3])).hasMessageContaining("entries");
    }
}
