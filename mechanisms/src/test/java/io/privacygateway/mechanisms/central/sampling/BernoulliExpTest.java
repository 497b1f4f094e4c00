package io.privacygateway.mechanisms.central.sampling;

import static io.privacygateway.mechanisms.central.sampling.DistributionChecks.FALSE_FAILURE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import java.math.BigInteger;
import org.apache.commons.statistics.inference.BinomialTest;
import org.junit.jupiter.api.Test;

/** Frequency tests fail by chance with probability at most 1e-6 each (two-sided exact binomial tests). */
class BernoulliExpTest {
    private static final int N = 200_000;

    private static void assertFrequency(String label, RandomBits bits, java.util.function.BooleanSupplier draw,
            double p) {
        assertFrequency(label, bits, draw, p, N);
    }

    private static void assertFrequency(String label, RandomBits bits, java.util.function.BooleanSupplier draw,
            double p, int n) {
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (draw.getAsBoolean()) {
                k++;
            }
        }
        double pValue = BinomialTest.withDefaults().test(n, k, p).getPValue();
        assertThat(pValue).as("%s: %d of %d, p=%s", label, k, n, p).isGreaterThan(FALSE_FAILURE);
    }

    @Test
    void frequenciesMatchExpMinusGamma() {
        RandomBits bits = new SeededRandomBits(11);
        long[][] gammas = {{1, 1000}, {1, 3}, {1, 2}, {1, 1}, {3, 2}, {7, 3}, {5, 1}, {999_999, 100_000}};
        for (long[] g : gammas) {
            BernoulliExp b = new BernoulliExp(Rational.of(g[0], g[1]));
            double p = Math.exp(-(double) g[0] / g[1]);
            assertThat(b.probability()).isCloseTo(p, org.assertj.core.data.Offset.offset(1e-15));
            assertFrequency("γ=" + g[0] + "/" + g[1], bits, () -> b.sample(bits), p);
        }
    }

    @Test
    void bigIntegerPathHasTheSameDistribution() {
        RandomBits bits = new SeededRandomBits(12);
        // γ = (3·2^70 + 1) / 2^71 ≈ 1.5 and γ = 2^70/(3·2^70): both beyond the long fast path
        BigInteger two70 = BigInteger.ONE.shiftLeft(70);
        Rational g1 = Rational.of(two70.multiply(BigInteger.valueOf(3)).add(BigInteger.ONE), two70.shiftLeft(1));
        Rational g2 = Rational.of(two70, two70.multiply(BigInteger.valueOf(3)));
        assertFrequency("γ≈3/2 (BigInteger)", bits, () -> new BernoulliExp(g1).sample(bits), Math.exp(-1.5), 50_000);
        assertFrequency("γ=1/3 (BigInteger)", bits, () -> new BernoulliExp(g2).sample(bits), Math.exp(-1.0 / 3),
                50_000);
        // a·b = 2^32·(2^32 + 1) overflows a long; γ = a·b/(2^63 − 1) ≈ 2
        double gamma = (0x1p64 + 0x1p32) / 0x1p63;
        assertFrequency("a·b/c product overflow", bits,
                () -> BernoulliExp.sampleProduct(bits, 1L << 32, (1L << 32) + 1, Long.MAX_VALUE), Math.exp(-gamma),
                50_000);
    }

    @Test
    void extremesAreExact() {
        RandomBits bits = new SeededRandomBits(13);
        BernoulliExp zero = new BernoulliExp(Rational.ZERO);
        for (int i = 0; i < 1000; i++) {
            assertThat(zero.sample(bits)).isTrue();
        }
        // γ = 60: probability e^-60 ≈ 9e-27; 10^4 draws are all false except with probability < 1e-22
        BernoulliExp large = new BernoulliExp(Rational.of(60, 1));
        for (int i = 0; i < 10_000; i++) {
            assertThat(large.sample(bits)).isFalse();
        }
        // a huge γ terminates (the unit loop stops at its first failure)
        BernoulliExp huge = new BernoulliExp(Rational.of(BigInteger.ONE.shiftLeft(4000), BigInteger.ONE));
        assertThat(huge.sample(bits)).isFalse();
    }

    @Test
    void scriptedWordsFollowTheAlgorithm() {
        // γ = 1/2: A_1 = Bernoulli(1/2) via uniformLong(bits, 2) = low bit of the word (power of two path).
        // word 0 -> A_1 = (0 < 1) = true -> K = 2; A_2 = Bernoulli(1/4): uniformLong(4) = 3 -> false: K = 2 even -> 0
        long[] words = {0L, 3L};
        int[] i = {0};
        assertThat(BernoulliExp.sample(() -> words[i[0]++], 1, 2)).isFalse();
        assertThat(i[0]).isEqualTo(2);
        // word 1 -> A_1 = (1 < 1) = false: K = 1 odd -> 1
        assertThat(BernoulliExp.sample(() -> 1L, 1, 2)).isTrue();
    }

    @Test
    void validation() {
        assertThatThrownBy(() -> new BernoulliExp(null)).hasMessageContaining("gamma");
        Rational tooLong = Rational.of(BigInteger.ONE.shiftLeft(5000).add(BigInteger.ONE), BigInteger.ONE);
        assertThatThrownBy(() -> new BernoulliExp(tooLong)).hasMessageContaining("gamma")
                .hasMessageContaining("5001");
        assertThatThrownBy(() -> BernoulliExp.sample(new SeededRandomBits(1), -1, 2)).hasMessageContaining("-1/2");
        assertThatThrownBy(() -> BernoulliExp.sample(new SeededRandomBits(1), 1, 0)).hasMessageContaining("1/0");
    }

    @Test
    void dyadicBernoulliIsExactForTinyAndOrdinaryDoubles() {
        RandomBits bits = new SeededRandomBits(14);
        for (double p : new double[] {0.3, 0.05, 1.0 / 3, 0.999}) {
            DyadicBernoulli b = new DyadicBernoulli("omega", p);
            assertFrequency("dyadic p=" + p, bits, () -> b.sample(bits), p);
        }
        // p = 2^-64·(1 + 2^-52): first word must be 0 (prob 2^-64) -> false for any first word != 0
        DyadicBernoulli tiny = new DyadicBernoulli("omega", 1e-300);
        assertThat(tiny.sample(() -> 1L)).isFalse();
        // the all-zero word sequence U = 0 < p: true
        assertThat(tiny.sample(() -> 0L)).isTrue();
        // p = 0.5: first word compared with 0x8000...: below -> true, equal -> continue, then false
        DyadicBernoulli half = new DyadicBernoulli("omega", 0.5);
        assertThat(half.sample(() -> 0x7FFF_FFFF_FFFF_FFFFL)).isTrue();
        assertThat(half.sample(() -> Long.MIN_VALUE)).isFalse();
        assertThat(new DyadicBernoulli("p", 0.0).sample(() -> 0L)).isFalse();
        assertThat(new DyadicBernoulli("p", 1.0).sample(() -> -1L)).isTrue();
        assertThat(new DyadicBernoulli("p", Double.MIN_VALUE).sample(() -> 0L)).isTrue();
        assertThatThrownBy(() -> new DyadicBernoulli("omega", Double.NaN)).hasMessageContaining("omega")
                .hasMessageContaining("NaN");
        assertThatThrownBy(() -> new DyadicBernoulli("omega", 1.5)).hasMessageContaining("1.5");
        assertThatThrownBy(() -> new DyadicBernoulli("omega", -0.1)).hasMessageContaining("-0.1");
    }

    @Test
    void uniformBigIntegerIsUniform() {
        RandomBits bits = new SeededRandomBits(15);
        BigInteger n = BigInteger.ONE.shiftLeft(70).add(BigInteger.valueOf(5)); // 2^70 + 5
        BigInteger third = n.divide(BigInteger.valueOf(3));
        int low = 0;
        for (int i = 0; i < 30_000; i++) {
            BigInteger u = ExactBits.uniformBigInteger(bits, n);
            assertThat(u.signum()).isGreaterThanOrEqualTo(0);
            assertThat(u).isLessThan(n);
            if (u.compareTo(third) < 0) {
                low++;
            }
        }
        double p = third.doubleValue() / n.doubleValue();
        assertThat(BinomialTest.withDefaults().test(30_000, low, p).getPValue()).isGreaterThan(FALSE_FAILURE);
        assertThatThrownBy(() -> ExactBits.uniformBigInteger(bits, BigInteger.ZERO)).hasMessageContaining("0");
        assertThatThrownBy(() -> ExactBits.bernoulli(bits, 3, 2)).hasMessageContaining("3/2");
    }
}
