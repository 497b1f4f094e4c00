package io.privacygateway.mechanisms.central.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.testing.ScriptedWords;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/**
 * The exact bit-level draws at their boundaries, with scripted words (written against the mutants PIT found
 * unchecked; docs/mutation-testing.md): a uniform value landing exactly on the Bernoulli threshold or on the
 * rejection limit, numerators of 0 and of the whole denominator, and the word 0.
 */
class ExactBitsThresholdsAndRejectionLimitTest {
    /** Words in order; fails the test if more are drawn than scripted. */
    /** A word from which {@code ExactSampler.uniformLong} (n not a power of two) takes {@code v}: {@code x = w >>> 1}. */
    private static long uniform(long v) {
        return v << 1;
    }

    private static final BigInteger TWO_64_PLUS_1 = BigInteger.ONE.shiftLeft(64).add(BigInteger.ONE);

    @Test
    void aFairCoinIsTheSignBit() {
        assertThat(ExactBits.fairCoin(new ScriptedWords(0L))).isFalse();
        assertThat(ExactBits.fairCoin(new ScriptedWords(Long.MAX_VALUE))).isFalse();
        assertThat(ExactBits.fairCoin(new ScriptedWords(-1L))).isTrue();
        assertThat(ExactBits.fairCoin(new ScriptedWords(Long.MIN_VALUE))).isTrue();
    }

    @Test
    void unsignedReadsTheWordAsAnUnsigned64BitInteger() {
        assertThat(ExactBits.unsigned(0L)).isEqualTo(BigInteger.ZERO);
        assertThat(ExactBits.unsigned(1L)).isEqualTo(BigInteger.ONE);
        assertThat(ExactBits.unsigned(-1L)).isEqualTo(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE));
    }

    @Test
    void aUniformBigIntegerBelowTheLongRangeUsesTheExactLongSampler() {
        assertThat(ExactBits.uniformBigInteger(new ScriptedWords(uniform(7)), BigInteger.TEN)).isEqualTo(BigInteger.valueOf(7));
        assertThatThrownBy(() -> ExactBits.uniformBigInteger(new ScriptedWords(), BigInteger.ZERO))
                .hasMessage("n must be an integer >= 1, got 0");
        assertThatThrownBy(() -> ExactBits.uniformBigInteger(new ScriptedWords(), null)).hasMessageContaining("n must be");
    }

    @Test
    void aUniformBigIntegerRejectsAValueEqualToN() {
        // n = 2^64 + 1 has 65 bits: two words, shifted right by 63; (2^63, 2^63) gives exactly n, rejected
        long[] exactlyN = {Long.MIN_VALUE, Long.MIN_VALUE};
        BigInteger r = ExactBits.uniformBigInteger(new ScriptedWords(exactlyN[0], exactlyN[1], 0L, 0L), TWO_64_PLUS_1);
        assertThat(r).isEqualTo(BigInteger.ZERO);
        // one below n is accepted: (2^63, 0) gives 2^64
        assertThat(ExactBits.uniformBigInteger(new ScriptedWords(Long.MIN_VALUE, 0L), TWO_64_PLUS_1))
                .isEqualTo(BigInteger.ONE.shiftLeft(64));
    }

    @Test
    void aLongBernoulliIsUniformBelowTheNumerator() {
        assertThat(ExactBits.bernoulli(new ScriptedWords(uniform(2)), 3, 10)).isTrue();
        assertThat(ExactBits.bernoulli(new ScriptedWords(uniform(3)), 3, 10)).isFalse(); // exactly on the threshold
        assertThat(ExactBits.bernoulli(new ScriptedWords(), 0, 1)).isFalse();
        assertThat(ExactBits.bernoulli(new ScriptedWords(), 1, 1)).isTrue();
        assertThat(ExactBits.bernoulli(new ScriptedWords(), 0, 5)).isFalse();
        assertThat(ExactBits.bernoulli(new ScriptedWords(), 5, 5)).isTrue();
        assertThatThrownBy(() -> ExactBits.bernoulli(new ScriptedWords(), -1, 5)).hasMessageContaining("need 0 <= num <= den");
        assertThatThrownBy(() -> ExactBits.bernoulli(new ScriptedWords(), 6, 5)).hasMessageContaining("need 0 <= num <= den");
        assertThatThrownBy(() -> ExactBits.bernoulli(new ScriptedWords(), 0, 0)).hasMessageContaining("need 0 <= num <= den");
    }

    @Test
    void aBigIntegerBernoulliIsUniformBelowTheNumerator() {
        BigInteger ten = BigInteger.TEN;
        assertThat(ExactBits.bernoulli(new ScriptedWords(uniform(2)), BigInteger.valueOf(3), ten)).isTrue();
        assertThat(ExactBits.bernoulli(new ScriptedWords(uniform(3)), BigInteger.valueOf(3), ten)).isFalse();
        assertThat(ExactBits.bernoulli(new ScriptedWords(), BigInteger.ZERO, BigInteger.ONE)).isFalse();
        assertThat(ExactBits.bernoulli(new ScriptedWords(), BigInteger.ONE, BigInteger.ONE)).isTrue();
        assertThat(ExactBits.bernoulli(new ScriptedWords(), ten, ten)).isTrue();
        assertThatThrownBy(() -> ExactBits.bernoulli(new ScriptedWords(), BigInteger.ONE.negate(), ten)).hasMessageContaining("need 0");
        assertThatThrownBy(() -> ExactBits.bernoulli(new ScriptedWords(), BigInteger.ZERO, BigInteger.ZERO)).hasMessageContaining("need 0");
        assertThatThrownBy(() -> ExactBits.bernoulli(new ScriptedWords(), BigInteger.valueOf(11), ten)).hasMessageContaining("need 0");
        // beyond the long range: a uniform value of exactly the numerator (5) is not below it
        BigInteger five = BigInteger.valueOf(5);
        assertThat(ExactBits.bernoulli(new ScriptedWords(2L, Long.MIN_VALUE), five, TWO_64_PLUS_1)).isFalse(); // r = 5
        assertThat(ExactBits.bernoulli(new ScriptedWords(2L, 0L), five, TWO_64_PLUS_1)).isTrue();              // r = 4
    }
}
