package io.privacygateway.mechanisms.analytics.erm;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.accounting.Conversions;
import io.privacygateway.mechanisms.analytics.AnalyticsBudget;
import io.privacygateway.mechanisms.analytics.AnalyticsFixtures;
import io.privacygateway.mechanisms.analytics.ExactRationals;
import io.privacygateway.mechanisms.analytics.Matrices;
import io.privacygateway.mechanisms.analytics.ReleasedCount;
import io.privacygateway.mechanisms.analytics.Sensitivity;
import io.privacygateway.mechanisms.central.sampling.DistributionChecks;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import io.privacygateway.mechanisms.workload.Workload;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The erm mechanisms' privacy claims, each by a check that can fail: the exponential mechanism's exponent is an
 * exact, additive, bounded function of the reports (the whole pure-DP argument) and its realised log-ratios stay
 * below its ε; its sampler draws the stated distribution; the noisy gradient's per-report vectors respect the norm
 * bound its noise is calibrated for; the output perturbation's certified minimiser moves by at most its stated
 * sensitivity between neighbours.
 */
class ErmPrivacyTest {

    static long[] window(Random r, int cells, int n) {
        long[] c = new long[cells];
        for (int i = 0; i < n; i++) {
            c[r.nextInt(cells)]++;
        }
        return c;
    }

    static long[] plus(long[] a, long[] b, int sign) {
        long[] out = a.clone();
        for (int i = 0; i < a.length; i++) {
            out[i] += sign * b[i];
        }
        return out;
    }

    @ParameterizedTest
    @CsvSource({"1, ADD_REMOVE, 1", "0.5, ADD_REMOVE, 2", "2, REPLACE_ONE, 1"})
    void theExponentialMechanismsExponentIsAdditiveAndBoundedSoItIsPure(double eps, NeighbourRelation rel, int l) {
        Workload w = Workload.of(AnalyticsFixtures.erm("erm-exponential", eps, rel.wireName(), l));
        GridExponentialErm m = new GridExponentialErm(w, new AnalyticsBudget(0, eps, 1000, rel, l, 0.95));
        // k·L·M (·2 under replace-one) <= ε, exactly
        BigDecimal sens = BigDecimal.valueOf(m.maxUnitLoss()).multiply(BigDecimal.valueOf(l))
                .multiply(BigDecimal.valueOf(rel == NeighbourRelation.ADD_REMOVE ? 1 : 2));
        assertThat(new BigDecimal(m.k()).multiply(sens)).isLessThanOrEqualTo(new BigDecimal(eps));
        Random r = new Random(2);
        int cells = w.universeSize();
        double worst = 0;
        for (int trial = 0; trial < 6; trial++) {
            long[] d = window(r, cells, 20 + r.nextInt(50));
            long[] v = window(r, cells, 1 + r.nextInt(l));
            long[] e = rel == NeighbourRelation.ADD_REMOVE ? plus(d, v, 1)
                    : plus(plus(d, v, 1), window(r, cells, (int) java.util.Arrays.stream(v).sum()), 0);
            if (rel == NeighbourRelation.REPLACE_ONE) {
                long[] swap = window(r, cells, (int) java.util.Arrays.stream(v).sum());
                d = plus(d, v, 1);
                e = plus(plus(d, v, -1), swap, 1);
            }
            double mu = 3.0; // the regulariser enters identically on both sides (a function of the public count)
            long[] ed = m.exponents(d, mu);
            long[] ee = m.exponents(e, mu);
            long maxMove = m.maxUnitLoss() * l;
            for (int i = 0; i < ed.length; i++) {
                long move = ee[i] - ed[i];
                if (rel == NeighbourRelation.ADD_REMOVE) {
                    assertThat(move).isBetween(0L, maxMove); // monotone and bounded
                } else {
                    assertThat(Math.abs(move)).isLessThanOrEqualTo(maxMove);
                }
            }
            // the realised privacy loss over the whole grid (log-space doubles; slack 1e-9)
            double[] p = m.probabilities(ed);
            double[] q = m.probabilities(ee);
            for (int i = 0; i < p.length; i++) {
                worst = Math.max(worst, Math.abs(Math.log(p[i]) - Math.log(q[i])));
            }
        }
        assertThat(worst).isLessThanOrEqualTo(m.cost().epsilon() + 1e-9).isGreaterThan(0.3 * eps);
    }

    /**
     * The grid sampler draws {@code ∝ e^{−k·E}}: six grid points with exponents {0, 2, 7, 1, 0, 30}; 200 000 draws,
     * chi-square, false failure {@value DistributionChecks#FALSE_FAILURE}; every probability here is above 0.05 or
     * below 1e-4, and a shift of 0.01 in one of the large ones is detected with power above 0.999.
     */
    @Test
    void theGridSamplerDrawsExactlyItsTarget() {
        Workload w = Workload.of(AnalyticsFixtures.erm("erm-exponential", 1, "add-remove", 1));
        GridExponentialErm m = new GridExponentialErm(w, new AnalyticsBudget(0, 1, 1000, NeighbourRelation.ADD_REMOVE,
                1, 0.95));
        double unit = 1 / m.k();
        long[] e = {0, (long) (0.2 * unit), (long) (0.7 * unit), (long) (0.1 * unit), 0, (long) (3 * unit)};
        double[] p = m.probabilities(e);
        SeededRandomBits bits = new SeededRandomBits(9);
        long[] s = new long[200_000];
        for (int i = 0; i < s.length; i++) {
            s[i] = m.sampleIndex(e, bits);
        }
        double pv = DistributionChecks.chiSquarePValue(s, v -> {
            double c = 0;
            for (int i = 0; i <= Math.min(v, 5); i++) {
                c += p[i];
            }
            return c;
        }, 6);
        assertThat(pv).isGreaterThan(DistributionChecks.FALSE_FAILURE);
    }

    @ParameterizedTest
    @CsvSource({"ADD_REMOVE, 1", "REPLACE_ONE, 3"})
    void noisyGradientStepsRespectTheirNormBoundAndTheirNoiseMeetsTheirRho(NeighbourRelation rel, int l) {
        Workload w = Workload.of(AnalyticsFixtures.erm("purified-dpsgd", 1, rel.wireName(), l));
        double[] parts = io.privacygateway.mechanisms.central.PrivacySplit.split(1, 0.1, 0.9); // as AnalyticsRelease
        PurifiedNoisyGd m = new PurifiedNoisyGd(w, new AnalyticsBudget(parts[0], parts[1], 10_000, rel, l, 0.95));
        Random r = new Random(4);
        for (int trial = 0; trial < 200; trial++) {
            double[] theta = new double[w.queryCount()];
            for (int j = 0; j < theta.length; j++) {
                theta[j] = 8 * r.nextDouble() - 4;
            }
            theta = Matrices.projectToBall(theta, 4);
            for (int x = 0; x < w.universeSize(); x++) {
                long s = 0;
                for (long v : m.roundedGradient(theta, x)) {
                    s += v * v;
                }
                assertThat(s).isLessThanOrEqualTo(m.maxNormSquared());
            }
        }
        BigInteger d2 = Sensitivity.l2SquaredFromNormBound(BigInteger.valueOf(m.maxNormSquared()), rel, l);
        double rhoStep = ExactRationals.floorQuotient(m.rho(), BigInteger.valueOf(PurifiedNoisyGd.STEPS));
        BigDecimal sigma2 = new BigDecimal(m.noise().sigma2().numerator())
                .divide(new BigDecimal(m.noise().sigma2().denominator()), 60, RoundingMode.FLOOR);
        assertThat(sigma2.multiply(BigDecimal.valueOf(2)).multiply(new BigDecimal(rhoStep)))
                .isGreaterThanOrEqualTo(new BigDecimal(d2));
        assertThat(new BigDecimal(rhoStep).multiply(BigDecimal.valueOf(PurifiedNoisyGd.STEPS)))
                .isLessThanOrEqualTo(new BigDecimal(m.rho()));
        assertThat(Conversions.zcdpToEpsilon(m.rho(), m.logDelta())).isLessThanOrEqualTo(m.epsilonApprox());
        assertThat(new BigDecimal(m.cost().epsilon())).isLessThanOrEqualTo(BigDecimal.ONE);
        assertThat(m.purifier().logDelta()).isEqualTo(m.logDelta());
    }

    @ParameterizedTest
    @CsvSource({"ADD_REMOVE, 1", "ADD_REMOVE, 2", "REPLACE_ONE, 1"})
    void theCertifiedMinimiserMovesByAtMostItsSensitivity(NeighbourRelation rel, int l) {
        Workload w = Workload.of(AnalyticsFixtures.erm("output-perturbation", 1, rel.wireName(), l));
        OutputPerturbationErm m = new OutputPerturbationErm(w, new AnalyticsBudget(0, 1, 1000, rel, l, 0.95));
        Random r = new Random(8);
        int cells = w.universeSize();
        double worstRatio = 0;
        for (int trial = 0; trial < 60; trial++) {
            long[] d = window(r, cells, 30 + r.nextInt(300));
            long[] v = window(r, cells, 1 + r.nextInt(l));
            long[] e;
            if (rel == NeighbourRelation.ADD_REMOVE) {
                e = plus(d, v, 1);
            } else {
                d = plus(d, v, 1);
                e = plus(plus(d, v, -1), window(r, cells, (int) java.util.Arrays.stream(v).sum()), 1);
            }
            double lambda = m.lambda(100); // Λ is a function of the released count: the same on both sides
            double[] a = m.certifiedMinimiser(d, lambda);
            double[] b = m.certifiedMinimiser(e, lambda);
            double move = 0;
            for (int j = 0; j < a.length; j++) {
                move += (a[j] - b[j]) * (a[j] - b[j]);
            }
            worstRatio = Math.max(worstRatio, Math.sqrt(move) / m.l2Sensitivity(lambda));
        }
        assertThat(worstRatio).isLessThanOrEqualTo(1).isGreaterThan(0.05);
        // the release runs and stays in the ball
        var a = m.release(window(r, cells, 200), ReleasedCount.exact(200), new SeededRandomBits(1));
        assertThat(Matrices.norm(a.estimates())).isLessThanOrEqualTo(4 + 1e-9);
    }
}
