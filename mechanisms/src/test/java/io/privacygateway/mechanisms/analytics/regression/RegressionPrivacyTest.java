package io.privacygateway.mechanisms.analytics.regression;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.accounting.Conversions;
import io.privacygateway.mechanisms.analytics.AnalyticsBudget;
import io.privacygateway.mechanisms.analytics.AnalyticsFixtures;
import io.privacygateway.mechanisms.analytics.ExactPsd;
import io.privacygateway.mechanisms.analytics.GridData;
import io.privacygateway.mechanisms.analytics.Matrices;
import io.privacygateway.mechanisms.analytics.Sensitivity;
import io.privacygateway.mechanisms.central.PrivacySplit;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import io.privacygateway.mechanisms.workload.Workload;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The discrete steps of the regression releases, checked exactly: every sensitivity is attained or exceeded by no
 * neighbouring pair (random windows, every one-device change of up to L reports), the published λ_min floor moves by
 * at most its stated sensitivity, and every noise parameter is at least what its privacy claim needs (in exact
 * decimal arithmetic); the shares add up to at most the declared ε. A too-small sensitivity (the bound for L = 1
 * used with L = 2) is caught by the same check.
 */
class RegressionPrivacyTest {

    static long[] randomWindow(Random r, int cells, int n) {
        long[] c = new long[cells];
        for (int i = 0; i < n; i++) {
            c[r.nextInt(cells)]++;
        }
        return c;
    }

    static long[] device(Random r, int cells, int l) {
        long[] v = new long[cells];
        int k = 1 + r.nextInt(l);
        for (int i = 0; i < k; i++) {
            v[r.nextInt(cells)]++;
        }
        return v;
    }

    static BigInteger distanceSquared(long[] a, long[] b) {
        BigInteger s = BigInteger.ZERO;
        for (int i = 0; i < a.length; i++) {
            BigInteger d = BigInteger.valueOf(a[i] - b[i]);
            s = s.add(d.multiply(d));
        }
        return s;
    }

    static BigInteger distanceL1(long[] a, long[] b) {
        BigInteger s = BigInteger.ZERO;
        for (int i = 0; i < a.length; i++) {
            s = s.add(BigInteger.valueOf(Math.abs(a[i] - b[i])));
        }
        return s;
    }

    @ParameterizedTest
    @CsvSource({"ADD_REMOVE, 1, false", "ADD_REMOVE, 3, false", "REPLACE_ONE, 2, false", "ADD_REMOVE, 1, true",
            "REPLACE_ONE, 2, true"})
    void sufficientStatisticsNeverMoveBeyondTheirSensitivities(NeighbourRelation rel, int l, boolean unitScale) {
        Workload workload = Workload.of(AnalyticsFixtures.regression("adassp", 1, "add-remove", 1));
        // unit scale: the grid ssp-laplace perturbs (each axis scaled from its public bound)
        GridData g = unitScale ? GridData.unitScaled(workload) : GridData.of(workload);
        long[][] xx = g.secondMomentVectors();
        long[][] xy = g.crossMomentVectors();
        BigInteger xx2 = Sensitivity.l2Squared(xx, rel, l);
        BigInteger xy2 = Sensitivity.l2Squared(xy, rel, l);
        BigInteger xx1 = Sensitivity.l1(xx, rel, l);
        BigInteger xy1 = Sensitivity.l1(xy, rel, l);
        BigInteger tooSmall = Sensitivity.l2Squared(xx, rel, 1);
        boolean smallBoundBroken = false;
        Random r = new Random(11);
        for (int trial = 0; trial < 3000; trial++) {
            long[] d = randomWindow(r, g.cells(), r.nextInt(30));
            long[] v = device(r, g.cells(), l);
            long[] e = d.clone();
            for (int x = 0; x < e.length; x++) {
                e[x] += v[x];
            }
            if (rel == NeighbourRelation.REPLACE_ONE) { // swap the device for another with as many reports
                long[] w = new long[g.cells()];
                long k = java.util.Arrays.stream(v).sum();
                for (int i = 0; i < k; i++) {
                    w[r.nextInt(g.cells())]++;
                }
                for (int x = 0; x < e.length; x++) {
                    e[x] = d[x] + w[x];
                    d[x] += v[x];
                }
            }
            long[] a = GridData.windowSum(xx, d);
            long[] b = GridData.windowSum(xx, e);
            assertThat(distanceSquared(a, b)).isLessThanOrEqualTo(xx2);
            assertThat(distanceL1(a, b)).isLessThanOrEqualTo(xx1);
            smallBoundBroken |= distanceSquared(a, b).compareTo(tooSmall) > 0;
            long[] c1 = GridData.windowSum(xy, d);
            long[] c2 = GridData.windowSum(xy, e);
            assertThat(distanceSquared(c1, c2)).isLessThanOrEqualTo(xy2);
            assertThat(distanceL1(c1, c2)).isLessThanOrEqualTo(xy1);
        }
        if (l > 1) {
            assertThat(smallBoundBroken).as("the L = 1 bound is exceeded by L = %d devices", l).isTrue();
        }
    }

    @ParameterizedTest
    @CsvSource({"ADD_REMOVE, 1", "ADD_REMOVE, 2", "REPLACE_ONE, 1"})
    void theLambdaMinFloorMovesByAtMostItsSensitivity(NeighbourRelation rel, int l) {
        Workload w = Workload.of(AnalyticsFixtures.regression("adassp", 1, rel.wireName(), l));
        PurifiedAdaSsp m = new PurifiedAdaSsp(w, new AnalyticsBudget(0, 1, 10_000, rel, l, 0.95));
        GridData g = GridData.of(w);
        long[][] xx = g.secondMomentVectors();
        Random r = new Random(5);
        long worst = 0;
        for (int trial = 0; trial < 400; trial++) {
            long[] d = randomWindow(r, g.cells(), 5 + r.nextInt(40));
            long[] e = d.clone();
            long[] v = device(r, g.cells(), l);
            for (int x = 0; x < e.length; x++) {
                e[x] += v[x];
            }
            long a = ExactPsd.floorLambdaMin(g.symmetricExact(GridData.windowSum(xx, d)), m.lambdaStep(), 0);
            long b = ExactPsd.floorLambdaMin(g.symmetricExact(GridData.windowSum(xx, e)), m.lambdaStep(), 0);
            worst = Math.max(worst, Math.abs(a - b));
        }
        assertThat(worst).isLessThanOrEqualTo(m.lambdaSensitivity()).isPositive();
        // and the noise is at least sensitivity/ε_λ, exactly
        BigDecimal scale = new BigDecimal(m.lambdaNoise().scale().numerator())
                .divide(new BigDecimal(m.lambdaNoise().scale().denominator()), MathContext.DECIMAL128);
        assertThat(scale.multiply(new BigDecimal(m.shares()[0])))
                .isGreaterThanOrEqualTo(BigDecimal.valueOf(m.lambdaSensitivity()));
    }

    @ParameterizedTest
    @CsvSource({"0.5, ADD_REMOVE, 1", "2, REPLACE_ONE, 2"})
    void everyNoiseParameterMeetsItsClaimAndTheSharesFitTheDeclaredEpsilon(double eps, NeighbourRelation rel, int l) {
        Workload w = Workload.of(AnalyticsFixtures.regression("adassp", eps, rel.wireName(), l));
        AnalyticsBudget budget = new AnalyticsBudget(0, eps, 10_000, rel, l, 0.95);
        PurifiedAdaSsp ada = new PurifiedAdaSsp(w, budget);
        GridData g = GridData.of(w);
        BigInteger xx2 = Sensitivity.l2Squared(g.secondMomentVectors(), rel, l);
        BigInteger xy2 = Sensitivity.l2Squared(g.crossMomentVectors(), rel, l);
        double[] rho = PrivacySplit.split(ada.rho(), 0.5, 0.5);
        // σ² >= Δ²/(2ρ_i) for both statistics, so each is ρ_i-zCDP; ρ_1 + ρ_2 <= ρ; ρ certifies (ε_apx, δ)
        assertThat(bd(ada.xxNoise().sigma2()).multiply(BigDecimal.valueOf(2)).multiply(new BigDecimal(rho[0])))
                .isGreaterThanOrEqualTo(new BigDecimal(xx2));
        assertThat(bd(ada.xyNoise().sigma2()).multiply(BigDecimal.valueOf(2)).multiply(new BigDecimal(rho[1])))
                .isGreaterThanOrEqualTo(new BigDecimal(xy2));
        assertThat(PrivacySplit.exactSum(rho)).isLessThanOrEqualTo(new BigDecimal(ada.rho()));
        assertThat(Conversions.zcdpToEpsilon(ada.rho(), ada.logDelta())).isLessThanOrEqualTo(ada.shares()[1]);
        assertThat(PrivacySplit.exactSum(ada.shares())).isLessThanOrEqualTo(new BigDecimal(eps));
        assertThat(new BigDecimal(ada.cost().epsilon())).isLessThanOrEqualTo(new BigDecimal(eps));
        // the Laplace baseline: scale >= Δ₁/ε_i exactly, Δ₁ of the statistics it perturbs (its unit-scale grid, built
        // from the public grid only)
        LaplaceSsp ssp = new LaplaceSsp(w, budget);
        GridData unit = GridData.unitScaled(w);
        assertThat(ssp.grid().secondMomentVectors()).isDeepEqualTo(unit.secondMomentVectors());
        assertThat(ssp.grid().crossMomentVectors()).isDeepEqualTo(unit.crossMomentVectors());
        assertThat(bd(ssp.xxNoise().scale()).multiply(new BigDecimal(ssp.shares()[0])))
                .isGreaterThanOrEqualTo(new BigDecimal(Sensitivity.l1(unit.secondMomentVectors(), rel, l)));
        assertThat(bd(ssp.xyNoise().scale()).multiply(new BigDecimal(ssp.shares()[1])))
                .isGreaterThanOrEqualTo(new BigDecimal(Sensitivity.l1(unit.crossMomentVectors(), rel, l)));
        assertThat(new BigDecimal(ssp.cost().epsilon())).isLessThanOrEqualTo(new BigDecimal(eps));
    }

    @ParameterizedTest
    @CsvSource({"ADD_REMOVE", "REPLACE_ONE"})
    void leastSquaresTruthSolvesTheNormalEquations(NeighbourRelation rel) {
        Workload w = Workload.of(AnalyticsFixtures.regression("ssp-laplace", 1, rel.wireName(), 1));
        GridData g = GridData.of(w);
        long[] c = randomWindow(new Random(1), g.cells(), 500);
        double[] theta = io.privacygateway.mechanisms.analytics.WindowStatistics.trueAnswer(w, c);
        double[][] xx = g.secondMoment(c);
        double[] xy = g.crossMoment(c);
        for (int i = 0; i < theta.length; i++) {
            double lhs = 0;
            for (int j = 0; j < theta.length; j++) {
                lhs += xx[i][j] * theta[j];
            }
            assertThat(lhs).isCloseTo(xy[i], org.assertj.core.data.Offset.offset(1e-6 * Math.abs(xy[i]) + 1e-9));
        }
        assertThat(Matrices.norm(theta)).isPositive();
    }

    private static BigDecimal bd(io.privacygateway.mechanisms.random.Rational r) {
        return new BigDecimal(r.numerator()).divide(new BigDecimal(r.denominator()), 60, RoundingMode.FLOOR);
    }
}
