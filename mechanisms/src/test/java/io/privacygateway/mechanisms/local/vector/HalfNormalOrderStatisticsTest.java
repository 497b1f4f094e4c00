package io.privacygateway.mechanisms.local.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The half-normal order statistics against identities, closed forms and Monte Carlo. */
class HalfNormalOrderStatisticsTest {
    private static final double SQRT_2_OVER_PI = Math.sqrt(2 / Math.PI);

    /**
     * {@code Σ_r a_r = M·E|h| = M√(2/π)} and {@code Σ_r b_r = M·E h² = M}, to 1e-10 relative, for every M. (These
     * tests call the uncached {@code compute}: under mutation testing a cache filled by another run would hide the
     * mutant.)
     */
    @Test
    void theSumsAreTheMomentsOfTheSample() {
        for (int m = 1; m <= 128; m *= 2) {
            double[][] ab = HalfNormalOrderStatistics.compute(m);
            assertThat(ab[0]).hasSize(m);
            assertThat(Arrays.stream(ab[0]).sum()).as("Σa, M=%d", m).isCloseTo(m * SQRT_2_OVER_PI, within(1e-10 * m));
            assertThat(Arrays.stream(ab[1]).sum()).as("Σb, M=%d", m).isCloseTo(m, within(1e-10 * m));
            for (int r = 1; r < m; r++) {
                assertThat(ab[0][r]).as("descending a, M=%d r=%d", m, r).isLessThan(ab[0][r - 1]);
                assertThat(ab[1][r]).as("descending b, M=%d r=%d", m, r).isLessThan(ab[1][r - 1]);
            }
            assertThat(ab[0][m - 1]).isPositive();
        }
    }

    /** {@code E|h| = √(2/π)}, {@code E max(|h₁|,|h₂|) = 2/√π}, {@code E max(h₁², h₂²) = 1 + 2/π}. */
    @Test
    void closedFormsForOneAndTwo() {
        double[][] one = HalfNormalOrderStatistics.compute(1);
        assertThat(one[0][0]).isCloseTo(SQRT_2_OVER_PI, within(1e-12));
        assertThat(one[1][0]).isCloseTo(1, within(1e-12));
        double[][] two = HalfNormalOrderStatistics.compute(2);
        assertThat(two[0][0]).isCloseTo(2 / Math.sqrt(Math.PI), within(1e-12));
        assertThat(two[0][1]).isCloseTo(2 * SQRT_2_OVER_PI - 2 / Math.sqrt(Math.PI), within(1e-12));
        assertThat(two[1][0]).isCloseTo(1 + 2 / Math.PI, within(1e-12));
        assertThat(two[1][1]).isCloseTo(1 - 2 / Math.PI, within(1e-12));
    }

    /**
     * Monte Carlo with 200,000 samples of M = 16 and M = 128 (seeded): each a_r, b_r within 5.5 Monte Carlo
     * standard errors (per-check false failure 4e-8; 288 checks: below 1e-5 together, and deterministic with
     * the seed). A wrong index convention (ascending instead of descending) or a missing binomial fails by
     * hundreds of standard errors.
     */
    @Test
    void agreesWithMonteCarlo() {
        SplittableRandom rnd = new SplittableRandom(20260128);
        for (int m : new int[] {16, 128}) {
            double[][] ab = HalfNormalOrderStatistics.compute(m);
            int samples = m == 16 ? 200_000 : 40_000;
            double[] s1 = new double[m];
            double[] s2 = new double[m];
            double[] s4 = new double[m];
            double[] h = new double[m];
            for (int i = 0; i < samples; i++) {
                for (int k = 0; k < m; k++) {
                    h[k] = Math.abs(gaussian(rnd));
                }
                Arrays.sort(h);
                for (int r = 0; r < m; r++) {
                    double v = h[m - 1 - r];
                    s1[r] += v;
                    s2[r] += v * v;
                    s4[r] += v * v * v * v;
                }
            }
            for (int r = 0; r < m; r++) {
                double mean = s1[r] / samples;
                double sd = Math.sqrt(s2[r] / samples - mean * mean);
                assertThat(ab[0][r]).as("a, M=%d r=%d", m, r + 1).isCloseTo(mean, within(5.5 * sd / Math.sqrt(samples)));
                double mean2 = s2[r] / samples;
                double sd2 = Math.sqrt(s4[r] / samples - mean2 * mean2);
                assertThat(ab[1][r]).as("b, M=%d r=%d", m, r + 1).isCloseTo(mean2, within(5.5 * sd2 / Math.sqrt(samples)));
            }
        }
    }

    private static double gaussian(SplittableRandom rnd) {
        double u = rnd.nextDouble();
        double v = rnd.nextDouble();
        return Math.sqrt(-2 * Math.log1p(-u)) * Math.cos(2 * Math.PI * v);
    }

    @Test
    void cachesAndRefusesOtherSizes() {
        assertThat(HalfNormalOrderStatistics.moments(8)).isSameAs(HalfNormalOrderStatistics.moments(8));
        assertThat(HalfNormalOrderStatistics.compute(8)[0]).containsExactly(HalfNormalOrderStatistics.moments(8)[0]);
        assertThat(HalfNormalOrderStatistics.compute(8)[1]).containsExactly(HalfNormalOrderStatistics.moments(8)[1]);
        for (int m : new int[] {0, 3, 256, -2}) {
            assertThatThrownBy(() -> HalfNormalOrderStatistics.moments(m)).isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(HalfNormalOrderStatistics.prefix(new double[] {1, 2, 3})).containsExactly(0, 1, 3, 6);
    }
}
