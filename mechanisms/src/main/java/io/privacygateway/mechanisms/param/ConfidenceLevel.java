package io.privacygateway.mechanisms.param;

import org.apache.commons.statistics.distribution.NormalDistribution;

/**
 * The confidence level of published error bars: a probability in {@code (0, 1)}, typically 0.95.
 *
 * @param value probability that the true answer lies inside the error bar
 */
public record ConfidenceLevel(double value) {
    private static final NormalDistribution STANDARD_NORMAL = NormalDistribution.of(0, 1);

    public ConfidenceLevel {
        Require.inOpenRange("confidence", value, 0.0, 1.0);
    }

    public static ConfidenceLevel of(double value) {
        return new ConfidenceLevel(value);
    }

    /** The two-sided standard-normal quantile {@code z} with {@code P(|N(0,1)| <= z) = value}. */
    public double twoSidedZ() {
        return STANDARD_NORMAL.inverseCumulativeProbability(0.5 + value / 2);
    }

    /** The failure probability {@code 1 - value}. */
    public double beta() {
        return 1.0 - value;
    }
}
