package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.workload.MechanismId;

/**
 * The gateway half of a {@link FrequencyOracle}: the unbiased frequency estimate from an aggregate the device
 * protocol's {@link FrequencyOracle#accumulate} built, and its closed-form variances. The device module holds the
 * oracle (parameters, randomizer, payload layout, exact aggregation, output law); this type reads the oracle's public
 * parameters and holds no state of its own beyond them.
 *
 * <p><b>Estimates.</b> {@link #estimate} is unbiased for the window's empirical frequencies
 * {@code f_x = #{i : x_i = x}/n} (the sum over the domain need not be 1, entries may be negative);
 * {@link #variances} and {@link #queryVariance} are the variances of that estimate for a fixed dataset
 * with frequencies {@code f}, over the mechanism's randomness (public coins treated as ideal uniform
 * randomness).
 *
 * <p>Implementations are immutable and thread-safe.
 */
public interface FrequencyOracleEstimator {
    /**
     * The estimator of {@code oracle} (any oracle of {@link FrequencyOracles}, {@link FactorizationOracle},
     * {@link FourierMarginals}).
     *
     * @throws IllegalArgumentException if {@code oracle} is null or of a kind without an estimator
     */
    static FrequencyOracleEstimator of(FrequencyOracle oracle) {
        Require.nonNull("oracle", oracle);
        if (oracle instanceof SupportCountOracle s) {
            return new SupportCountEstimator(s);
        }
        if (oracle instanceof HadamardResponse h) {
            return new HadamardEstimator(h);
        }
        if (oracle instanceof TreeMechanism t) {
            return new TreeEstimator(t);
        }
        if (oracle instanceof FactorizationOracle f) {
            return new FactorizationEstimator(f);
        }
        if (oracle instanceof FourierMarginals f) {
            return new FourierEstimator(f);
        }
        throw new IllegalArgumentException("no estimator for oracle " + oracle.getClass().getName());
    }

    /** The device protocol estimated. */
    FrequencyOracle oracle();

    /**
     * Server side: the unbiased frequency estimates {@code p̂_x}, {@code x ∈ [0, k)}, from the state of
     * {@code n >= 1} accepted reports.
     */
    double[] estimate(long[] state, long n);

    /**
     * {@code Var(p̂_x)} for every {@code x}, in closed form, for {@code n} reports of a dataset with
     * frequencies {@code frequencies} (length {@code k}, entries in {@code [0,1]}).
     */
    double[] variances(long n, double[] frequencies);

    /**
     * {@code Var(Σ_x c_x p̂_x)} in closed form, including the covariances between the {@code p̂_x} (the
     * variance of one linear query's answer).
     */
    double queryVariance(long n, double[] frequencies, double[] coefficients);

    /**
     * {@link #queryVariance} of every query {@code q} whose coefficients are the {@code q}-th coordinates of
     * the points, {@code c_q(x) = answers.get(x, q)} (a workload's answer vectors {@code Q(x)}); computed
     * in one batch so that per-call set-up is shared.
     *
     * @param answers {@code k} points (one per value) of any dimension {@code m}
     * @return the {@code m} query variances
     */
    double[] queryVariances(long n, double[] frequencies, PointSet answers);

    /**
     * {@code Cov(p̂)·u} for a fixed dataset with these frequencies: the covariance matrix of the
     * estimate applied to a vector over the domain (consistent with {@link #queryVariance}:
     * {@code uᵀ·covarianceTimes(u) = queryVariance(u)}). Used to bound the operator norm of the
     * answers' noise covariance for error bars.
     */
    double[] covarianceTimes(long n, double[] frequencies, double[] u);

    /**
     * The mean over values of {@code Var(p̂_x)} at uniform frequencies {@code 1/k} for {@code n} reports:
     * the planner's per-value prediction (closed form; for the tree, the approximation of
     * {@link TreeMechanism}).
     */
    static double predictedVariance(MechanismId id, int domainSize, Epsilon epsilon, long n) {
        return predictedVariance(FrequencyOracles.create(id, domainSize, epsilon), n);
    }

    /** {@link #predictedVariance(MechanismId, int, Epsilon, long)} for an existing oracle. */
    static double predictedVariance(FrequencyOracle oracle, long n) {
        int k = oracle.domainSize();
        double[] v = of(oracle).variances(n, FrequencyOracles.uniform(k));
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s / k;
    }

    /**
     * {@code Var(Σ_x c_x p̂_x)} at uniform frequencies for {@code n} reports: the predicted variance of one
     * linear query (covariances included).
     */
    static double predictedQueryVariance(FrequencyOracle oracle, long n, double[] coefficients) {
        return of(oracle).queryVariance(n, FrequencyOracles.uniform(oracle.domainSize()), coefficients);
    }
}
