package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.local.LocalEstimate;
import io.privacygateway.mechanisms.local.LocalEstimator;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.workload.Workload;
import java.util.List;

/**
 * The gateway half of a {@link FrequencyOracleProtocol}: estimates the universe histogram {@code p̂} with the
 * oracle's estimator and answers every query linearly, {@code mean = Σ_x p̂_x Q(x)} ({@link Workload#answersOf}).
 *
 * <p><b>Estimate.</b> One level with {@code mean = answersOf(p̂)} (unbiased for the window's mean answer),
 * per-query standard errors {@code sqrt(Var(Σ_x Q(x)_q p̂_x))} from the oracle's closed-form
 * {@link FrequencyOracleEstimator#queryVariance}, which <em>includes</em> the covariances between the
 * {@code p̂_x} (essential for the tree, whose leaves are strongly correlated), evaluated at the plug-in
 * frequencies {@code p̂} clipped to {@code [0, 1]} and renormalised to sum 1 (uniform if all clip to 0);
 * {@code noiseScale} = the largest standard error; {@code hull = null} (the pipeline projects onto
 * {@code K}); {@code epsilon = ε}; {@code radius = 0}; {@code biasBound = 0}.
 */
public final class FrequencyOracleProtocolEstimator implements LocalEstimator {
    private final FrequencyOracleProtocol protocol;
    private final Workload workload;
    private final FrequencyOracle oracle;
    private final FrequencyOracleEstimator estimator;

    public FrequencyOracleProtocolEstimator(FrequencyOracleProtocol protocol) {
        this.protocol = Require.nonNull("protocol", protocol);
        this.workload = protocol.workload();
        this.oracle = protocol.oracle();
        this.estimator = FrequencyOracleEstimator.of(oracle);
    }

    @Override
    public FrequencyOracleProtocol protocol() {
        return protocol;
    }

    /** The oracle's estimator. */
    public FrequencyOracleEstimator oracleEstimator() {
        return estimator;
    }

    @Override
    public LocalEstimate estimate(long[] state, long n) {
        double[] p = estimator.estimate(state, n);
        double[] mean = workload.answersOf(p);
        double[] f = plugIn(p);
        double[] se = estimator.queryVariances(n, f, workload.points());
        double trace = 0;
        double maxVar = 0;
        for (int j = 0; j < se.length; j++) {
            double v = Math.max(0, se[j]);
            trace += v;
            maxVar = Math.max(maxVar, v);
            se[j] = Math.sqrt(v);
        }
        double noise = operatorScale(n, f, maxVar, trace);
        LocalEstimate.Level level = new LocalEstimate.Level(mean, se, noise, null, oracle.epsilon().value(), 0);
        return new LocalEstimate(List.of(level), 0);
    }

    /** Above this universe size an oracle without a fast covariance product uses the trace bound. */
    private static final int POLARIZATION_LIMIT = 1024;

    /**
     * An estimate of {@code √λ_max} of the answers' noise covariance {@code Pᵀ·Cov(p̂)·P} ({@code P} the
     * N×m matrix of answer vectors) by power iteration from a fixed start, inflated by 5% because power
     * iteration approaches λ_max from below; never below the largest per-query standard error. The
     * Gaussian-width error bound needs this operator-norm scale: correlated answers (prefix sums, for
     * example) have a covariance far larger in norm than any single variance. When the covariance
     * product would be too costly it falls back to {@code √trace}, an upper bound.
     */
    private double operatorScale(long n, double[] f, double maxVar, double trace) {
        PointSet pts = workload.points();
        int m = pts.dim();
        int k = pts.size();
        boolean fast = oracle instanceof SupportCountOracle;
        if (!fast && k > POLARIZATION_LIMIT) {
            return Math.sqrt(trace);
        }
        double[] u = new double[m];
        for (int q = 0; q < m; q++) {
            u[q] = 1 + (q % 7) / 10.0;
        }
        normalize(u);
        double lambda = 0;
        double[] c = new double[k];
        for (int it = 0; it < 60; it++) {
            for (int x = 0; x < k; x++) {
                c[x] = pts.dot(x, u);
            }
            double[] v = pts.combine(estimator.covarianceTimes(n, f, c));
            double next = 0;
            for (int q = 0; q < m; q++) {
                next += u[q] * v[q];
            }
            if (normalize(v) == 0) {
                break;
            }
            u = v;
            boolean done = settled(next, lambda);
            lambda = Math.max(lambda, next);
            if (done) {
                break;
            }
        }
        return Math.max(Math.sqrt(maxVar), 1.05 * Math.sqrt(Math.max(0, lambda)));
    }

    /**
     * The power iteration's stop rule: the new Rayleigh quotient is within a relative {@code 10^-6} of the previous
     * one, the boundary included.
     */
    static boolean settled(double next, double previous) {
        return Math.abs(next - previous) <= 1e-6 * Math.abs(next);
    }

    private static double normalize(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x * x;
        }
        s = Math.sqrt(s);
        if (s > 0) {
            for (int i = 0; i < v.length; i++) {
                v[i] /= s;
            }
        }
        return s;
    }

    /** {@code p̂} clipped to {@code [0,1]} and renormalised to sum 1 (uniform if nothing is positive). */
    static double[] plugIn(double[] p) {
        double[] f = new double[p.length];
        double s = 0;
        for (int i = 0; i < p.length; i++) {
            f[i] = Math.min(1, Math.max(0, p[i]));
            s += f[i];
        }
        for (int i = 0; i < p.length; i++) {
            f[i] = s > 0 ? Math.min(1, f[i] / s) : 1.0 / p.length;
        }
        return f;
    }

    @Override
    public double[] expectedLevelMean(int level, double[] histogram) {
        if (level != 0) {
            throw new IllegalArgumentException("level must be 0 (frequency oracles have one level), got " + level);
        }
        return workload.answersOf(histogram);
    }
}
