package io.privacygateway.mechanisms.random;

import java.math.BigDecimal;

/**
 * A probability on the grid {@code numerator / 2^53}, exactly representable and exactly sampled.
 *
 * <p>Mechanisms never sample an irrational probability such as {@code e^ε/(e^ε+1)}; they round it to
 * this grid in the direction that keeps the privacy ratio bound (see each mechanism's javadoc), and
 * {@link ExactSampler#bernoulli} realises the rounded value exactly. Tests read the exact value back
 * through {@link #exact()} to check probability ratios without floating-point error.
 *
 * @param numerator the numerator, in {@code [0, 2^53]}
 */
public record DyadicProbability(long numerator) {
    /** {@code log2} of the grid denominator. */
    public static final int BITS = 53;
    /** The grid denominator {@code 2^53}. */
    public static final long ONE = 1L << BITS;
    public static final DyadicProbability ZERO = new DyadicProbability(0);
    public static final DyadicProbability HALF = new DyadicProbability(ONE / 2);

    public DyadicProbability {
        if (numerator < 0 || numerator > ONE) {
            throw new IllegalArgumentException("probability numerator must be in [0, 2^53], got " + numerator);
        }
    }

    /** The largest grid value {@code <= p}. */
    public static DyadicProbability floor(double p) {
        check(p);
        return new DyadicProbability((long) Math.floor(p * ONE));
    }

    /** The smallest grid value {@code >= p}. */
    public static DyadicProbability ceil(double p) {
        check(p);
        return new DyadicProbability((long) Math.ceil(p * ONE));
    }

    private static void check(double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException("probability must be in [0, 1], got " + p);
        }
    }

    /** {@code 1 − p}, exact. */
    public DyadicProbability complement() {
        return new DyadicProbability(ONE - numerator);
    }

    /** The value as a double (exact: 53-bit numerators are representable). */
    public double value() {
        return numerator / (double) ONE;
    }

    /** The exact value. */
    public BigDecimal exact() {
        return new BigDecimal(numerator).divide(new BigDecimal(ONE));
    }
}
