package io.privacygateway.mechanisms.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.param.Alpha;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * End to end through the real device and server code: every local mechanism on three workload
 * families. The achieved error must lie below the published high-probability bound (confidence 0.999,
 * so a correct implementation fails a given seeded case with probability at most 1e-3; there are 27
 * cases, all seeded, so the outcome is reproducible).
 */
class LocalPipelineTest {

    static WorkloadSpec spec(String family, Map<String, Object> domain, Map<String, Object> queries) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "t-" + family);
        t.put("version", 1);
        t.put("family", family);
        t.put("domain", domain);
        if (queries != null) {
            t.put("queries", queries);
        }
        t.put("epsilonPerReport", 2.0);
        t.put("budget", Map.of("epsilonPerPeriod", 2.0, "period", "1d"));
        t.put("window", Map.of("size", "1m"));
        t.put("confidence", 0.999);
        t.put("alpha", 0.125);
        t.put("expectedReportsPerWindow", 20000);
        return WorkloadSpecParser.parse(t);
    }

    static List<Double> edges(int k) {
        List<Double> e = new ArrayList<>();
        for (int i = 0; i <= k; i++) {
            e.add((double) i);
        }
        return e;
    }

    static Stream<Arguments> cases() {
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            labels.add("v" + i);
        }
        WorkloadSpec hist = spec("histogram", Map.of("labels", labels), null);
        WorkloadSpec cdf = spec("cdf", Map.of("buckets", edges(24)), null);
        WorkloadSpec marg = spec("marginals", Map.of("attributes", List.of("a", "b", "c", "d", "e")), Map.of("way", 2));
        List<Arguments> out = new ArrayList<>();
        for (WorkloadSpec s : List.of(hist, cdf, marg)) {
            for (MechanismId id : MechanismId.values()) {
                if (id == MechanismId.AUTO || id.mode() != io.privacygateway.mechanisms.workload.Mode.LOCAL
                        || MechanismId.MEAN_MECHANISMS.contains(id) // the mean family's own (MeanProtocolTest)
                        || id == MechanismId.PRIVUNIT_G // vectors only (local.vector)
                        || id == MechanismId.PREFIX_TREE_SKETCH) { // open domain (local.heavy)
                    continue;
                }
                if (id == MechanismId.TREE // factorization answers every linear family of at most 128 values
                        && s.family() != io.privacygateway.mechanisms.workload.QueryFamily.CDF) {
                    continue;
                }
                if (id == MechanismId.FOURIER // marginals only
                        && s.family() != io.privacygateway.mechanisms.workload.QueryFamily.MARGINALS) {
                    continue;
                }
                out.add(Arguments.of(s.family().wireName() + "/" + id.wireName(), s.toBuilder().mechanism(id).build()));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void answersLieWithinTheirPublishedBound(String name, WorkloadSpec spec) {
        Workload w = Workload.of(spec);
        LocalPipeline p = LocalPipeline.of(w);
        LocalProtocol protocol = p.protocol();
        int n = 20_000;
        RandomBits secret = new SeededRandomBits(name.hashCode());
        long[] state = new long[protocol.stateLength()];
        long[] counts = new long[w.universeSize()];
        SeededRandomBits data = new SeededRandomBits(99);
        for (int i = 0; i < n; i++) {
            // skewed data: value = floor(N·u²)
            double u = io.privacygateway.mechanisms.random.ExactSampler.uniformDouble(data);
            int x = (int) Math.min(w.universeSize() - 1, Math.floor(w.universeSize() * u * u));
            counts[x]++;
            ReportCoordinates c = new ReportCoordinates("dev-" + i, 0, 0);
            byte[] payload = protocol.randomize(x, c, secret);
            assertThat(payload).hasSize(protocol.payloadBytes());
            assertThat(protocol.accumulate(payload, c, state)).isTrue();
        }
        Answer a = p.release().release(state, n);
        double[] truth = w.meanAnswer(counts);
        double err = 0;
        for (int q = 0; q < truth.length; q++) {
            err += (a.estimates()[q] - truth[q]) * (a.estimates()[q] - truth[q]);
            assertThat(a.lower()[q]).isLessThanOrEqualTo(a.estimates()[q]);
            assertThat(a.upper()[q]).isGreaterThanOrEqualTo(a.estimates()[q]);
        }
        err = Math.sqrt(err / truth.length);
        double uerr = 0;
        int outside = 0;
        for (int q = 0; q < truth.length; q++) {
            uerr += (a.unprojected().orElseThrow()[q] - truth[q]) * (a.unprojected().orElseThrow()[q] - truth[q]);
            if (truth[q] < a.lower()[q] || truth[q] > a.upper()[q]) {
                outside++;
            }
        }
        System.out.printf("%-32s rms=%.4f unprojected=%.4f meanSE=%.4f expectedBound=%.4f bound@0.999=%.4f outside=%d/%d%n",
                name, err, Math.sqrt(uerr / truth.length),
                java.util.Arrays.stream(a.standardErrors().orElseThrow()).average().orElse(0), a.expectedRmsError(),
                a.rmsErrorBoundAtConfidence(), outside, truth.length);
        assertThat(a.cost()).isEqualTo(io.privacygateway.mechanisms.accounting.PrivacyCost.pure(protocol.epsilon()));
        assertThat(err).as("%s rms error vs bound %s", name, a.rmsErrorBoundAtConfidence())
                .isLessThanOrEqualTo(a.rmsErrorBoundAtConfidence());
        System.out.printf("%-32s rms=%.4f expectedBound=%.4f bound@0.999=%.4f%n", name, err, a.expectedRmsError(),
                a.rmsErrorBoundAtConfidence());
    }

    static Stream<Arguments> histogramMechanisms() {
        List<String> labels = List.of("a", "b", "c", "d", "e", "f", "g", "h");
        WorkloadSpec hist = spec("histogram", Map.of("labels", labels), null);
        WorkloadSpec cdf = spec("cdf", Map.of("buckets", edges(8)), null);
        List<Arguments> out = new ArrayList<>();
        for (MechanismId id : List.of(MechanismId.GRR, MechanismId.OUE, MechanismId.OLH, MechanismId.SUBSET_SELECTION,
                MechanismId.HADAMARD_RESPONSE, MechanismId.LOCAL_PROJECTION)) {
            out.add(Arguments.of("histogram/" + id.wireName(), hist.toBuilder().mechanism(id).build()));
        }
        out.add(Arguments.of("cdf/tree", cdf.toBuilder().mechanism(MechanismId.TREE).build()));
        return out.stream();
    }

    /**
     * Every coordinate's published interval holds its true value with probability at least the stated
     * confidence (0.9 here, ε = 1, n = 3,000 skewed values, as in the demo). Per coordinate, the misses over
     * 300 independent releases are at most Bin(300, 0.1) for correct intervals; a coordinate fails only beyond
     * the Bin(300, 0.1) quantile of 1 − 10⁻⁴/m (54 misses, 18%), so a correct implementation fails a case with
     * probability below 10⁻⁴ (union bound over the m coordinates; 7 cases, below 7·10⁻⁴ in all); a coordinate
     * whose interval misses 25% of the time fails with probability 0.998. (The
     * intervals rest on the normal approximation of an average of n reports, which is accurate at this n.)
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("histogramMechanisms")
    void everyCoordinateLiesInItsIntervalAtTheStatedConfidence(String name, WorkloadSpec base) {
        WorkloadSpec spec = WorkloadSpecParser.parse(withConfidence(base, 0.9));
        Workload w = Workload.of(spec);
        LocalPipeline p = LocalPipeline.of(w);
        LocalProtocol protocol = p.protocol();
        int n = 3_000;
        int releases = 300;
        int m = w.queryCount();
        int[] values = new int[n];
        long[] counts = new long[w.universeSize()];
        SeededRandomBits data = new SeededRandomBits(7);
        for (int i = 0; i < n; i++) {
            double u = io.privacygateway.mechanisms.random.ExactSampler.uniformDouble(data);
            values[i] = (int) Math.min(w.universeSize() - 1, Math.floor(w.universeSize() * u * u));
            counts[values[i]]++;
        }
        double[] truth = w.meanAnswer(counts);
        int[] misses = new int[m];
        RandomBits secret = new SeededRandomBits(name.hashCode());
        for (int t = 0; t < releases; t++) {
            long[] state = new long[protocol.stateLength()];
            for (int i = 0; i < n; i++) {
                ReportCoordinates c = new ReportCoordinates("dev-" + i, t, 0);
                protocol.accumulate(protocol.randomize(values[i], c, secret), c, state);
            }
            Answer a = p.release().release(state, n);
            for (int q = 0; q < m; q++) {
                if (truth[q] < a.lower()[q] - 1e-12 || truth[q] > a.upper()[q] + 1e-12) {
                    misses[q]++;
                }
            }
        }
        int allowed = org.apache.commons.statistics.distribution.BinomialDistribution.of(releases, 0.1)
                .inverseSurvivalProbability(1e-4 / m);
        assertThat(java.util.Arrays.stream(misses).max().orElse(0)).as("misses per coordinate %s",
                java.util.Arrays.toString(misses)).isLessThanOrEqualTo(allowed);
    }

    /**
     * The ε an answer states is the ε its reports were randomized with, read off the released distribution:
     * 400,000 GRR reports of value 0 (k = 8, ε = 1) give the keep frequency p̂ and the mean frequency q̂ of the
     * 7 other outputs; the realised ratio p̂/q̂ must be within 2% of {@code e^{cost}} (its standard deviation is
     * about 0.25%, so a correct implementation fails with probability below 10⁻¹⁵; a cost off by 0.05 fails).
     */
    @org.junit.jupiter.api.Test
    void theAnswersCostIsTheRatioTheReportsRealise() {
        WorkloadSpec spec = WorkloadSpecParser.parse(withConfidence(
                spec("histogram", Map.of("labels", List.of("a", "b", "c", "d", "e", "f", "g", "h")), null)
                        .toBuilder().mechanism(MechanismId.GRR).build(), 0.9));
        Workload w = Workload.of(spec);
        LocalPipeline p = LocalPipeline.of(w);
        LocalProtocol protocol = p.protocol();
        int n = 400_000;
        long[] outputs = new long[protocol.stateLength()];
        RandomBits secret = new SeededRandomBits(11);
        for (int i = 0; i < n; i++) {
            ReportCoordinates c = new ReportCoordinates("d" + i, 0, 0);
            assertThat(protocol.accumulate(protocol.randomize(0, c, secret), c, outputs)).isTrue();
        }
        Answer a = p.release().release(outputs, n);
        double keep = outputs[0] / (double) n;
        double other = (n - outputs[0]) / (7.0 * n);
        assertThat(keep / other / Math.exp(a.cost().epsilon())).isBetween(0.98, 1.02);
    }

    private static Map<String, Object> withConfidence(WorkloadSpec s, double confidence) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", s.id());
        t.put("version", 1);
        t.put("family", s.family().wireName());
        t.put("domain", s.family() == io.privacygateway.mechanisms.workload.QueryFamily.CDF
                ? Map.of("buckets", edges(8)) : Map.of("labels", List.of("a", "b", "c", "d", "e", "f", "g", "h")));
        t.put("mechanism", s.mechanism().wireName());
        t.put("epsilonPerReport", 1.0);
        t.put("budget", Map.of("epsilonPerPeriod", 1.0, "period", "1d"));
        t.put("window", Map.of("size", "1m"));
        t.put("confidence", confidence);
        t.put("expectedReportsPerWindow", 3000);
        return t;
    }

    @org.junit.jupiter.api.Test
    void autoMustBeResolvedAndAlphaMustNotCollapse() {
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            labels.add("v" + i);
        }
        WorkloadSpec s = spec("histogram", Map.of("labels", labels), null);
        assertThatThrownBy(() -> LocalPipeline.of(Workload.of(s))).hasMessageContaining("auto");
        WorkloadSpec coarse = s.toBuilder().mechanism(MechanismId.LOCAL_COARSE_PROJECTION).alpha(new Alpha(0.99)).build();
        assertThatThrownBy(() -> LocalPipeline.of(Workload.of(coarse))).hasMessageContaining("too large");
        assertThat(new Epsilon(1).value()).isEqualTo(1);
    }
}
