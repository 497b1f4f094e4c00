package io.privacygateway.topology.workload;

import io.privacygateway.mechanisms.runtime.ResolvedWorkload;

/**
 * What the workloads topic says about one workload id: its current (or last) version, when that version became
 * active (the broker's append time of its registration record), and whether and when the workload was deleted.
 * These times are public, so release schedules derived from them reveal nothing about the data.
 *
 * @param id the workload id
 * @param contentHash the current version's content hash (the last one's, once deleted)
 * @param since when that version became active (epoch millis)
 * @param workload the resolved version
 * @param deletedAt when the workload was deleted, or {@link Long#MAX_VALUE} while it is active
 */
public record Registration(String id, String contentHash, long since, ResolvedWorkload workload, long deletedAt) {

    /** An active registration. */
    public Registration(String id, String contentHash, long since, ResolvedWorkload workload) {
        this(id, contentHash, since, workload, Long.MAX_VALUE);
    }

    public boolean deleted() {
        return deletedAt != Long.MAX_VALUE;
    }

    /** The global-store form: {@code <hash>@<since>} or {@code <hash>@<since>!<deletedAt>}. */
    public String storeValue() {
        return contentHash + "@" + since + (deleted() ? "!" + deletedAt : "");
    }
}
