package io.privacygateway.mechanisms.projection;

/** Dense vector kernels for the hull solver (four accumulators, so the JIT can pipeline the sums). */
final class Dots {
    private Dots() {}

    /** {@code Σ_{t<n} a[aOff+t]·b[bOff+t]}. Rounding error at most {@code γ_n Σ|a_t b_t|}. */
    static double dot(double[] a, int aOff, double[] b, int bOff, int n) {
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int t = 0;
        for (; t + 3 < n; t += 4) {
            s0 += a[aOff + t] * b[bOff + t];
            s1 += a[aOff + t + 1] * b[bOff + t + 1];
            s2 += a[aOff + t + 2] * b[bOff + t + 2];
            s3 += a[aOff + t + 3] * b[bOff + t + 3];
        }
        for (; t < n; t++) {
            s0 += a[aOff + t] * b[bOff + t];
        }
        return (s0 + s1) + (s2 + s3);
    }

    /** {@code Σ a_t²}. */
    static double normSq(double[] a) {
        return dot(a, 0, a, 0, a.length);
    }
}
