package io.privacygateway.mechanisms.pipeline;

import io.privacygateway.mechanisms.local.heavy.HeavyHitterEstimator;
import io.privacygateway.mechanisms.protocols.LocalProtocols;
import io.privacygateway.mechanisms.local.heavy.HeavyHitterParameters;
import io.privacygateway.mechanisms.local.heavy.HeavyHitterProtocol;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.release.HeavyHitterRelease;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.QueryFamily;
import io.privacygateway.mechanisms.workload.WorkloadSpec;

/**
 * The pipeline of a heavy-hitters workload (family heavy-hitters, mechanism prefix-tree-sketch): the
 * {@link HeavyHitterProtocol} devices and gateway share, with the parameters of
 * {@link HeavyHitterParameters#defaults} for the workload's ε per report, {@code domain.strings.maxBytes} and
 * {@code expectedReportsPerWindow} (the planner records it in every resolved spec), keyed by the spec's content
 * hash; and its release ({@link HeavyHitterRelease}). Immutable and thread-safe.
 */
public final class HeavyHitterPipeline {
    private final WorkloadSpec spec;
    private final String contentHash;
    private final HeavyHitterProtocol protocol;
    private final HeavyHitterEstimator estimator;

    private HeavyHitterPipeline(WorkloadSpec spec, String contentHash, HeavyHitterProtocol protocol) {
        this.spec = spec;
        this.contentHash = contentHash;
        this.protocol = protocol;
        this.estimator = new HeavyHitterEstimator(protocol);
    }

    /**
     * The pipeline of a resolved heavy-hitters spec.
     *
     * @throws IllegalArgumentException if the spec is not a heavy-hitters spec resolved to prefix-tree-sketch, or its
     *     ε cannot be realised by the protocol
     */
    public static HeavyHitterPipeline of(WorkloadSpec spec) {
        String hash = CanonicalForm.contentHash(spec);
        return new HeavyHitterPipeline(spec, hash, LocalProtocols.heavyHitters(spec, hash));
    }

    /** The protocol parameters of a heavy-hitters spec (see the class comment). */
    public static HeavyHitterParameters parameters(WorkloadSpec spec) {
        return LocalProtocols.heavyHitterParameters(spec);
    }

    /** The resolved spec. */
    public WorkloadSpec spec() {
        return spec;
    }

    /** The spec's content hash. */
    public String contentHash() {
        return contentHash;
    }

    /** The protocol devices and gateway share. */
    public HeavyHitterProtocol protocol() {
        return protocol;
    }

    /** The most items one answer publishes ({@link HeavyHitterRelease#maxItems}). */
    public int maxItems() {
        return HeavyHitterRelease.maxItems(protocol.parameters());
    }

    /**
     * The answer of a window of {@code n >= 1} accepted reports with aggregate {@code state}.
     *
     * @throws IllegalArgumentException as {@link HeavyHitterEstimator#estimate}
     */
    public Answer release(long[] state, long n) {
        return HeavyHitterRelease.answer(estimator.estimate(state, n), protocol.parameters(), spec.confidence(),
                contentHash);
    }
}
