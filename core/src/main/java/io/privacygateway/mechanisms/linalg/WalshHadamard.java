package io.privacygateway.mechanisms.linalg;

/**
 * The unnormalised Walsh–Hadamard transform, in place: {@code a'(j) = Σ_i (−1)^{popcount(i & j)} a(i)} for an
 * array whose length is a power of two. One implementation for every user (Hadamard response, the heavy-hitter
 * sketch, the hypercube of the wide releases, the poisoning bounds).
 *
 * <p><b>Exactness.</b> On {@code long}s every intermediate value is bounded by {@code Σ_i |a(i)|}, so the result is
 * exact whenever that sum is below {@code 2^63}. On {@code double}s the butterflies are the textbook ones, in the
 * textbook stage order (span 1, 2, 4, …) for every coordinate; the loop order is cache-blocked (all stages with span
 * below {@value #BLOCK} inside each block first, then the remaining stages), which performs, for every coordinate,
 * the same additions in the same order, so the result is bit for bit the unblocked one.
 */
public final class WalshHadamard {
    /** Block size of the in-cache stages. */
    static final int BLOCK = 1 << 12;

    private WalshHadamard() {}

    /**
     * Transforms {@code a} in place.
     *
     * @throws IllegalArgumentException if the length is not a power of two
     */
    public static void transform(long[] a) {
        checkLength(a.length);
        for (int h = 1; h < a.length; h <<= 1) {
            for (int i = 0; i < a.length; i += h << 1) {
                for (int j = i; j < i + h; j++) {
                    long u = a[j];
                    long v = a[j + h];
                    a[j] = u + v;
                    a[j + h] = u - v;
                }
            }
        }
    }

    /**
     * Transforms {@code a} in place (cache-blocked; the stages of span {@value #BLOCK} and above two per pass, with
     * the same additions in the same order per coordinate as the textbook loop).
     *
     * @throws IllegalArgumentException if the length is not a power of two
     */
    public static void transform(double[] a) {
        int n = a.length;
        checkLength(n);
        int block = Math.min(n, BLOCK);
        for (int base = 0; base < n; base += block) {
            for (int h = 1; h < block; h <<= 1) {
                for (int i = base; i < base + block; i += h << 1) {
                    for (int j = i; j < i + h; j++) {
                        double x = a[j];
                        double y = a[j + h];
                        a[j] = x + y;
                        a[j + h] = x - y;
                    }
                }
            }
        }
        int h = block;
        for (; (h << 1) < n; h <<= 2) { // two stages (spans h and 2h) per pass
            int h2 = h << 1;
            for (int i = 0; i < n; i += h2 << 1) {
                for (int j = i; j < i + h; j++) {
                    double x0 = a[j];
                    double x1 = a[j + h];
                    double x2 = a[j + h2];
                    double x3 = a[j + h2 + h];
                    double s0 = x0 + x1;
                    double d0 = x0 - x1;
                    double s1 = x2 + x3;
                    double d1 = x2 - x3;
                    a[j] = s0 + s1;
                    a[j + h] = d0 + d1;
                    a[j + h2] = s0 - s1;
                    a[j + h2 + h] = d0 - d1;
                }
            }
        }
        for (; h < n; h <<= 1) {
            for (int i = 0; i < n; i += h << 1) {
                for (int j = i; j < i + h; j++) {
                    double x = a[j];
                    double y = a[j + h];
                    a[j] = x + y;
                    a[j + h] = x - y;
                }
            }
        }
    }

    private static void checkLength(int n) {
        if (Integer.bitCount(n) != 1) {
            throw new IllegalArgumentException("length must be a power of two, got " + n);
        }
    }
}
