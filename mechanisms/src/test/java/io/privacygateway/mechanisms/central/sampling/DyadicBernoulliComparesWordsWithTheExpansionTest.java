package io.privacygateway.mechanisms.central.sampling;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.testing.ScriptedWords;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/**
 * The exact dyadic Bernoulli against its binary expansion computed independently in the test: for each
 * {@code p}, the smallest whole number of 64-bit words {@code W} with {@code p·2^{64W}} an integer (by
 * {@link BigDecimal}), split into words; a uniform word sequence is below {@code p} exactly when it is
 * lexicographically (unsigned) below those words. Scripts that run out, or are not used up, fail the test
 * (mutants found by PIT; docs/mutation-testing.md).
 */
class DyadicBernoulliComparesWordsWithTheExpansionTest {
    /**
     * The expansion of {@code p} in whole 64-bit words, most significant first: {@code p = M·2^-s} with the
     * 53-bit significand {@code M} (or the subnormal unit 2^-1074), so {@code ⌈s/64⌉} words, computed here with
     * {@link Math#getExponent} and {@link BigDecimal}.
     */
    private static long[] expansion(double p) {
        int e = Math.getExponent(p);
        int s = e < Double.MIN_EXPONENT ? 1074 : 52 - e;
        int words = (s + 63) / 64;
        BigInteger n = new BigDecimal(p).multiply(new BigDecimal(BigInteger.ONE.shiftLeft(64 * words)))
                .toBigIntegerExact();
        long[] out = new long[words];
        for (int k = 0; k < words; k++) {
            out[k] = n.shiftRight(64 * (words - 1 - k)).longValue();
        }
        return out;
    }

    /** Runs {@code sample} on the script and checks the answer and that every scripted word was drawn. */
    private static void check(DyadicBernoulli b, boolean expected, long... script) {
        ScriptedWords words = new ScriptedWords(script);
        assertThat(b.sample(words)).as("p=%s on %s", b.probability(), java.util.Arrays.toString(script))
                .isEqualTo(expected);
        assertThat(words.drawn()).as("words drawn").isEqualTo(script.length);
    }

    /**
     * For normal doubles with one and with several words (0.3, 0.75, 2^-64·1.5, 1e-5, 1e-300) and for
     * subnormals (the smallest, and 3·2^-1074): a sequence equal to the expansion up to word j and then
     * one below (above) it is accepted (rejected) after exactly j+1 words, and the full expansion itself is
     * rejected after all its words.
     */
    @Test
    void aWordSequenceIsAcceptedExactlyWhenItIsBelowTheBinaryExpansion() {
        for (double p : new double[] {0.3, 0.75, 0x1.8p-64, 1e-5, 1e-300, Double.MIN_VALUE, 3 * Double.MIN_VALUE,
            Math.nextDown(1.0)}) {
            DyadicBernoulli b = new DyadicBernoulli("p", p);
            long[] e = expansion(p);
            check(b, false, e);
            for (int j = 0; j < e.length; j++) {
                long[] prefix = java.util.Arrays.copyOf(e, j + 1);
                if (e[j] != 0) {
                    prefix[j] = e[j] - 1;
                    check(b, true, prefix);
                }
                if (e[j] != -1L) {
                    prefix[j] = e[j] + 1;
                    check(b, false, prefix);
                }
            }
        }
    }

    /**
     * Lengths of the expansion: 0.3 one word, 2^-64·1.5 two (1 and 2^63), the smallest subnormal 17
     * (2^-1074 = 2^14 · 2^-1088): seventeen words of which the last decides.
     */
    @Test
    void theExpansionHasTheStatedLength() {
        assertThat(expansion(0.3)).hasSize(1);
        assertThat(expansion(0x1.8p-64)).containsExactly(1L, Long.MIN_VALUE);
        long[] min = expansion(Double.MIN_VALUE);
        assertThat(min).hasSize(17);
        assertThat(min[16]).isEqualTo(1L << 14);
        long[] zeros = new long[17];
        zeros[16] = (1L << 14) - 1;
        check(new DyadicBernoulli("p", Double.MIN_VALUE), true, zeros);
    }
}
