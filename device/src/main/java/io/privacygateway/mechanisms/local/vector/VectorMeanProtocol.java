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
 * {@link #estimate} gives an unbiased mean vector with a public standard error per coordinate.
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

    /**
     * The unbiased mean of a window's values from its state, before projection onto the feasible set.
     *
     * @param state the window's aggregate ({@link #stateLength()} counters)
     * @param n the number of reports added to it ({@code n ≥ 1})
     */
    VectorMeanEstimate estimate(long[] state, long n);

    /** The point of the feasible set nearest to {@code mean} in ℓ2 (a new array). */
    double[] project(double[] mean);

    /**
     * The public worst-case standard error of one coordinate of {@link #estimate} at {@code n} reports: the
     * largest over feasible values of the per-report standard deviation, divided by {@code √n} (closed form, no
     * data involved).
     */
    double worstStandardError(long n);
}
