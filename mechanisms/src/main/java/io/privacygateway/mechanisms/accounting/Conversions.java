package io.privacygateway.mechanisms.accounting;

import static io.privacygateway.mechanisms.accounting.DirectedRounding.addUp;
import static io.privacygateway.mechanisms.accounting.DirectedRounding.divDown;
import static io.privacygateway.mechanisms.accounting.DirectedRounding.divUp;
import static io.privacygateway.mechanisms.accounting.DirectedRounding.log1pDown;
import static io.privacygateway.mechanisms.accounting.DirectedRounding.log1pUp;
import static io.privacygateway.mechanisms.accounting.DirectedRounding.logUp;
import static io.privacygateway.mechanisms.accounting.DirectedRounding.mulDown;
import static io.privacygateway.mechanisms.accounting.DirectedRounding.mulUp;
import static io.privacygateway.mechanisms.accounting.DirectedRounding.sqrtUp;
import static io.privacygateway.mechanisms.accounting.DirectedRounding.subUp;

import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.param.Require;
import java.math.BigDecimal;

/**
 * Conversions between pure DP, zCDP and (ε, δ)-DP, all rounded so that the computed ε or ρ is a valid
 * guarantee: a computed ε (or ρ obtained from ε) is never below the exact value of the formula; an inverse
 * (the largest ρ meeting a target ε) is never above the largest valid one.
 *
 * <h2>Formulas and sources</h2>
 * Write {@code L = ln(1/δ) = −ln δ > 0} (taken from {@link LogDelta}, so δ may be far below the double range).
 * <ol>
 *   <li><b>Pure → zCDP</b> (Bun &amp; Steinke 2016, Proposition 1.4): ε-DP implies (ε²/2)-zCDP.
 *       {@link #pureToRho}: computed exactly in {@link BigDecimal}, rounded up once.</li>
 *   <li><b>Gaussian mechanism</b> (Bun &amp; Steinke 2016, Proposition 1.6): adding {@code N(0, σ²)} to a
 *       statistic of l2 sensitivity Δ is {@code Δ²/(2σ²)}-zCDP. {@link #gaussianRho}.</li>
 *   <li><b>zCDP → (ε, δ), standard</b> (Bun &amp; Steinke 2016, Proposition 1.3): ρ-zCDP implies
 *       (ρ + 2√(ρ·L), δ)-DP for every δ &gt; 0. {@link #zcdpToEpsilonStandard}; inverse in closed form
 *       {@code ρ = (√(L+ε) − √L)² = ε²/(√(L+ε) + √L)²}, {@link #largestRhoStandard}.</li>
 *   <li><b>zCDP → (ε, δ), tighter</b> (Canonne, Kamath &amp; Steinke 2020, "The Discrete Gaussian for
 *       Differential Privacy", §2.3, Proposition 12 and Corollary 13, arXiv:2004.00010; the same bound is
 *       Balle et al. 2020, Theorem 21, and Asoodeh et al. 2021): a mechanism with Rényi divergence at most
 *       τ at order α &gt; 1 is (ε, δ)-DP for {@code δ = e^{(α−1)(τ−ε)}·(1 − 1/α)^α/(α − 1)}. With τ = αρ and
 *       solved for ε at a given δ:
 *       <pre>  ε(α) = αρ + (L − ln α)/(α − 1) + ln(1 − 1/α),   ε = inf_{α&gt;1} ε(α).</pre>
 *       Every α gives a valid ε, so the minimiser only needs to be good, not exact. With β = α − 1 (kept as
 *       the variable to keep precision near α = 1), {@code dε/dα = ρ − (L − ln α)/(α−1)²}, which is negative
 *       below and positive above the unique root of the increasing function
 *       {@code h(β) = ρβ² + ln(1+β) − L}; ε(α) is therefore unimodal and the root is found by bisection over
 *       the bit patterns of positive doubles (at most 64 steps, no starting guess or bracket needed).
 *       This is never looser than the standard bound: at {@code α = 1 + √(L/ρ)} the first two terms are
 *       exactly {@code ρ + 2√(ρL)} and the remaining {@code ln(1 − 1/α) − ln(α)/(α−1)} is negative.
 *       (It differs from the often-quoted {@code αρ + L/(α−1) + ln(1 − 1/α)} by the extra
 *       {@code −ln(α)/(α−1)}, which the cited proposition gives.) {@link #zcdpToEpsilonCks},
 *       {@link #cksEpsilonAt}; {@link #zcdpToEpsilon} returns the smaller of the two bounds.</li>
 *   <li><b>Inverse</b>: {@link #largestRho} finds the largest double ρ with {@code zcdpToEpsilon(ρ, δ) ≤ ε}
 *       by bisection over the bit patterns of doubles; the result always satisfies that test (so it is a
 *       valid ρ budget for the target), and the next double up fails it.</li>
 * </ol>
 *
 * <h2>Where rounding happens</h2>
 * Every floating operation on the path to a returned ε or ρ is rounded toward the safe side with
 * {@link DirectedRounding}: sums and products exactly (TwoSum / fma residuals), logarithms by one ulp step
 * from {@link StrictMath} (fdlibm, within one ulp). In {@code ε(α)}: {@code (1+β)ρ} up, {@code ln(1+β)} down
 * where it is subtracted, {@code (L − ln(1+β))/β} up, {@code ln(1 − 1/α)} up (as {@code ln β − ln(1+β)} for
 * β ≤ 1 and as {@code ln(1 + (−1/(1+β)))} with {@code 1/(1+β)} rounded down for β &gt; 1, avoiding
 * cancellation). A negative ε is reported as 0 ((ε, δ)-DP for ε &lt; 0 implies (0, δ)-DP). The search for
 * the minimising α uses plain doubles: it only affects tightness, never validity. Results can be +∞ (no
 * finite bound) when inputs are so large that the arithmetic overflows.
 */
public final class Conversions {
    private static final BigDecimal HALF = new BigDecimal("0.5");

    private Conversions() {}

    /**
     * The result of the tighter conversion: the ε bound and the Rényi order {@code α = 1 + alphaMinusOne}
     * at which it was evaluated (NaN when ρ = 0).
     *
     * @param epsilon the ε bound, {@code >= 0}
     * @param alphaMinusOne {@code α − 1 > 0} of the order used
     */
    public record EpsilonBound(double epsilon, double alphaMinusOne) {}

    /**
     * Pure ε-DP ⇒ (ε²/2)-zCDP (Bun &amp; Steinke 2016, Prop. 1.4), exact then rounded up.
     *
     * @param epsilon finite and {@code >= 0}
     */
    public static double pureToRho(double epsilon) {
        BigDecimal e = new BigDecimal(Require.finiteNonNegative("epsilon", epsilon));
        return DirectedRounding.toDoubleUp(e.multiply(e).multiply(HALF));
    }

    /**
     * The zCDP parameter {@code Δ²/(2σ²)} of the Gaussian mechanism (Bun &amp; Steinke 2016, Prop. 1.6),
     * rounded up.
     *
     * @param l2Sensitivity Δ, finite and {@code > 0}
     * @param sigma the noise standard deviation σ, finite and {@code > 0}
     */
    public static double gaussianRho(double l2Sensitivity, double sigma) {
        Require.finitePositive("l2Sensitivity", l2Sensitivity);
        Require.finitePositive("sigma", sigma);
        double numerator = mulUp(l2Sensitivity, l2Sensitivity);
        double denominator = mulDown(mulDown(sigma, sigma), 2.0);
        if (denominator == 0) {
            return Double.POSITIVE_INFINITY; // σ² underflows: no useful finite bound
        }
        return divUp(numerator, denominator);
    }

    /**
     * ρ-zCDP ⇒ (ρ + 2√(ρ·ln(1/δ)), δ)-DP (Bun &amp; Steinke 2016, Prop. 1.3), rounded up.
     *
     * @param rho finite and {@code >= 0}
     * @param logDelta ln δ (required)
     */
    public static double zcdpToEpsilonStandard(double rho, LogDelta logDelta) {
        Require.finiteNonNegative("rho", rho);
        double l = Require.nonNull("logDelta", logDelta).logInverse();
        if (rho == 0) {
            return 0.0;
        }
        return addUp(rho, 2.0 * sqrtUp(mulUp(rho, l)));
    }

    /**
     * The Canonne–Kamath–Steinke bound {@code ε(α)} (see the class comment) at the single order
     * {@code α = 1 + alphaMinusOne}, rounded up (clamped at 0). Valid for every α &gt; 1.
     *
     * @param rho finite and {@code >= 0}
     * @param logDelta ln δ (required)
     * @param alphaMinusOne α − 1, finite and {@code > 0}
     */
    public static double cksEpsilonAt(double rho, LogDelta logDelta, double alphaMinusOne) {
        Require.finiteNonNegative("rho", rho);
        double l = Require.nonNull("logDelta", logDelta).logInverse();
        Require.finitePositive("alpha - 1", alphaMinusOne);
        return Math.max(0.0, cksUp(rho, l, alphaMinusOne));
    }

    /**
     * The Canonne–Kamath–Steinke conversion {@code inf_{α>1} ε(α)}, evaluated at the minimising order found
     * by bisection and rounded up. Never looser than {@link #zcdpToEpsilonStandard} while the optimal order
     * {@code α* ≈ 1 + √(L/ρ)} is a double; when {@code L/ρ} is beyond the double range the order is capped at
     * {@code 1 + MAX_VALUE} and this bound alone can be looser ({@link #zcdpToEpsilon} takes the minimum).
     *
     * @param rho finite and {@code >= 0}
     * @param logDelta ln δ (required)
     */
    public static EpsilonBound zcdpToEpsilonCks(double rho, LogDelta logDelta) {
        Require.finiteNonNegative("rho", rho);
        double l = Require.nonNull("logDelta", logDelta).logInverse();
        if (rho == 0) {
            return new EpsilonBound(0.0, Double.NaN);
        }
        // Root of the increasing h(β) = ρβ² + ln(1+β) − L by bisection on the bit patterns of positive
        // doubles: hi always has h > 0, lo has h <= 0 (or is the smallest positive double).
        long lo = Double.doubleToRawLongBits(Double.MIN_VALUE);
        long hi = Double.doubleToRawLongBits(Double.MAX_VALUE);
        while (hi - lo > 1) {
            long mid = (lo + hi) >>> 1;
            double beta = Double.longBitsToDouble(mid);
            double h = rho * beta * beta + StrictMath.log1p(beta) - l; // StrictMath: same β on every JVM
            if (h > 0) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        double betaLo = Double.longBitsToDouble(lo);
        double betaHi = Double.longBitsToDouble(hi);
        double epsLo = cksUp(rho, l, betaLo);
        double epsHi = cksUp(rho, l, betaHi);
        // NaN cannot arise for finite positive β; compare with <= so the lower order wins ties.
        return epsLo <= epsHi
                ? new EpsilonBound(Math.max(0.0, epsLo), betaLo)
                : new EpsilonBound(Math.max(0.0, epsHi), betaHi);
    }

    /**
     * ρ-zCDP ⇒ (ε, δ)-DP with the smaller of the standard and the Canonne–Kamath–Steinke bounds (both valid),
     * rounded up.
     *
     * @param rho finite and {@code >= 0}
     * @param logDelta ln δ (required)
     */
    public static double zcdpToEpsilon(double rho, LogDelta logDelta) {
        return Math.min(zcdpToEpsilonStandard(rho, logDelta), zcdpToEpsilonCks(rho, logDelta).epsilon());
    }

    /**
     * The closed-form inverse of the standard conversion, {@code ρ = ε²/(√(L+ε) + √L)²}, rounded down: the
     * exact standard conversion of the result is at most ε.
     *
     * @param epsilon finite and {@code > 0}
     * @param logDelta ln δ (required)
     */
    public static double largestRhoStandard(double epsilon, LogDelta logDelta) {
        Require.finitePositive("epsilon", epsilon);
        double l = Require.nonNull("logDelta", logDelta).logInverse();
        double s = addUp(sqrtUp(addUp(l, epsilon)), sqrtUp(l));
        double rho = divDown(mulDown(epsilon, epsilon), mulUp(s, s));
        return Math.max(0.0, rho);
    }

    /**
     * The largest double ρ such that {@link #zcdpToEpsilon zcdpToEpsilon(ρ, δ)} {@code ≤ epsilon}: the ρ
     * budget that certifies (ε, δ)-DP. Bisection over the bit patterns of doubles in {@code [0, MAX_VALUE]}
     * (at most 64 conversions). The result always passes the test (0 passes trivially), so it is a valid
     * budget even where rounding makes the computed conversion non-monotone by an ulp.
     *
     * @param epsilon the target ε, finite and {@code > 0}
     * @param logDelta the target ln δ (required)
     */
    public static double largestRho(double epsilon, LogDelta logDelta) {
        Require.finitePositive("epsilon", epsilon);
        Require.nonNull("logDelta", logDelta);
        // Invariant: lo passes the test (0 gives ε = 0), hi fails it (the conversion of MAX_VALUE is +∞, rounded
        // up, above every finite ε).
        long lo = Double.doubleToRawLongBits(0.0);
        long hi = Double.doubleToRawLongBits(Double.MAX_VALUE);
        while (hi - lo > 1) {
            long mid = (lo + hi) >>> 1;
            if (zcdpToEpsilon(Double.longBitsToDouble(mid), logDelta) <= epsilon) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return Double.longBitsToDouble(lo);
    }

    /** ε(α) at α = 1 + β, every step rounded up; may be negative or +∞. Package-private for its test. */
    static double cksUp(double rho, double l, double beta) {
        double a = mulUp(addUp(1.0, beta), rho);                    // αρ
        double log1pBetaDown = log1pDown(beta);                      // ln α, rounded down
        double b = divUp(subUp(l, log1pBetaDown), beta);             // (L − ln α)/(α − 1)
        double c;                                                    // ln(1 − 1/α) = ln(β/(1+β))
        if (beta <= 1.0) {
            c = subUp(logUp(beta), log1pBetaDown);
        } else {
            c = log1pUp(-divDown(1.0, addUp(1.0, beta)));
        }
        return addUp(addUp(a, b), c);
    }
}
