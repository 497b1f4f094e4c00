package io.privacygateway.mechanisms.central;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;

/**
 * A central-mode release (trusted gateway, MECHANISMS.md §4): from a window's exact counts per universe value,
 * an answer that is <b>pure ε-DP (δ = 0)</b> for every device, whatever the data, for every window, including
 * windows without reports.
 *
 * <ul>
 *   <li>{@link PurifiedGaussianRelease}: {@code central-projection} and {@code central-chaining}: discrete
 *       Gaussian noise (zCDP), projection, purification, projection.</li>
 *   <li>{@link LaplaceRelease}: {@code laplace}, the pure-DP baseline.</li>
 *   <li>{@code analytics.release.AnalyticsRelease}: the window-analytics families (mode, regression, erm), one mechanism class per
 *       analytics mechanism ({@code docs/analytics.md}).</li>
 * </ul>
 *
 * <p>{@code runtime.CountsReleases.of} chooses the variant once from the workload (above this package and
 * {@code analytics}, so that the analytics variant may build on central noise without a cycle); callers never branch on
 * the mechanism again. The release step runs it through {@code runtime.WindowRelease.Counts}.
 * Every variant releases the count first ({@link CountRelease}), publishes only functions of pure outputs,
 * and reports the guarantee it realises as {@link #cost()}, at most the declared ε.
 *
 * <p><b>Empty windows.</b> {@link #release} accepts all-zero counts. Under add/remove the count is noisy and
 * the release is the usual mechanism with the same ε (a noise-only answer; the mean divides by
 * {@code max(1, ñ)}, and with ñ &lt; 1 the bars are the whole range). Under replace-one the count is public and
 * with n = 0 there is nothing to protect: the answer says so (see {@code FeasibleAnswers.noData}).
 */
public interface CentralRelease {
    /** The report count the parameters are planned for when the spec gives none. */
    long DEFAULT_PLANNED_REPORTS = WorkloadSpec.DEFAULT_PLANNED_REPORTS;

    Workload workload();

    CentralParameters parameters();

    /**
     * The pure-DP guarantee of every answer with data: the exact sum of the shares spent, rounded up — the
     * parameters' cost ({@link CentralParameters#cost()}), unless a release spends differently.
     */
    default PrivacyCost.Pure cost() {
        return parameters().cost();
    }

    /**
     * Releases a window from its exact counts per universe value, with secret randomness.
     *
     * @param counts the number of accepted reports of every universe value (each device at most L); may be all 0
     */
    Answer release(long[] counts, RandomBits secret);

    /** The total of {@code counts}, after checking its length and signs. */
    static long checkedTotal(Workload w, long[] counts) {
        if (counts == null || counts.length != w.universeSize()) {
            throw new IllegalArgumentException("counts must have " + w.universeSize() + " entries (one per universe"
                    + " value), got " + (counts == null ? "null" : counts.length));
        }
        return FeasibleAnswers.total(counts);
    }
}
