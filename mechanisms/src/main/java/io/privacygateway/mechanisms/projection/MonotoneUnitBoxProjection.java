package io.privacygateway.mechanisms.projection;

/**
 * Exact Euclidean projection onto {@code M = {w ∈ R^m : 0 ≤ w_1 ≤ w_2 ≤ … ≤ w_m ≤ 1}}, the feasible set
 * of a prefix (CDF) workload: the convex hull of the step vectors {@code q_t(x) = 1{x < t}}
 * (MECHANISMS.md §1, second row).
 *
 * <p><b>Algorithm.</b> Isotonic (non-decreasing) least-squares regression {@code z} of {@code y} by
 * pool-adjacent-violators (Ayer, Brunk, Ewing, Reid and Silverman 1955; Barlow, Bartholomew, Bremner and
 * Brunk, "Statistical inference under order restrictions", 1972), then {@code w = clip(z, 0, 1)}.
 * {@code O(m)} time.
 *
 * <p><b>Why clipping after PAVA is exact.</b> {@code w} lies in {@code M} (clipping preserves order), so
 * it suffices that {@code ⟨y − w, v − w⟩ ≤ 0} for every {@code v ∈ M}. Split {@code y − w = (y − z) +
 * (z − w)}. (i) PAVA returns blocks of consecutive indices on which {@code z} equals the block mean
 * of {@code y}, and a block is never split, so every prefix sum {@code P_j = Σ_{i=s}^{j} (y_i − z_i)}
 * inside a block {@code [s, e]} is {@code ≥ 0}, with {@code P_e = 0}. By Abel summation, for any
 * non-decreasing {@code v}: {@code Σ_{i∈block} (y_i − z_i) v_i = Σ_{j<e} P_j (v_j − v_{j+1}) ≤ 0}, with
 * equality when {@code v} is constant on the block. {@code w} is constant on every block (clipping a
 * constant gives a constant), hence {@code ⟨y − z, v − w⟩ = ⟨y − z, v⟩ ≤ 0}. (ii) {@code z_i − w_i} is
 * positive only where {@code w_i = 1 ≥ v_i} and negative only where {@code w_i = 0 ≤ v_i}, so each term
 * of {@code ⟨z − w, v − w⟩} is {@code ≤ 0}. Both parts are {@code ≤ 0}, which is the variational
 * characterisation of {@code P_M(y)}.
 *
 * <p><b>Guarantee.</b> Exact up to floating-point rounding (block means): {@code dualityGap} is
 * {@code 0.0}, {@code weights} is {@code null}, {@code iterations} is 0.
 */
public final class MonotoneUnitBoxProjection implements ConvexProjection {
    private final int m;

    /** The projection onto the monotone vectors of {@code [0,1]^m}, {@code m >= 1}. */
    public MonotoneUnitBoxProjection(int m) {
        this.m = Targets.requireDim("m", m);
    }

    @Override
    public int dim() {
        return m;
    }

    @Override
    public ProjectionResult project(double[] y) {
        Targets.requireTarget(y, m);
        double[] w = isotonic(y);
        double previous = 0.0;
        for (int i = 0; i < m; i++) {
            // clip to [0, 1]; the running max only removes a possible one-ulp disorder between rounded
            // block means, so the result lies in M exactly
            previous = Math.max(previous, Math.min(1.0, Math.max(0.0, w[i])));
            w[i] = previous;
        }
        return new ProjectionResult(w, 0.0, null, 0);
    }

    /** The non-decreasing least-squares fit of {@code y} (unit weights), by pool-adjacent-violators. */
    static double[] isotonic(double[] y) {
        int n = y.length;
        double[] sum = new double[n];
        int[] count = new int[n];
        int blocks = 0;
        for (double v : y) {
            sum[blocks] = v;
            count[blocks] = 1;
            blocks++;
            // pool while the previous block's mean exceeds the last block's mean
            while (blocks > 1 && sum[blocks - 2] * count[blocks - 1] > sum[blocks - 1] * count[blocks - 2]) {
                sum[blocks - 2] += sum[blocks - 1];
                count[blocks - 2] += count[blocks - 1];
                blocks--;
            }
        }
        double[] z = new double[n];
        int i = 0;
        for (int b = 0; b < blocks; b++) {
            double mean = sum[b] / count[b];
            for (int c = 0; c < count[b]; c++) {
                z[i++] = mean;
            }
        }
        return z;
    }
}
