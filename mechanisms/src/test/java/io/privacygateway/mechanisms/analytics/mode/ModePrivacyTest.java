package io.privacygateway.mechanisms.analytics.mode;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.accounting.BigMath;
import io.privacygateway.mechanisms.analytics.AnalyticsBudget;
import io.privacygateway.mechanisms.analytics.AnalyticsFixtures;
import io.privacygateway.mechanisms.analytics.Neighbours;
import io.privacygateway.mechanisms.analytics.WindowStatistics;
import io.privacygateway.mechanisms.analytics.ptr.DistanceTest;
import io.privacygateway.mechanisms.central.sampling.DistributionChecks;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import io.privacygateway.mechanisms.workload.Workload;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The privacy of the mode mechanisms' discrete steps, checked exactly on small histograms (three labels, every
 * window of at most a few reports and every neighbour of it): the exponential mechanism's output probabilities in
 * 50-digit arithmetic, and the distance-to-instability test's (ε, δ) on its finite output space. The end-to-end
 * purity of the purified mode on a small grid is checked in {@code central.purification.PurifiedModeExactPrivacyTest}.
 */
class ModePrivacyTest {
    private static final MathContext MC = BigMath.MC;

    static Workload labels(int k) {
        List<String> l = List.of("a", "b", "c", "d", "e", "f").subList(0, k);
        return Workload.of(AnalyticsFixtures.mode("mode-exponential", 1, "add-remove", 1, l));
    }

    static AnalyticsBudget budget(double eps, NeighbourRelation r, int l) {
        return new AnalyticsBudget(0, eps, 1000, r, l, 0.95);
    }

    /** ln of the largest ratio P_D(i)/P_D'(i) over outputs i, from exact exponents k·c_i (50 digits). */
    static BigDecimal maxLogRatio(double k, long[] d, long[] e) {
        BigDecimal kk = new BigDecimal(k);
        BigDecimal zd = BigDecimal.ZERO;
        BigDecimal ze = BigDecimal.ZERO;
        for (int i = 0; i < d.length; i++) {
            zd = zd.add(BigMath.exp(kk.multiply(BigDecimal.valueOf(d[i]))), MC);
            ze = ze.add(BigMath.exp(kk.multiply(BigDecimal.valueOf(e[i]))), MC);
        }
        BigDecimal lnZ = BigMath.ln(ze).subtract(BigMath.ln(zd), MC);
        BigDecimal worst = null;
        for (int i = 0; i < d.length; i++) {
            BigDecimal l = kk.multiply(BigDecimal.valueOf(d[i] - e[i])).add(lnZ, MC);
            worst = worst == null || l.compareTo(worst) > 0 ? l : worst;
        }
        return worst;
    }

    @ParameterizedTest
    @CsvSource({"0.5, ADD_REMOVE, 1", "1, ADD_REMOVE, 2", "2, REPLACE_ONE, 1", "1, REPLACE_ONE, 2"})
    void theExponentialMechanismIsPureOnEveryNeighbouringPairExactly(double eps, NeighbourRelation r, int l) {
        Workload w = labels(3);
        ExponentialMode m = new ExponentialMode(w, budget(eps, r, l));
        BigDecimal spent = new BigDecimal(m.cost().epsilon());
        assertThat(spent).isLessThanOrEqualTo(new BigDecimal(eps)); // the cost is what it spent, at most its share
        BigDecimal worst = BigDecimal.ZERO;
        for (long[][] p : Neighbours.pairs(3, 4, r, l)) {
            BigDecimal lr = maxLogRatio(m.k(), p[0], p[1]);
            worst = worst.max(lr);
        }
        assertThat(worst).as("max ln ratio").isLessThanOrEqualTo(spent.add(new BigDecimal("1e-40")));
        // the bound is nearly attained (the check is sharp, not vacuous)
        assertThat(worst.doubleValue()).isGreaterThan(0.5 * eps);
    }

    @Test
    void theCheckFindsAMechanismCalibratedForTheWrongNeighbourRelation() {
        // k = ε/L is right for add/remove (monotone counts) but gives up to 2ε under replace-one
        ExponentialMode monotone = new ExponentialMode(labels(3), budget(1, NeighbourRelation.ADD_REMOVE, 1));
        BigDecimal worst = BigDecimal.ZERO;
        for (long[][] p : Neighbours.pairs(3, 4, NeighbourRelation.REPLACE_ONE, 1)) {
            worst = worst.max(maxLogRatio(monotone.k(), p[0], p[1]));
        }
        assertThat(worst.doubleValue()).isGreaterThan(1.2);
    }

    /**
     * The sampler draws from the stated distribution: 200 000 draws, chi-square over the four labels, false failure
     * {@value DistributionChecks#FALSE_FAILURE}; with these probabilities (all above 0.03) a shift of 0.01 in any of
     * them gives a chi-square statistic above 60 on average, detected with power above 0.999.
     */
    @Test
    void theSamplerDrawsExactlyTheExponentialMechanism() {
        ExponentialMode m = new ExponentialMode(labels(4), budget(0.5, NeighbourRelation.ADD_REMOVE, 1));
        long[] counts = {3, 0, 1, 5};
        double[] p = m.probabilities(counts);
        SeededRandomBits bits = new SeededRandomBits(7);
        long[] samples = new long[200_000];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = m.sample(counts, bits);
        }
        double pv = DistributionChecks.chiSquarePValue(samples, v -> {
            double c = 0;
            for (int i = 0; i <= Math.min(v, 3); i++) {
                c += v < 0 ? 0 : p[i];
            }
            return c;
        }, 4);
        assertThat(pv).isGreaterThan(DistributionChecks.FALSE_FAILURE);
    }

    @ParameterizedTest
    @CsvSource({"ADD_REMOVE, 1", "ADD_REMOVE, 2", "REPLACE_ONE, 1", "REPLACE_ONE, 3"})
    void theDistanceIsOneLipschitzAndZeroWhereANeighbourHasAnotherMode(NeighbourRelation r, int l) {
        long step = ModeMechanism.differenceStep(r == NeighbourRelation.ADD_REMOVE, l);
        for (long[][] p : Neighbours.pairs(3, 9, r, l)) {
            long a = ModeMechanism.margin(p[0]) / step;
            long b = ModeMechanism.margin(p[1]) / step;
            assertThat(Math.abs(a - b)).as("pair %s %s", java.util.Arrays.toString(p[0]),
                    java.util.Arrays.toString(p[1])).isLessThanOrEqualTo(1);
            if (WindowStatistics.mode(p[0]) != WindowStatistics.mode(p[1])) {
                assertThat(a).isZero();
                assertThat(b).isZero();
            }
        }
    }

    @Test
    void aWrongStepBreaksTheDistanceProperty() {
        // u = L instead of 2L under replace-one: some neighbour with another mode has a positive distance
        boolean broken = false;
        for (long[][] p : Neighbours.pairs(3, 9, NeighbourRelation.REPLACE_ONE, 1)) {
            if (WindowStatistics.mode(p[0]) != WindowStatistics.mode(p[1]) && ModeMechanism.margin(p[0]) / 1 > 0) {
                broken = true;
            }
        }
        assertThat(broken).isTrue();
    }

    /** {@code P(Z >= a)} of the discrete Laplace of scale t, in 50 digits. */
    static BigDecimal tail(DistanceTest t, long a) {
        var s = t.noise().scale();
        BigDecimal beta = BigMath.exp(new BigDecimal(s.denominator()).divide(new BigDecimal(s.numerator()), MC).negate());
        BigDecimal onePlus = BigDecimal.ONE.add(beta);
        if (a >= 1) {
            return beta.pow((int) a, MC).divide(onePlus, MC);
        }
        return BigDecimal.ONE.subtract(beta.pow((int) (1 - a), MC).divide(onePlus, MC), MC);
    }

    @Test
    void theTestIsEpsilonDeltaOnItsOutputsAndNotPureWithoutPurification() {
        DistanceTest t = new DistanceTest(0.7, 12);
        BigDecimal eps = new BigDecimal(0.7);
        BigDecimal ee = BigMath.exp(eps);
        BigDecimal delta = BigMath.exp(new BigDecimal(t.logDelta().value()));
        // δ is never understated: P(Z >= T) <= e^{ln δ}
        assertThat(tail(t, t.threshold())).isLessThanOrEqualTo(delta);
        // same mode, distances d and d + 1: outputs {a, ⊥}
        for (long d = 0; d < 40; d++) {
            BigDecimal[] p = {tail(t, t.threshold() - d), BigDecimal.ONE.subtract(tail(t, t.threshold() - d))};
            BigDecimal[] q = {tail(t, t.threshold() - d - 1), BigDecimal.ONE.subtract(tail(t, t.threshold() - d - 1))};
            for (int i = 0; i < 2; i++) {
                assertThat(p[i]).isLessThanOrEqualTo(ee.multiply(q[i], MC).add(new BigDecimal("1e-45")));
                assertThat(q[i]).isLessThanOrEqualTo(ee.multiply(p[i], MC).add(new BigDecimal("1e-45")));
            }
            // and the double planning figure agrees
            assertThat(t.passProbability(d)).isCloseTo(p[0].doubleValue(), org.assertj.core.data.Offset.offset(1e-12));
        }
        // different modes a ≠ b: both distances 0, outputs {a, b, ⊥}; every set S: P(S|D) <= e^ε P(S|D') + δ
        BigDecimal pass = tail(t, t.threshold());
        BigDecimal[] p = {pass, BigDecimal.ZERO, BigDecimal.ONE.subtract(pass)};
        BigDecimal[] q = {BigDecimal.ZERO, pass, BigDecimal.ONE.subtract(pass)};
        for (int s = 1; s < 8; s++) {
            BigDecimal ps = BigDecimal.ZERO;
            BigDecimal qs = BigDecimal.ZERO;
            for (int i = 0; i < 3; i++) {
                if ((s >> i & 1) == 1) {
                    ps = ps.add(p[i]);
                    qs = qs.add(q[i]);
                }
            }
            assertThat(ps).isLessThanOrEqualTo(ee.multiply(qs, MC).add(delta));
        }
        // without δ it is not pure: output a has positive probability under D and none under D'
        assertThat(p[0].signum()).isPositive();
        assertThat(q[0].signum()).isZero();
    }
}
