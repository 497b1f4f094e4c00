package io.privacygateway.mechanisms.local.vector;

import io.privacygateway.mechanisms.param.Require;

/**
 * The gateway half of a {@link VectorMeanProtocol}: the unbiased mean of a window from the aggregate the protocol's
 * exact {@link VectorMeanProtocol#accumulate} built, its public standard error, and the projection onto the feasible
 * set. Reads only the public parameters the device protocol exposes.
 *
 * <p>Implementations are immutable and thread-safe.
 */
public sealed interface VectorMeanEstimator permits BallCandidatesEstimator, BoxCoordinatesEstimator {
    /** The estimator of {@code protocol}. */
    static VectorMeanEstimator of(VectorMeanProtocol protocol) {
        Require.nonNull("protocol", protocol);
        if (protocol instanceof BallCandidates ball) {
            return new BallCandidatesEstimator(ball);
        }
        return new BoxCoordinatesEstimator((BoxCoordinates) protocol);
    }

    /** The device protocol estimated. */
    VectorMeanProtocol protocol();

    /**
     * The unbiased mean of a window's values from its state, before projection onto the feasible set.
     *
     * @param state the window's aggregate ({@link VectorMeanProtocol#stateLength()} counters)
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
