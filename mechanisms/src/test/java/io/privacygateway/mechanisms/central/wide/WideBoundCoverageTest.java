package io.privacygateway.mechanisms.central.wide;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.central.worstcase.WorstCaseChainingRelease;
import io.privacygateway.mechanisms.param.ConfidenceLevel;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import java.util.function.BiFunction;
import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The published l∞ bound holds: over seeded trials (fresh data and fresh noise each), the number of releases whose
 * max error exceeds their published {@code maxErrorBound} is tested against Bin(trials, β) with β = 1 − confidence
 * (0.2 here, so that a bound that fails more often than claimed is caught with few trials): the test fails when the
 * misses exceed the count that a correct bound exceeds with probability at most 10^-6 (the false-failure
 * probability of each case). Each of the bound's two parts is checked the same way against its own share of β
 * ({@link Failures}): the theoretical one against {@code β_count + β_theory}, the measured one against
 * {@code β_count + β_check}.
 */
class WideBoundCoverageTest {
    static final double CONFIDENCE = 0.8;
    static final double FALSE_FAILURE = 1e-6;

    @ParameterizedTest
    @CsvSource({"mwem, 5, 2, 2000, 1.0, add-remove, 150", "mwem, 4, 2, 200000, 2.0, replace-one, 150",
        "chaining, 5, 2, 2000, 1.0, add-remove, 150", "chaining, 4, 3, 1000000, 2.0, replace-one, 150"})
    void publishedMaxErrorBoundHolds(String mechanism, int d, int k, long n, double epsilon, String neighbour,
            int trials) {
        MarginalWorkload w = MarginalWorkload.anonymous(d, k);
        NeighbourRelation rel = NeighbourRelation.fromWireName(neighbour);
        WideSettings s = new WideSettings(Epsilon.of(epsilon), rel, 1, ConfidenceLevel.of(CONFIDENCE), n, "h");
        BiFunction<MarginalCounts, Long, Answer> release;
        if (mechanism.equals("mwem")) {
            PurifiedMwemRelease r = PurifiedMwemRelease.of(w, s, MechanismId.CENTRAL_PROJECTION);
            release = (c, seed) -> r.release(c, new SeededRandomBits(seed)).answer();
        } else {
            WorstCaseChainingRelease r = WorstCaseChainingRelease.forMarginals(w, s, MechanismId.CENTRAL_CHAINING);
            release = (c, seed) -> r.release(c, new SeededRandomBits(seed)).answer();
        }
        Failures f = Failures.of(s.beta(), s.countPublic());
        int published = 0;
        int theory = 0;
        int measured = 0;
        for (int t = 0; t < trials; t++) {
            MarginalCounts data = WideFixtures.mixture(w, n, 1000 + t);
            Answer a = release.apply(data, 7000L + t);
            double err = maxError(a.estimates(), data.answers());
            published += err > a.extras().maxErrorBound().getAsDouble() ? 1 : 0;
            theory += err > a.extras().scalars().get("theoreticalMaxErrorBound") ? 1 : 0;
            measured += err > a.extras().scalars().get("measuredMaxErrorBound") ? 1 : 0;
        }
        assertThat(published).isLessThanOrEqualTo(allowed(trials, s.beta()));
        assertThat(theory).isLessThanOrEqualTo(allowed(trials, f.count() + f.theory()));
        assertThat(measured).isLessThanOrEqualTo(allowed(trials, f.count() + f.check()));
    }

    static double maxError(double[] a, double[] b) {
        double e = 0;
        for (int q = 0; q < a.length; q++) {
            e = Math.max(e, Math.abs(a[q] - b[q]));
        }
        return e;
    }

    static int allowed(int trials, double p) {
        return BinomialDistribution.of(trials, p).inverseSurvivalProbability(FALSE_FAILURE);
    }
}
