package io.privacygateway.mechanisms.local.gaussian;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.coins.SplitMix64;
import io.privacygateway.mechanisms.random.RandomBits;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@link PublicGaussian} at the exact edges of its comparisons, with scripted words: the table procedure
 * run on fresh arrays against the published listing, a magnitude exactly at the fast-path threshold
 * {@code K[i]} (not in the rectangle: the base layer goes to the tail), a wedge uniform whose {@code y}
 * equals {@code f(x)} exactly (rejected: the test is strict), a tail pair with {@code 2b = a²} exactly
 * (rejected), the sign of word 0, and empty ranges of {@code fill} and {@code addFixed}. The public
 * Gaussian stream is wire format, so each of these is observable by a device or a gateway.
 */
class PublicGaussianStreamThresholdsAndRangesTest {
    private static final double TWO_M53 = 0x1.0p-53;

    /** A scripted source that counts the words read. */
    static final class Script implements RandomBits {
        private final long[] words;
        int read;

        Script(long... words) {
            this.words = words;
        }

        @Override
        public long nextLong() {
            return words[read++];
        }
    }

    /** The inverse of {@link SplitMix64#mix64} (xor-shifts undone, multipliers inverted mod 2^64). */
    static long unmix64(long z) {
        BigInteger mod = BigInteger.ONE.shiftLeft(64);
        long inv1 = BigInteger.valueOf(0xBF58476D1CE4E5B9L).mod(mod).modInverse(mod).longValue();
        long inv2 = BigInteger.valueOf(0x94D049BB133111EBL).mod(mod).modInverse(mod).longValue();
        z = z ^ (z >>> 31) ^ (z >>> 62);
        z *= inv2;
        z = z ^ (z >>> 27) ^ (z >>> 54);
        z *= inv1;
        return z ^ (z >>> 30) ^ (z >>> 60);
    }

    /** A public stream whose first word is {@code w} (the words after it are SplitMix64's own). */
    static SplitMix64 streamStartingWith(long w) {
        return new SplitMix64(unmix64(w) - SplitMix64.GOLDEN);
    }

    /** The word with layer {@code i}, magnitude {@code u} and the given sign. */
    static long word(int i, long u, boolean negative) {
        return (negative ? Long.MIN_VALUE : 0L) | (u << 11) | i;
    }

    /**
     * The table procedure run on fresh arrays gives exactly the published Appendix A of
     * docs/wire-format.md ({@code X[0..256]}, {@code F[0..256]}, {@code K[0..255]}, arrays of exactly those
     * lengths) and {@code W[i] = X[i]·2^-52}; entries it must set are pre-filled with NaN / −1.
     */
    @Test
    void buildTablesOnFreshArraysGivesThePublishedListing() throws Exception {
        String doc = Files.readString(WireFormatGoldenTest.docPath(), StandardCharsets.UTF_8);
        String appendix = doc.substring(doc.indexOf("## Appendix A"));
        Matcher m = Pattern.compile("(?m)^\\s*(\\d+) (\\S+)\\s+(\\S+)\\s+(\\S+)$").matcher(appendix);
        double[] px = new double[257];
        double[] pf = new double[257];
        long[] pk = new long[256];
        int rows = 0;
        while (m.find()) {
            int i = Integer.parseInt(m.group(1));
            assertThat(i).isEqualTo(rows++);
            px[i] = Double.parseDouble(m.group(2));
            pf[i] = Double.parseDouble(m.group(3));
            if (i < 256) {
                pk[i] = Long.parseUnsignedLong(m.group(4).substring(2), 16);
            }
        }
        assertThat(rows).isEqualTo(257);

        double[] x = new double[257];
        double[] f = new double[257];
        long[] k = new long[256];
        double[] w = new double[256];
        Arrays.fill(x, Double.NaN);
        Arrays.fill(f, Double.NaN);
        Arrays.fill(k, -1L);
        Arrays.fill(w, Double.NaN);
        PublicGaussian.buildTables(x, f, k, w);
        for (int i = 0; i <= 256; i++) {
            assertThat(Double.doubleToRawLongBits(x[i])).as("X[%d]", i).isEqualTo(Double.doubleToRawLongBits(px[i]));
            assertThat(Double.doubleToRawLongBits(f[i])).as("F[%d]", i).isEqualTo(Double.doubleToRawLongBits(pf[i]));
        }
        for (int i = 0; i < 256; i++) {
            assertThat(k[i]).as("K[%d]", i).isEqualTo(pk[i]);
            assertThat(w[i]).as("W[%d]", i).isEqualTo(Math.scalb(px[i], -52));
        }
        // the listing's first rows are the two defining constants and V / f(R)
        assertThat(px[1]).isEqualTo(PublicGaussian.R);
        assertThat(px[0] * pf[1]).isCloseTo(PublicGaussian.V, org.assertj.core.api.Assertions.within(1e-18));
    }

    /**
     * A base-layer word with magnitude exactly {@code K[0]} is outside the rectangle: {@code next},
     * {@code fill}, {@code addFixed} and {@code slow} all send it to the tail, so the output is beyond
     * {@code R} (the rectangle's values are at most {@code K[0]·W[0] ≤ R}) with the word's sign.
     */
    @Test
    void magnitudeExactlyAtTheBaseThresholdGoesToTheTail() {
        long k0 = PublicGaussian.thresholds()[0];
        double rectangleEdge = k0 * (PublicGaussian.abscissae()[0] * 0x1.0p-52);
        assertThat(rectangleEdge).isLessThanOrEqualTo(PublicGaussian.R);
        for (boolean negative : new boolean[] {false, true}) {
            long w = word(0, k0, negative);
            assertThat(streamStartingWith(w).nextLong()).isEqualTo(w);
            double z = PublicGaussian.next(streamStartingWith(w));
            assertThat(Math.abs(z)).isGreaterThan(PublicGaussian.R);
            assertThat(z < 0).isEqualTo(negative);

            double[] out = new double[1];
            PublicGaussian.fill(streamStartingWith(w), out);
            assertThat(Math.abs(out[0])).isGreaterThan(PublicGaussian.R);
            assertThat(out[0] < 0).isEqualTo(negative);

            for (boolean negate : new boolean[] {false, true}) {
                long[] acc = new long[1];
                PublicGaussian.addFixed(streamStartingWith(w), 1, negate, acc, 0);
                assertThat(Math.abs(acc[0])).isGreaterThan((long) (PublicGaussian.R * 0x1p32));
                assertThat(acc[0] < 0).isEqualTo(negative ^ negate);
            }
        }
        // slow with scripted tail words: U1 = (2^52 + 1)·2^-53 gives a = −log(U1)/R, U2 = 2^-53 accepts
        long u1 = 1L << 52;
        double a = -StrictMath.log((u1 + 1) * TWO_M53) / PublicGaussian.R;
        Script s = new Script(u1 << 11, 0L);
        assertThat(PublicGaussian.slow(s, word(0, k0, false))).isEqualTo(PublicGaussian.R + a);
        assertThat(s.read).isEqualTo(2);
        Script neg = new Script(u1 << 11, 0L);
        assertThat(PublicGaussian.slow(neg, word(0, k0, true))).isEqualTo(-(PublicGaussian.R + a));
    }

    /**
     * In a wedge layer, a magnitude exactly {@code K[i]} is a wedge candidate: {@code slow} reads one
     * wedge uniform (scripted 0, which accepts) and returns {@code x = K[i]·W[i]}; one magnitude below is
     * in the rectangle and reads nothing.
     */
    @Test
    void magnitudeExactlyAtAWedgeThresholdReadsTheWedgeUniform() {
        int i = 5;
        long ki = PublicGaussian.thresholds()[i];
        double wi = PublicGaussian.abscissae()[i] * 0x1.0p-52;
        Script at = new Script(0L);
        assertThat(PublicGaussian.slow(at, word(i, ki, false))).isEqualTo(ki * wi);
        assertThat(at.read).isEqualTo(1);
        Script below = new Script();
        assertThat(PublicGaussian.slow(below, word(i, ki - 1, true))).isEqualTo(-((ki - 1) * wi));
        assertThat(below.read).isZero();
    }

    /** Word 0 (layer 0, magnitude 0, sign bit clear) gives +0.0, not −0.0, on the slow path's own check. */
    @Test
    void wordZeroIsPositiveZero() {
        Script s = new Script();
        assertThat(Double.doubleToRawLongBits(PublicGaussian.slow(s, 0L))).isEqualTo(0L);
        assertThat(Double.doubleToRawLongBits(PublicGaussian.slow(s, Long.MIN_VALUE)))
                .isEqualTo(Double.doubleToRawLongBits(-0.0));
        assertThat(Double.doubleToRawLongBits(PublicGaussian.next(streamStartingWith(0L)))).isEqualTo(0L);
    }

    /**
     * The wedge test is strict ({@code y < f(x)}): a wedge uniform whose {@code y = F[i] + U·(F[i+1] −
     * F[i])} equals {@code f(x)} exactly (found by bisection over the 2^53 uniforms) rejects the candidate,
     * and the draw starts over with the next word (layer 3, magnitude 0: the value 0).
     */
    @Test
    void wedgeEqualityRejects() {
        int i = 5;
        long[] kt = PublicGaussian.thresholds();
        double[] xs = PublicGaussian.abscissae();
        double[] fs = PublicGaussian.densities();
        double wi = xs[i] * 0x1.0p-52;
        for (long u = kt[i] + 1; u < kt[i] + 200; u++) {
            double x = u * wi;
            double fx = StrictMath.exp(-0.5 * (x * x));
            long lo = 0;
            long hi = (1L << 53) - 1;
            while (lo < hi) {
                long mid = (lo + hi) >>> 1;
                if (fs[i] + (mid * TWO_M53) * (fs[i + 1] - fs[i]) >= fx) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            if (fs[i] + (lo * TWO_M53) * (fs[i + 1] - fs[i]) != fx) {
                continue;
            }
            Script s = new Script(lo << 11, 3L);
            assertThat(PublicGaussian.slow(s, word(i, u, false))).isZero();
            assertThat(s.read).isEqualTo(2);
            // one uniform lower is strictly below f(x): accepted
            Script t = new Script((lo - 1) << 11);
            assertThat(PublicGaussian.slow(t, word(i, u, false))).isEqualTo(x);
            return;
        }
        throw new AssertionError("no wedge uniform with y = f(x) found");
    }

    /**
     * The tail test is strict ({@code 2b > a²}): a pair with {@code b + b = a·a} exactly (found by
     * bisection) is rejected and the next pair is used; one step further (larger {@code b}) accepts.
     */
    @Test
    void tailEqualityRejects() {
        double r = PublicGaussian.R;
        for (long k1 = 1L << 51; k1 < (1L << 51) + 1000; k1++) {
            double a = -StrictMath.log((k1 + 1) * TWO_M53) / r;
            double aa = a * a;
            long lo = 0;
            long hi = (1L << 53) - 1;
            while (lo < hi) { // smallest k2 with b + b <= a·a (b decreases as k2 grows)
                long mid = (lo + hi) >>> 1;
                double b = -StrictMath.log((mid + 1) * TWO_M53);
                if (b + b <= aa) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            double b = -StrictMath.log((lo + 1) * TWO_M53);
            if (b + b != aa) {
                continue;
            }
            long second = 1L << 52; // a2 = −log((2^52 + 1)·2^-53)/R ≈ ln 2 / R, accepted with U2 = 2^-53
            double a2 = -StrictMath.log((second + 1) * TWO_M53) / r;
            Script s = new Script(k1 << 11, lo << 11, second << 11, 0L);
            assertThat(PublicGaussian.tail(s, false)).isEqualTo(r + a2).isNotEqualTo(r + a);
            assertThat(s.read).isEqualTo(4);
            Script t = new Script(k1 << 11, (lo - 1) << 11);
            assertThat(PublicGaussian.tail(t, true)).isEqualTo(-(r + a));
            return;
        }
        throw new AssertionError("no tail pair with 2b = a² found");
    }

    /** Empty ranges are valid: {@code fill} and {@code addFixed} with nothing to do read no word. */
    @Test
    void emptyRangesAreValidAndReadNothing() {
        SplitMix64 s = new SplitMix64(9);
        PublicGaussian.fill(s, new double[0]);
        PublicGaussian.fill(s, new double[3], 0, 0);
        PublicGaussian.fill(s, new double[3], 3, 0);
        long[] acc = {5, 6, 7};
        PublicGaussian.addFixed(s, 0, false, acc, 0);
        PublicGaussian.addFixed(s, 0, true, acc, 3);
        PublicGaussian.addFixed(s, 0, false, new long[0], 0);
        assertThat(acc).containsExactly(5, 6, 7);
        assertThat(s.nextLong()).isEqualTo(new SplitMix64(9).nextLong());
    }

    /**
     * A range past the end is refused before anything is written or read, with the method's own message
     * (not an array store failure half-way).
     */
    @Test
    void rangesPastTheEndAreRefusedUpFront() {
        long[] acc = {1, 2, 3, 4};
        SplitMix64 s = new SplitMix64(4);
        for (int[] bad : new int[][] {{3, 2}, {1, 4}, {5, 0}, {-1, 1}, {0, 5}}) {
            assertThatThrownBy(() -> PublicGaussian.addFixed(s, bad[0], false, acc, bad[1]))
                    .isInstanceOf(IndexOutOfBoundsException.class)
                    .hasMessageContaining("is outside an array of length 4");
        }
        assertThat(acc).containsExactly(1, 2, 3, 4);
        double[] out = {1, 2, 3, 4};
        for (int[] bad : new int[][] {{2, 3}, {0, 5}, {5, 0}, {-1, 1}, {1, -1}, {Integer.MAX_VALUE, 1}}) {
            assertThatThrownBy(() -> PublicGaussian.fill(s, out, bad[0], bad[1]))
                    .isInstanceOf(IndexOutOfBoundsException.class)
                    .hasMessageContaining("is outside an array of length 4");
        }
        assertThat(out).containsExactly(1, 2, 3, 4);
        assertThat(s.nextLong()).isEqualTo(new SplitMix64(4).nextLong());
    }
}
