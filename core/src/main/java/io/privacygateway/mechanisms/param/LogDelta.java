package io.privacygateway.mechanisms.param;

/**
 * The natural logarithm of an approximate-DP parameter δ ∈ (0, 1).
 *
 * <p>δ is carried in log space because purification needs {@code ln(1/δ)} of order
 * {@code d·ln(d/ε')}, far below the smallest positive double (MECHANISMS.md §4).
 *
 * @param value {@code ln δ}: finite and {@code < 0}
 */
public record LogDelta(double value) {
    public LogDelta {
        if (!(Double.isFinite(value) && value < 0)) {
            throw new IllegalArgumentException("log(delta) must be a finite number < 0, got " + value);
        }
    }

    /** From δ itself (which must be in (0, 1)). */
    public static LogDelta ofDelta(double delta) {
        Require.inOpenRange("delta", delta, 0.0, 1.0);
        return new LogDelta(StrictMath.log(delta));
    }

    /** {@code ln(1/δ) > 0}. */
    public double logInverse() {
        return -value;
    }

    /** δ as a double; 0.0 when it underflows. */
    public double delta() {
        return StrictMath.exp(value);
    }

    @Override
    public String toString() {
        return "ln δ=" + value;
    }
}
