package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.ExpBounds;
import io.privacygateway.mechanisms.random.DyadicProbability;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Certified rounding of mechanism probabilities onto the {@code 2^-53} grid of
 * {@link DyadicProbability}.
 *
 * <p>Every frequency oracle's privacy ratio reduces to an inequality of the form
 * {@code N · b <= a · (2^53 − N)} between a grid numerator {@code N} and rationals {@code a, b}, where
 * {@code a} contains a factor {@code e^ε}. We replace {@code e^ε} by the certified lower bound
 * {@code L = ExpBounds.lowerBoundExact(ε, 40) <= e^ε} and pick the largest {@code N} that satisfies the
 * inequality <em>exactly</em> (checked in {@link BigDecimal}); then the realised ratio is
 * {@code <= L <= e^ε}. The rounding can only lower the ratio, so the mechanism is ε-LDP exactly after
 * rounding, at a utility cost of at most one grid step.
 */
public final class Grid {
    public static final long ONE = DyadicProbability.ONE;
    static final BigDecimal ONE_BD = BigDecimal.valueOf(ONE);
    private static final MathContext DOWN = new MathContext(90, RoundingMode.DOWN);

    private Grid() {}

    /** A certified lower bound {@code L <= e^ε} (about 40 significant digits; {@link ExpBounds#lowerBoundOfExp}). */
    public static BigDecimal expLower(Epsilon eps) {
        return ExpBounds.lowerBoundOfExp(eps);
    }

    /**
     * The largest {@code N ∈ [0, 2^53]} with {@code N · b <= a · (2^53 − N)}, i.e. {@code N <= 2^53 a/(a+b)},
     * for {@code a, b >= 0} not both zero. The inequality is verified exactly.
     */
    public static long largestWithRatio(BigDecimal a, BigDecimal b) {
        if (a.signum() < 0 || b.signum() < 0 || a.add(b).signum() == 0) {
            throw new IllegalArgumentException("ratio terms must be >= 0 and not both 0, got " + a + ", " + b);
        }
        BigDecimal q = ONE_BD.multiply(a).divide(a.add(b), DOWN);
        long n = q.setScale(0, RoundingMode.FLOOR).longValueExact();
        n = Math.max(0, Math.min(ONE, n));
        while (n > 0 && !holds(n, a, b)) {
            n--; // cannot happen with a correctly rounded-down quotient; kept as a guard
        }
        while (n < ONE && holds(n + 1, a, b)) {
            n++; // recover a grid step lost to the rounded-down division
        }
        return n;
    }

    /** {@code n · b <= a · (2^53 − n)}, exactly. */
    static boolean holds(long n, BigDecimal a, BigDecimal b) {
        BigDecimal lhs = BigDecimal.valueOf(n).multiply(b);
        BigDecimal rhs = a.multiply(BigDecimal.valueOf(ONE - n));
        return lhs.compareTo(rhs) <= 0;
    }

    /** {@code num1 <= bound · num2} exactly: the construction-time self-checks of each oracle's ratio. */
    static boolean ratioAtMost(BigInteger num1, BigInteger num2, BigDecimal bound) {
        return new BigDecimal(num1).compareTo(bound.multiply(new BigDecimal(num2))) <= 0;
    }

    static BigDecimal bd(long v) {
        return BigDecimal.valueOf(v);
    }
}
