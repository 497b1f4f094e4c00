package io.privacygateway.mechanisms.central.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.testing.ScriptedWords;
import io.privacygateway.mechanisms.random.Rational;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/**
 * Bernoulli(e^{−γ}) with scripted words at its boundaries (written against the mutants PIT found unchecked;
 * docs/mutation-testing.md). The scripts follow the sampler's draw tree: {@code atMostOne(1, 1)} succeeds at
 * k = 1 without a draw, then draws Bernoulli(1/k) for k = 2, 3, ... and returns whether the first failure
 * came at an odd k; a script that runs out fails the test, so an extra or a missing step is caught.
 */
class BernoulliExpScriptedStepsTest {
    /** A word from which the exact uniform sampler (n not a power of two) takes {@code v}. */
    private static long uniform(long v) {
        return v << 1;
    }

    /** The words for which {@code atMostOne(1, 1)} returns true: success at k = 2 (even word), failure at k = 3. */
    private static final long[] E_MINUS_ONE_TRUE = {0L, uniform(1)};

    private static long[] times(int n, long[] script) {
        long[] out = new long[n * script.length];
        for (int i = 0; i < n; i++) {
            System.arraycopy(script, 0, out, i * script.length, script.length);
        }
        return out;
    }

    @Test
    void gammaOfExactlyTheMaximumSizeIsAccepted() {
        BigInteger big = BigInteger.ONE.shiftLeft(BernoulliExp.MAX_BITS - 1); // MAX_BITS bits
        Rational g = Rational.of(big, BigInteger.ONE);
        assertThat(new BernoulliExp(g).gamma()).isEqualTo(g);
        assertThatThrownBy(() -> new BernoulliExp(Rational.of(big.shiftLeft(1), BigInteger.ONE)))
                .hasMessageContaining("at most " + BernoulliExp.MAX_BITS + " bits");
        assertThatThrownBy(() -> new BernoulliExp(Rational.of(BigInteger.ONE, big.shiftLeft(1))))
                .hasMessageContaining("at most " + BernoulliExp.MAX_BITS + " bits");
    }

    @Test
    void gammaOfOneIsSampledDirectlyNotAsOneWholeStep() {
        // num = den = 3: k = 1 is certain, k = 2 draws uniform(6) < 3; uniform 3 fails at even k: false, one word
        assertThat(BernoulliExp.sample(new ScriptedWords(uniform(3)), 3, 3)).isFalse();
        // num = den = 2^63 (BigInteger path): k = 2 draws a 65-bit uniform in [0, 2^64); 2^63 is not below 2^63
        BigInteger twoTo63 = BigInteger.ONE.shiftLeft(63);
        assertThat(BernoulliExp.sample(new ScriptedWords(1L << 62, 0L), twoTo63, twoTo63)).isFalse();
    }

    @Test
    void wholeStepsAreTakenExactlyTheIntegerPartTimes() {
        // γ = 2 (long): two e^{-1} steps, then e^{-0} = true without a draw
        assertThat(BernoulliExp.sample(new ScriptedWords(times(2, E_MINUS_ONE_TRUE)), 2, 1)).isTrue();
        // γ = 2^64 / 2^63 = 2 (BigInteger path, 65- and 64-bit operands)
        assertThat(BernoulliExp.sample(new ScriptedWords(times(2, E_MINUS_ONE_TRUE)), BigInteger.ONE.shiftLeft(64),
                BigInteger.ONE.shiftLeft(63))).isTrue();
        assertThat(BernoulliExp.sample(new ScriptedWords(), 0, 1)).isTrue();
        assertThat(BernoulliExp.sample(new ScriptedWords(), BigInteger.ZERO, BigInteger.ONE)).isTrue();
    }

    @Test
    void aProductBeyondSixtyFourBitsIsFormedExactly() {
        // a·b = 2^65 overflows a long (its low word is 0); γ = 2^65 / 2^62 = 8: the first e^{-1} step fails at k = 2
        assertThat(BernoulliExp.sampleProduct(new ScriptedWords(1L), 1L << 32, 1L << 33, 1L << 62)).isFalse();
        assertThat(BernoulliExp.sampleProduct(new ScriptedWords(), 0, 5, 3)).isTrue();
    }

    @Test
    void invalidArgumentsAreRefusedByName() {
        assertThatThrownBy(() -> BernoulliExp.sample(new ScriptedWords(), -1, 1)).hasMessage("need num >= 0 and den >= 1, got -1/1");
        assertThatThrownBy(() -> BernoulliExp.sample(new ScriptedWords(), 1, 0)).hasMessage("need num >= 0 and den >= 1, got 1/0");
        assertThatThrownBy(() -> BernoulliExp.sample(new ScriptedWords(), BigInteger.ONE.negate(), BigInteger.ONE))
                .hasMessageContaining("need num >= 0");
    }
}
