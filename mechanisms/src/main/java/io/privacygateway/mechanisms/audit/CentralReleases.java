package io.privacygateway.mechanisms.audit;

import io.privacygateway.mechanisms.central.CentralRelease;
import io.privacygateway.mechanisms.runtime.CountsReleases;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.Workload;

/**
 * The one place the auditor reaches the production central release. Everything else in this package
 * sees only {@link Release}, so when the release entry point changes, only {@link #of} changes.
 */
public final class CentralReleases {
    private CentralReleases() {}

    /** A window release: exact counts per universe value in, a published answer out. */
    @FunctionalInterface
    public interface Release {
        Answer release(long[] counts, RandomBits secret);
    }

    /** The production release of a resolved central-mode workload (the gateway's own code path). */
    public static Release of(Workload workload) {
        return CountsReleases.of(workload)::release;
    }
}
