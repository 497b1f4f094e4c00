package io.privacygateway.topology.workload;

import io.privacygateway.mechanisms.central.CentralPipeline;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;

/**
 * A registered workload version as the gateway runs it: the resolved spec, the materialized workload
 * and, in local mode, the protocol and release pipeline (immutable and thread-safe, shared by all
 * stream threads).
 *
 * @param spec the resolved spec (mechanism not {@code auto})
 * @param workload the materialized workload
 * @param local the local pipeline (local mode), else {@code null}
 * @param central the central release (central mode), else {@code null}
 */
public record ActiveWorkload(WorkloadSpec spec, Workload workload, LocalPipeline local, CentralPipeline central) {

    public String id() {
        return spec.id();
    }

    public String contentHash() {
        return workload.contentHash();
    }

    public Mode mode() {
        return spec.mode();
    }

    /** The length of the window aggregate: the protocol state (local) or universe counts (central). */
    public int aggregateLength() {
        return local != null ? local.protocol().stateLength() : workload.universeSize();
    }

    public long periodMillis() {
        return spec.budget().period().toMillis();
    }
}
