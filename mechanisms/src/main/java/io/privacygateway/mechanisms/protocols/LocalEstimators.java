package io.privacygateway.mechanisms.protocols;

import io.privacygateway.mechanisms.local.LocalEstimator;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.local.fo.FrequencyOracleProtocol;
import io.privacygateway.mechanisms.local.fo.FrequencyOracleProtocolEstimator;
import io.privacygateway.mechanisms.local.gaussian.GaussianSignEstimator;
import io.privacygateway.mechanisms.local.gaussian.GaussianSignProtocol;
import io.privacygateway.mechanisms.local.mean.MeanEstimator;
import io.privacygateway.mechanisms.local.mean.MeanProtocol;
import io.privacygateway.mechanisms.param.Require;

/**
 * The gateway half of each local protocol, chosen in one place above the protocols' packages (as
 * {@link LocalProtocols} builds the device half): the interfaces of {@code mechanisms.local} never import their
 * implementations in the sub-packages.
 */
public final class LocalEstimators {
    private LocalEstimators() {}

    /**
     * The estimator of {@code protocol}: for the protocols of {@code io.privacygateway.mechanisms.local.*} their
     * gateway half; a protocol that implements {@link LocalEstimator} itself (a test double, say) is its own
     * estimator.
     *
     * @throws IllegalArgumentException if {@code protocol} is null or of a kind without an estimator
     */
    public static LocalEstimator of(LocalProtocol protocol) {
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
}
