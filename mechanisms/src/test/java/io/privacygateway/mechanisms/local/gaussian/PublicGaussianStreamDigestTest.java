package io.privacygateway.mechanisms.local.gaussian;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.coins.SplitMix64;
import org.junit.jupiter.api.Test;

/**
 * The public Gaussian stream is part of the wire format: device and gateway must derive bit-identical
 * directions Z from the same seed, on every platform. These digests pin the whole output stream — the
 * tables, the fast path, the slow path (about 1.5% of the words), the tail beyond R, {@code fill} at an
 * offset and the fused fixed-point kernel with both signs — over enough outputs that every branch is taken
 * many times. A change to any table entry, threshold, mask or branch changes a digest (written against the
 * mutants PIT found unchecked; docs/mutation-testing.md). The expected values were recorded from this
 * implementation, which {@code WireFormatGoldenTest} checks against the published golden vectors.
 */
class PublicGaussianStreamDigestTest {
    private static final int N = 300_000;

    /** FNV-1a over 64-bit words. */
    private static long mix(long h, long word) {
        for (int b = 0; b < 8; b++) {
            h ^= (word >>> (8 * b)) & 0xFF;
            h *= 0x100000001b3L;
        }
        return h;
    }

    private static final long FNV = 0xcbf29ce484222325L;

    @Test
    void theTablesAreThePublishedOnes() {
        long h = FNV;
        for (double v : PublicGaussian.abscissae()) {
            h = mix(h, Double.doubleToRawLongBits(v));
        }
        for (double v : PublicGaussian.densities()) {
            h = mix(h, Double.doubleToRawLongBits(v));
        }
        for (long v : PublicGaussian.thresholds()) {
            h = mix(h, v);
        }
        assertThat(h).isEqualTo(TABLES);
    }

    @Test
    void theStreamOfNextIsPinned() {
        SplitMix64 s = new SplitMix64(42);
        long h = FNV;
        int tail = 0;
        for (int i = 0; i < N; i++) {
            double z = PublicGaussian.next(s);
            if (Math.abs(z) > PublicGaussian.R) {
                tail++;
            }
            h = mix(h, Double.doubleToRawLongBits(z));
        }
        assertThat(tail).as("tail outputs").isGreaterThan(50);
        assertThat(h).isEqualTo(NEXT);
    }

    @Test
    void fillAtAnOffsetIsTheSameStream() {
        double[] out = new double[N + 7];
        PublicGaussian.fill(new SplitMix64(42), out, 7, N);
        long h = FNV;
        for (int i = 7; i < N + 7; i++) {
            h = mix(h, Double.doubleToRawLongBits(out[i]));
        }
        assertThat(h).isEqualTo(NEXT);
        assertThat(out[0]).isZero();
        assertThatThrownBy(() -> PublicGaussian.fill(new SplitMix64(1), new double[4], 2, 3))
                .isInstanceOf(IndexOutOfBoundsException.class);
        PublicGaussian.fill(new SplitMix64(1), new double[4], 1, 3); // exactly to the end
        PublicGaussian.fill(new SplitMix64(1), new double[4], 4, 0);
    }

    @Test
    void theFusedKernelAddsTheRoundedStreamWithEitherSign() {
        long[] plus = new long[N + 3];
        long[] minus = new long[N + 3];
        PublicGaussian.addFixed(new SplitMix64(42), N, false, plus, 3);
        PublicGaussian.addFixed(new SplitMix64(42), N, true, minus, 3);
        SplitMix64 s = new SplitMix64(42);
        for (int i = 0; i < N; i++) {
            long q = PublicGaussian.toFixed(PublicGaussian.next(s));
            assertThat(plus[i + 3]).isEqualTo(q);
            assertThat(minus[i + 3]).isEqualTo(-q);
        }
        assertThatThrownBy(() -> PublicGaussian.addFixed(new SplitMix64(1), 3, false, new long[4], 2))
                .isInstanceOf(IndexOutOfBoundsException.class);
        PublicGaussian.addFixed(new SplitMix64(1), 2, false, new long[4], 2); // exactly to the end
    }

    private static final long TABLES = 6576436648381973227L;
    private static final long NEXT = 1571098231767443827L;
}
