package io.privacygateway.mechanisms.analytics;

import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.QueryFamily;
import io.privacygateway.mechanisms.workload.Workload;

/**
 * The exact (non-private) statistics the window-analytics families estimate, and the error measure of each
 * (what the planner, the benchmark and {@code simulate} compare answers with). Nothing here is published: it is
 * what only a simulation, which knows the data, can compute.
 *
 * <ul>
 *   <li>mode: the indicator of the most frequent label (ties to the first); error: 1 if the released label's
 *       count is below the largest count (or nothing was released), else 0;</li>
 *   <li>regression: the least-squares θ (pseudo-inverse when XᵀX is singular); error: the excess mean squared
 *       error {@code MSE(θ) − MSE(θ_OLS)}, {@code MSE(θ) = (1/2n)‖y − Xθ‖²};</li>
 *   <li>erm: the minimiser of {@code (1/n)Σℓ(θ; x_i) + (λ/2)‖θ‖²} over {@code ‖θ‖ <= B}; error: the excess of that
 *       regularized empirical risk over its minimum.</li>
 * </ul>
 */
public final class WindowStatistics {
    private WindowStatistics() {}

    /**
     * The exact (non-private) answer of a window with these counts, what an answer is compared with: the mean
     * answer {@link Workload#meanAnswer} for the linear families; for the window analytics the statistic itself
     * (mode: the indicator of the most frequent label, ties to the first; regression: the least-squares θ; erm: the
     * minimiser of the regularized empirical risk), see {@link #exactAnswer}.
     */
    public static double[] trueAnswer(Workload w, long[] counts) {
        return w.spec().family().isWindowAnalytics() ? exactAnswer(w, counts) : w.meanAnswer(counts);
    }

    /** The exact answer of a window (see the class comment); an empty window has no answer. */
    public static double[] exactAnswer(Workload w, long[] counts) {
        long n = total(w, counts);
        if (n == 0) {
            throw new IllegalArgumentException("the dataset is empty");
        }
        QueryFamily f = w.spec().family();
        return switch (f) {
            case MODE -> {
                double[] e = new double[counts.length];
                e[mode(counts)] = 1;
                yield e;
            }
            case REGRESSION -> leastSquares(GridData.of(w), counts);
            case ERM -> ermOptimum(LogisticModel.of(w), counts).theta();
            default -> throw new IllegalArgumentException("family " + f.wireName() + " is not a window analytics family");
        };
    }

    /** The index of the largest count, ties to the first. */
    public static int mode(long[] counts) {
        int best = 0;
        for (int i = 1; i < counts.length; i++) {
            if (counts[i] > counts[best]) {
                best = i;
            }
        }
        return best;
    }

    /** The least-squares coefficients of a window (pseudo-inverse of XᵀX). */
    public static double[] leastSquares(GridData g, long[] counts) {
        return Matrices.solve(g.secondMoment(counts), 0, g.crossMoment(counts));
    }

    /** The minimiser of the regularized empirical risk, to a Frank–Wolfe gap of {@code 1e-10·n}. */
    public static LogisticModel.Fit ermOptimum(LogisticModel m, long[] counts) {
        long n = 0;
        for (long c : counts) {
            n += c;
        }
        return m.minimise(counts, n * m.regularization(), 1e-10 * Math.max(1, n), 50_000);
    }

    /**
     * The family's error of an answer against the window's data (see the class comment).
     *
     * @throws IllegalArgumentException for an empty window or a linear family
     */
    public static double error(Workload w, long[] counts, Answer a) {
        long n = total(w, counts);
        if (n == 0) {
            throw new IllegalArgumentException("the dataset is empty");
        }
        return switch (w.spec().family()) {
            case MODE -> {
                int released = releasedIndex(a);
                long max = counts[mode(counts)];
                yield released >= 0 && counts[released] == max ? 0 : 1;
            }
            case REGRESSION -> {
                GridData g = GridData.of(w);
                yield g.mse(counts, a.estimates()) - g.mse(counts, leastSquares(g, counts));
            }
            case ERM -> {
                LogisticModel m = LogisticModel.of(w);
                double lambda = n * m.regularization();
                double best = m.objective(counts, lambda, ermOptimum(m, counts).theta());
                yield Math.max(0, (m.objective(counts, lambda, a.estimates()) - best) / n);
            }
            default -> throw new IllegalArgumentException("family " + w.spec().family().wireName()
                    + " is not a window analytics family");
        };
    }

    /** The index of the label a mode answer released, or −1 when it released none. */
    public static int releasedIndex(Answer a) {
        double[] e = a.estimates();
        for (int i = 0; i < e.length; i++) {
            if (e[i] == 1) {
                return i;
            }
        }
        return -1;
    }

    private static long total(Workload w, long[] counts) {
        if (counts == null || counts.length != w.universeSize()) {
            throw new IllegalArgumentException("counts must have " + w.universeSize() + " entries");
        }
        long n = 0;
        for (long c : counts) {
            if (c < 0) {
                throw new IllegalArgumentException("counts must be >= 0");
            }
            n = Math.addExact(n, c);
        }
        return n;
    }
}
