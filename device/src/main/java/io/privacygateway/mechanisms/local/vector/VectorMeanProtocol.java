package io.privacygateway.mechanisms.local.vector;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.ReportAccumulator;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SecretDraws;

/**
 * The local protocols of the {@code mean} family over bounded vectors: each device holds a vector of
 * {@link #dimension()} reals inside the workload's feasible set (an ℓ2 ball, {@link BallCandidates}, or a box,
 * {@link BoxCoordinates}), randomizes it to a few bytes that are ε-LDP for every value of the public coins, and the
 * gateway adds the reports into a fixed {@code long[]} state (exact integer additions, order-independent), from which
 * the gateway's {@code VectorMeanEstimator} (module {@code mechanisms}) gives an unbiased mean vector with a public
 * standard error per coordinate.
 */
public sealed interface VectorMeanProtocol extends ReportAccumulator permits BallCandidates, BoxCoordinates {

    /** The number of coordinates of a value. */
    int dimension();

    /**
     * Refuses a value outside the feasible set (wrong length, a non-finite coordinate, outside the ball or box).
     *
     * @throws IllegalArgumentException naming what is wrong, never echoing the value's coordinates
     */
    void checkValue(double[] value);

    /**
     * Device side: the report of {@code value} (checked by {@link #checkValue}) at these coordinates.
     *
     * @param draws the device's secret randomness (a {@code SecureRandom} through the exact samplers)
     */
    byte[] randomize(double[] value, ReportCoordinates coordinates, SecretDraws draws);

    /** As {@link #randomize(double[], ReportCoordinates, SecretDraws)} with draws from these secret bits. */
    default byte[] randomize(double[] value, ReportCoordinates coordinates, RandomBits secret) {
        return randomize(value, coordinates, ExactSampler.draws(secret));
    }
}
