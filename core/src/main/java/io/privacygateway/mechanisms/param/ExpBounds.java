package io.privacygateway.mechanisms.param;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Certified bounds on {@code e^x}, used to round mechanism probabilities in the safe direction.
 *
 * <p>{@link StrictMath#exp} (fdlibm) is accurate to 1 ulp; multiplying by {@code 1 ∓ 2^-50} (itself rounded
 * to nearest, adding at most half an ulp) gives a double that is certainly below (resp. above) the
 * true value. The {@link #lowerBoundExact} variant sums the Taylor series in {@link BigDecimal} with
 * rounding toward zero: every partial sum of {@code Σ xⁱ/i!} is a lower bound of {@code e^x} for
 * {@code x >= 0}. Tests use it to check privacy ratios exactly.
 */
public final class ExpBounds {
    private static final double DOWN = 1.0 - 0x1p-50;
    private static final double UP = 1.0 + 0x1p-50;

    private ExpBounds() {}

    /** A double {@code <= e^x}. */
    public static double lower(double x) {
        return StrictMath.exp(x) * DOWN;
    }

    /** A double {@code >= e^x}. */
    public static double upper(double x) {
        return StrictMath.exp(x) * UP;
    }

    /** The largest x {@link #lowerBoundExact} accepts ({@code e^700} is near the largest double). */
    public static final double MAX_EXACT_EXPONENT = 700;

    /**
     * The certified lower bound {@code L <= e^ε} (about 40 significant digits) that every local randomizer rounds its
     * probabilities against (the frequency oracles' grid, the factorization mechanism's mixing): one bound, so that
     * a device and the gateway derive the same parameters from the same ε.
     */
    public static BigDecimal lowerBoundOfExp(Epsilon epsilon) {
        return lowerBoundExact(epsilon.value(), 40);
    }

    /**
     * An exact lower bound of {@code e^x} for {@code 0 <= x <= 700} (x taken as the exact binary value of the
     * double), correct to about {@code digits} significant digits: a partial sum of the Taylor series, whose terms
     * are all positive and each rounded down, held to {@code digits + 10} significant digits (rounded down) and
     * stopped at the first term whose addition leaves the sum unchanged. That term is below one unit in the last
     * place of the sum, so it cannot come while the terms still grow (for {@code i <= x} the i-th term is at least
     * every earlier one, hence at least {@code 1/(i+1) >= 1/701} of the sum); after it they fall by the ratio
     * {@code x/(i+1) < 1}, and the omitted tail is at most {@code (i+1)/(i+1−x) <= 702} such terms, far below the
     * stated precision.
     */
    public static BigDecimal lowerBoundExact(double x, int digits) {
        if (!(x >= 0 && x <= MAX_EXACT_EXPONENT)) {
            throw new IllegalArgumentException("x must be a finite number in [0, " + MAX_EXACT_EXPONENT + "], got " + x);
        }
        Require.positive("digits", digits);
        MathContext down = new MathContext(digits + 10, RoundingMode.DOWN);
        BigDecimal bx = new BigDecimal(x);
        BigDecimal term = BigDecimal.ONE;
        BigDecimal sum = BigDecimal.ONE;
        for (int i = 1; ; i++) {
            term = term.multiply(bx, down).divide(BigDecimal.valueOf(i), down);
            BigDecimal next = sum.add(term, down);
            if (next.compareTo(sum) == 0) {
                return sum;
            }
            sum = next;
        }
    }
}
