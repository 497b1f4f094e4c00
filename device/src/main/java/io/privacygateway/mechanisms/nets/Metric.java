package io.privacygateway.mechanisms.nets;

/**
 * The one squared-distance function every net decision in this package is made with.
 *
 * <p>Device and server must build bit-identical nets, so the value of {@code ||u − v||₂²} is pinned
 * down as a fixed sequence of IEEE-754 double operations (Java 17 floating point is strict): coordinate
 * {@code i} is added, in increasing {@code i}, to accumulator {@code i mod 4}; the result is
 * {@code (s0 + s1) + (s2 + s3)}. Four accumulators break the add-latency chain; the order is part of
 * the definition.
 *
 * <p><b>Early exit is exact.</b> Each accumulator only grows (a rounded sum of non-negative terms), and
 * rounded addition is monotone, so the combination of partial accumulators never exceeds the final
 * value. When a partial value already exceeds the caller's bound the function returns it: the caller
 * learns "greater than bound" without the exact value; a returned value {@code ≤ bound} is always the
 * exact canonical value. Decisions are therefore identical with and without early exit.
 */
final class Metric {
    private Metric() {}

    /**
     * The canonical {@code ||p_a − p_b||₂²} of rows starting at offsets {@code a} and {@code b} of a
     * row-major array with {@code m} columns, or some value {@code > bound} when it exceeds
     * {@code bound}.
     */
    static double squaredDistance(double[] d, int a, int b, int m, double bound) {
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int i = 0;
        int m8 = m & ~7;
        while (i < m8) {
            double e0 = d[a + i] - d[b + i];
            double e1 = d[a + i + 1] - d[b + i + 1];
            double e2 = d[a + i + 2] - d[b + i + 2];
            double e3 = d[a + i + 3] - d[b + i + 3];
            double e4 = d[a + i + 4] - d[b + i + 4];
            double e5 = d[a + i + 5] - d[b + i + 5];
            double e6 = d[a + i + 6] - d[b + i + 6];
            double e7 = d[a + i + 7] - d[b + i + 7];
            s0 += e0 * e0;
            s1 += e1 * e1;
            s2 += e2 * e2;
            s3 += e3 * e3;
            s0 += e4 * e4;
            s1 += e5 * e5;
            s2 += e6 * e6;
            s3 += e7 * e7;
            i += 8;
            double partial = (s0 + s1) + (s2 + s3);
            if (partial > bound) {
                return partial;
            }
        }
        for (; i < m; i++) {
            double e = d[a + i] - d[b + i];
            switch (i & 3) {
                case 0 -> s0 += e * e;
                case 1 -> s1 += e * e;
                case 2 -> s2 += e * e;
                default -> s3 += e * e;
            }
        }
        return (s0 + s1) + (s2 + s3);
    }

    /** The exact canonical squared distance of two rows. */
    static double squaredDistance(double[] d, int a, int b, int m) {
        return squaredDistance(d, a, b, m, Double.POSITIVE_INFINITY);
    }

    /**
     * The squared unnormalized threshold {@code t²·m} for a separation {@code t} in the normalized metric
     * {@code ||u − v||₂/√m}: "within t" means canonical squared distance {@code ≤ t²m}.
     */
    static double threshold(double t, int m) {
        return t * t * m;
    }
}
