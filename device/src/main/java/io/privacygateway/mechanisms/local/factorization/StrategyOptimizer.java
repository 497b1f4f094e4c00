package io.privacygateway.mechanisms.local.factorization;

import java.util.SplittableRandom;

/**
 * Optimises an ε-LDP strategy matrix {@code Q} (p outputs × n values) for a linear workload {@code W}, in the spirit
 * of the workload factorization mechanism (McKenna, Maity, Mazumdar and Miklau, "A workload-adaptive mechanism for
 * linear queries under local differential privacy", VLDB 2020): minimise the expected total squared error of the
 * weighted least-squares reconstruction at uniform data, {@code L(Q) = tr[(Qᵀ D⁻¹ Q)⁻¹ WᵀW]} with
 * {@code D = diag(Q 1)} (the per-user total variance of {@code W x̂} is {@code L/n}).
 *
 * <p><b>Parametrisation (ours).</b> {@code Q[o][i] = (1 + (e^ε − 1) s[o][i]) / (p + (e^ε − 1) K)} with every
 * {@code s[o][i] ∈ [0, 1]} and every column of {@code s} summing to {@code K}: columns of {@code Q} sum to 1 and
 * every row's ratio is at most {@code e^ε} by construction, so every iterate is an ε-LDP strategy. It contains
 * randomized response ({@code p = n, K = 1, s = I}) and the subset-selection family. Projected gradient descent on
 * {@code s} (columns projected onto the capped simplex by bisection) with a backtracking step, from a seeded random
 * start: a deterministic function of (W, ε, p, K, iterations), so device and gateway derive the same strategy.
 */
public final class StrategyOptimizer {
    /** Halvings of the step per iteration before the descent gives up (2^-40 of the step it started from). */
    static final int MAX_HALVINGS = 40;

    private final double[][] gram;
    private final int n;
    private final int p;
    private final double e;
    private final double k;

    /**
     * @param workload W, one row per query over n values
     * @param epsilon ε (as a double)
     * @param outputs p
     * @param k K, the column sum of s, in {@code (0, p)}
     */
    public StrategyOptimizer(double[][] workload, double epsilon, int outputs, double k) {
        this(epsilon, outputs, k, gramOf(workload));
    }

    private StrategyOptimizer(double epsilon, int outputs, double k, double[][] gram) {
        this.n = gram.length;
        this.p = outputs;
        this.e = StrictMath.exp(epsilon);
        this.k = k;
        if (!(k > 0 && k < outputs)) {
            throw new IllegalArgumentException("K must be in (0, p), got " + k);
        }
        this.gram = gram;
    }

    /**
     * The optimiser for a workload given by its Gram matrix {@code WᵀW} (n × n, used as is, not copied): the
     * objective reads W only through it.
     */
    public static StrategyOptimizer ofGram(double[][] gram, double epsilon, int outputs, double k) {
        for (double[] r : gram) {
            if (r.length != gram.length) {
                throw new IllegalArgumentException("gram must be square, got a row of length " + r.length + " in a "
                        + gram.length + "-row matrix");
            }
        }
        return new StrategyOptimizer(epsilon, outputs, k, gram);
    }

    private static double[][] gramOf(double[][] workload) {
        int n = workload[0].length;
        double[][] gram = new double[n][n];
        for (double[] r : workload) {
            for (int i = 0; i < n; i++) {
                if (r[i] == 0) {
                    continue;
                }
                for (int j = 0; j < n; j++) {
                    gram[i][j] += r[i] * r[j];
                }
            }
        }
        return gram;
    }

    /** The default K: {@code p/(e^ε + 1)}, subset selection's optimal proportion. */
    public static double defaultK(double epsilon, int outputs) {
        return outputs / (StrictMath.exp(epsilon) + 1);
    }

    /** The multiples of {@link #defaultK} that {@link #withSearchedK} tries, in this order. */
    static final double[] K_MULTIPLIERS = {1, 1.5, 2, 3, 4};
    /** Optimiser steps of each trial run of {@link #withSearchedK}. */
    static final int K_SEARCH_ITERATIONS = 40;

    /**
     * The optimiser for {@code WᵀW} with K chosen for this workload and ε ({@code docs/wire-format.md} §8.1): for
     * {@code m} = 1, 1.5, 2, 3, 4 in turn, a trial run of {@value #K_SEARCH_ITERATIONS} steps from {@code seed} at
     * {@code K = m·defaultK} (skipped once {@code K >= p}); the search stops at the first {@code m} whose trial
     * loss is not lower than the best so far, and keeps the K of the lowest trial loss. A deterministic function
     * of (WᵀW, ε, p, seed), so device and gateway agree.
     *
     * <p>Why: {@link #defaultK} is subset selection's proportion, optimal for histograms. Structured workloads
     * at larger ε do better with more high-probability outputs per value: at ε = 4 the prefix workload over 128
     * buckets has per-user variance 101 at {@code 3·defaultK} against 124 at {@code defaultK}, all ranges over 32
     * buckets 301 against 391; at ε ≤ 1 the default stays best and the search stops after two trials. Trial
     * runs rank the multipliers as full runs do on every workload measured (docs/local-accuracy.md).
     *
     * @param gram {@code WᵀW}, n × n (used as is, not copied)
     */
    public static StrategyOptimizer withSearchedK(double[][] gram, double epsilon, int outputs, long seed) {
        double base = defaultK(epsilon, outputs);
        StrategyOptimizer best = ofGram(gram, epsilon, outputs, base);
        double bestLoss = best.loss(best.optimise(K_SEARCH_ITERATIONS, seed), null);
        for (int i = 1; i < K_MULTIPLIERS.length; i++) {
            double k = K_MULTIPLIERS[i] * base;
            if (!(k < outputs)) {
                break;
            }
            StrategyOptimizer trial = ofGram(gram, epsilon, outputs, k);
            double loss = trial.loss(trial.optimise(K_SEARCH_ITERATIONS, seed), null);
            if (!(loss < bestLoss)) {
                break;
            }
            best = trial;
            bestLoss = loss;
        }
        return best;
    }

    /** {@link #withSearchedK} for the workload {@code W} itself (its Gram matrix summed over the queries in order). */
    public static StrategyOptimizer withSearchedKFor(double[][] workload, double epsilon, int outputs, long seed) {
        return withSearchedK(gramOf(workload), epsilon, outputs, seed);
    }

    /** The K this optimiser was built with. */
    public double k() {
        return k;
    }

    /** Q of a parameter matrix s. */
    public double[][] strategy(double[][] s) {
        double z = p + (e - 1) * k;
        double[][] q = new double[p][n];
        for (int o = 0; o < p; o++) {
            for (int i = 0; i < n; i++) {
                q[o][i] = (1 + (e - 1) * s[o][i]) / z;
            }
        }
        return q;
    }

    /** Runs {@code iterations} projected-gradient steps from the seeded start; returns s. */
    public double[][] optimise(int iterations, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        double[][] s = new double[p][n];
        for (double[] r : s) {
            for (int i = 0; i < n; i++) {
                r[i] = rnd.nextDouble();
            }
        }
        project(s);
        double[][] g = new double[p][n];
        double loss = loss(s, g);
        double step = 1e-3;
        double[][] next = new double[p][n];
        for (int it = 0; it < iterations; it++) {
            double trial;
            for (int halvings = 0; ; halvings++) { // backtracking: halve the step until the loss falls
                for (int o = 0; o < p; o++) {
                    for (int i = 0; i < n; i++) {
                        next[o][i] = s[o][i] - step * g[o][i];
                    }
                }
                project(next);
                trial = loss(next, null);
                if (trial < loss || halvings == MAX_HALVINGS) {
                    break;
                }
                step /= 2;
            }
            if (!(trial < loss)) {
                break;
            }
            double[][] t = s;
            s = next;
            next = t;
            loss = loss(s, g);
            step *= 1.5;
        }
        return s;
    }

    /** {@code L(Q(s))}; fills the gradient with respect to s when {@code grad} is not null. */
    public double loss(double[][] s, double[][] grad) {
        double[][] q = strategy(s);
        return lossOf(q, grad == null ? null : grad, (e - 1) / (p + (e - 1) * k));
    }

    /** {@code L(Q)} of any strategy (rows: outputs), e.g. a rounded one; ∞ if {@code QᵀD⁻¹Q} is singular. */
    public double lossOf(double[][] q) {
        return lossOf(q, null, 0);
    }

    private double lossOf(double[][] q, double[][] grad, double chain) {
        int rows = q.length;
        double[] d = new double[rows];
        for (int o = 0; o < rows; o++) {
            double t = 0;
            for (int i = 0; i < n; i++) {
                t += q[o][i];
            }
            d[o] = t;
        }
        double[][] m = new double[n][n];
        for (int o = 0; o < rows; o++) {
            double[] r = q[o];
            double w = 1 / d[o];
            for (int i = 0; i < n; i++) {
                double v = r[i] * w;
                for (int j = 0; j < n; j++) {
                    m[i][j] += v * r[j];
                }
            }
        }
        double[][] mi = Dense.inverseSpd(m);
        if (mi == null) {
            return Double.POSITIVE_INFINITY;
        }
        double loss = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                loss += mi[i][j] * gram[j][i];
            }
        }
        if (grad != null) {
            double[][] a = Dense.multiply(Dense.multiply(mi, gram), mi);
            double[][] b = Dense.multiply(q, a);
            for (int o = 0; o < rows; o++) {
                double c = 0;
                for (int j = 0; j < n; j++) {
                    c += b[o][j] * q[o][j];
                }
                c /= d[o] * d[o];
                for (int i = 0; i < n; i++) {
                    grad[o][i] = (-2 * b[o][i] / d[o] + c) * chain;
                }
            }
        }
        return loss;
    }

    /** Projects every column of s onto {@code {0 <= s <= 1, Σ s = K}} (bisection on the shift). */
    void project(double[][] s) {
        for (int i = 0; i < n; i++) {
            double lo = Double.POSITIVE_INFINITY; // Σ clip(s − t) is p at t = min − 1 and 0 at t = max
            double hi = Double.NEGATIVE_INFINITY;
            for (int o = 0; o < p; o++) {
                lo = Math.min(lo, s[o][i] - 1);
                hi = Math.max(hi, s[o][i]);
            }
            for (int it = 0; it < 100; it++) {
                double t = (lo + hi) / 2;
                double sum = 0;
                for (int o = 0; o < p; o++) {
                    sum += Math.min(1, Math.max(0, s[o][i] - t));
                }
                if (sum > k) {
                    lo = t;
                } else {
                    hi = t;
                }
            }
            double t = (lo + hi) / 2;
            for (int o = 0; o < p; o++) {
                s[o][i] = Math.min(1, Math.max(0, s[o][i] - t));
            }
        }
    }
}
