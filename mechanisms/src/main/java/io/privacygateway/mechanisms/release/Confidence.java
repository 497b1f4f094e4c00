package io.privacygateway.mechanisms.release;

import io.privacygateway.mechanisms.param.ConfidenceLevel;
import org.apache.commons.statistics.distribution.NormalDistribution;

/** The normal quantiles behind published error bars (gateway side: devices never compute a bar). */
public final class Confidence {
    private static final NormalDistribution STANDARD_NORMAL = NormalDistribution.of(0, 1);

    private Confidence() {}

    /** The two-sided standard-normal quantile {@code z} with {@code P(|N(0,1)| <= z) = level}. */
    public static double twoSidedZ(ConfidenceLevel level) {
        return STANDARD_NORMAL.inverseCumulativeProbability(0.5 + level.value() / 2);
    }
}
