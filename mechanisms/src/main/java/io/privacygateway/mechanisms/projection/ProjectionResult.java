package io.privacygateway.mechanisms.projection;

/**
 * The outcome of a {@link ConvexProjection}.
 *
 * <p>The arrays are freshly allocated for each call and owned by the caller (they are not copied
 * again, so mutating them changes this record).
 *
 * @param point the projection {@code w} (length {@code dim})
 * @param dualityGap a certified upper bound on {@code f(w) − min_K f} with {@code f(v) = ½‖v − y‖²}:
 *     {@code 0.0} for exact methods, otherwise the Frank–Wolfe gap {@code max_i ⟨w − y, w − a_i⟩}
 *     evaluated at exactly the returned {@code w}, plus a bound on the rounding error of that evaluation
 * @param weights for hull projections, convex weights {@code p} over the atoms ({@code p ≥ 0},
 *     {@code Σp = 1} up to rounding) with {@code w = Σ p_i a_i} computed from them; {@code null} for
 *     methods that do not work over atoms
 * @param iterations the number of solver iterations (0 for exact closed-form methods)
 */
public record ProjectionResult(double[] point, double dualityGap, double[] weights, int iterations) {
    public ProjectionResult {
        if (point == null) {
            throw new IllegalArgumentException("point is required");
        }
        if (!(dualityGap >= 0)) {
            throw new IllegalArgumentException("dualityGap must be >= 0, got " + dualityGap);
        }
        if (iterations < 0) {
            throw new IllegalArgumentException("iterations must be >= 0, got " + iterations);
        }
    }

    /** An upper bound on {@code ‖point − P_K(y)‖₂} implied by the gap: {@code √(2·dualityGap)}. */
    public double distanceBound() {
        return Math.sqrt(2 * dualityGap);
    }
}
