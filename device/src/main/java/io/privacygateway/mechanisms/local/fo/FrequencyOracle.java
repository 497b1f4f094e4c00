package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.workload.MechanismId;

/**
 * A locally differentially private frequency oracle over the finite domain {@code [0, k)}: the device
 * half ({@link #randomize}) and the server half ({@link #accumulate}, {@link #estimate}) of one protocol,
 * with closed-form variances and an exact description of its output distribution.
 *
 * <p><b>Guarantee (ε-LDP, exactly, after rounding).</b> For every public base word {@code b}, every pair
 * of values {@code x, x'} and every payload {@code y}:
 * {@code P(randomize(x, b) = y) <= e^ε · P(randomize(x', b) = y)}, where the probability is over the
 * secret randomness only. All secret randomness is drawn through
 * {@link io.privacygateway.mechanisms.random.ExactSampler#bernoulli} (probabilities on the {@code 2^-53}
 * grid, rounded by {@link Grid} in the direction that keeps the ratio {@code <= e^ε}) and
 * {@link io.privacygateway.mechanisms.random.ExactSampler#uniformInt}, so every output probability is
 * the exact rational returned by {@link #outputProbability}. Public randomness (OLH's hash function, the
 * tree's level) comes from {@link io.privacygateway.mechanisms.coins.PublicCoins#stream} of the report's
 * base word; the bound holds for every value of it.
 *
 * <p><b>Aggregation.</b> The server state is a {@code long[]} of exact integer counts; accumulation is
 * addition, so merging partial aggregates is element-wise addition and the result does not depend on the
 * order of reports. A malformed payload (wrong length, index out of range, impossible encoding) is
 * rejected without touching the state.
 *
 * <p><b>Estimates.</b> {@link #estimate} is unbiased for the window's empirical frequencies
 * {@code f_x = #{i : x_i = x}/n} (the sum over the domain need not be 1, entries may be negative);
 * {@link #variances} and {@link #queryVariance} are the variances of that estimate for a fixed dataset
 * with frequencies {@code f}, over the mechanism's randomness (public coins treated as ideal uniform
 * randomness).
 *
 * <p>Implementations are immutable and thread-safe.
 */
public interface FrequencyOracle {
    /** The mechanism implemented. */
    MechanismId id();

    /** The pure ε of one report. */
    Epsilon epsilon();

    /** {@code k}: the values are {@code 0..k−1}. */
    int domainSize();

    /** The exact length of every valid payload, in bytes (fixed per instance). */
    int payloadBytes();

    /**
     * Device side: randomizes {@code value} into a payload, drawing exactly through
     * {@link ExactSampler#draws(RandomBits)} of {@code secret}.
     *
     * @param value the device's value, in {@code [0, k)}
     * @param publicBase the report's public-coin base word
     *     ({@link io.privacygateway.mechanisms.coins.PublicCoins#base})
     * @param secret the secret randomness
     */
    default byte[] randomize(int value, long publicBase, RandomBits secret) {
        return randomize(value, publicBase, ExactSampler.draws(secret));
    }

    /**
     * Device side: randomizes {@code value} into a payload with the given draws.
     *
     * <p>The sequence of calls made on {@code draws} (their count, kinds and parameters) is the same for
     * every value and every outcome of earlier draws; it depends only on the instance and on
     * {@code publicBase}. So the device's work does not reveal its value.
     *
     * @param value the device's value, in {@code [0, k)}
     * @param publicBase the report's public-coin base word
     * @param draws the secret draws
     */
    byte[] randomize(int value, long publicBase, SecretDraws draws);

    /** The number of counters in the server state. */
    int stateLength();

    /**
     * Server side: adds one report to {@code state} (exact integer additions).
     *
     * @return {@code false}, leaving {@code state} untouched, if the payload is malformed
     */
    boolean accumulate(byte[] payload, long publicBase, long[] state);

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
     * The exact probability that {@code randomize(value, publicBase, ·)} returns {@code payload} (zero for
     * malformed payloads). For privacy tests: the realised sampler is checked against it statistically,
     * and the ε-LDP ratio is checked against it exactly.
     */
    Rational outputProbability(int value, byte[] payload, long publicBase);
}
