package io.privacygateway.mechanisms.central.sampling;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.testing.ScriptedWords;
import org.junit.jupiter.api.Test;

/**
 * The discrete Gaussian's acceptance step where its long arithmetic overflows, with scripted words (mutants
 * found by PIT; docs/mutation-testing.md). With {@code σ² = 2^-60} ({@code p = 1}, {@code q = 2^60}) the proposal
 * is the discrete Laplace of scale {@code t = 1}, {@code q·t = 2^60} and {@code 2pqt² = 2^61} fit in a long, but
 * {@code |y|·q·t} overflows for {@code |y| >= 8} and its square {@code (|y|qt − p)²} for {@code |y| >= 1}; the
 * acceptance must then be computed exactly (its exponent {@code (|y|qt − p)²/(2pqt²)} is about {@code 2^61·y²}).
 *
 * <p>Draw tree of one proposal (scale 1): a word for {@code u} (always 0), the run of Bernoulli{@code (e^{-1})}
 * successes giving {@code v = |y|} (each success: an even word for {@code k = 2}, then {@code uniform(1)} failing
 * {@code k = 3}; the stop: an odd word failing {@code k = 2}), then the sign word.
 */
class DiscreteGaussianWideExponentsStayExactTest {
    /** A word from which the exact uniform sampler (n not a power of two) takes {@code v}. */
    private static long uniform(long v) {
        return v << 1;
    }

    /** The words of a scale-1 Laplace proposal of {@code +y} (or {@code -y}). */
    private static long[] proposal(int y, boolean negative) {
        long[] out = new long[1 + 2 * y + 2];
        out[0] = 0L;
        for (int i = 0; i < y; i++) {
            out[1 + 2 * i] = 0L;
            out[2 + 2 * i] = uniform(1);
        }
        out[1 + 2 * y] = 1L;
        out[2 + 2 * y] = negative ? -1L : 0L;
        return out;
    }

    private static long[] concat(long[]... parts) {
        int n = 0;
        for (long[] p : parts) {
            n += p.length;
        }
        long[] out = new long[n];
        int k = 0;
        for (long[] p : parts) {
            System.arraycopy(p, 0, out, k, p.length);
            k += p.length;
        }
        return out;
    }

    /**
     * A proposal whose acceptance exponent is astronomically large is rejected by the first whole step of
     * {@code e^{-1}} (one word, an odd word failing {@code k = 2}); the following proposal y = 0 has exponent
     * {@code 1/2^61} and is accepted when the single Bernoulli{@code (1/2^61)} fails (word 1: its low 61 bits
     * are not below 1). Covers |y| = 8 ({@code |y|·q·t = 2^63} overflows) and |y| = 2, 1 (the square overflows).
     */
    @Test
    void overflowingAcceptanceExponentsAreComputedExactly() {
        DiscreteGaussian g = DiscreteGaussian.withSigma2(1, 1L << 60);
        assertThat(g.proposalScale()).isEqualTo(1);
        long[] acceptZero = concat(proposal(0, false), new long[] {1L});
        for (int y : new int[] {8, 2, 1}) {
            for (boolean negative : new boolean[] {false, true}) {
                long[] script = concat(proposal(y, negative), new long[] {1L}, acceptZero);
                ScriptedWords words = new ScriptedWords(script);
                assertThat(g.sample(words)).as("y=%d negative=%s", y, negative).isZero();
                assertThat(words.drawn()).isEqualTo(script.length);
            }
        }
    }

    /**
     * The same σ²: a proposal y = 0 is rejected when the Bernoulli{@code (1/2^61)} succeeds (word 0; then
     * {@code k = 2} draws Bernoulli{@code (1/2^62)}, which fails on word 1, an even k: rejected); the next
     * y = 0 is accepted.
     */
    @Test
    void theSmallestExponentIsTheExactRational() {
        DiscreteGaussian g = DiscreteGaussian.withSigma2(1, 1L << 60);
        long[] script = concat(proposal(0, false), new long[] {0L, 1L}, proposal(0, false), new long[] {1L});
        ScriptedWords words = new ScriptedWords(script);
        assertThat(g.sample(words)).isZero();
        assertThat(words.drawn()).isEqualTo(script.length);
    }

    /**
     * σ² = 2^40 ({@code t = 2^20 + 1}, {@code 2pqt² = 2^81 + 2^62 + 2^41}, beyond a long): the proposal
     * {@code y = 2^20 − 1} (u = 2^20 − 1 accepted at k = 1, v = 0, sign +) has {@code |y|qt − p = −1}, so the
     * acceptance is Bernoulli(e^{−1/(2^81+2^62+2^41)}): one uniform integer below that 82-bit denominator (two
     * words, shifted right by 46); the words (0, 2^46) give 1, not below 1: accepted after six words.
     */
    @Test
    void anAcceptanceDenominatorBeyondALongIsNeverTruncated() {
        DiscreteGaussian g = DiscreteGaussian.withSigma2(1L << 40, 1);
        assertThat(g.proposalScale()).isEqualTo((1L << 20) + 1);
        long y = (1L << 20) - 1;
        long[] script = {uniform(y), uniform(1L << 20), 1L, 0L, 0L, 1L << 46};
        ScriptedWords words = new ScriptedWords(script);
        assertThat(g.sample(words)).isEqualTo(y);
        assertThat(words.drawn()).isEqualTo(script.length);
    }

    /**
     * A denominator of exactly 62 bits is accepted: σ² = 1/(2^61 + 1), proposal y = 0, acceptance
     * Bernoulli(e^{−1/(2^62+2)}) whose single draw (uniform 1, not below 1) fails at k = 1: 0 after four words.
     */
    @Test
    void aVarianceDenominatorOfExactlySixtyTwoBitsIsAccepted() {
        DiscreteGaussian g = DiscreteGaussian.withSigma2(1, (1L << 61) + 1);
        long[] script = {0L, 1L, 0L, uniform(1)};
        ScriptedWords words = new ScriptedWords(script);
        assertThat(g.sample(words)).isZero();
        assertThat(words.drawn()).isEqualTo(script.length);
    }
}
