package io.privacygateway.mechanisms.central.worstcase;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.central.CountRelease;
import io.privacygateway.mechanisms.central.PrivacySplit;
import io.privacygateway.mechanisms.central.wide.MarginalCounts;
import io.privacygateway.mechanisms.central.wide.MarginalWorkload;
import io.privacygateway.mechanisms.central.wide.PrivateMultiplicativeWeights;
import io.privacygateway.mechanisms.central.wide.RecordingDraws;
import io.privacygateway.mechanisms.central.wide.WideFixtures;
import io.privacygateway.mechanisms.central.wide.WideSettings;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Worst-case chaining on a real-valued point workload (several levels) and on wide marginals: exact privacy
 * arithmetic, the draws it makes, and the published l∞ bound's coverage (binomial test, false failure 10^-6).
 */
class WorstCaseChainingTest {
    /** 40 points in [0,1]^6 on a 1/32 grid, clustered so that the l∞ nets have several non-trivial levels. */
    static Workload points(double epsilon, String neighbour, double confidence) {
        Random r = new Random(11);
        List<Map<String, Object>> pts = new ArrayList<>();
        double[][] centres = new double[4][6];
        for (double[] c : centres) {
            for (int q = 0; q < 6; q++) {
                c[q] = 0.2 + 0.6 * r.nextDouble();
            }
        }
        for (int i = 0; i < 40; i++) {
            List<Double> a = new ArrayList<>();
            for (int q = 0; q < 6; q++) {
                double v = centres[i % 4][q] + (r.nextDouble() - 0.5) * 0.3;
                a.add(Math.round(Math.max(0, Math.min(1, v)) * 32) / 32.0);
            }
            pts.add(Map.of("label", "p" + i, "answer", a));
        }
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "wcc-points");
        t.put("version", 1);
        t.put("family", "points");
        t.put("domain", Map.of("points", pts));
        t.put("queries", Map.of("labels", List.of("q0", "q1", "q2", "q3", "q4", "q5")));
        t.put("mechanism", "central-chaining");
        t.put("mode", "central");
        t.put("central", Map.of("epsilonPerRelease", epsilon, "neighbour", neighbour, "contributionsPerWindow", 1));
        t.put("budget", Map.of("epsilonPerPeriod", 10.0, "period", "1d"));
        t.put("window", Map.of("size", "1m"));
        t.put("confidence", confidence);
        t.put("alpha", 0.125);
        t.put("expectedReportsPerWindow", 100_000);
        return Workload.of(WorkloadSpecParser.parse(t));
    }

    @Test
    void pointWorkloadHasSeveralLevelsAndExactAccounting() {
        Workload w = points(0.7, "add-remove", 0.95);
        WorstCaseChainingRelease r = WorstCaseChainingRelease.forWorkload(w, MechanismId.CENTRAL_CHAINING);
        assertThat(r.levels()).isGreaterThan(1);
        WorstCaseParameters p = r.parameters();
        BigDecimal spent = PrivacySplit.exactSum(p.epsilonCount(), p.epsilonApprox(), p.epsilonPrime(), p.epsilonCheck());
        assertThat(spent).isLessThanOrEqualTo(w.spec().central().epsilonPerRelease().exact());
        assertThat(PrivacySplit.exactSum(p.levelRho())).isLessThanOrEqualTo(new BigDecimal(p.rho()));
        List<PrivateMultiplicativeWeights.Schedule> schedules = r.schedules();
        for (int j = 0; j < schedules.size(); j++) {
            assertThat(schedules.get(j).rho()).isLessThanOrEqualTo(p.levelRho()[j]);
        }
        assertThat(r.purifier().epsilonPrime().exact()).isEqualByComparingTo(new BigDecimal(p.epsilonPrime()));
        // the draws: count, then per level its rounds (selection + one Gaussian per round), purify, check
        long[] counts = new long[w.universeSize()];
        for (int x = 0; x < counts.length; x++) {
            counts[x] = 100 + 37L * x;
        }
        RecordingDraws draws = new RecordingDraws(new SeededRandomBits(3));
        Answer a = r.release(counts, draws);
        List<RecordingDraws.Draw> log = draws.log();
        assertThat(log.get(0).parameter()).isSameAs(((CountRelease.Noisy) r.count()).noise());
        long gaussians = log.stream().filter(d -> d.kind().equals("gaussian")).count();
        int rounds = schedules.stream().mapToInt(PrivateMultiplicativeWeights.Schedule::rounds).sum();
        assertThat(gaussians).isEqualTo(rounds);
        assertThat(log.stream().filter(d -> d.kind().equals("purify")).toList()).hasSize(1)
                .allSatisfy(d -> assertThat(d.parameter()).isSameAs(r.purifier()));
        assertThat(log.get(log.size() - 1).parameter()).isSameAs(r.check().noise());
        assertThat(a.cost()).isEqualTo(r.cost());
        assertThat(a.extras().maxErrorBound()).isPresent();
    }

    @ParameterizedTest
    @CsvSource({"add-remove, 3000", "replace-one, 300000"})
    void publishedBoundHoldsOnPoints(String neighbour, long n) {
        double confidence = 0.8;
        Workload w = points(1.0, neighbour, confidence);
        WorstCaseChainingRelease r = WorstCaseChainingRelease.forWorkload(w, MechanismId.CENTRAL_CHAINING);
        int trials = 100;
        int misses = 0;
        for (int t = 0; t < trials; t++) {
            Random rng = new Random(500 + t);
            long[] counts = new long[w.universeSize()];
            for (long i = 0; i < n / 100; i++) {
                counts[(int) Math.min(counts.length - 1, Math.abs(rng.nextGaussian()) * 8)] += 100;
            }
            double[] truth = w.meanAnswer(counts);
            Answer a = r.release(counts, new SeededRandomBits(900 + t));
            double err = 0;
            for (int q = 0; q < truth.length; q++) {
                err = Math.max(err, Math.abs(a.estimates()[q] - truth[q]));
            }
            misses += err > a.extras().maxErrorBound().getAsDouble() ? 1 : 0;
        }
        assertThat(misses).isLessThanOrEqualTo(BinomialDistribution.of(trials, 1 - confidence)
                .inverseSurvivalProbability(1e-6));
    }

    @Test
    void wideChainingAnswersEveryMarginalWithoutRecords() {
        MarginalWorkload w = MarginalWorkload.anonymous(6, 3);
        WideSettings s = WideFixtures.settings(1.0, NeighbourRelation.REPLACE_ONE, 2, 50_000);
        WorstCaseChainingRelease r = WorstCaseChainingRelease.forMarginals(w, s, MechanismId.CENTRAL_CHAINING);
        MarginalCounts data = WideFixtures.mixture(w, 50_000, 4);
        var a = r.release(data, new SeededRandomBits(1));
        assertThat(a.records()).isEmpty();
        assertThat(a.answer().labels()).isEqualTo(w.labels());
        for (double e : a.answer().estimates()) {
            assertThat(e).isBetween(0.0, 1.0);
        }
        assertThat(a.answer().cost().epsilon()).isLessThanOrEqualTo(1.0);
        assertThat(r.release(MarginalCounts.empty(w), new SeededRandomBits(2)).answer().cost().epsilon()).isZero();
    }

    /**
     * The max-error check compares the answers with the data on the points' 2^16 answer grid; a point off that grid
     * (1/3) puts the true mean up to 2^-17 away from it. With the check's noise at its most likely value (0) and the
     * estimate exactly the grid mean, the published bound must still cover the distance to the true mean.
     */
    @Test
    void publishedBoundCoversTheAnswerGridRounding() {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "wcc-third");
        t.put("version", 1);
        t.put("family", "points");
        t.put("domain", Map.of("points", List.of(Map.of("label", "zero", "answer", List.of(0.0)),
                Map.of("label", "third", "answer", List.of(1.0 / 3)), Map.of("label", "one", "answer", List.of(1.0)))));
        t.put("queries", Map.of("labels", List.of("q")));
        t.put("mechanism", "central-chaining");
        t.put("mode", "central");
        t.put("central", Map.of("epsilonPerRelease", 1.0, "neighbour", "replace-one", "contributionsPerWindow", 1));
        t.put("budget", Map.of("epsilonPerPeriod", 10.0, "period", "1d"));
        t.put("window", Map.of("size", "1m"));
        t.put("confidence", 0.9);
        t.put("alpha", 0.125);
        t.put("expectedReportsPerWindow", 100_000);
        Workload w = Workload.of(WorkloadSpecParser.parse(t));
        WorstCaseChainingRelease r = WorstCaseChainingRelease.forWorkload(w, MechanismId.CENTRAL_CHAINING);
        long n = 1_000_000_000L;
        long[] counts = new long[w.universeSize()];
        counts[1] = n;
        var geometry = io.privacygateway.mechanisms.central.CentralGeometry.of(w);
        double[] estimates = {Math.round(65536.0 / 3) / 65536.0};
        long m = io.privacygateway.mechanisms.central.wide.MaxErrorCheck.statistic(estimates, n, geometry.sum(counts),
                geometry.scale());
        assertThat(m).isZero();
        Answer a = r.publish(n, estimates, estimates, m);
        double error = Math.abs(estimates[0] - w.meanAnswer(counts)[0]);
        assertThat(error).isGreaterThan(1e-6);
        assertThat(a.extras().maxErrorBound().getAsDouble()).isGreaterThanOrEqualTo(error);
    }
}
