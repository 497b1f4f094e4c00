package io.privacygateway.topology.workload;

import io.privacygateway.mechanisms.runtime.ResolvedWorkload;

/**
 * What the workloads topic says about one workload id: its current version (content hash) and when that
 * version became active (the broker's append time of its registration record), or that the workload was
 * deleted and when. Activation times are public, so release schedules derived from them reveal nothing about
 * the data.
 *
 * @param id the workload id
 * @param contentHash the active version's content hash ({@code null} once deleted)
 * @param since when the version became active, or when the workload was deleted (epoch millis)
 * @param workload the resolved version ({@code null} once deleted)
 */
public record Registration(String id, String contentHash, long since, ResolvedWorkload workload) {

    public boolean deleted() {
        return contentHash == null;
    }

    /** The global-store form: {@code <hash>@<since>} or {@code deleted@<since>}. */
    public String storeValue() {
        return (deleted() ? "deleted" : contentHash) + "@" + since;
    }
}
