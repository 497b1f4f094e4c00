package io.privacygateway.mechanisms.random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Exact (non-statistical) tests of the secret samplers: the probabilities they realise are counted over
 * every word that decides them, so a biased comparison, a wrong shift or a wrong rejection threshold fails
 * deterministically.
 */
class ExactSamplerExactTest {
    private static final long[] LOW_PARTS = {0L, -1L, 0x5DEECE66DL, 0x8000_0000_0000_0000L, 0x0123_4567_89AB_CDEFL};

    /**
     * A Bernoulli on the {@code 2^-b} grid is decided by the top {@code b} bits of the word alone (checked
     * against several fillings of the low bits), and exactly {@code numerator} of the {@code 2^b} values of
     * those bits are accepted: so {@code P(true) = numerator/2^b} exactly. Exhaustive for {@code b <= 10}
     * and every numerator.
     */
    @Test
    void bernoulliAcceptsExactlyNumeratorTopValuesOnSmallGrids() {
        for (int b = 1; b <= 10; b++) {
            long size = 1L << b;
            for (long num = 0; num <= size; num++) {
                for (long low : LOW_PARTS) {
                    long lowMask = -1L >>> b; // the 64 − b low bits
                    long accepted = 0;
                    for (long v = 0; v < size; v++) {
                        long word = (v << (64 - b)) | (low & lowMask);
                        if (ExactSampler.bernoulliAccepts(word, num, b)) {
                            accepted++;
                        }
                    }
                    assertThat(accepted).as("b=%d numerator=%d low=%x", b, num, low).isEqualTo(num);
                }
            }
        }
    }

    /**
     * On the grids the mechanisms use (53 and 54 bits) and the largest (62), acceptance is exactly "top bits
     * {@code < numerator}": the boundary values {@code numerator − 1} (accepted) and {@code numerator}
     * (rejected) with any low bits, for numerators across the range. With the monotone comparison this
     * gives exactly {@code numerator} accepted values.
     */
    @Test
    void bernoulliBoundaryOnTheProductionGrids() {
        SeededRandomBits rnd = new SeededRandomBits(99);
        for (int b : new int[] {53, 54, 62}) {
            long size = 1L << b;
            List<Long> nums = new ArrayList<>(List.of(0L, 1L, 2L, size / 2, size - 1, size));
            for (int i = 0; i < 200; i++) {
                nums.add(rnd.nextLong() >>> (64 - b));
            }
            for (long num : nums) {
                for (long low : LOW_PARTS) {
                    long lowMask = -1L >>> b;
                    if (num > 0) {
                        long below = ((num - 1) << (64 - b)) | (low & lowMask);
                        assertThat(ExactSampler.bernoulliAccepts(below, num, b)).as("b=%d n=%d", b, num).isTrue();
                        assertThat(ExactSampler.bernoulli(() -> below, num, b)).isTrue();
                    }
                    if (num < size) {
                        long at = (num << (64 - b)) | (low & lowMask);
                        assertThat(ExactSampler.bernoulliAccepts(at, num, b)).as("b=%d n=%d", b, num).isFalse();
                        assertThat(ExactSampler.bernoulli(() -> at, num, b)).isFalse();
                    }
                }
            }
        }
        // the DyadicProbability form is the 53-bit grid
        DyadicProbability p = new DyadicProbability(12345);
        assertThat(ExactSampler.bernoulli(() -> 12344L << 11, p)).isTrue();
        assertThat(ExactSampler.bernoulli(() -> 12345L << 11, p)).isFalse();
    }

    @Test
    void bernoulliRejectsParametersOffTheGrid() {
        assertThatThrownBy(() -> ExactSampler.bernoulli(() -> 0L, 3, 1)).hasMessageContaining("numerator must be in [0, 2^1]")
                .hasMessageContaining("got 3");
        assertThatThrownBy(() -> ExactSampler.bernoulli(() -> 0L, -1, 8)).hasMessageContaining("got -1");
        assertThatThrownBy(() -> ExactSampler.bernoulli(() -> 0L, 0, 0)).hasMessageContaining("gridBits must be in [1, 62]");
        assertThatThrownBy(() -> ExactSampler.bernoulli(() -> 0L, 0, 63)).hasMessageContaining("got 63");
        // the extremes are allowed
        assertThat(ExactSampler.bernoulli(() -> -1L, 1L << 62, 62)).isTrue();
        assertThat(ExactSampler.bernoulli(() -> 0L, 0, 1)).isFalse();
        assertThat(ExactSampler.bernoulli(() -> -1L, 2, 1)).isTrue();
    }

    /**
     * Lemire's step on reduced word sizes {@code w ∈ [1, 10]}, exhaustively over every word and every
     * {@code n ∈ [1, 2^w]}: every output in {@code [0, n)} has exactly {@code ⌊2^w/n⌋} accepted words and
     * exactly {@code 2^w mod n} words are rejected. Given acceptance the output is therefore exactly
     * uniform, and the retries (fresh words) do not depend on the output.
     */
    @Test
    void lemireIsExactlyUniformOnReducedWordSizes() {
        for (int w = 1; w <= 10; w++) {
            long size = 1L << w;
            for (long n = 1; n <= size; n++) {
                long[] count = new long[(int) n];
                long rejected = 0;
                for (long x = 0; x < size; x++) {
                    long v = ExactSampler.lemire(x, n, w);
                    if (v < 0) {
                        rejected++;
                    } else {
                        assertThat(v).isLessThan(n);
                        count[(int) v]++;
                    }
                }
                for (int j = 0; j < n; j++) {
                    assertThat(count[j]).as("w=%d n=%d output %d", w, n, j).isEqualTo(size / n);
                }
                assertThat(rejected).as("w=%d n=%d", w, n).isEqualTo(size % n);
            }
        }
    }

    /**
     * On the production 32-bit words, analytically: the words accepted for output {@code j} are those with
     * {@code x·n ∈ [j·2^32 + t, (j+1)·2^32)}, {@code t = 2^32 mod n}; their number
     * {@code ⌈(j+1)2^32/n⌉ − ⌈(j2^32 + t)/n⌉} equals {@code ⌊2^32/n⌋} for every {@code j} (all {@code j}
     * for {@code n <= 4096}; the first, last and 2,000 random {@code j} for larger {@code n}). The counting
     * formula itself is checked against {@link ExactSampler#lemire} at the interval ends.
     */
    @Test
    void lemireIsExactlyUniformOn32BitWordsAnalytically() {
        long two32 = 1L << 32;
        SeededRandomBits rnd = new SeededRandomBits(5);
        List<Long> ns = new ArrayList<>();
        for (long n = 1; n <= 4096; n++) {
            ns.add(n);
        }
        for (long n : new long[] {6_700_417, 1L << 24, (1L << 24) + 1, 1_000_000_007, (1L << 30) + 1, 3L << 29,
                Integer.MAX_VALUE - 1, Integer.MAX_VALUE}) {
            ns.add(n);
        }
        for (int i = 0; i < 50; i++) {
            ns.add(1 + ExactSampler.uniformLong(rnd, Integer.MAX_VALUE));
        }
        for (long n : ns) {
            long t = two32 % n;
            long expected = two32 / n;
            List<Long> js = new ArrayList<>();
            if (n <= 4096) {
                for (long j = 0; j < n; j++) {
                    js.add(j);
                }
            } else {
                js.addAll(List.of(0L, 1L, n - 2, n - 1));
                for (int i = 0; i < 2000; i++) {
                    js.add(ExactSampler.uniformLong(rnd, n));
                }
            }
            for (long j : js) {
                long first = ceilDiv(j * two32 + t, n); // smallest accepted x for j
                long end = ceilDiv((j + 1) * two32, n); // smallest x beyond j's range
                assertThat(end - first).as("n=%d j=%d", n, j).isEqualTo(expected);
                // the formula agrees with the sampler at the boundaries of j's accepted range
                assertThat(ExactSampler.lemire(first, n, 32)).isEqualTo(j);
                assertThat(ExactSampler.lemire(end - 1, n, 32)).isEqualTo(j);
                if (first > 0 && ExactSampler.lemire(first - 1, n, 32) >= 0) {
                    assertThat(ExactSampler.lemire(first - 1, n, 32)).isEqualTo(j - 1);
                }
            }
        }
    }

    private static long ceilDiv(long a, long b) {
        return -Math.floorDiv(-a, b);
    }

    /** uniformInt consumes the top 32 bits of each word and retries exactly on Lemire's rejections. */
    @Test
    void uniformIntUsesTheTopWordBitsAndRetriesOnRejection() {
        int n = 7; // 2^32 mod 7 = 4: x = 0 has product 0 < 4 and is rejected
        long[] words = {0x0000_0000_FFFF_FFFFL /* top bits 0: rejected */, 0xFFFF_FFFF_0000_0000L};
        int[] i = {0};
        RandomBits scripted = () -> words[i[0]++];
        assertThat(ExactSampler.uniformInt(scripted, n)).isEqualTo((int) ExactSampler.lemire(0xFFFF_FFFFL, n, 32))
                .isEqualTo(6);
        assertThat(i[0]).isEqualTo(2);
        assertThatThrownBy(() -> ExactSampler.uniformInt(() -> 0L, 0)).hasMessageContaining("n must be >= 1, got 0");
    }

    /** {@link ExactSampler#draws} makes exactly the static draws on the same words. */
    @Test
    void drawsAreTheStaticSamplersOnTheSameWords() {
        SecretDraws d = ExactSampler.draws(new SeededRandomBits(7));
        SeededRandomBits same = new SeededRandomBits(7);
        for (int i = 0; i < 2000; i++) {
            switch (i % 3) {
                case 0 -> assertThat(d.uniformInt(1 + i)).isEqualTo(ExactSampler.uniformInt(same, 1 + i));
                case 1 -> assertThat(d.bernoulli(new DyadicProbability(i * 1_000_003L)))
                        .isEqualTo(ExactSampler.bernoulli(same, new DyadicProbability(i * 1_000_003L)));
                default -> assertThat(d.bernoulli(i * 7L, 54)).isEqualTo(ExactSampler.bernoulli(same, i * 7L, 54));
            }
        }
        assertThatThrownBy(() -> ExactSampler.draws(null)).hasMessageContaining("secret randomness is required");
    }

    /** The enumerator used by the mechanisms' exact tests gives the exact law of small draw trees. */
    @Test
    void drawTreeEnumeratesExactLaws() {
        Map<Integer, Rational> law = DrawTree.law(d -> d.bernoulli(3, 2) ? d.uniformInt(3) : 3 + d.uniformInt(2));
        assertThat(law).containsExactlyInAnyOrderEntriesOf(Map.of(0, Rational.of(1, 4), 1, Rational.of(1, 4),
                2, Rational.of(1, 4), 3, Rational.of(1, 8), 4, Rational.of(1, 8)));
        // zero-probability branches are cut and never reported
        Map<Boolean, Rational> sure = DrawTree.law(d -> d.bernoulli(0, 5) || d.bernoulli(1L << 5, 5));
        assertThat(sure).containsExactly(Map.entry(true, Rational.ONE));
        assertThat(DrawTree.law(d -> d.uniformInt(1))).containsExactly(Map.entry(0, Rational.ONE));
        BigInteger two53 = BigInteger.ONE.shiftLeft(53);
        Map<Boolean, Rational> coin = DrawTree.law(d -> d.bernoulli(new DyadicProbability(5)));
        assertThat(coin.get(true)).isEqualTo(Rational.of(BigInteger.valueOf(5), two53));
        assertThat(coin.get(false)).isEqualTo(Rational.of(two53.subtract(BigInteger.valueOf(5)), two53));
        assertThatThrownBy(() -> DrawTree.law(d -> d.uniformInt(1000) + d.uniformInt(1000), 10_000))
                .hasMessageContaining("more than 10000 leaves");
    }
}
