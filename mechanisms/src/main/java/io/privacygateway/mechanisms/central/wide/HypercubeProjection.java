package io.privacygateway.mechanisms.central.wide;

import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.projection.SimplexProjection;
import java.util.Arrays;

/**
 * Projection of a vector of marginal answers onto the feasible set {@code K = {A·p : p a distribution over
 * {0,1}^d}} (the hull of the answer vectors of all {@code 2^d} values), without materialising the {@code 2^d × K}
 * matrix: minimise {@code ½‖A p − y‖²} over the simplex by accelerated projected gradient (FISTA with restarts),
 * {@code A p} and {@code Aᵀ r} by Walsh–Hadamard transforms ({@link Hypercube}), step {@code 1/L} with
 * {@code L = C(d−1,k−1)·2^{d−k}}, the largest eigenvalue of {@code AᵀA} on the simplex's affine hull (AᵀA is
 * diagonal in the Walsh basis with eigenvalue {@code C(d−|U|, k−|U|)·2^{d−k}} at {@code U}, {@code |U| <= k}; the
 * constant direction {@code U = ∅} is fixed by the simplex). Stops when the Frank–Wolfe duality gap
 * {@code ⟨∇f(p), p⟩ − min_x ∇f(p)_x} is at most {@code tolerance}, or after {@code maxIterations}.
 *
 * <p>Post-processing of a pure output (the Laplace baseline): its data-dependent running time reveals nothing more.
 */
public final class HypercubeProjection {
    private final Hypercube cube;
    private final MarginalWorkload workload;
    private final double lipschitz;

    public HypercubeProjection(MarginalWorkload workload) {
        this.cube = new Hypercube(workload);
        this.workload = workload;
        int d = workload.attributeCount();
        int k = workload.way();
        this.lipschitz = MarginalWorkload.binomial(d - 1, k - 1) * Math.scalb(1.0, d - k);
    }

    /** The result: the projected answers and the certified gap reached. */
    public record Result(double[] answers, double gap, int iterations) {}

    /**
     * @param y the answers to project, in query order
     */
    public Result project(double[] y, double tolerance, int maxIterations) {
        Require.nonNull("y", y);
        if (y.length != workload.queryCount()) {
            throw new IllegalArgumentException("y must have " + workload.queryCount() + " entries");
        }
        int n = cube.size();
        int groups = workload.subsetCount();
        int per = workload.cellsPerSubset();
        SimplexProjection simplex = new SimplexProjection(n);
        double[] p = new double[n];
        Arrays.fill(p, 1.0 / n);
        double[] z = p.clone();
        double[] scratch = new double[n];
        double[] grad = new double[n];
        double[][] ap = new double[groups][per];
        double[][] r = new double[groups][per];
        double t = 1;
        double gap = Double.POSITIVE_INFINITY;
        double previousF = Double.POSITIVE_INFINITY;
        int it = 0;
        for (; it < maxIterations; it++) {
            // gradient at z
            double f = residual(z, y, scratch, ap, r);
            cube.adjoint(r, grad);
            double[] step = new double[n];
            for (int x = 0; x < n; x++) {
                step[x] = z[x] - grad[x] / lipschitz;
            }
            double[] next = simplex.project(step).point();
            // duality gap at the new point
            double fNext = residual(next, y, scratch, ap, r);
            cube.adjoint(r, grad);
            double inner = 0;
            double min = Double.POSITIVE_INFINITY;
            for (int x = 0; x < n; x++) {
                inner += grad[x] * next[x];
                min = Math.min(min, grad[x]);
            }
            gap = inner - min;
            double tNext = (1 + Math.sqrt(1 + 4 * t * t)) / 2;
            boolean restart = fNext > previousF;
            for (int x = 0; x < n; x++) {
                z[x] = restart ? next[x] : next[x] + (t - 1) / tNext * (next[x] - p[x]);
            }
            t = restart ? 1 : tNext;
            p = next;
            previousF = fNext;
            if (gap <= tolerance) {
                it++;
                break;
            }
        }
        double[][] out = new double[groups][per];
        cube.marginals(p, scratch, out);
        double[] flat = new double[y.length];
        for (int g = 0; g < groups; g++) {
            System.arraycopy(out[g], 0, flat, g * per, per);
        }
        return new Result(flat, gap, it);
    }

    /** {@code r = A p − y} (per group), returning {@code ½‖r‖²}. */
    private double residual(double[] p, double[] y, double[] scratch, double[][] ap, double[][] r) {
        cube.marginals(p, scratch, ap);
        int per = workload.cellsPerSubset();
        double f = 0;
        for (int g = 0; g < ap.length; g++) {
            for (int c = 0; c < per; c++) {
                r[g][c] = ap[g][c] - y[g * per + c];
                f += r[g][c] * r[g][c];
            }
        }
        return f / 2;
    }
}
