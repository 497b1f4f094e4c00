package io.privacygateway.mechanisms.central.sampling;

import static io.privacygateway.mechanisms.central.sampling.DistributionChecks.FALSE_FAILURE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/**
 * Chi-square tests against the exact CDF (bins from the CDF, 50 quantile bins merged to expected counts
 * {@code >= 5}); each fails by chance with probability at most 1e-6.
 */
class DiscreteLaplaceTest {
    private static final int N = 100_000;

    @Test
    void matchesTheExactDistributionForTinyOrdinaryAndLargeScales() {
        RandomBits bits = new SeededRandomBits(21);
        long[][] scales = {{1, 1000}, {1, 3}, {1, 1}, {7, 2}, {100, 1}, {1001, 10}, {1L << 20, 1}, {1L << 40, 1},
            {(1L << 61) + 1, 1L << 30}};
        for (long[] s : scales) {
            DiscreteLaplace lap = DiscreteLaplace.withScale(s[0], s[1]);
            long[] samples = new long[N];
            for (int i = 0; i < N; i++) {
                samples[i] = lap.sample(bits);
            }
            double p = DistributionChecks.chiSquarePValue(samples, lap::cdf, 50);
            assertThat(p).as("scale %d/%d", s[0], s[1]).isGreaterThan(FALSE_FAILURE);
        }
    }

    @Test
    void theCheckHasPowerAgainstASlightlyWrongScale() {
        // samples of scale 7/2 against the CDF of scale 4: must be rejected (p < 1e-6)
        RandomBits bits = new SeededRandomBits(23);
        DiscreteLaplace lap = DiscreteLaplace.withScale(7, 2);
        long[] samples = new long[N];
        for (int i = 0; i < N; i++) {
            samples[i] = lap.sample(bits);
        }
        assertThat(DistributionChecks.chiSquarePValue(samples, DiscreteLaplace.withScale(4, 1)::cdf, 50))
                .isLessThan(FALSE_FAILURE);
    }

    @Test
    void tinyScaleIsAlmostAlwaysZero() {
        // scale 1/1000: P(X != 0) = 2β/(1+β) with β = e^-1000: never observed
        RandomBits bits = new SeededRandomBits(22);
        DiscreteLaplace lap = DiscreteLaplace.withScale(1, 1000);
        for (int i = 0; i < 10_000; i++) {
            assertThat(lap.sample(bits)).isZero();
        }
        assertThat(lap.pmf(0)).isCloseTo(1.0, within(1e-15));
    }

    @Test
    void closedFormsAgreeWithSums() {
        for (long[] s : new long[][] {{1, 3}, {7, 2}, {100, 1}}) {
            DiscreteLaplace lap = DiscreteLaplace.withScale(s[0], s[1]);
            double total = 0;
            double meanAbs = 0;
            double second = 0;
            for (long k = -20_000; k <= 20_000; k++) {
                double p = lap.pmf(k);
                total += p;
                meanAbs += Math.abs(k) * p;
                second += (double) k * k * p;
            }
            assertThat(total).isCloseTo(1.0, within(1e-12));
            assertThat(lap.meanAbsolute()).isCloseTo(meanAbs, within(1e-9 * (1 + meanAbs)));
            assertThat(lap.meanAbsolute()).isLessThanOrEqualTo(lap.scaleDouble());
            assertThat(lap.variance()).isCloseTo(second, within(1e-9 * (1 + second)));
            assertThat(lap.cdf(-1)).isCloseTo(lap.beta() / (1 + lap.beta()), within(1e-15));
            assertThat(Math.exp(lap.logPmf(3))).isCloseTo(lap.pmf(3), within(1e-15));
            double mgf = 0;
            long range = (long) (200 * lap.scaleDouble()) + 50;
            for (long k = -range; k <= range; k++) {
                mgf += Math.exp(0.1 / lap.scaleDouble() * Math.abs(k)) * lap.pmf(k);
            }
            assertThat(lap.absMomentGenerating(0.1 / lap.scaleDouble())).isCloseTo(mgf, within(1e-9 * mgf));
        }
        assertThat(DiscreteLaplace.withScale(1, 1).absMomentGenerating(1.0)).isInfinite();
    }

    @Test
    void validation() {
        assertThatThrownBy(() -> new DiscreteLaplace(null)).hasMessageContaining("scale is required");
        assertThatThrownBy(() -> new DiscreteLaplace(Rational.ZERO)).hasMessageContaining("scale must be > 0")
                .hasMessageContaining("0/1");
        assertThatThrownBy(() -> DiscreteLaplace.withScale(0, 1)).hasMessageContaining("scale").hasMessageContaining("0/1");
        assertThatThrownBy(() -> DiscreteLaplace.withScale(-3, 1)).hasMessageContaining("-3/1");
        assertThatThrownBy(() -> DiscreteLaplace.withScale(3, -1)).hasMessageContaining("3/-1");
        assertThatThrownBy(() -> DiscreteLaplace.withScale((1L << 40) + 1, 1)).hasMessageContaining("<= 2^40")
                .hasMessageContaining("1099511627777");
        assertThat(DiscreteLaplace.withScale(1L << 40, 1).scaleDouble()).isEqualTo(0x1p40);
        Rational huge = Rational.of(BigInteger.ONE.shiftLeft(62), BigInteger.ONE.shiftLeft(30).add(BigInteger.ONE));
        assertThatThrownBy(() -> new DiscreteLaplace(huge)).hasMessageContaining("< 2^62");
        Rational fineDen = Rational.of(BigInteger.ONE, BigInteger.ONE.shiftLeft(62));
        assertThatThrownBy(() -> new DiscreteLaplace(fineDen)).hasMessageContaining("< 2^62");
    }

    @Test
    void ceilDyadicRoundsUpAndValidates() {
        for (double x : new double[] {1e-9, 0.1, 1.0 / 3, 7.5, 12345.678, 1e12}) {
            Rational r = Rationals.ceilDyadic("scale", x, 31);
            assertThat(new java.math.BigDecimal(r.numerator()).divide(new java.math.BigDecimal(r.denominator())))
                    .isGreaterThanOrEqualTo(new java.math.BigDecimal(x));
            assertThat(r.doubleValue()).isCloseTo(x, within(x * 0x1p-29));
        }
        assertThatThrownBy(() -> Rationals.ceilDyadic("scale", Double.NaN, 31)).hasMessageContaining("scale")
                .hasMessageContaining("NaN");
        assertThatThrownBy(() -> Rationals.ceilDyadic("scale", Double.POSITIVE_INFINITY, 31))
                .hasMessageContaining("Infinity");
        assertThatThrownBy(() -> Rationals.ceilDyadic("scale", 0.0, 31)).hasMessageContaining("0.0");
        assertThatThrownBy(() -> Rationals.ceilDyadic("scale", -2.0, 31)).hasMessageContaining("-2.0");
    }
}
