package io.privacygateway.mechanisms.central.sampling;

import static io.privacygateway.mechanisms.central.sampling.DistributionChecks.FALSE_FAILURE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import java.math.BigInteger;
import java.util.function.LongToDoubleFunction;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;

/**
 * Chi-square tests against the exact pmf (tabulated on {@code ±(12σ + 40)}, which holds all but
 * {@code e^{−72}} of the mass), 50 quantile bins; each fails by chance with probability at most 1e-6.
 */
class DiscreteGaussianTest {
    private static final int N = 100_000;

    @Test
    void matchesTheExactPmfForTinyOrdinaryAndLargeVariances() {
        RandomBits bits = new SeededRandomBits(31);
        long[][] variances = {{1, 100}, {1, 2}, {1, 1}, {7, 3}, {10, 1}, {10_000, 1}, {100_000_001, 1},
            {(1L << 61) - 1, 1L << 31}};
        for (long[] v : variances) {
            DiscreteGaussian g = DiscreteGaussian.withSigma2(v[0], v[1]);
            long[] samples = new long[N];
            for (int i = 0; i < N; i++) {
                samples[i] = g.sample(bits);
            }
            double sigma = Math.sqrt(g.sigma2().doubleValue());
            long k = (long) Math.ceil(12 * sigma) + 40;
            LongToDoubleFunction cdf = DistributionChecks.tabulatedCdf(g::unnormalisedWeight, k);
            double p = DistributionChecks.chiSquarePValue(samples, cdf, 50);
            assertThat(p).as("sigma2 %d/%d", v[0], v[1]).isGreaterThan(FALSE_FAILURE);
        }
    }

    @Test
    void veryLargeVarianceAgainstTheNormalCdf() {
        // σ² = 2^50: the discrete CDF equals Φ((k + 1/2)/σ) up to O(1/σ²) ≈ 1e-15 (midpoint rule), far below the
        // resolution of 10^5 samples; the BigInteger acceptance path is exercised (2pqt² > 2^63).
        RandomBits bits = new SeededRandomBits(32);
        DiscreteGaussian g = DiscreteGaussian.withSigma2(1L << 50, 1);
        double sigma = 0x1p25;
        NormalDistribution normal = NormalDistribution.of(0, sigma);
        long[] samples = new long[N];
        for (int i = 0; i < N; i++) {
            samples[i] = g.sample(bits);
        }
        double p = DistributionChecks.chiSquarePValue(samples, x -> normal.cumulativeProbability(x + 0.5), 50);
        assertThat(p).isGreaterThan(FALSE_FAILURE);
    }

    @Test
    void theCheckHasPowerAgainstASlightlyWrongVariance() {
        // samples with σ² = 100 against the pmf with σ² = 110: must be rejected (p < 1e-6)
        RandomBits bits = new SeededRandomBits(34);
        DiscreteGaussian g = DiscreteGaussian.withSigma2(100, 1);
        long[] samples = new long[N];
        for (int i = 0; i < N; i++) {
            samples[i] = g.sample(bits);
        }
        LongToDoubleFunction wrong = DistributionChecks.tabulatedCdf(
                DiscreteGaussian.withSigma2(110, 1)::unnormalisedWeight, 200);
        assertThat(DistributionChecks.chiSquarePValue(samples, wrong, 50)).isLessThan(FALSE_FAILURE);
    }

    @Test
    void tinyVarianceIsAlmostAlwaysZero() {
        RandomBits bits = new SeededRandomBits(33);
        DiscreteGaussian g = DiscreteGaussian.withSigma2(1, 100); // P(X != 0) ≈ 2e^{-50}
        for (int i = 0; i < 10_000; i++) {
            assertThat(g.sample(bits)).isZero();
        }
    }

    @Test
    void normaliserMatchesDirectSummation() {
        for (long[] v : new long[][] {{1, 100}, {1, 2}, {1, 1}, {7, 3}, {10_000, 1}, {3, 1}}) {
            DiscreteGaussian g = DiscreteGaussian.withSigma2(v[0], v[1]);
            double z = 0;
            for (long k = -2000; k <= 2000; k++) {
                z += g.unnormalisedWeight(k);
            }
            assertThat(g.normaliser()).as("sigma2 %d/%d", v[0], v[1]).isCloseTo(z, within(1e-12 * z));
            assertThat(g.pmf(0)).isCloseTo(1 / z, within(1e-12));
        }
        assertThat(DiscreteGaussian.withSigma2(10_000, 1).proposalScale()).isEqualTo(101);
        assertThat(DiscreteGaussian.withSigma2(1, 100).proposalScale()).isEqualTo(1);
    }

    @Test
    void integerSquareRoot() {
        for (long n : new long[] {0, 1, 2, 3, 4, 15, 16, 17, (1L << 62) - 1, 1L << 62, Long.MAX_VALUE,
            999_999_999_999L * 999_999_999_999L / 1000}) {
            long r = DiscreteGaussian.isqrt(n);
            BigInteger bn = BigInteger.valueOf(n);
            assertThat(BigInteger.valueOf(r).pow(2)).isLessThanOrEqualTo(bn);
            assertThat(BigInteger.valueOf(r + 1).pow(2)).isGreaterThan(bn);
        }
    }

    @Test
    void validation() {
        assertThatThrownBy(() -> new DiscreteGaussian(null)).hasMessageContaining("sigma2 is required");
        assertThatThrownBy(() -> new DiscreteGaussian(Rational.ZERO)).hasMessageContaining("sigma2 must be > 0")
                .hasMessageContaining("0/1");
        assertThatThrownBy(() -> DiscreteGaussian.withSigma2(0, 1)).hasMessageContaining("sigma2")
                .hasMessageContaining("0/1");
        assertThatThrownBy(() -> DiscreteGaussian.withSigma2(-1, 1)).hasMessageContaining("-1/1");
        assertThatThrownBy(() -> DiscreteGaussian.withSigma2(1, 0)).hasMessageContaining("1/0");
        Rational huge = Rational.of(BigInteger.ONE.shiftLeft(62), BigInteger.ONE);
        assertThatThrownBy(() -> new DiscreteGaussian(huge)).hasMessageContaining("sigma2")
                .hasMessageContaining("< 2^62").hasMessageContaining("4611686018427387904");
        assertThat(DiscreteGaussian.withSigma2((1L << 62) - 1, 1).proposalScale()).isEqualTo((1L << 31));
    }
}
