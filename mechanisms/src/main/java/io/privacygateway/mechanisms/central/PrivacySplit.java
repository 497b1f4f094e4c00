package io.privacygateway.mechanisms.central;

import io.privacygateway.mechanisms.param.DirectedDoubles;
import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.Rational;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Arrays;

/**
 * Privacy arithmetic of a central release, rounded in the safe direction, written once.
 *
 * <ul>
 *   <li>{@link #split}: a privacy total (ε or ρ) cut into parts that a mechanism spends. Every part is
 *       rounded <em>down</em> and the last part is the exact remainder rounded down, so the exact sum of the
 *       parts (the {@link BigDecimal} value of every double) never exceeds the total. Splitting
 *       {@code ε·fc + ε·(1 − fc − fp) + ε·fp} in plain doubles exceeds ε by an ulp for many (ε, fc, fp).</li>
 *   <li>{@link #dyadicUp}: a noise parameter {@code numerator/denominator} (a scale or a variance) rounded
 *       <em>up</em> to a dyadic rational with denominator 2^20, from the exact quotient: more noise only lowers
 *       the privacy loss, and a quotient first rounded to a double could land just below the exact value.</li>
 *   <li>{@link #requirePurifiedShares} and {@link #requireApproximatePart}: the checks every purified release's
 *       parameters make on the shares and on the {@code (ε_apx, δ)} part (purified Gaussian, MWEM, worst-case
 *       chaining).</li>
 * </ul>
 */
public final class PrivacySplit {
    private static final BigInteger DYADIC = BigInteger.ONE.shiftLeft(20);

    private PrivacySplit() {}

    /**
     * Parts of {@code total} in proportion to {@code weights} (which should add up to 1): part i &lt; k−1 is
     * the largest double {@code <= total·weights[i]} (exact product), and the last part is the largest double
     * {@code <= total − Σ_{i<k−1} part_i} (exact difference), so {@code Σ part_i <= total} exactly.
     *
     * @param total a finite privacy total {@code > 0}
     * @param weights finite, {@code >= 0}, at least one; the last weight only decides whether the last part is
     *     0 (weight 0) or the remainder, which must then be positive
     */
    public static double[] split(double total, double... weights) {
        Require.finitePositive("total", total);
        Require.nonNull("weights", weights);
        if (weights.length == 0) {
            throw new IllegalArgumentException("weights must hold at least one weight");
        }
        BigDecimal exactTotal = new BigDecimal(total);
        BigDecimal used = BigDecimal.ZERO;
        double[] parts = new double[weights.length];
        int last = weights.length - 1;
        for (int i = 0; i < last; i++) {
            Require.finiteNonNegative("weights[" + i + "]", weights[i]);
            parts[i] = DirectedDoubles.floor(exactTotal.multiply(new BigDecimal(weights[i])));
            used = used.add(new BigDecimal(parts[i]));
        }
        Require.finiteNonNegative("weights[" + last + "]", weights[last]);
        if (weights[last] > 0) {
            parts[last] = DirectedDoubles.floor(exactTotal.subtract(used));
            if (!(parts[last] > 0)) {
                throw new IllegalArgumentException("weights leave no remainder for the last part: "
                        + Arrays.toString(weights));
            }
        }
        return parts;
    }

    /**
     * Checks the ε shares of a purified release: the count's share finite and {@code >= 0} (0 when the count is
     * public), {@code ε_apx} (the Gaussian part's ε before purification) and {@code ε'} (purification's) finite and
     * {@code > 0}. The checks run in that order.
     *
     * @throws IllegalArgumentException naming the first share that fails
     */
    public static void requirePurifiedShares(double epsilonCount, double epsilonApprox, double epsilonPrime) {
        Require.finiteNonNegative("epsilonCount", epsilonCount);
        Require.finitePositive("epsilonApprox", epsilonApprox);
        Require.finitePositive("epsilonPrime", epsilonPrime);
    }

    /**
     * Checks the {@code (ε_apx, δ)} part of a purified release: {@code ln δ} a valid {@link LogDelta}, the
     * purification mixing weight {@code ω} in {@code (0, 1)}, the zCDP {@code ρ} finite and {@code > 0}. The checks
     * run in that order.
     *
     * @throws IllegalArgumentException naming the first parameter that fails
     */
    public static void requireApproximatePart(double logDelta, double omega, double rho) {
        new LogDelta(logDelta);
        Require.inOpenRange("omega", omega, 0, 1);
        Require.finitePositive("rho", rho);
    }

    /** The exact sum of doubles (every double is a finite decimal). */
    public static BigDecimal exactSum(double... parts) {
        BigDecimal s = BigDecimal.ZERO;
        for (double p : parts) {
            s = s.add(new BigDecimal(p));
        }
        return s;
    }

    /**
     * The smallest dyadic rational with denominator 2^20 at or above {@code numerator/denominator}, computed
     * from the exact quotient.
     */
    public static Rational dyadicUp(BigDecimal numerator, BigDecimal denominator) {
        if (!(numerator.signum() > 0 && denominator.signum() > 0)) {
            throw new IllegalArgumentException("noise parameter must be a quotient of positive numbers, got "
                    + numerator + "/" + denominator);
        }
        BigInteger num = numerator.multiply(new BigDecimal(DYADIC)).divide(denominator, 0, RoundingMode.CEILING)
                .toBigIntegerExact();
        return Rational.of(num.max(BigInteger.ONE), DYADIC);
    }

    /** {@link #dyadicUp(BigDecimal, BigDecimal)} of two doubles, each taken exactly. */
    public static Rational dyadicUp(double numerator, double denominator) {
        Require.finitePositive("numerator", numerator);
        Require.finitePositive("denominator", denominator);
        return dyadicUp(new BigDecimal(numerator), new BigDecimal(denominator));
    }
}
