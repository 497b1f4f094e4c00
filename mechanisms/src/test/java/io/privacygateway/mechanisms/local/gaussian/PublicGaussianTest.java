package io.privacygateway.mechanisms.local.gaussian;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.coins.SplitMix64;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.testing.ScriptedWords;
import java.util.Arrays;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.apache.commons.statistics.inference.ChiSquareTest;
import org.apache.commons.statistics.inference.KolmogorovSmirnovTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Statistical and structural tests of {@link PublicGaussian}.
 *
 * <p>The seeds are fixed, so every test is deterministic. The thresholds are chosen so that a correct
 * N(0,1) generator would fail each statistical test for a random seed with probability at most
 * {@code 1e-6} (stated per test; multiple comparisons inside a test are Bonferroni-corrected).
 */
class PublicGaussianTest {
    private static final NormalDistribution N01 = NormalDistribution.of(0, 1);
    /** 4,000,000 draws: 2,000 consecutive from each of 2,000 streams seeded 0..1999 * golden. */
    private static double[] big;

    @BeforeAll
    static void draw() {
        big = new double[4_000_000];
        double[] chunk = new double[2000];
        for (int s = 0; s < 2000; s++) {
            PublicGaussian.fill(new SplitMix64(s * 0x632BE59BD9B4E019L), chunk);
            System.arraycopy(chunk, 0, big, s * 2000, 2000);
        }
    }

    @Test
    void everyLayerHasTheSameArea() {
        double[] x = PublicGaussian.abscissae();
        double[] f = PublicGaussian.densities();
        long[] k = PublicGaussian.thresholds();
        assertThat(x).hasSize(257);
        assertThat(x[1]).isEqualTo(PublicGaussian.R);
        assertThat(x[256]).isZero();
        for (int i = 1; i < 256; i++) {
            assertThat(x[i + 1]).as("X decreasing at %d", i).isLessThan(x[i]);
            assertThat(x[i] * (f[i + 1] - f[i]) / PublicGaussian.V).as("layer %d area / V", i).isCloseTo(1.0,
                    within(1e-12));
        }
        // base layer: the rectangle [0, R] x [0, f(R)] plus the tail beyond R
        double tail = N01.survivalProbability(PublicGaussian.R) * Math.sqrt(2 * Math.PI);
        assertThat((PublicGaussian.R * f[1] + tail) / PublicGaussian.V).isCloseTo(1.0, within(1e-12));
        assertThat(x[0] * f[1]).isCloseTo(PublicGaussian.V, within(1e-18));
        // the 256 layers make up the area under exp(-x²/2) on [0, ∞) plus the wedges
        assertThat(256 * PublicGaussian.V).isGreaterThan(Math.sqrt(Math.PI / 2));
        assertThat(k[255]).isZero(); // the top layer is all wedge
        for (int i = 0; i < 255; i++) {
            assertThat(k[i]).as("K[%d]", i).isBetween((long) (0.5 * 0x1p52), 1L << 52);
        }
    }

    @Test
    void fillNextAndFusedFixedPointAgreeBitForBit() {
        for (long seed = 0; seed < 300; seed++) {
            int m = 1 + (int) (seed % 97);
            double[] a = new double[m];
            PublicGaussian.fill(new SplitMix64(seed), a);
            SplitMix64 s = new SplitMix64(seed);
            long[] expected = new long[m + 3];
            boolean negate = (seed & 1) == 1;
            for (int k = 0; k < m; k++) {
                double z = PublicGaussian.next(s);
                assertThat(Double.doubleToRawLongBits(z)).isEqualTo(Double.doubleToRawLongBits(a[k]));
                long q = (long) Math.rint(z * 0x1p32);
                assertThat(PublicGaussian.toFixed(z)).isEqualTo(q);
                expected[k + 2] = 7 + (negate ? -q : q);
            }
            expected[0] = 7;
            expected[1] = 7;
            expected[m + 2] = 7;
            long[] acc = new long[m + 3];
            Arrays.fill(acc, 7);
            PublicGaussian.addFixed(new SplitMix64(seed), m, negate, acc, 2);
            assertThat(acc).isEqualTo(expected);
        }
    }

    @Test
    void fusedKernelMatchesOnManySlowPaths() {
        // 200,000 values: about 3,000 go through the wedge or tail path
        SplitMix64 a = new SplitMix64(99);
        long[] acc = new long[200_000];
        PublicGaussian.addFixed(new SplitMix64(99), acc.length, false, acc, 0);
        for (int k = 0; k < acc.length; k++) {
            assertThat(acc[k]).isEqualTo((long) Math.rint(PublicGaussian.next(a) * 0x1p32));
        }
        assertThatThrownBy(() -> PublicGaussian.addFixed(new SplitMix64(0), 5, false, new long[4], 0))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> PublicGaussian.fill(new SplitMix64(0), new double[4], 2, 3))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void toFixedRoundsTiesToEven() {
        assertThat(PublicGaussian.toFixed(0.5 * 0x1p-32)).isZero();
        assertThat(PublicGaussian.toFixed(1.5 * 0x1p-32)).isEqualTo(2);
        assertThat(PublicGaussian.toFixed(2.5 * 0x1p-32)).isEqualTo(2);
        assertThat(PublicGaussian.toFixed(-2.5 * 0x1p-32)).isEqualTo(-2);
        assertThat(PublicGaussian.toFixed(-0.0)).isZero();
        assertThat(PublicGaussian.toFixed(13.5)).isEqualTo(13L * (1L << 32) + (1L << 31));
        assertThat(PublicGaussian.toFixed(-13.999999999)).isEqualTo((long) Math.rint(-13.999999999 * 0x1p32));
        assertThat(PublicGaussian.toFixed(Math.nextDown(0.5) * 0x1p-32)).isZero();
    }

    /** One-sample KS on 400,000 draws; a correct generator fails with probability 1e-6. */
    @Test
    void kolmogorovSmirnov() {
        double[] sample = Arrays.copyOf(big, 400_000);
        double p = KolmogorovSmirnovTest.withDefaults().test(sample, N01::cumulativeProbability).getPValue();
        assertThat(p).isGreaterThan(1e-6);
    }

    /** Chi-square over 1,000 equiprobable bins on 4,000,000 draws; false failure 1e-6. */
    @Test
    void chiSquareOnEquiprobableBins() {
        int bins = 1000;
        double[] edges = new double[bins - 1];
        for (int i = 1; i < bins; i++) {
            edges[i - 1] = N01.inverseCumulativeProbability(i / (double) bins);
        }
        long[] counts = new long[bins];
        for (double z : big) {
            int b = Arrays.binarySearch(edges, z);
            counts[b >= 0 ? b + 1 : -b - 1]++;
        }
        double p = ChiSquareTest.withDefaults().test(counts).getPValue();
        assertThat(p).isGreaterThan(1e-6);
    }

    /**
     * Mean, variance, skewness and excess kurtosis z-scores on 4,000,000 draws (asymptotic standard errors
     * 1, √2, √6, √24 over √N); Bonferroni over the 4: each |z| ≤ 5.15, false failure ≤ 1e-6 in total.
     */
    @Test
    void moments() {
        double n = big.length;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        double s4 = 0;
        for (double z : big) {
            double z2 = z * z;
            s1 += z;
            s2 += z2;
            s3 += z2 * z;
            s4 += z2 * z2;
        }
        double limit = 5.15;
        assertThat(Math.abs(s1 / n) * Math.sqrt(n)).as("mean z").isLessThan(limit);
        assertThat(Math.abs(s2 / n - 1) * Math.sqrt(n / 2)).as("variance z").isLessThan(limit);
        assertThat(Math.abs(s3 / n) * Math.sqrt(n / 6)).as("skewness z").isLessThan(limit);
        // kurtosis: Var(Z^4) = 105 - 9 = 96
        assertThat(Math.abs(s4 / n - 3) * Math.sqrt(n / 96)).as("fourth moment z").isLessThan(limit);
    }

    /**
     * Tail frequencies P(|Z| > t) for t = 2, R, 4, 4.5 on 4,000,000 draws (normal approximation of the
     * binomial, Bonferroni over 4: |z| ≤ 5.15), and every draw within the proven bound.
     */
    @Test
    void tailFrequenciesAndBound() {
        double[] ts = {2.0, PublicGaussian.R, 4.0, 4.5};
        double n = big.length;
        for (double t : ts) {
            long c = 0;
            for (double z : big) {
                if (Math.abs(z) > t) {
                    c++;
                }
            }
            double p = 2 * N01.survivalProbability(t);
            double zScore = (c - n * p) / Math.sqrt(n * p * (1 - p));
            assertThat(Math.abs(zScore)).as("tail beyond %s: %d draws", t, c).isLessThan(5.15);
        }
        double max = 0;
        for (double z : big) {
            max = Math.max(max, Math.abs(z));
        }
        assertThat(max).isLessThan(PublicGaussian.MAX_ABS).isGreaterThan(4.5);
        long positive = Arrays.stream(big).filter(z -> z > 0).count();
        assertThat(Math.abs(positive - n / 2) / Math.sqrt(n / 4)).as("sign balance z").isLessThan(5.3);
    }

    /** The tail sampler alone against the normal law truncated to (R, ∞): KS, false failure 1e-6. */
    @Test
    void tailSamplerFollowsTheTruncatedNormal() {
        SplitMix64 s = new SplitMix64(7);
        double[] t = new double[100_000];
        for (int i = 0; i < t.length; i++) {
            t[i] = PublicGaussian.tail(s, false);
        }
        double sr = N01.survivalProbability(PublicGaussian.R);
        double p = KolmogorovSmirnovTest.withDefaults()
                .test(t, x -> x <= PublicGaussian.R ? 0 : 1 - N01.survivalProbability(x) / sr).getPValue();
        assertThat(p).isGreaterThan(1e-6);
        assertThat(PublicGaussian.tail(new SplitMix64(7), true)).isLessThan(-PublicGaussian.R);
    }

    /** The tail loop with scripted words: rejection, then the largest value reachable. */
    @Test
    void tailScriptedWordsAndTheRangeBound() {
        // words 0, 0: a = 53 ln2 / R ≈ 10.05, b = 53 ln 2: 2b < a², rejected.
        // then U1 = ((w >>> 11) + 1) 2^-53 with w = 0x7FF.. chosen for a ≈ 8, and U2 = 2^-53: accepted.
        long u1 = (long) Math.floor(StrictMath.exp(-8 * PublicGaussian.R) * 0x1p53) - 1;
        RandomBits scripted = new ScriptedWords(0L, 0L, u1 << 11, 0L);
        double x = PublicGaussian.tail(scripted, false);
        double a = -StrictMath.log((u1 + 1) * 0x1p-53) / PublicGaussian.R;
        assertThat(x).isEqualTo(PublicGaussian.R + a);
        assertThat(a).isCloseTo(8.0, within(1e-3));
        // the largest accepted a satisfies a² < 2·53·ln 2, so every output is below R + √(106 ln 2) < 12.23
        assertThat(PublicGaussian.R + Math.sqrt(106 * Math.log(2))).isLessThan(12.23).isLessThan(PublicGaussian.MAX_ABS);
    }

    @Test
    void slowPathWedgeIsExercisedAndDeterministic() {
        // layer 5, magnitude just above K[5]: a wedge candidate; scripted wedge uniform 0 accepts it.
        long[] k = PublicGaussian.thresholds();
        long u = k[5] + 1;
        long w = (u << 11) | 5;
        double x = PublicGaussian.slow(new ScriptedWords(0L), w);
        double[] xs = PublicGaussian.abscissae();
        assertThat(x).isEqualTo(u * (xs[5] * 0x1p-52)).isGreaterThan(xs[6]).isLessThan(xs[5]);
        // the same word with the sign bit: negative
        assertThat(PublicGaussian.slow(new ScriptedWords(0L), w | Long.MIN_VALUE)).isEqualTo(-x);
        // at the outer edge of layer 5 (u = 2^52 - 1) a wedge uniform of almost 1 rejects; the next word
        // (layer 3, u = 0) then takes the fast path and returns 0
        long outer = (((1L << 52) - 1) << 11) | 5;
        assertThat(PublicGaussian.slow(new ScriptedWords(-1L, 3L), outer)).isZero();
    }

}
