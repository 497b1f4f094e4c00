package io.privacygateway.mechanisms.local;

import io.privacygateway.mechanisms.local.fo.FrequencyOracleProtocol;
import io.privacygateway.mechanisms.local.fo.FrequencyOracleProtocolEstimator;
import io.privacygateway.mechanisms.local.gaussian.GaussianSignEstimator;
import io.privacygateway.mechanisms.local.gaussian.GaussianSignProtocol;
import io.privacygateway.mechanisms.local.mean.MeanEstimator;
import io.privacygateway.mechanisms.local.mean.MeanProtocol;
import io.privacygateway.mechanisms.param.Require;

/**
 * The gateway half of a {@link LocalProtocol}: the unbiased estimate of a window from the aggregate that the
 * protocol's exact {@link LocalProtocol#accumulate} built. The device module holds the protocol (parameters,
 * randomizer, payload layout, aggregation); the estimator reads the public parameters the protocol exposes.
 *
 * <p>Implementations are immutable and thread-safe.
 */
public interface LocalEstimator {
    /**
     * The estimator of {@code protocol}: for the protocols of {@code io.privacygateway.mechanisms.local.*} their
     * gateway half; a protocol that implements this interface itself (a test double, say) is its own estimator.
     *
     * @throws IllegalArgumentException if {@code protocol} is null or of a kind without an estimator
     */
    static LocalEstimator of(LocalProtocol protocol) {
        Require.nonNull("protocol", protocol);
        if (protocol instanceof LocalEstimator own) {
            return own;
        }
        if (protocol instanceof FrequencyOracleProtocol f) {
            return new FrequencyOracleProtocolEstimator(f);
        }
        if (protocol instanceof GaussianSignProtocol g) {
            return new GaussianSignEstimator(g);
        }
        if (protocol instanceof MeanProtocol m) {
            return new MeanEstimator(m);
        }
        throw new IllegalArgumentException("no estimator for protocol " + protocol.getClass().getName());
    }

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
