package io.privacygateway.mechanisms.central.sampling;

import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.Rational;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/** Conversions from doubles to exact rational sampler parameters, rounded in a stated direction. */
public final class Rationals {
    private Rationals() {}

    /**
     * The smallest dyadic rational {@code m/2^k >= x} with {@code significantBits} significant bits
     * ({@code k >= 0}, so values {@code >= 2^significantBits} are rounded up to an integer). The relative
     * rounding is below {@code 2^{1−significantBits}}. Used for noise scales and variances, where rounding up
     * only adds noise.
     *
     * @param field the parameter name for the error message
     * @param x a finite number {@code > 0}
     * @param significantBits in {@code [1, 62]}
     */
    public static Rational ceilDyadic(String field, double x, int significantBits) {
        Require.finitePositive(field, x);
        Require.inRange("significantBits", significantBits, 1, 62);
        int k = Math.max(0, significantBits - 1 - Math.getExponent(x));
        BigInteger num = new BigDecimal(x).multiply(new BigDecimal(BigInteger.ONE.shiftLeft(k)))
                .setScale(0, RoundingMode.CEILING).toBigIntegerExact();
        return Rational.of(num, BigInteger.ONE.shiftLeft(k));
    }

    /** The exact decimal value of a rational, to {@code digits} significant digits (rounded half-even). */
    public static BigDecimal toBigDecimal(Rational r, int digits) {
        return new BigDecimal(r.numerator()).divide(new BigDecimal(r.denominator()),
                new MathContext(digits, RoundingMode.HALF_EVEN));
    }
}
