package io.privacygateway.mechanisms.random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.commons.statistics.inference.ChiSquareTest;
import org.apache.commons.statistics.inference.SignificanceResult;
import org.junit.jupiter.api.Test;

/** Statistical tests here fail by chance with probability at most 1e-6 each (seeded, so reproducible). */
class ExactSamplerTest {
    private static final double FALSE_FAILURE = 1e-6;

    @Test
    void uniformIntIsUniform() {
        RandomBits bits = new SeededRandomBits(1);
        for (int n : new int[] {1, 2, 3, 7, 10, 1000}) {
            long[] counts = new long[n];
            for (int i = 0; i < 50_000; i++) {
                int v = ExactSampler.uniformInt(bits, n);
                assertThat(v).isBetween(0, n - 1);
                counts[v]++;
            }
            if (n > 1) {
                SignificanceResult r = ChiSquareTest.withDefaults().test(counts);
                assertThat(r.getPValue()).as("n=%d", n).isGreaterThan(FALSE_FAILURE);
            }
        }
    }

    @Test
    void uniformIntRejectionIsExactOnAdversarialWords() {
        // A word whose low product bits fall below the threshold must be rejected: n = 3, 2^32 mod 3 = 1.
        long[] words = {0L, 1L << 32 /* x = 1 -> product 3, low bits 3 >= 1 accepted -> 0 */};
        int[] i = {0};
        RandomBits scripted = () -> words[i[0]++];
        // x = 0 gives product 0 with low bits 0 < 1: rejected; x = 1 accepted with value floor(3/2^32) = 0
        assertThat(ExactSampler.uniformInt(scripted, 3)).isZero();
        assertThat(i[0]).isEqualTo(2);
    }

    @Test
    void uniformLongIsInRangeAndUniform() {
        RandomBits bits = new SeededRandomBits(2);
        long n = 6;
        long[] counts = new long[(int) n];
        for (int i = 0; i < 60_000; i++) {
            counts[(int) ExactSampler.uniformLong(bits, n)]++;
        }
        assertThat(ChiSquareTest.withDefaults().test(counts).getPValue()).isGreaterThan(FALSE_FAILURE);
        assertThatThrownBy(() -> ExactSampler.uniformLong(bits, 0)).hasMessageContaining("0");
    }

    @Test
    void bernoulliComparesAgainstTheNumeratorExactly() {
        DyadicProbability p = new DyadicProbability(5);
        // 53-bit value 4 < 5 -> true; value 5 -> false
        RandomBits four = () -> 4L << 11;
        RandomBits five = () -> 5L << 11;
        assertThat(ExactSampler.bernoulli(four, p)).isTrue();
        assertThat(ExactSampler.bernoulli(five, p)).isFalse();
        assertThat(ExactSampler.bernoulli(() -> -1L, new DyadicProbability(DyadicProbability.ONE))).isTrue();
        assertThat(ExactSampler.bernoulli(() -> 0L, DyadicProbability.ZERO)).isFalse();
    }

    @Test
    void dyadicRounding() {
        assertThat(DyadicProbability.floor(1.0 / 3).value()).isLessThanOrEqualTo(1.0 / 3);
        assertThat(DyadicProbability.ceil(1.0 / 3).value()).isGreaterThanOrEqualTo(1.0 / 3);
        assertThat(DyadicProbability.floor(0.5)).isEqualTo(DyadicProbability.HALF);
        assertThatThrownBy(() -> DyadicProbability.floor(Double.NaN)).hasMessageContaining("NaN");
        assertThatThrownBy(() -> DyadicProbability.ceil(1.5)).hasMessageContaining("1.5");
        assertThatThrownBy(() -> new DyadicProbability(-1)).hasMessageContaining("-1");
    }
}
