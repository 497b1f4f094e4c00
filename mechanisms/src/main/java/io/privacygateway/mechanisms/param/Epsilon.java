package io.privacygateway.mechanisms.param;

/**
 * A pure differential-privacy parameter ε (δ = 0).
 *
 * <p>Valid values are finite and in {@code (0, 40]}: above 40 the randomized-response probabilities
 * round to 0 or 1 in double precision and the guarantee would be meaningless anyway.
 *
 * @param value the privacy loss bound; for every pair of inputs and every output set the probability
 *     ratio is at most {@code e^value}
 */
public record Epsilon(double value) implements Comparable<Epsilon> {
    /** Largest accepted ε. */
    public static final double MAX = 40.0;

    public Epsilon {
        Require.inHalfOpenRange("epsilon", value, 0.0, MAX);
    }

    public static Epsilon of(double value) {
        return new Epsilon(value);
    }

    /** Validates with a caller-chosen field name in the message (for configuration files). */
    public static Epsilon of(String field, double value) {
        Require.inHalfOpenRange(field, value, 0.0, MAX);
        return new Epsilon(value);
    }

    /** Sequential composition: the sum of two pure-DP costs. */
    public Epsilon plus(Epsilon other) {
        return new Epsilon(sumRoundedUp(value, other.value));
    }

    /** {@code e^ε} rounded to the nearest double (not a certified bound; see {@link ExpBounds}). */
    public double exp() {
        return Math.exp(value);
    }

    @Override
    public int compareTo(Epsilon o) {
        return Double.compare(value, o.value);
    }

    @Override
    public String toString() {
        return "ε=" + value;
    }

    /**
     * {@code a + b} rounded up: the exact rounding error of the floating-point sum (TwoSum, Knuth) says
     * whether the true sum lies above it, and only then is the next double returned, so a composed cost is
     * never understated and an exact sum is returned unchanged.
     */
    static double sumRoundedUp(double a, double b) {
        double s = a + b;
        double bb = s - a;
        double err = (a - (s - bb)) + (b - bb);
        return err > 0 ? Math.nextUp(s) : s;
    }
}
