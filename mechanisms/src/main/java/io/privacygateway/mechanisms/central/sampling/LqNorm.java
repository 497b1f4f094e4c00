package io.privacygateway.mechanisms.central.sampling;

/** The three {@code l_q} norms for which the purifier and the lattice-ball sampler are implemented. */
public enum LqNorm {
    /** {@code ||x||₁ = Σ|x_i|} (cross-polytope balls). */
    L1,
    /** {@code ||x||₂} (Euclidean balls). */
    L2,
    /** {@code ||x||_∞ = max|x_i|} (cubes). */
    LINF;

    /** The exponent {@code q} ({@code +∞} for {@link #LINF}). */
    public double q() {
        return switch (this) {
            case L1 -> 1.0;
            case L2 -> 2.0;
            case LINF -> Double.POSITIVE_INFINITY;
        };
    }

    /**
     * {@code d^{1−1/q}}: the best constant in {@code ||x||₁ <= d^{1−1/q}·||x||_q} (1, √d or d), rounded up to
     * the next double for {@link #L2}.
     */
    public double l1Factor(int d) {
        return switch (this) {
            case L1 -> 1.0;
            case L2 -> Math.nextUp(Math.sqrt(d));
            case LINF -> d;
        };
    }

    /**
     * {@code ||(½, …, ½)||_q = d^{1/q}/2}: the largest {@code l_q} distance from a point of ℝ^d to the nearest
     * lattice point of ℤ^d (half the unit cube's {@code l_q} diameter), rounded up for {@link #L2}.
     */
    public double halfCubeDiagonal(int d) {
        return switch (this) {
            case L1 -> d / 2.0;
            case L2 -> Math.nextUp(Math.sqrt(d)) / 2.0;
            case LINF -> 0.5;
        };
    }

    /** {@code ||x||_q} of an integer vector, in double arithmetic (for diagnostics only). */
    public double norm(long[] z) {
        double acc = 0;
        for (long v : z) {
            double a = Math.abs((double) v);
            acc = switch (this) {
                case L1 -> acc + a;
                case L2 -> acc + a * a;
                case LINF -> Math.max(acc, a);
            };
        }
        return this == L2 ? Math.sqrt(acc) : acc;
    }
}
