package io.privacygateway.mechanisms.accounting;

import io.privacygateway.mechanisms.param.DirectedDoubles;
import java.math.BigDecimal;

/**
 * Floating-point operations rounded in a stated direction, so that a computed privacy parameter is never
 * below (for {@code Up}) or above (for {@code Down}) the value of the same expression in exact real
 * arithmetic on the same double inputs.
 *
 * <p>How each bound is certified:
 * <ul>
 *   <li>{@code +} and {@code −}: the rounded sum {@code s} and its exact error by Knuth's TwoSum; the result
 *       is {@code s} when the error has the right sign (or is zero), otherwise the neighbouring double. This is
 *       exactly the directed-rounded sum (barring overflow, where ±∞ or ±{@code MAX_VALUE} is returned).</li>
 *   <li>{@code ×}, {@code ÷}, {@code √}: the rounded result and its exact residual by one {@link Math#fma}
 *       ({@code a·b − p}, {@code a − q·b}, {@code s·s − x}); these residuals are exact unless the result is
 *       within {@code 2^-969} of zero, where the result is moved one step unconditionally (a correctly
 *       rounded result is within half an ulp, so the neighbour is on the safe side).</li>
 *   <li>{@code ln}, {@code ln(1+x)}, {@code exp}: {@link StrictMath} (fdlibm, the same bits on every JVM, so
 *       replicas agree) is within one ulp of the exact value, so one {@link Math#nextUp}/{@link Math#nextDown}
 *       step gives a bound.</li>
 *   <li>{@link BigDecimal} to double: the nearest double, then stepped until it is on the right side.</li>
 * </ul>
 * NaN is never produced from finite inputs in the ranges the callers use; callers validate their inputs.
 */
public final class DirectedRounding {
    /** Below this magnitude the fma residuals may underflow; results are then stepped unconditionally. */
    private static final double TINY = 0x1p-969;

    private DirectedRounding() {}

    public static double addUp(double a, double b) {
        double s = a + b;
        if (Double.isInfinite(s)) {
            return s > 0 || Double.isInfinite(a) || Double.isInfinite(b) ? s : -Double.MAX_VALUE;
        }
        double bb = s - a;
        double err = (a - (s - bb)) + (b - bb);
        return err > 0 ? Math.nextUp(s) : s;
    }

    public static double addDown(double a, double b) {
        double s = a + b;
        if (Double.isInfinite(s)) {
            return s < 0 || Double.isInfinite(a) || Double.isInfinite(b) ? s : Double.MAX_VALUE;
        }
        double bb = s - a;
        double err = (a - (s - bb)) + (b - bb);
        return err < 0 ? Math.nextDown(s) : s;
    }

    public static double subUp(double a, double b) {
        return addUp(a, -b);
    }

    public static double subDown(double a, double b) {
        return addDown(a, -b);
    }

    public static double mulUp(double a, double b) {
        double p = a * b;
        if (Double.isInfinite(p)) { // a finite product below −MAX_VALUE rounds up to −MAX_VALUE, not −∞
            return p < 0 && Double.isFinite(a) && Double.isFinite(b) ? -Double.MAX_VALUE : p;
        }
        if (a == 0 || b == 0) {
            return p;
        }
        if (Math.abs(p) < TINY) { // one ulp up, but never above 0 for a negative product
            return (a > 0) == (b > 0) ? Math.nextUp(p) : Math.min(Math.nextUp(p), 0.0);
        }
        return Math.fma(a, b, -p) > 0 ? Math.nextUp(p) : p;
    }

    public static double mulDown(double a, double b) {
        double p = a * b;
        if (Double.isInfinite(p)) {
            return p > 0 ? Double.MAX_VALUE : p;
        }
        if (a == 0 || b == 0) {
            return p;
        }
        if (Math.abs(p) < TINY) { // one ulp down, but never below 0 for a positive product
            return (a > 0) == (b > 0) ? Math.max(Math.nextDown(p), 0.0) : Math.nextDown(p);
        }
        return Math.fma(a, b, -p) < 0 ? Math.nextDown(p) : p;
    }

    /** {@code a / b} rounded up; {@code b} finite and {@code > 0}. */
    public static double divUp(double a, double b) {
        double q = a / b;
        if (Double.isInfinite(q)) { // a finite quotient below −MAX_VALUE rounds up to −MAX_VALUE, not −∞
            return q < 0 && Double.isFinite(a) ? -Double.MAX_VALUE : q;
        }
        if (a == 0) {
            return q;
        }
        if (Math.abs(q) < TINY || Math.abs(a) < TINY) { // the residual a − q·b may underflow: one ulp up,
            return a > 0 ? Math.nextUp(q) : Math.min(Math.nextUp(q), 0.0); // never above 0 for a negative a
        }
        return Math.fma(-q, b, a) > 0 ? Math.nextUp(q) : q;
    }

    /** {@code a / b} rounded down; {@code b} finite and {@code > 0}. */
    public static double divDown(double a, double b) {
        double q = a / b;
        if (Double.isInfinite(q)) {
            return q > 0 ? Double.MAX_VALUE : q;
        }
        if (a == 0) {
            return q;
        }
        if (Math.abs(q) < TINY || Math.abs(a) < TINY) { // the residual a − q·b may underflow: one ulp down,
            return a > 0 ? Math.max(Math.nextDown(q), 0.0) : Math.nextDown(q); // never below 0 for a positive a
        }
        return Math.fma(-q, b, a) < 0 ? Math.nextDown(q) : q;
    }

    /** {@code √x} rounded up; {@code x >= 0}. */
    public static double sqrtUp(double x) {
        double s = Math.sqrt(x);
        if (x == 0 || Double.isInfinite(s)) {
            return s;
        }
        if (x < TINY) {
            return Math.nextUp(s);
        }
        return Math.fma(s, s, -x) < 0 ? Math.nextUp(s) : s;
    }

    /** {@code √x} rounded down; {@code x >= 0}. */
    public static double sqrtDown(double x) {
        double s = Math.sqrt(x);
        if (x == 0) {
            return s;
        }
        if (Double.isInfinite(s)) {
            return Double.MAX_VALUE;
        }
        if (x < TINY) {
            return Math.nextDown(s);
        }
        return Math.fma(s, s, -x) > 0 ? Math.nextDown(s) : s;
    }

    /** An upper bound of {@code ln x}, {@code x > 0}. */
    public static double logUp(double x) {
        return x == 1.0 ? 0.0 : Math.nextUp(StrictMath.log(x));
    }

    /** A lower bound of {@code ln x}, {@code x > 0}. */
    public static double logDown(double x) {
        return x == 1.0 ? 0.0 : Math.nextDown(StrictMath.log(x));
    }

    /** An upper bound of {@code ln(1 + x)}, {@code x > −1}. */
    public static double log1pUp(double x) {
        return x == 0 ? 0.0 : Math.nextUp(StrictMath.log1p(x));
    }

    /** A lower bound of {@code ln(1 + x)}, {@code x > −1}. */
    public static double log1pDown(double x) {
        return x == 0 ? 0.0 : Math.nextDown(StrictMath.log1p(x));
    }

    /** An upper bound of {@code e^x}. */
    public static double expUp(double x) {
        return x == 0 ? 1.0 : Math.nextUp(StrictMath.exp(x));
    }

    /** The smallest double {@code >= v} (may be +∞ above {@code MAX_VALUE}). */
    public static double toDoubleUp(BigDecimal v) {
        return DirectedDoubles.ceil(v);
    }

    /** The largest double {@code <= v} (may be −∞ below {@code −MAX_VALUE}). */
    public static double toDoubleDown(BigDecimal v) {
        return DirectedDoubles.floor(v);
    }
}
