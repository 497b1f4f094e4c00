package io.privacygateway.mechanisms.central.wide;

import io.privacygateway.mechanisms.central.CountRelease;
import io.privacygateway.mechanisms.param.Require;

/**
 * How a release splits the failure probability {@code β = 1 − confidence} of its published bound among the events
 * the bound excludes (a union bound: if none occurs, every part of the bound holds).
 *
 * <p>The published max-error bound is the smaller of a theoretical bound and the private measured one
 * ({@link MaxErrorCheck}); it holds when neither fails, so the parts add up to at most β: the count's tail
 * {@code β/4} (0 for a public count), the measured bound's {@code β/4}, and the rest for the theoretical bound, split
 * by the release (selection, measurement noise, sampling, flips, the mixing weight ω).
 *
 * @param count the count's relative bound fails
 * @param check the measured bound fails
 * @param theory all events of the theoretical bound together
 */
public record Failures(double count, double check, double theory) {
    public Failures {
        Require.inClosedRange("count", count, 0, 1);
        Require.inOpenRange("check", check, 0, 1);
        Require.inOpenRange("theory", theory, 0, 1);
    }

    /**
     * The count's relative bound at the released count ({@link CountRelease#relativeBound}) with this split's count
     * share as its failure probability (a share of 0, a public count's, passed as {@link Double#MIN_NORMAL}).
     */
    public double countBound(CountRelease release, long released) {
        return release.relativeBound(Math.max(count, Double.MIN_NORMAL), released);
    }

    /** The split of β for a noisy or a public count. */
    public static Failures of(double beta, boolean countPublic) {
        Require.inOpenRange("beta", beta, 0, 1);
        double count = countPublic ? 0 : beta / 4;
        double check = beta / 4;
        return new Failures(count, check, beta - count - check);
    }
}
