package io.privacygateway.mechanisms.central.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.testing.ScriptedWords;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/**
 * Bernoulli(e^{−γ}) where its operands leave the long range, with scripted words that must all be drawn
 * (mutants found by PIT; docs/mutation-testing.md). Draw tree: {@code atMostOne(num, den)} draws
 * Bernoulli{@code (num/(den·k))} for k = 1, 2, … (none when {@code num = den·k}) and returns whether the first
 * failure came at an odd k; a whole step {@code e^{-1}} fails on an odd word at k = 2.
 */
class BernoulliExpWideOperandsStayExactTest {
    private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

    /**
     * γ = 2^64/2^62 = 4 (a numerator beyond the long range, a denominator inside it): four whole steps, the
     * first of which fails here, so false after one word (read as a long the numerator would be 0, i.e.
     * γ = 0 and true).
     */
    @Test
    void aNumeratorBeyondSixtyThreeBitsIsNotTruncated() {
        ScriptedWords words = new ScriptedWords(1L);
        assertThat(BernoulliExp.sample(words, TWO_64, BigInteger.ONE.shiftLeft(62))).isFalse();
        assertThat(words.drawn()).isEqualTo(1);
    }

    /**
     * γ = 1/2^64: k = 1 draws a uniform integer below 2^64 (65 bits: two words, shifted right by 63); the
     * words (0, 2^63) give 1, not below 1: the first failure is at k = 1, so true.
     */
    @Test
    void aDenominatorBeyondSixtyThreeBitsIsNotTruncated() {
        ScriptedWords words = new ScriptedWords(0L, Long.MIN_VALUE);
        assertThat(BernoulliExp.sample(words, BigInteger.ONE, TWO_64)).isTrue();
        assertThat(words.drawn()).isEqualTo(2);
    }

    /**
     * γ = 2^62/2^62 on the long path: k = 1 is certain; den·k overflows a long from k = 2 on (2^63 and 3·2^62
     * wrap negative, 2^64 wraps to 0, 5·2^62 wraps to the positive 2^62), so every later step must use the
     * exact product. ScriptedWords: k = 2 and k = 3 one word each (0: success), k = 4 two words (0, 0: success), k = 5
     * two words giving 2^62, not below the numerator: failure at odd k, true.
     */
    @Test
    void denominatorTimesKIsNeverTakenFromAWrappedLong() {
        long[] script = {0L, 0L, 0L, 0L, 1L << 61, 0L};
        ScriptedWords words = new ScriptedWords(script);
        assertThat(BernoulliExp.sample(words, 1L << 62, 1L << 62)).isTrue();
        assertThat(words.drawn()).isEqualTo(script.length);
    }

    /**
     * a·b = 2^63 (fits in 64 unsigned bits, not in a signed long) over c = 2^62: γ = 2, whose first whole step
     * fails here (false after one word).
     */
    @Test
    void aProductOfExactlyTwoToTheSixtyThreeIsFormedExactly() {
        ScriptedWords words = new ScriptedWords(1L);
        assertThat(BernoulliExp.sampleProduct(words, 1L << 32, 1L << 31, 1L << 62)).isFalse();
        assertThat(words.drawn()).isEqualTo(1);
        // the same γ = 2 with both whole steps succeeding, then e^{-0}: true after four words
        ScriptedWords twice = new ScriptedWords(0L, 2L, 0L, 2L);
        assertThat(BernoulliExp.sampleProduct(twice, 1L << 32, 1L << 31, 1L << 62)).isTrue();
        assertThat(twice.drawn()).isEqualTo(4);
    }

    /** {@link BernoulliExp#probability()} is e^{−γ} for γ = 3/2. */
    @Test
    void probabilityIsExpOfMinusGamma() {
        assertThat(new BernoulliExp(io.privacygateway.mechanisms.random.Rational.of(3, 2)).probability())
                .isEqualTo(Math.exp(-1.5));
    }

    /**
     * A denominator of exactly {@link BernoulliExp#MAX_BITS} bits is accepted: γ = 1/2^4095 draws one uniform
     * integer below 2^4095 (64 words); the words (1, 0, …, 0) give 2^4032, not below 1, so the first failure is at
     * k = 1 and the answer is true.
     */
    @Test
    void aDenominatorOfExactlyMaxBitsIsAcceptedAndSampled() {
        long[] script = new long[64];
        script[0] = 1L;
        ScriptedWords words = new ScriptedWords(script);
        BigInteger den = BigInteger.ONE.shiftLeft(BernoulliExp.MAX_BITS - 1);
        assertThat(new BernoulliExp(io.privacygateway.mechanisms.random.Rational.of(BigInteger.ONE, den))
                .sample(words)).isTrue();
        assertThat(words.drawn()).isEqualTo(64);
    }

    /** A zero denominator is refused by name also when the numerator is beyond the long range. */
    @Test
    void aZeroDenominatorIsRefusedWhateverTheNumerator() {
        assertThatThrownBy(() -> BernoulliExp.sample(new ScriptedWords(), TWO_64, BigInteger.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("need num >= 0 and den >= 1, got 18446744073709551616/0");
    }
}
