package io.privacygateway.mechanisms.accounting;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * High-precision reference functions for tests (independent of the code under test): ln and exp in
 * {@link BigDecimal}, accurate to about {@link #DIGITS} significant digits.
 */
public final class BigMath {
    public static final int DIGITS = 50;
    public static final MathContext MC = new MathContext(DIGITS + 10, RoundingMode.HALF_EVEN);
    private static final BigDecimal TWO = BigDecimal.valueOf(2);
    private static final BigDecimal HALF = new BigDecimal("0.5");
    private static final BigDecimal LN2 = atanhTimesTwo(BigDecimal.ONE.divide(BigDecimal.valueOf(3), MC));

    private BigMath() {}

    /** ln x for x > 0: x = y·2^k with y in [1, 2), ln y = 2·atanh((y−1)/(y+1)). */
    public static BigDecimal ln(BigDecimal x) {
        if (x.signum() <= 0) {
            throw new IllegalArgumentException("ln of non-positive " + x);
        }
        // Near 1 (x in [1/2, 2)) use x itself: z = (x−1)/(x+1) has |z| <= 1/3, and there is no k·ln 2 to
        // cancel against, so tiny logarithms keep their relative precision.
        boolean nearOne = x.compareTo(HALF) >= 0 && x.compareTo(TWO) < 0;
        int k = nearOne ? 0 : estimateExponent(x);
        // Exact reduction (powers of 1/2 are finite decimals), so y − 1 keeps full relative precision when
        // x is close to 1; only z is rounded.
        BigDecimal y = k >= 0 ? x.multiply(HALF.pow(k)) : x.multiply(TWO.pow(-k));
        while (!nearOne && y.compareTo(TWO) >= 0) {
            y = y.multiply(HALF);
            k++;
        }
        while (!nearOne && y.compareTo(BigDecimal.ONE) < 0) {
            y = y.multiply(TWO);
            k--;
        }
        BigDecimal z = y.subtract(BigDecimal.ONE).divide(y.add(BigDecimal.ONE), MC);
        return LN2.multiply(BigDecimal.valueOf(k), MC).add(atanhTimesTwo(z), MC);
    }

    public static BigDecimal ln(double x) {
        return ln(new BigDecimal(x));
    }

    /** e^x for any x: e^x = (e^{x/2^s})^{2^s} with |x/2^s| < 1/2, Taylor series. */
    public static BigDecimal exp(BigDecimal x) {
        if (x.signum() < 0) {
            return BigDecimal.ONE.divide(exp(x.negate()), MC);
        }
        int s = 0;
        BigDecimal r = x;
        while (r.compareTo(new BigDecimal("0.5")) > 0) {
            r = r.divide(TWO, MC);
            s++;
        }
        BigDecimal sum = BigDecimal.ONE;
        BigDecimal term = BigDecimal.ONE;
        BigDecimal tiny = BigDecimal.ONE.movePointLeft(DIGITS + 8);
        for (int i = 1; i < 1000; i++) {
            term = term.multiply(r, MC).divide(BigDecimal.valueOf(i), MC);
            sum = sum.add(term, MC);
            if (term.compareTo(tiny) < 0) {
                break;
            }
        }
        for (int i = 0; i < s; i++) {
            sum = sum.multiply(sum, MC);
        }
        return sum;
    }

    public static BigDecimal sqrt(BigDecimal x) {
        return x.sqrt(MC);
    }

    private static int estimateExponent(BigDecimal x) {
        // log2(x) from the decimal exponent: precision - scale - 1 is floor(log10 x) (±1).
        long log10 = (long) x.precision() - x.scale() - 1;
        return (int) Math.floor(log10 * 3.321928094887362);
    }

    /** 2·atanh(z) = 2·Σ z^{2i+1}/(2i+1), |z| < 1/2. */
    private static BigDecimal atanhTimesTwo(BigDecimal z) {
        BigDecimal z2 = z.multiply(z, MC);
        BigDecimal power = z;
        BigDecimal sum = z;
        BigDecimal tiny = BigDecimal.ONE.movePointLeft(DIGITS + 8);
        for (int i = 1; i < 10_000; i++) {
            power = power.multiply(z2, MC);
            BigDecimal term = power.divide(BigDecimal.valueOf(2L * i + 1), MC);
            sum = sum.add(term, MC);
            if (term.abs().compareTo(tiny) < 0) {
                break;
            }
        }
        return sum.multiply(TWO, MC);
    }
}
