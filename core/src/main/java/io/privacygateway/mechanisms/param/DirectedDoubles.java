package io.privacygateway.mechanisms.param;

import java.math.BigDecimal;

/**
 * Conversions of exact decimals to doubles rounded in a chosen direction, so that a privacy parameter or
 * a privacy sum that has to be represented as a double is never understated (or overstated, where that is
 * the safe side). {@link BigDecimal#doubleValue()} rounds to nearest, i.e. at most one ulp away; the result
 * is stepped until the direction is certain, comparing exactly.
 */
public final class DirectedDoubles {
    private DirectedDoubles() {}

    /** The largest double {@code <= v} (−∞ below {@code −MAX_VALUE}). */
    public static double floor(BigDecimal v) {
        double d = v.doubleValue();
        if (d == Double.POSITIVE_INFINITY) {
            d = Double.MAX_VALUE;
        }
        while (Double.isFinite(d) && new BigDecimal(d).compareTo(v) > 0) {
            d = Math.nextDown(d);
        }
        return d;
    }

    /** The smallest double {@code >= v} (+∞ above {@code MAX_VALUE}). */
    public static double ceil(BigDecimal v) {
        double d = v.doubleValue();
        if (d == Double.NEGATIVE_INFINITY) {
            d = -Double.MAX_VALUE;
        }
        while (Double.isFinite(d) && new BigDecimal(d).compareTo(v) < 0) {
            d = Math.nextUp(d);
        }
        return d;
    }
}
