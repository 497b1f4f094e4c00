package io.privacygateway.mechanisms.pipeline;

import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.protocols.LocalProtocols;
import io.privacygateway.mechanisms.release.LocalRelease;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;

/**
 * The local-model pipeline a resolved workload names: the {@link LocalProtocol} devices and gateway share (built by
 * the device floor's {@link LocalProtocols}, the one place that derives it), and the {@link LocalRelease} that turns a
 * window's aggregate into an answer (frequency oracles and the tree: {@code Σ_x p̂_x Q(x)} projected onto K; the
 * Gaussian-sign mechanisms: projected onto the decomposition's hulls, then K; the numeric means: clipped to
 * {@code [lo, hi]}, the bar adding the device rounding's bound).
 */
public final class LocalPipeline {
    /** The n used to split ε across chaining levels when the spec gives none. */
    public static final long DEFAULT_PLANNED_REPORTS = WorkloadSpec.DEFAULT_PLANNED_REPORTS;

    private final Workload workload;
    private final LocalProtocol protocol;
    private final LocalRelease release;

    private LocalPipeline(Workload workload, LocalProtocol protocol, double[] perCoordinateBias) {
        this.workload = workload;
        this.protocol = protocol;
        this.release = new LocalRelease(workload, protocol, perCoordinateBias);
    }

    /**
     * Builds the pipeline of a local-mode workload whose mechanism is resolved (not {@code auto}).
     *
     * @throws IllegalArgumentException if the spec is central-mode, unresolved, or its α is so large
     *     that every device would send the same vector
     */
    public static LocalPipeline of(Workload w) {
        LocalProtocols.Built b = LocalProtocols.of(w);
        return new LocalPipeline(w, b.protocol(), b.perCoordinateBias());
    }

    public Workload workload() {
        return workload;
    }

    public LocalProtocol protocol() {
        return protocol;
    }

    public LocalRelease release() {
        return release;
    }
}
