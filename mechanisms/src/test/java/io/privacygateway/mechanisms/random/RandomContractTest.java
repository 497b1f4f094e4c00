package io.privacygateway.mechanisms.random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.security.SecureRandom;
import org.junit.jupiter.api.Test;

/** Boundaries and accessors of the exact-probability value types and word sources. */
class RandomContractTest {
    @Test
    void dyadicProbabilityBoundaries() {
        assertThat(new DyadicProbability(0).value()).isZero();
        assertThat(new DyadicProbability(DyadicProbability.ONE).value()).isEqualTo(1.0);
        assertThatThrownBy(() -> new DyadicProbability(DyadicProbability.ONE + 1)).hasMessageContaining("9007199254740993");
        assertThatThrownBy(() -> new DyadicProbability(-1)).hasMessageContaining("got -1");
        assertThat(DyadicProbability.floor(0.0)).isEqualTo(DyadicProbability.ZERO);
        assertThat(DyadicProbability.ceil(1.0).numerator()).isEqualTo(DyadicProbability.ONE);
        assertThatThrownBy(() -> DyadicProbability.floor(-0x1p-60)).hasMessageContaining("[0, 1]");
        assertThatThrownBy(() -> DyadicProbability.ceil(Math.nextUp(1.0))).hasMessageContaining("[0, 1]");
        DyadicProbability p = new DyadicProbability(3);
        assertThat(p.complement().numerator()).isEqualTo(DyadicProbability.ONE - 3);
        assertThat(p.exact()).isEqualByComparingTo(new BigDecimal(3).divide(new BigDecimal(DyadicProbability.ONE)));
        assertThat(DyadicProbability.HALF.exact()).isEqualByComparingTo("0.5");
        assertThat(DyadicProbability.floor(1.0 / 3).numerator()).isEqualTo((long) Math.floor(DyadicProbability.ONE / 3.0));
        assertThat(DyadicProbability.ceil(1.0 / 3).numerator() - DyadicProbability.floor(1.0 / 3).numerator()).isEqualTo(1);
    }

    @Test
    void rationalBoundaries() {
        assertThat(Rational.of(0, 5)).isEqualTo(Rational.ZERO);
        assertThat(Rational.of(0, 5).denominator()).isEqualTo(BigInteger.ONE);
        assertThat(Rational.of(6, 4)).isEqualTo(Rational.of(3, 2));
        assertThatThrownBy(() -> Rational.of(1, 0)).hasMessageContaining("denominator must be >= 1, got 0");
        assertThatThrownBy(() -> Rational.of(-1, 2)).hasMessageContaining("numerator must be >= 0, got -1");
        assertThatThrownBy(() -> new Rational(null, BigInteger.ONE)).hasMessageContaining("required");
        // ratioAtMost is "<=": equality holds
        assertThat(Rational.of(3, 1).ratioAtMost(Rational.of(1, 1), new BigDecimal(3))).isTrue();
        assertThat(Rational.of(3, 1).ratioAtMost(Rational.of(1, 1), new BigDecimal("2.999"))).isFalse();
        assertThat(Rational.of(1, 3).compareTo(Rational.of(1, 2))).isNegative();
        assertThat(Rational.of(2, 3).toString()).isEqualTo("2/3");
        assertThat(Rational.of(1, 4).doubleValue()).isEqualTo(0.25);
        assertThat(Rational.of(1, 2).divide(3)).isEqualTo(Rational.of(1, 6));
        assertThat(Rational.dyadic(1L << 52)).isEqualTo(Rational.of(1, 2));
    }

    @Test
    void uniformLongRejectsTheTopPartialBlockExactly() {
        long n = 3;
        long limit = Long.MAX_VALUE - (Long.MAX_VALUE % n); // words >= limit (after >>> 1) are rejected
        long[] words = {limit << 1, (limit - 1) << 1};
        int[] i = {0};
        assertThat(ExactSampler.uniformLong(() -> words[i[0]++], n)).isEqualTo((limit - 1) % n);
        assertThat(i[0]).isEqualTo(2);
        assertThat(ExactSampler.uniformLong(() -> 0xFFL, 16)).isEqualTo(15); // power of two: low bits
        assertThatThrownBy(() -> ExactSampler.uniformLong(() -> 0L, -2)).hasMessageContaining("got -2");
        assertThat(ExactSampler.uniformDouble(() -> -1L)).isEqualTo(1 - 0x1p-53);
        assertThat(ExactSampler.uniformDouble(() -> 1L << 11)).isEqualTo(0x1p-53);
        assertThat(ExactSampler.uniformDouble(() -> 0L)).isZero();
    }

    @Test
    void wordSources() throws Exception {
        SecureRandom a = SecureRandom.getInstance("SHA1PRNG");
        a.setSeed(42);
        SecureRandom b = SecureRandom.getInstance("SHA1PRNG");
        b.setSeed(42);
        SecureRandomBits bits = new SecureRandomBits(a);
        for (int i = 0; i < 10; i++) {
            assertThat(bits.nextLong()).isEqualTo(b.nextLong());
        }
        assertThat(new SecureRandomBits().nextLong()).isNotNull();
        SeededRandomBits s = new SeededRandomBits(5);
        SeededRandomBits t = new SeededRandomBits(5);
        assertThat(s.provider().nextLong()).isEqualTo(t.nextLong());
    }
}
