package io.privacygateway.mechanisms.local;

/**
 * The gateway half of a {@link LocalProtocol}: the unbiased estimate of a window from the aggregate that the
 * protocol's exact {@link LocalProtocol#accumulate} built. The device module holds the protocol (parameters,
 * randomizer, payload layout, aggregation); the estimator reads the public parameters the protocol exposes.
 *
 * A protocol's estimator comes from {@code LocalEstimators.of} (package {@code protocols}, above the protocols).
 *
 * <p>Implementations are immutable and thread-safe.
 */
public interface LocalEstimator {
    /** The device protocol estimated. */
    LocalProtocol protocol();

    /** The unbiased estimate from the aggregate of {@code n >= 1} accepted reports. */
    LocalEstimate estimate(long[] state, long n);

    /**
     * The expectation of level {@code level}'s {@link LocalEstimate.Level#mean()} when the window's data
     * has the given histogram over the universe (frequencies summing to 1). For an unbiased protocol
     * this is the level's true mean; the planner uses it to rescale simulated noise to another n.
     */
    double[] expectedLevelMean(int level, double[] histogram);
}
