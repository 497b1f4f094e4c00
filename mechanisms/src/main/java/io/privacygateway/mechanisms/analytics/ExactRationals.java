package io.privacygateway.mechanisms.analytics;

import io.privacygateway.mechanisms.param.DirectedDoubles;
import io.privacygateway.mechanisms.random.Rational;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/** Exact values of doubles and quotients, rounded in a stated direction, for exponents of exact samplers. */
public final class ExactRationals {
    private ExactRationals() {}

    /** The exact value of a finite double {@code x >= 0} (every double is a dyadic rational). */
    public static Rational of(double x) {
        if (!(x >= 0) || Double.isInfinite(x)) {
            throw new IllegalArgumentException("x must be a finite number >= 0, got " + x);
        }
        BigDecimal b = new BigDecimal(x);
        if (b.scale() <= 0) {
            return Rational.of(b.toBigIntegerExact(), BigInteger.ONE);
        }
        return Rational.of(b.unscaledValue(), BigInteger.TEN.pow(b.scale()));
    }

    /** The largest double {@code <= a/b} for {@code a >= 0} and an integer {@code b >= 1}, from the exact quotient. */
    public static double floorQuotient(double a, BigInteger b) {
        if (b.signum() <= 0) {
            throw new IllegalArgumentException("b must be >= 1, got " + b);
        }
        BigDecimal q = new BigDecimal(a).divide(new BigDecimal(b), new MathContext(60, RoundingMode.FLOOR));
        return DirectedDoubles.floor(q);
    }

    /** {@code r·k} for an integer {@code k >= 0}. */
    public static Rational times(Rational r, BigInteger k) {
        return Rational.of(r.numerator().multiply(k), r.denominator());
    }
}
