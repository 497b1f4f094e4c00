package io.privacygateway.mechanisms.central;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.Workload;

/**
 * The entry point the gateway and the command line use for central mode: the {@link CentralRelease} a
 * resolved workload names, behind {@code release(counts, secret) → Answer}. See {@link CentralRelease} for
 * the mechanisms and their guarantee.
 */
public final class CentralPipeline {
    /** The n parameters are planned for when the spec gives none. */
    public static final long DEFAULT_PLANNED_REPORTS = CentralRelease.DEFAULT_PLANNED_REPORTS;

    private final CentralRelease release;

    private CentralPipeline(CentralRelease release) {
        this.release = release;
    }

    /** Builds the release a resolved central-mode workload names. */
    public static CentralPipeline of(Workload w) {
        return new CentralPipeline(CentralRelease.of(w));
    }

    /**
     * Releases a window from its exact counts per universe value, with secret randomness.
     *
     * @param counts the number of accepted reports of every universe value (each device at most L); may be all 0
     */
    public Answer release(long[] counts, RandomBits secret) {
        return release.release(counts, secret);
    }

    public Workload workload() {
        return release.workload();
    }

    public CentralParameters parameters() {
        return release.parameters();
    }

    /** The pure-DP guarantee of an answer. */
    public PrivacyCost.Pure cost() {
        return release.cost();
    }

    /** The variant behind this pipeline. */
    public CentralRelease variant() {
        return release;
    }
}
