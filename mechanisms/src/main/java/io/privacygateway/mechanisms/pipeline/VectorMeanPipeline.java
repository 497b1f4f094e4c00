package io.privacygateway.mechanisms.pipeline;

import io.privacygateway.mechanisms.local.vector.VectorMeanEstimator;
import io.privacygateway.mechanisms.protocols.LocalProtocols;
import io.privacygateway.mechanisms.local.vector.BallCandidates;
import io.privacygateway.mechanisms.local.vector.BoxCoordinates;
import io.privacygateway.mechanisms.local.vector.VectorMeanProtocol;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.release.VectorMeanRelease;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.QueryFamily;
import io.privacygateway.mechanisms.workload.WorkloadSpec;

/**
 * The pipeline of a vector-mean workload (family mean over a {@link Domain.Ball} or a {@link Domain.Box}): the
 * {@link VectorMeanProtocol} devices and gateway share, built by the protocol's factories from the resolved spec and
 * keyed by its content hash ({@link BallCandidates#of} for privunit-g, {@link BoxCoordinates#of} with the scalar
 * randomizer duchi, piecewise or hybrid), and its release ({@link VectorMeanRelease}). Immutable and thread-safe.
 */
public final class VectorMeanPipeline {
    private final WorkloadSpec spec;
    private final Domain.Vector domain;
    private final String contentHash;
    private final VectorMeanProtocol protocol;
    private final VectorMeanEstimator estimator;

    private VectorMeanPipeline(WorkloadSpec spec, String contentHash, VectorMeanProtocol protocol) {
        this.spec = spec;
        this.domain = (Domain.Vector) spec.domain();
        this.contentHash = contentHash;
        this.protocol = protocol;
        this.estimator = VectorMeanEstimator.of(protocol);
    }

    /**
     * The pipeline of a resolved vector-mean spec.
     *
     * @throws IllegalArgumentException if the spec is not a vector mean resolved to a mechanism of its domain, or the
     *     protocol cannot realise its ε
     */
    public static VectorMeanPipeline of(WorkloadSpec spec) {
        String hash = CanonicalForm.contentHash(spec);
        return new VectorMeanPipeline(spec, hash, protocol(spec, hash));
    }

    /**
     * The protocol of a resolved vector-mean spec with the given content hash (the key of its public coins).
     *
     * @throws IllegalArgumentException as {@link #of}
     */
    public static VectorMeanProtocol protocol(WorkloadSpec spec, String contentHash) {
        return LocalProtocols.vectorMean(spec, contentHash);
    }

    /** The resolved spec. */
    public WorkloadSpec spec() {
        return spec;
    }

    /** The spec's vector domain. */
    public Domain.Vector domain() {
        return domain;
    }

    /** The spec's content hash. */
    public String contentHash() {
        return contentHash;
    }

    /** The protocol devices and gateway share. */
    public VectorMeanProtocol protocol() {
        return protocol;
    }

    /**
     * The answer of a window of {@code n >= 1} accepted reports with aggregate {@code state}.
     *
     * @throws IllegalArgumentException as {@link VectorMeanEstimator#estimate}
     */
    public Answer release(long[] state, long n) {
        return VectorMeanRelease.answer(estimator, estimator.estimate(state, n), spec.mechanism(), domain,
                spec.confidence(), contentHash);
    }
}
