package io.privacygateway.mechanisms.param;

/**
 * The confidence level of published error bars: a probability in {@code (0, 1)}, typically 0.95 (its normal
 * quantile is the gateway's: {@code release.Confidence}).
 *
 * @param value probability that the true answer lies inside the error bar
 */
public record ConfidenceLevel(double value) {
    public ConfidenceLevel {
        Require.inOpenRange("confidence", value, 0.0, 1.0);
    }

    public static ConfidenceLevel of(double value) {
        return new ConfidenceLevel(value);
    }

    /** The failure probability {@code 1 - value}. */
    public double beta() {
        return 1.0 - value;
    }
}
