package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.workload.MechanismId;

/**
 * A locally differentially private frequency oracle over the finite domain {@code [0, k)}: the device
 * half ({@link #randomize}), the exact aggregation of its payloads ({@link #accumulate}) and an exact description
 * of its output distribution. The estimate and its variances are the gateway's
 * ({@code FrequencyOracleEstimator}, module {@code mechanisms}), which reads the public parameters the
 * implementations expose.
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
     * The exact probability that {@code randomize(value, publicBase, ·)} returns {@code payload} (zero for
     * malformed payloads). For privacy tests: the realised sampler is checked against it statistically,
     * and the ε-LDP ratio is checked against it exactly.
     */
    Rational outputProbability(int value, byte[] payload, long publicBase);
}
