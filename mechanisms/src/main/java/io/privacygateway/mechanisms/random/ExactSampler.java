package io.privacygateway.mechanisms.random;

/**
 * Exact samplers built from uniform 64-bit words: Bernoulli draws on the {@link DyadicProbability}
 * grid and uniform integers by rejection. These are the only primitives through which mechanisms use
 * secret randomness, so every output probability is a known rational number.
 */
public final class ExactSampler {
    private ExactSampler() {}

    /**
     * Returns {@code true} with probability exactly {@code p.numerator() / 2^53}: a uniform 53-bit
     * integer is compared against the numerator.
     */
    public static boolean bernoulli(RandomBits bits, DyadicProbability p) {
        return (bits.nextLong() >>> 11) < p.numerator();
    }

    /**
     * A uniform integer in {@code [0, n)} with probability exactly {@code 1/n} each (Lemire's
     * multiply-and-reject method on 32-bit words, unbiased).
     */
    public static int uniformInt(RandomBits bits, int n) {
        if (n <= 0) {
            throw new IllegalArgumentException("n must be >= 1, got " + n);
        }
        long range = n;
        long threshold = (1L << 32) % range;
        while (true) {
            long x = bits.nextLong() >>> 32; // uniform in [0, 2^32)
            long product = x * range;
            if ((product & 0xFFFFFFFFL) >= threshold) {
                return (int) (product >>> 32);
            }
        }
    }

    /** A uniform long in {@code [0, n)}, exactly, by rejection of the top partial block. */
    public static long uniformLong(RandomBits bits, long n) {
        if (n <= 0) {
            throw new IllegalArgumentException("n must be >= 1, got " + n);
        }
        if ((n & (n - 1)) == 0) {
            return bits.nextLong() & (n - 1);
        }
        long limit = Long.MAX_VALUE - (Long.MAX_VALUE % n);
        while (true) {
            long x = bits.nextLong() >>> 1;
            if (x < limit) {
                return x % n;
            }
        }
    }

    /** A uniform 53-bit grid value in {@code [0, 1)} as a double (public or simulation use). */
    public static double uniformDouble(RandomBits bits) {
        return (bits.nextLong() >>> 11) * 0x1.0p-53;
    }
}
