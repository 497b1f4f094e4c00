package io.privacygateway.mechanisms.projection;

import java.util.Arrays;

/**
 * Exact Euclidean projection onto the probability simplex {@code Δ_m = {p ∈ R^m : p ≥ 0, Σp = 1}},
 * the feasible set of a histogram workload (MECHANISMS.md §1, first row).
 *
 * <p><b>Algorithm.</b> The KKT conditions give {@code p_i = max(y_i − τ, 0)} for the unique {@code τ}
 * with {@code Σ max(y_i − τ, 0) = 1}. Sorting {@code y} decreasingly as {@code u_1 ≥ … ≥ u_m},
 * {@code τ = (Σ_{i≤ρ} u_i − 1)/ρ} with {@code ρ = max{j : u_j − (Σ_{i≤j} u_i − 1)/j > 0}}.
 * {@code O(m log m)} time. Source: Held, Wolfe and Crowder (1974); Duchi, Shalev-Shwartz, Singer and
 * Chandra, "Efficient projections onto the l1-ball for learning in high dimensions" (ICML 2008),
 * Figure 1; Condat, "Fast projection onto the simplex and the l1 ball" (Math. Program. 2016).
 *
 * <p><b>Guarantee.</b> Exact up to floating-point rounding: {@link ProjectionResult#dualityGap()} is
 * {@code 0.0}, {@code weights} is {@code null} (the point itself is the distribution over the labels),
 * {@code iterations} is 0. The result is non-negative; its sum is 1 up to rounding.
 */
public final class SimplexProjection implements ConvexProjection {
    private final int m;

    /** The projection onto {@code Δ_m}, {@code m >= 1}. */
    public SimplexProjection(int m) {
        this.m = Targets.requireDim("m", m);
    }

    @Override
    public int dim() {
        return m;
    }

    @Override
    public ProjectionResult project(double[] y) {
        Targets.requireTarget(y, m);
        double tau = threshold(y);
        double[] p = new double[m];
        for (int i = 0; i < m; i++) {
            p[i] = Math.max(y[i] - tau, 0.0);
        }
        return new ProjectionResult(p, 0.0, null, 0);
    }

    /** The KKT threshold {@code τ}. */
    static double threshold(double[] y) {
        double[] u = y.clone();
        Arrays.sort(u);
        double cumulative = 0;
        double tau = u[u.length - 1] - 1; // the value for ρ = 1, which always qualifies
        for (int j = 1; j <= u.length; j++) {
            double uj = u[u.length - j];
            cumulative += uj;
            double t = (cumulative - 1) / j;
            if (uj - t > 0) {
                tau = t;
            }
        }
        return tau;
    }
}
