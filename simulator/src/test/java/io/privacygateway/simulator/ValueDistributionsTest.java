package io.privacygateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.client.WorkloadFiles;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.client.Workloads;
import io.privacygateway.mechanisms.workload.Workload;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The simulator's value distributions and truth record (no Kafka). */
class ValueDistributionsTest {
    static Workload workload(String domain, String family, String extra) {
        return Workload.of(WorkloadFiles.parse("""
                id: dist
                version: 1
                family: %s
                domain: %s
                %s
                mechanism: grr
                epsilonPerReport: 1.0
                budget: {epsilonPerPeriod: 1.0, period: 1d}
                window: {size: 1m, grace: 0s}
                """.formatted(family, domain, extra), "test"));
    }

    static long[] counts(Workload w, ValueDistribution d, int n) throws Exception {
        SplittableRandom rng = new SplittableRandom(11);
        long[] c = new long[w.universeSize()];
        for (int i = 0; i < n; i++) {
            c[w.encode(d.sample(rng))]++;
        }
        return c;
    }

    @Test
    void zipfOverLabelsFallsWithRank() throws Exception {
        Workload w = workload("{labels: [a, b, c, d, e]}", "histogram", "");
        long[] c = counts(w, ValueDistributions.defaultFor(w), 200_000);
        for (int i = 1; i < c.length; i++) {
            assertThat(c[i]).isLessThan(c[i - 1]);
        }
        // P(a) = 1 / Σ_{i=1..5} i^-1.1 ≈ 0.4645 (standard deviation of the estimate ≈ 0.0011)
        assertThat(c[0] / 200_000.0).isBetween(0.458, 0.471);
    }

    @Test
    void bucketValuesAreNumbersInsideTheirBucket() throws Exception {
        Workload w = workload("{buckets: [0, 1, 10, 100]}", "cdf", "");
        long[] c = counts(w, ValueDistributions.zipf(w, 0), 30_000); // uniform over buckets
        for (long x : c) {
            assertThat(x / 30_000.0).isBetween(0.31, 0.36);
        }
    }

    @Test
    void attributesArePositivelyCorrelatedNeighbours() throws Exception {
        Workload w = workload("{attributes: [a, b, c]}", "marginals", "queries: {way: 2}");
        ValueDistribution d = ValueDistributions.correlatedAttributes(w, new double[] {0.5, 0.5, 0.5}, 0.8);
        long[] c = counts(w, d, 40_000);
        // attribute 0 is the low bit, attribute 1 the next: P(a = b) = 0.8 + 0.2 · 0.5 = 0.9
        long same = 0;
        for (int x = 0; x < c.length; x++) {
            if ((x & 1) == ((x >> 1) & 1)) {
                same += c[x];
            }
        }
        assertThat(same / 40_000.0).isBetween(0.88, 0.92);
        ValueDistribution def = ValueDistributions.defaultFor(w);
        assertThat(counts(w, def, 1000)).hasSize(8);
    }

    @Test
    void badParametersAreRefused() {
        Workload w = workload("{labels: [a, b]}", "histogram", "");
        assertThatThrownBy(() -> ValueDistributions.categorical(w, new double[] {1})).hasMessageContaining("2 weights");
        assertThatThrownBy(() -> ValueDistributions.categorical(w, new double[] {0, 0})).hasMessageContaining("sum");
        assertThatThrownBy(() -> ValueDistributions.zipf(w, -1)).hasMessageContaining("exponent");
        assertThatThrownBy(() -> ValueDistributions.correlatedAttributes(w, new double[0], 0.5))
                .hasMessageContaining("attributes");
        long[] c = new long[2];
        SplittableRandom rng = new SplittableRandom(1);
        ValueDistribution onlyB = ValueDistributions.categorical(w, new double[] {0, 3});
        for (int i = 0; i < 100; i++) {
            c["a".equals(onlyB.sample(rng)) ? 0 : 1]++;
        }
        assertThat(c).containsExactly(0, 100);
    }

    @Test
    void theTruthRecorderKeepsCountsAndTheMeanAnswerPerWindow() {
        ResolvedWorkload w = Workloads.resolve(WorkloadFiles.parse("""
                id: truth
                version: 1
                family: histogram
                domain: {labels: [a, b, c]}
                mechanism: grr
                epsilonPerReport: 1.0
                budget: {epsilonPerPeriod: 1.0, period: 1d}
                window: {size: 1m, grace: 0s}
                """, "test"));
        TruthRecorder t = new TruthRecorder();
        t.record(w, 60_000, 0);
        t.record(w, 60_001, 0);
        t.record(w, 119_999, 2);
        t.record(w, 120_000, 1);
        WindowTruth first = t.window(w.contentHash(), 60_000).orElseThrow();
        assertThat(first.counts()).containsExactly(2, 0, 1);
        assertThat(first.n()).isEqualTo(3);
        assertThat(first.meanAnswer()).containsExactly(2 / 3.0, 0.0, 1 / 3.0);
        assertThat(first.windowEnd()).isEqualTo(120_000);
        assertThat(t.windows("truth")).extracting(WindowTruth::windowStart).containsExactly(60_000L, 120_000L);
        assertThat(t.total()).isEqualTo(4);
        assertThat(t.window(w.contentHash(), 0)).isEmpty();
    }

    @Test
    void heavyHittersGetZipfStringsThatFitTheDomainAndAStringTruth() throws Exception {
        ResolvedWorkload w = Workloads.resolve(WorkloadFiles.parse("""
                id: strings
                version: 1
                family: heavy-hitters
                domain: {strings: {maxBytes: 4}}
                mechanism: prefix-tree-sketch
                epsilonPerReport: 4.0
                budget: {epsilonPerPeriod: 4.0, period: 1d}
                window: {size: 1m, grace: 0s}
                """, "test"));
        ValueDistribution d = ValueDistributions.defaultFor(w);
        SplittableRandom rng = new SplittableRandom(3);
        java.util.Map<String, Integer> seen = new java.util.HashMap<>();
        for (int i = 0; i < 5000; i++) {
            String v = d.sample(rng);
            w.checkValue(v); // every default string fits the domain
            seen.merge(v, 1, Integer::sum);
        }
        java.util.List<String> strings = ValueDistributions.defaultStrings(4);
        assertThat(strings).hasSize(ValueDistributions.DEFAULT_STRING_COUNT).doesNotHaveDuplicates()
                .allMatch(s -> s.length() <= 4);
        assertThat(seen.get(strings.get(0))).isGreaterThan(seen.get(strings.get(1)));
        assertThat(seen.get(strings.get(0)) / 5000.0).isBetween(0.4, 0.5); // Zipf(1.5) over 32: the first ≈ 45%
        assertThat(ValueDistributions.defaultStrings(1)).hasSize(32).allMatch(s -> s.length() == 1);
        assertThatThrownBy(() -> ValueDistributions.zipfStrings(java.util.List.of(), 1))
                .isInstanceOf(IllegalArgumentException.class);

        TruthRecorder t = new TruthRecorder();
        t.recordString(w, 60_000, "mail");
        t.recordString(w, 60_001, "maps");
        t.recordString(w, 60_002, "mail");
        WindowTruth truth = t.window(w.contentHash(), 60_000).orElseThrow();
        assertThat(truth.labels()).containsExactly("mail", "maps");
        assertThat(truth.counts()).containsExactly(2, 1);
        assertThat(truth.n()).isEqualTo(3);
        assertThat(truth.meanAnswerFor(java.util.List.of("maps", "chat", "mail"))).containsExactly(1 / 3.0, 0.0,
                2 / 3.0);
        assertThat(t.total()).isEqualTo(3);
    }

    @Test
    void theTruthRecorderCountsTheReportsOfAWideWorkload() throws Exception {
        ResolvedWorkload w = Workloads.resolve(WorkloadFiles.parse("""
                id: wide-truth
                version: 1
                family: marginals
                domain: {attributes: [a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, b0, b1, b2, b3, b4, b5, b6, b7]}
                queries: {way: 2}
                mode: central
                mechanism: mwem
                central: {epsilonPerRelease: 1.0, neighbour: add-remove}
                budget: {epsilonPerPeriod: 1.0, period: 1d}
                window: {size: 1m, grace: 0s}
                """, "test"));
        TruthRecorder t = new TruthRecorder();
        t.record(w, 60_000, w.encode("1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1"));
        t.record(w, 60_001, w.encode("0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1"));
        WindowTruth truth = t.window(w.contentHash(), 60_000).orElseThrow();
        assertThat(truth.n()).isEqualTo(2);
        assertThat(t.total()).isEqualTo(2);
    }
}
