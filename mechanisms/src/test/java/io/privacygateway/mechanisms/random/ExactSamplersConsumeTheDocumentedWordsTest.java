package io.privacygateway.mechanisms.random;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Word-level behaviour of the exact samplers that the law tests cannot see: which bits a draw uses. */
class ExactSamplersConsumeTheDocumentedWordsTest {

    /** For a power of two n the uniform draw is the word's low bits (one word, no shift, no rejection). */
    @Test
    void aPowerOfTwoRangeTakesTheLowBitsOfOneWord() {
        long[] used = {0};
        RandomBits word = () -> {
            used[0]++;
            return 0b1011L;
        };
        assertThat(ExactSampler.uniformLong(word, 2)).isEqualTo(1);
        assertThat(ExactSampler.uniformLong(word, 4)).isEqualTo(3);
        assertThat(ExactSampler.uniformLong(word, 16)).isEqualTo(11);
        assertThat(ExactSampler.uniformLong(() -> -1L, 1L << 62)).isEqualTo((1L << 62) - 1);
        assertThat(used[0]).isEqualTo(3);
    }

    /** The secret draws of a word source are the static samplers on the same words. */
    @Test
    void secretDrawsAreTheStaticSamplersOnTheSameWords() {
        for (long w : new long[] {0L, 1L << 40, -1L, 0x5555_5555_5555_5555L}) {
            for (long numerator : new long[] {0, 1, 1L << 20, (1L << 30) - 1}) {
                SecretDraws draws = ExactSampler.draws(() -> w);
                assertThat(draws.bernoulli(numerator, 30)).isEqualTo(ExactSampler.bernoulli(() -> w, numerator, 30));
            }
        }
        for (long seed = 1; seed <= 20; seed++) {
            assertThat(ExactSampler.draws(new SeededRandomBits(seed)).uniformInt(7))
                    .isEqualTo(ExactSampler.uniformInt(new SeededRandomBits(seed), 7));
        }
        assertThat(ExactSampler.draws(() -> 0L).bernoulli((1L << 30) - 1, 30)).isTrue();
    }

    /** The exact sum of two fractions (used by the piecewise randomizer's law). */
    @Test
    void rationalsAddExactly() {
        assertThat(Rational.of(1, 3).add(Rational.of(1, 6)).compareTo(Rational.of(1, 2))).isZero();
        assertThat(Rational.ZERO.add(Rational.of(2, 5)).compareTo(Rational.of(4, 10))).isZero();
    }
}
