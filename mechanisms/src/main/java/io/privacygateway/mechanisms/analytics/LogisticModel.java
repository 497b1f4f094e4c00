package io.privacygateway.mechanisms.analytics;

import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;

/**
 * The erm family's logistic model on a grid: per report {@code ℓ(θ; x) = ln(1 + e^{−s_x θᵀφ_x})}, with
 * {@code s_x = +1} for the response's upper value and −1 for the lower; the objective of a window is
 * {@code J(θ) = F(θ) + (Λ/2)‖θ‖²}, {@code F = Σ_x c_x ℓ(θ; x)}, over the ball {@code ‖θ‖₂ <= B}. ℓ is convex,
 * {@code ‖φ_x‖}-Lipschitz and {@code ‖φ_x‖²/4}-smooth. Losses are evaluated with {@link StrictMath}, so every
 * evaluation of the same (θ, x) gives the same double.
 */
public final class LogisticModel {
    private final GridData grid;
    private final double[] sign;
    private final double radius;
    private final double regularization;

    private LogisticModel(GridData grid, double radius, double regularization) {
        this.grid = grid;
        this.radius = radius;
        this.regularization = regularization;
        this.sign = new double[grid.cells()];
        double upper = grid.grid().response().values().get(1);
        for (int x = 0; x < grid.cells(); x++) {
            sign[x] = grid.response(x) == upper ? 1 : -1;
        }
    }

    /** The model of an erm workload. */
    public static LogisticModel of(Workload w) {
        WorkloadSpec.Model m = w.spec().model();
        if (m == null) {
            throw new IllegalArgumentException("workload " + w.spec().id() + " declares no model");
        }
        return new LogisticModel(GridData.of(w), m.radius(), m.regularization());
    }

    public GridData grid() {
        return grid;
    }

    /** B: the radius of the parameter ball. */
    public double radius() {
        return radius;
    }

    /** λ: the per-report L2 penalty; the window objective uses {@code Λ = n·λ}. */
    public double regularization() {
        return regularization;
    }

    /** The Lipschitz constant of one report's loss: {@code max_x ‖φ_x‖}. */
    public double lipschitz() {
        return grid.maxFeatureNorm();
    }

    /** {@code s_x}: +1 or −1. */
    public double sign(int x) {
        return sign[x];
    }

    /** {@code ℓ(θ; x)}, stably: {@code z + ln(1 + e^{−z})} for {@code z = −sθᵀφ > 0}, else {@code ln(1 + e^z)}. */
    public double loss(double[] theta, int x) {
        double z = -sign[x] * Matrices.dot(theta, grid.featuresView(x));
        return z > 0 ? z + StrictMath.log1p(StrictMath.exp(-z)) : StrictMath.log1p(StrictMath.exp(z));
    }

    /** An upper bound on {@code ℓ(θ; x)} over the ball and the grid: {@code ln(1 + e^{B·max‖φ‖})}. */
    public double maxLoss() {
        double z = radius * lipschitz();
        return z + StrictMath.log1p(StrictMath.exp(-z));
    }

    /** {@code ∇ℓ(θ; x) = −s·σ(−sθᵀφ)·φ}, σ the logistic function. */
    public double[] gradient(double[] theta, int x) {
        double[] phi = grid.featuresView(x);
        double z = -sign[x] * Matrices.dot(theta, phi);
        double sig = z >= 0 ? 1 / (1 + StrictMath.exp(-z)) : StrictMath.exp(z) / (1 + StrictMath.exp(z));
        double[] g = new double[phi.length];
        for (int j = 0; j < phi.length; j++) {
            g[j] = -sign[x] * sig * phi[j];
        }
        return g;
    }

    /** {@code J(θ) = Σ c_x ℓ(θ; x) + (Λ/2)‖θ‖²}. */
    public double objective(long[] counts, double lambdaTotal, double[] theta) {
        double s = 0;
        for (int x = 0; x < counts.length; x++) {
            if (counts[x] != 0) {
                s += counts[x] * loss(theta, x);
            }
        }
        return s + lambdaTotal / 2 * Matrices.dot(theta, theta);
    }

    /** {@code ∇J(θ)}. */
    public double[] objectiveGradient(long[] counts, double lambdaTotal, double[] theta) {
        double[] g = new double[theta.length];
        for (int x = 0; x < counts.length; x++) {
            if (counts[x] != 0) {
                double[] gx = gradient(theta, x);
                for (int j = 0; j < g.length; j++) {
                    g[j] += counts[x] * gx[j];
                }
            }
        }
        for (int j = 0; j < g.length; j++) {
            g[j] += lambdaTotal * theta[j];
        }
        return g;
    }

    /** The smoothness of J: {@code Σ c_x ‖φ_x‖²/4 + Λ}. */
    public double smoothness(long[] counts, double lambdaTotal) {
        double s = 0;
        for (int x = 0; x < counts.length; x++) {
            if (counts[x] != 0) {
                double r = Matrices.norm(grid.featuresView(x));
                s += counts[x] * r * r / 4;
            }
        }
        return s + lambdaTotal;
    }

    /**
     * A public plug-in for the Hessian of J at θ: {@code n·E_u[σ'(θᵀφ)φφᵀ] + Λ·I} with {@code E_u} the uniform
     * distribution over the grid's cells (no data), {@code σ' = σ(1 − σ)}.
     */
    public double[][] uniformHessian(double[] theta, double n, double lambdaTotal) {
        int d = grid.dimension();
        double[][] h = new double[d][d];
        for (int x = 0; x < grid.cells(); x++) {
            double[] phi = grid.featuresView(x);
            double z = Matrices.dot(theta, phi);
            double sig = 1 / (1 + Math.exp(-z));
            double w = sig * (1 - sig) * n / grid.cells();
            for (int i = 0; i < d; i++) {
                for (int j = 0; j < d; j++) {
                    h[i][j] += w * phi[i] * phi[j];
                }
            }
        }
        for (int i = 0; i < d; i++) {
            h[i][i] += lambdaTotal + 1e-12;
        }
        return h;
    }

    /**
     * The minimiser of J over the ball, by accelerated projected gradient (FISTA with gradient restarts), stopped on
     * the Frank–Wolfe gap {@code ⟨∇J(θ), θ⟩ + B‖∇J(θ)‖ >= J(θ) − J*} (a certificate, computed in doubles).
     *
     * @param gapTolerance stop once the gap is at most this
     * @return the point and its gap
     */
    public Fit minimise(long[] counts, double lambdaTotal, double gapTolerance, int maxIterations) {
        int d = grid.dimension();
        double beta = Math.max(smoothness(counts, lambdaTotal), 1e-12);
        double[] x = new double[d];
        double[] yv = x.clone();
        double t = 1;
        for (int it = 0; it < maxIterations; it++) {
            double[] g = objectiveGradient(counts, lambdaTotal, yv);
            double[] next = new double[d];
            for (int j = 0; j < d; j++) {
                next[j] = yv[j] - g[j] / beta;
            }
            next = Matrices.projectToBall(next, radius);
            // gradient-based restart (O'Donoghue and Candès 2015): drop the momentum when it points uphill
            double uphill = 0;
            for (int j = 0; j < d; j++) {
                uphill += (yv[j] - next[j]) * (next[j] - x[j]);
            }
            double tNext = uphill > 0 ? 1 : (1 + Math.sqrt(1 + 4 * t * t)) / 2;
            double momentum = uphill > 0 ? 0 : (t - 1) / tNext;
            double[] y2 = new double[d];
            for (int j = 0; j < d; j++) {
                y2[j] = next[j] + momentum * (next[j] - x[j]);
            }
            x = next;
            yv = y2;
            t = tNext;
            if (it % 10 == 9 && frankWolfeGap(counts, lambdaTotal, x) <= gapTolerance) {
                break;
            }
        }
        return new Fit(x, frankWolfeGap(counts, lambdaTotal, x));
    }

    /** {@code max_{‖v‖<=B} ⟨∇J(θ), θ − v⟩ = ⟨∇J(θ), θ⟩ + B‖∇J(θ)‖}, an upper bound on {@code J(θ) − J*}. */
    public double frankWolfeGap(long[] counts, double lambdaTotal, double[] theta) {
        double[] g = objectiveGradient(counts, lambdaTotal, theta);
        return Math.max(0, Matrices.dot(g, theta) + radius * Matrices.norm(g));
    }

    /**
     * A fitted point.
     *
     * @param theta the point
     * @param gap its Frank–Wolfe gap (an upper bound on its excess objective)
     */
    public record Fit(double[] theta, double gap) {}
}
