package io.privacygateway.mechanisms.central.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.testing.ScriptedWords;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/**
 * The exact samplers' parameters, validation and deterministic helpers at their edges, and two behaviours
 * pinned by scripted words (written against the mutants PIT found unchecked; docs/mutation-testing.md).
 */
class SamplerParametersAndHelpersAtTheirLimitsTest {
    private static long uniform(long v) {
        return v << 1;
    }

    // ---- discrete Gaussian -------------------------------------------------------------------------------

    @Test
    void gaussianVarianceOfExactlySixtyTwoBitsIsAccepted() {
        long big = (1L << 61) + 1; // 62 bits
        assertThat(DiscreteGaussian.withSigma2(big, 1).sigma2()).isEqualTo(Rational.of(big, 1));
        assertThatThrownBy(() -> DiscreteGaussian.withSigma2(1L << 62, 1)).hasMessageContaining("< 2^62");
        assertThatThrownBy(() -> DiscreteGaussian.withSigma2(1, 1L << 62)).hasMessageContaining("< 2^62");
        assertThatThrownBy(() -> DiscreteGaussian.withSigma2(0, 1)).hasMessage("sigma2 must be a positive fraction, got 0/1");
        assertThatThrownBy(() -> DiscreteGaussian.withSigma2(1, 0)).hasMessage("sigma2 must be a positive fraction, got 1/0");
        assertThat(DiscreteGaussian.withSigma2(9, 4).toString()).isEqualTo("DiscreteGaussian(sigma2=" + Rational.of(9, 4) + ")");
    }

    @Test
    void integerSquareRootsAreExactUpToTheLargestLong() {
        for (long n = 0; n <= 2_000; n++) {
            long r = DiscreteGaussian.isqrt(n);
            assertThat(r * r).isLessThanOrEqualTo(n);
            assertThat((r + 1) * (r + 1)).isGreaterThan(n);
        }
        long top = 3_037_000_499L; // ⌊√(2^63 − 1)⌋
        assertThat(DiscreteGaussian.isqrt(Long.MAX_VALUE)).isEqualTo(top);
        for (long k = top - 3_000; k <= top; k++) { // squares the double square root rounds either way
            assertThat(DiscreteGaussian.isqrt(k * k)).as("isqrt(%d²)", k).isEqualTo(k);
            assertThat(DiscreteGaussian.isqrt(k * k - 1)).as("isqrt(%d² − 1)", k).isEqualTo(k - 1);
        }
        assertThat(DiscreteGaussian.multiplyOrMinusOne(0, 5)).isZero();
        assertThat(DiscreteGaussian.multiplyOrMinusOne(1L << 32, 1L << 31)).isEqualTo(-1);
        assertThat(DiscreteGaussian.multiplyOrMinusOne(3, 7)).isEqualTo(21);
    }

    /**
     * σ² = 2^40: the acceptance denominator 2pqt² (≈ 2^81) does not fit a long, so acceptance runs in exact
     * big-integer arithmetic. The mean absolute value of a discrete Gaussian of this width is σ·√(2/π) ≈ 0.798σ
     * (to 1e-12); 4,000 seeded samples estimate it with standard error ≈ 0.0095σ, and the band ±0.04σ is 4.2
     * standard errors (false failure < 1e-4 for any seed; the seed is fixed). A sampler that accepted with a
     * truncated denominator would concentrate the samples near ±σ (mean ≈ σ).
     */
    @Test
    void aWideGaussianWhoseAcceptanceNeedsBigIntegersHasTheRightSpread() {
        DiscreteGaussian g = DiscreteGaussian.withSigma2(1L << 40, 1);
        RandomBits bits = new SeededRandomBits(20261124L);
        double sum = 0;
        int n = 4_000;
        for (int i = 0; i < n; i++) {
            sum += Math.abs((double) g.sample(bits));
        }
        double sigma = Math.sqrt(0x1p40);
        assertThat(sum / n / sigma).isCloseTo(Math.sqrt(2 / Math.PI), offset(0.04));
    }

    // ---- discrete Laplace --------------------------------------------------------------------------------

    @Test
    void laplaceScaleOfExactlySixtyTwoBitsIsAcceptedAndParametersAreNamed() {
        Rational s = Rational.of(BigInteger.ONE.shiftLeft(61).add(BigInteger.ONE), BigInteger.ONE.shiftLeft(30));
        assertThat(new DiscreteLaplace(s).scale()).isEqualTo(s);
        assertThatThrownBy(() -> new DiscreteLaplace(Rational.of(BigInteger.ONE.shiftLeft(62).add(BigInteger.ONE),
                BigInteger.ONE.shiftLeft(30)))).hasMessageContaining("< 2^62");
        assertThatThrownBy(() -> DiscreteLaplace.withScale(0, 1)).hasMessage("scale must be a positive fraction, got 0/1");
        assertThatThrownBy(() -> DiscreteLaplace.withScale(1, 0)).hasMessage("scale must be a positive fraction, got 1/0");
        assertThat(DiscreteLaplace.withScale(3, 2).toString()).isEqualTo("DiscreteLaplace(scale=" + Rational.of(3, 2) + ")");
    }

    /**
     * Scale 1 (a = b = 1): each attempt draws u (one word, always 0), then v as a run of e^{-1} successes, then
     * the sign. "−0" is rejected and the attempt repeated; the second attempt here gives v = 1 and sign +.
     */
    @Test
    void minusZeroIsRejectedAndTheSignIsTheFairCoin() {
        long[] script = {
            0L, 1L, -1L,              // u = 0; v: the first e^{-1} step fails at k = 2 → v = 0; sign − → "−0", rejected
            0L, 0L, uniform(1), 1L, 0L // u = 0; v: one success (k = 2 even word, k = 3 fails), then a failure → v = 1; +
        };
        assertThat(DiscreteLaplace.withScale(1, 1).sample(new ScriptedWords(script))).isEqualTo(1);
    }

    @Test
    void laplaceCdfAddsUpItsPmf() {
        DiscreteLaplace l = DiscreteLaplace.withScale(3, 2);
        double acc = 0;
        for (long k = -200; k <= 5; k++) {
            acc += l.pmf(k);
            assertThat(l.cdf(k)).as("cdf(%d)", k).isCloseTo(acc, offset(1e-12));
        }
        assertThat(l.cdf(0)).isCloseTo(1 / (1 + l.beta()), offset(1e-15));
    }

    // ---- lattice balls, norms, rounding helpers ---------------------------------------------------------

    @Test
    void latticeBallsReportTheirParameters() {
        UniformBallLattice l1 = UniformBallLattice.of(LqNorm.L1, 3, 5);
        assertThat(l1.norm()).isEqualTo(LqNorm.L1);
        assertThat(l1.bound()).isEqualTo(5);
        assertThat(l1.proposalSigma2()).isNull();
        double x = 3.0 / 5;
        double asinh = Math.log(x + Math.sqrt(x * x + 1));
        assertThat(l1.proposalScale().doubleValue()).isCloseTo(1 / asinh, offset(1e-8));
        assertThat(l1.toString()).isEqualTo("UniformBallLattice(L1, d=3, N=5)");
        UniformBallLattice l2 = UniformBallLattice.l2(2, 5);
        assertThat(l2.proposalScale()).isNull();
        assertThat(l2.proposalSigma2()).isNotNull();
        assertThat(l2.toString()).isEqualTo("UniformBallLattice(L2, d=2, M=5)");
        assertThat(l2.size()).isEqualTo(BigInteger.valueOf(21)); // 25 points of [−2, 2]² minus the 4 corners
        assertThat(UniformBallLattice.l2(3, 2).size()).isEqualTo(BigInteger.valueOf(19)); // 1 + 6 + 12
        assertThatThrownBy(() -> UniformBallLattice.l2(50, 10_000).size()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void latticeMembershipChecksLengthAndEveryCoordinate() {
        UniformBallLattice cube = UniformBallLattice.lInf(2, 3);
        assertThat(cube.contains(new long[] {3, -3})).isTrue();
        assertThat(cube.contains(new long[] {4, 0})).isFalse();
        assertThat(cube.contains(new long[] {0, -4})).isFalse();
        assertThat(cube.contains(new long[] {0, 0, 0})).isFalse();
        UniformBallLattice ball = UniformBallLattice.l2(2, 5);
        assertThat(ball.contains(new long[] {2, 1})).isTrue();
        assertThat(ball.contains(new long[] {2, 2})).isFalse();
        assertThat(ball.contains(new long[] {1})).isFalse();
    }

    /** The proposal variance minimises the expected rejection cost d·ln Z(σ²) + M/(2σ²), also for large d. */
    @Test
    void theProposalVarianceIsTheMinimiserEvenWhenDIsLarge() {
        for (int d : new int[] {2, 64, 4096}) {
            long m = 4L * d;
            double s2 = UniformBallLattice.bestSigma2(d, m);
            double f = cost(d, m, s2);
            assertThat(f).as("d=%d", d).isLessThanOrEqualTo(cost(d, m, s2 * 1.05) + 1e-9);
            assertThat(f).as("d=%d", d).isLessThanOrEqualTo(cost(d, m, s2 / 1.05) + 1e-9);
        }
    }

    /**
     * The proposal variance is a public design choice that replicas must agree on, so its bits are computed with
     * StrictMath (the same on every JVM) and pinned here: 80 golden-section steps, ties between the two interior
     * points moving the upper end. One step more, or ties moving the lower end, changes these values in their
     * last digits (the cost is flat there, so either would be as good; the pin is about agreement).
     */
    @Test
    void theProposalVarianceBitsArePinned() {
        assertThat(UniformBallLattice.bestSigma2(1, 2)).isEqualTo(1.999999940435057);
        assertThat(UniformBallLattice.bestSigma2(2, 5)).isEqualTo(2.49999995015481);
        assertThat(UniformBallLattice.bestSigma2(3, 5)).isEqualTo(1.6666665968554222);
        assertThat(UniformBallLattice.bestSigma2(4096, 2306)).isEqualTo(0.5633593599801071);
    }

    private static double cost(int d, long m, double s2) {
        return d * Math.log(DiscreteGaussian.computeNormaliser(s2)) + m / (2 * s2);
    }

    @Test
    void eachNormReportsItsQItsFactorsAndItsValue() {
        assertThat(LqNorm.L1.q()).isEqualTo(1.0);
        assertThat(LqNorm.L2.q()).isEqualTo(2.0);
        assertThat(LqNorm.LINF.q()).isInfinite();
        assertThat(LqNorm.L1.l1Factor(9)).isEqualTo(1.0);
        assertThat(LqNorm.L2.l1Factor(9)).isEqualTo(Math.nextUp(3.0));
        assertThat(LqNorm.LINF.l1Factor(9)).isEqualTo(9.0);
        assertThat(LqNorm.L1.halfCubeDiagonal(9)).isEqualTo(4.5);
        assertThat(LqNorm.L2.halfCubeDiagonal(9)).isEqualTo(Math.nextUp(3.0) / 2);
        assertThat(LqNorm.LINF.halfCubeDiagonal(9)).isEqualTo(0.5);
        long[] z = {3, -4};
        assertThat(LqNorm.L1.norm(z)).isEqualTo(7.0);
        assertThat(LqNorm.L2.norm(z)).isEqualTo(5.0);
        assertThat(LqNorm.LINF.norm(z)).isEqualTo(4.0);
    }

    @Test
    void dyadicCeilingsRoundUpAndDecimalsAreExact() {
        assertThat(Rationals.ceilDyadic("x", 0.3, 8)).isEqualTo(Rational.of(77, 256)); // ⌈0.3·2^9⌉/2^9
        assertThat(Rationals.ceilDyadic("x", 3.0, 31)).isEqualTo(Rational.of(3, 1));
        assertThat(Rationals.ceilDyadic("x", 1000.5, 4)).isEqualTo(Rational.of(1001, 1)); // above 2^bits: integers
        assertThat(Rationals.toBigDecimal(Rational.of(1, 3), 5)).isEqualByComparingTo("0.33333");
        DyadicBernoulli coin = new DyadicBernoulli("p", 0.375);
        assertThat(coin.probability()).isEqualTo(0.375);
        assertThat(coin.exact()).isEqualByComparingTo(new BigDecimal("0.375"));
    }
}
