package io.privacygateway.mechanisms.robustness;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.local.fo.FrequencyOracleProtocol;
import io.privacygateway.mechanisms.local.fo.TreeMechanism;
import io.privacygateway.mechanisms.local.gaussian.GaussianSignProtocol;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.param.Require;

/**
 * The closed-form influence of one report ({@link Influence}) for one local pipeline: {@code n} times the
 * largest change of the window's answer when one report's payload is replaced by another accepted payload,
 * for the report's own public coins ({@link #atCoordinates}) and for the worst coins ({@link #worst}).
 *
 * <p>A device that is not running the real randomizer may send any well-formed payload, and it may try many
 * device ids to pick coins it likes; these two maxima cover both. Every implementation is checked against the
 * generic computation {@link ProtocolInfluence} (which needs no formula) by exhaustive enumeration on small
 * parameters.
 */
public sealed interface MechanismInfluence permits OracleInfluence, TreeInfluence, GaussianInfluence,
        SampledInfluence {
    /** The protocol analysed. */
    LocalProtocol protocol();

    /**
     * The expected contribution {@code a(x)} of an honest report of each universe value {@code x} (one row
     * per value, answer space): {@code Q(x)} for unbiased mechanisms, the rounded or chained vector for coarse
     * projection and chaining. {@code diam{a(x)}} is how far a device running the real randomizer can move
     * the expected answer by lying about its value, which no gateway can prevent.
     */
    PointSet expectedContributions();

    /**
     * The largest influence over every accepted payload and every value of the public coins: the bound a
     * consumer can rely on. Where it is not attained by realisable coins the {@code exact} flags say so
     * (see each implementation).
     */
    Influence worst();

    /**
     * The exact largest influence over every accepted payload for a report with these coordinates (its
     * public coins fixed): what a modified app achieves without choosing its device id.
     */
    Influence atCoordinates(ReportCoordinates coordinates);

    /** Whether {@link #atCoordinates} depends on the coordinates at all. */
    boolean coinDependent();

    /** Whether {@link #worst} holds for every value of the coins (false: only over the coordinates sampled). */
    boolean worstCoversAllCoins();

    /** One line on how {@link #worst} was obtained and what it assumes. */
    String basis();

    /**
     * The analysis of a pipeline: a closed form for the frequency oracles, the tree and the Gaussian-sign
     * mechanisms; for any other protocol the generic computation over sampled coordinates
     * ({@link SampledInfluence}), which requires payloads of at most two bytes and an estimator affine in
     * the aggregate.
     */
    static MechanismInfluence of(LocalPipeline pipeline) {
        Require.nonNull("pipeline", pipeline);
        return of(pipeline.protocol(), pipeline.workload().universeSize());
    }

    /**
     * {@link #of(LocalPipeline)} for a protocol over a universe of {@code universeSize} values (a protocol
     * that is not part of a pipeline yet: a new mechanism gets the generic analysis).
     */
    static MechanismInfluence of(LocalProtocol protocol, int universeSize) {
        Require.nonNull("protocol", protocol);
        if (protocol instanceof FrequencyOracleProtocol f) {
            return f.oracle() instanceof TreeMechanism ? new TreeInfluence(f) : new OracleInfluence(f);
        }
        if (protocol instanceof GaussianSignProtocol g) {
            return new GaussianInfluence(g);
        }
        return new SampledInfluence(protocol, universeSize, SampledInfluence.DEFAULT_COORDINATES);
    }

    /** The coordinates used wherever coins are sampled: {@code ("poisoning-probe-<i>", 0, 0)}. */
    static ReportCoordinates probe(int i) {
        return new ReportCoordinates("poisoning-probe-" + i, 0, 0);
    }
}
