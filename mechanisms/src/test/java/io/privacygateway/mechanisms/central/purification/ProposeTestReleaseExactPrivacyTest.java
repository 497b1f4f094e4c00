package io.privacygateway.mechanisms.central.purification;

import static io.privacygateway.mechanisms.central.purification.ExactPurification.maxLogRatio;
import static io.privacygateway.mechanisms.central.purification.ExactPurification.passes;
import static io.privacygateway.mechanisms.central.purification.ExactPurification.purified;
import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.analytics.ptr.DistanceTest;
import io.privacygateway.mechanisms.analytics.ptr.ProposeTestRelease;
import io.privacygateway.mechanisms.central.PrivacySplit;
import io.privacygateway.mechanisms.central.sampling.DiscreteLaplace;
import io.privacygateway.mechanisms.central.sampling.LqNorm;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import org.junit.jupiter.api.Test;

/**
 * Propose-test-release purified (Algorithms 9 and 10), exactly on a one-dimensional grid: the released value is
 * {@code clamp(q + Z)} when the test passes and uniform on the lattice otherwise, then purified. For every
 * situation of neighbouring windows — a stable query moving by at most β with distances d and d + 1, and an
 * unstable pair (distance 0 on both sides) whose queries differ arbitrarily — the purified pmf's log-ratio is at
 * most {@code ε_test + ε_release + ε'}; without purification the unstable pair has an output that only one side
 * produces.
 */
class ProposeTestReleaseExactPrivacyTest {

    private static double[] input(int n, long q, double pass, DiscreteLaplace z) {
        double[] p = new double[2 * n + 1];
        for (int y = -n; y <= n; y++) {
            double mass;
            if (y == -n) {
                mass = z.cdf(-n - q);
            } else if (y == n) {
                mass = 1 - z.cdf(n - 1 - q);
            } else {
                mass = z.pmf(y - q);
            }
            p[y + n] = pass * mass + (1 - pass) / (2 * n + 1);
        }
        return p;
    }

    @Test
    void purifiedProposeTestReleaseIsPure() {
        DistanceTest test = new DistanceTest(0.5, 30);
        // Θ = [−1, 1] on the grid h = 2^-5 (n = 32 grid units), query in grid units, β = 4 grid units
        Purifier pur = new Purifier(LqNorm.LINF, new double[] {0}, 2.0, Epsilon.of(1), test.logDelta(), 0.01, 5);
        int n = (int) pur.gridRadius();
        long beta = 4;
        double epsRelease = 0.5;
        ProposeTestRelease ptr = new ProposeTestRelease(test, epsRelease, beta, pur.gridStep(), pur);
        DiscreteLaplace z = new DiscreteLaplace(PrivacySplit.dyadicUp(beta, epsRelease));
        double t = pur.noiseScaleGridUnits().doubleValue();
        boolean[] inL = new boolean[2 * n + 1];
        java.util.Arrays.fill(inL, true);
        double total = ptr.epsilonTotal().value();
        double worst = 0;
        for (long d = 0; d < test.threshold() + 20; d += 3) {
            for (long q = -n; q <= n; q += 8) {
                double[] p = input(n, q, test.passProbability(d), z);
                double[] r = input(n, Math.min(n, q + beta), test.passProbability(d + 1), z);
                worst = Math.max(worst, maxLogRatio(purified(p, inL, 1, n, pur.omega(), t),
                        purified(r, inL, 1, n, pur.omega(), t)));
            }
        }
        double pass0 = test.passProbability(0);
        double[] far1 = input(n, -n, pass0, z);
        double[] far2 = input(n, n, pass0, z);
        worst = Math.max(worst, maxLogRatio(purified(far1, inL, 1, n, pur.omega(), t),
                purified(far2, inL, 1, n, pur.omega(), t)));
        assertThat(passes(worst, total)).as("loss %s <= %s", worst, total).isTrue();
        assertThat(worst).isGreaterThan(0.5 * epsRelease);
        // the release itself runs and lands in Θ's neighbourhood (the purifier's noise is unbounded)
        double[] out = ptr.release(new long[] {3}, 100, new SeededRandomBits(4));
        assertThat(out).hasSize(1);
    }
}
