package io.privacygateway.mechanisms.central.sampling;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.testing.ScriptedWords;
import io.privacygateway.mechanisms.random.Rational;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/**
 * The discrete Laplace of a non-integer scale {@code t = a/b = 5/2}, with scripted words (mutants found by PIT;
 * docs/mutation-testing.md). One attempt: {@code u} uniform in {0, …, 4} (one word, {@code uniform(u)}),
 * accepted with probability {@code e^{-u/5}} (Bernoulli{@code (u/5)}, Bernoulli{@code (u/10)}, … until the first
 * failure, accepted at an odd k), {@code v} the number of Bernoulli{@code (e^{-1})} successes, then
 * {@code y = ⌊(u + 5v)/2⌋} and the sign word; "−0" is rejected.
 */
class DiscreteLaplaceScriptedDrawsAndWideSumsTest {
    /** A word from which the exact uniform sampler (n not a power of two) takes {@code v}. */
    private static long uniform(long v) {
        return v << 1;
    }

    /** The two words of one Bernoulli(e^{-1}) success: k = 2 succeeds (even word), k = 3 fails. */
    private static final long[] E_STEP = {0L, uniform(1)};

    private static long sample(long... script) {
        ScriptedWords words = new ScriptedWords(script);
        long y = DiscreteLaplace.withScale(5, 2).sample(words);
        assertThat(words.drawn()).as("words drawn").isEqualTo(script.length);
        return y;
    }

    /**
     * u = 3 accepted at k = 1 (uniform 4 is not below 3), v = 1: y = ⌊(3 + 5)/2⌋ = 4 with sign +; u = 4, v = 0
     * with sign −: y = −⌊4/2⌋ = −2; u = 1, v = 2: ⌊11/2⌋ = 5.
     */
    @Test
    void theSampleIsTheFloorOfUPlusAVOverB() {
        assertThat(sample(uniform(3), uniform(4), E_STEP[0], E_STEP[1], 1L, 0L)).isEqualTo(4);
        assertThat(sample(uniform(4), uniform(4), 1L, -1L)).isEqualTo(-2);
        assertThat(sample(uniform(1), uniform(1), E_STEP[0], E_STEP[1], E_STEP[0], E_STEP[1], 1L, 0L))
                .isEqualTo(5);
    }

    /**
     * u = 4 rejected (k = 1: uniform 0 below 4 succeeds, k = 2: uniform 9 not below 4 fails at even k), then
     * u = 1 with v = 0 and sign − is "−0" (⌊1/2⌋ = 0), rejected; then u = 0 (accepted without a draw), v = 0,
     * sign +: 0.
     */
    @Test
    void rejectedUniformsAndMinusZeroStartAgain() {
        assertThat(sample(uniform(4), uniform(0), uniform(9),
                uniform(1), uniform(1), 1L, -1L,
                uniform(0), 1L, 0L)).isZero();
    }

    /**
     * Scale a/b = (2^62 − 1)/2^22 (just below 2^40): {@code u + a·v} leaves the long range. Expected values are
     * {@code ⌊(u + a·v)/b⌋} computed here with {@link BigInteger}: v = 3 (a·v in [2^63, 2^64)), v = 5 (a·v beyond
     * 2^64, whose low word is positive) and u = 2^62 − 2 (accepted at k = 1) with v = 2 (a·v fits, a·v + u does
     * not).
     */
    @Test
    void sumsBeyondALongAreDividedExactly() {
        long a = (1L << 62) - 1;
        long b = 1L << 22;
        DiscreteLaplace lap = new DiscreteLaplace(Rational.of(a, b));
        for (long[] uv : new long[][] {{0, 3}, {0, 5}, {(1L << 62) - 2, 2}}) {
            long u = uv[0];
            int v = (int) uv[1];
            long[] head = u == 0 ? new long[] {uniform(0)} : new long[] {uniform(u), uniform(u)};
            long[] script = new long[head.length + 2 * v + 2];
            System.arraycopy(head, 0, script, 0, head.length);
            for (int i = 0; i < v; i++) {
                script[head.length + 2 * i] = E_STEP[0];
                script[head.length + 2 * i + 1] = E_STEP[1];
            }
            script[head.length + 2 * v] = 1L;
            script[head.length + 2 * v + 1] = 0L;
            long expected = BigInteger.valueOf(a).multiply(BigInteger.valueOf(v)).add(BigInteger.valueOf(u))
                    .divide(BigInteger.valueOf(b)).longValueExact();
            ScriptedWords words = new ScriptedWords(script);
            assertThat(lap.sample(words)).as("u=%d v=%d", u, v).isEqualTo(expected);
            assertThat(words.drawn()).isEqualTo(script.length);
        }
    }

    /** A denominator of exactly 62 bits is accepted: scale 1/(2^61 + 1), u = 0, v = 0, sign +: 0 after three words. */
    @Test
    void aScaleDenominatorOfExactlySixtyTwoBitsIsAccepted() {
        DiscreteLaplace lap = new DiscreteLaplace(Rational.of(BigInteger.ONE, BigInteger.ONE.shiftLeft(61).add(BigInteger.ONE)));
        ScriptedWords words = new ScriptedWords(0L, 1L, 0L);
        assertThat(lap.sample(words)).isZero();
        assertThat(words.drawn()).isEqualTo(3);
    }

    /**
     * The law is symmetric, so {@code P(X <= k) = 1 − P(X <= −k−1)}; the cdf keeps this exactly in doubles
     * (both sides use the same tail {@code β^{k+1}/(1+β)}), including at k = 0, for scales where
     * {@code 1/(1+β)} and {@code 1 − β/(1+β)} round differently (3/2 and 1/3).
     */
    @Test
    void theCdfIsExactlyComplementaryBySymmetry() {
        for (long[] s : new long[][] {{3, 2}, {1, 3}, {5, 1}, {7, 3}}) {
            DiscreteLaplace lap = DiscreteLaplace.withScale(s[0], s[1]);
            for (long k = 0; k <= 5; k++) {
                assertThat(lap.cdf(k)).as("scale %d/%d, k=%d", s[0], s[1], k).isEqualTo(1 - lap.cdf(-k - 1));
            }
        }
    }
}
