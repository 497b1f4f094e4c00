package io.privacygateway.benchmarks.commands;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code bench heavy-hitters} on a tiny grid: both mechanisms produce rows with sane metrics; PEM's bit helpers. */
class HeavyHitterBenchmarkTest {
    @Test
    void aTinyRunProducesARowPerMechanismAndK() throws Exception {
        HeavyHitterBenchmark b = new HeavyHitterBenchmark(2000, 8, 1.1);
        List<HeavyHitterBenchmark.Row> rows = b.run(new int[] {20_000}, new double[] {4}, new int[] {5, 10},
                new int[] {1, 2}, 4, 1, s -> { });
        assertThat(rows).hasSize(6);
        for (HeavyHitterBenchmark.Row r : rows) {
            assertThat(r.precision()).isBetween(0.0, 1.0);
            assertThat(r.recall()).isBetween(0.0, 1.0);
            assertThat(r.rms()).isBetween(0.0, 1.0);
            assertThat(r.reported()).isBetween(0.0, (double) r.k());
            assertThat(r.madeUp()).isGreaterThanOrEqualTo(0.0);
        }
        // the sketch reports only strings that clear its threshold: on this easy window none is made up
        assertThat(rows).filteredOn(r -> r.mechanism().equals("prefix-tree-sketch")).allMatch(r -> r.madeUp() == 0);
        // the most frequent string (share about 0.15 over 2000 strings) is found by every mechanism
        assertThat(rows).allMatch(r -> r.recall() > 0);
        assertThat(HeavyHitterBenchmark.table(rows)).contains("prefix-tree-sketch").contains("PEM (OLH)").contains("made-up");
    }

    @Test
    void theUniverseIsDistinctAndWithinTheLength() {
        String[] u = HeavyHitterBenchmark.universe(5000, 6);
        assertThat(new HashSet<>(List.of(u))).hasSize(5000);
        assertThat(u).allMatch(s -> !s.isEmpty() && s.length() <= 6);
    }

    @Test
    void pemBitsRoundTripAndRespectThePadding() {
        PemBaseline.Bits x = PemBaseline.Bits.of("héllo", 16);
        assertThat(x.decode()).isEqualTo("héllo");
        assertThat(x.valid(128)).isTrue();
        assertThat(x.prefix(8).decode()).isEqualTo("h");
        assertThat(x.prefix(24).decode()).isEqualTo("hé");
        PemBaseline.Bits bad = PemBaseline.Bits.of("a", 16).with(16, 8, 'b'); // "a", 0x00, "b"
        assertThat(bad.valid(24)).isFalse();
        assertThat(bad.valid(16)).isTrue();
        assertThat(PemBaseline.Bits.of("abcdefghijklmnop", 16).prefix(72).decode()).isEqualTo("abcdefghi");
    }
}
