package io.privacygateway.mechanisms.central.wide;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.random.RandomBits;

/**
 * The per-window release of a wide marginal workload, as the gateway runs it: from the window's exact
 * {@link MarginalCounts} (empty windows too) and secret randomness, a {@link WideAnswer} that is pure ε-DP (δ = 0)
 * with the declared ε. {@code runtime.WideReleases.of} chooses the implementation once from the mechanism id (above
 * this package, so that the implementations in {@code central.synthetic} and {@code central.worstcase} may build on it
 * without a cycle); callers never branch on it again.
 *
 * <ul>
 *   <li>{@code MWEM}: {@link PurifiedMwemRelease} (answers and synthetic records);</li>
 *   <li>{@code WORST_CASE_CHAINING}: {@code WorstCaseChainingRelease.forMarginals} (answers with a
 *       published l∞ bound, no records);</li>
 *   <li>{@code CERTIFIED_SYNTHETIC}: {@code CertifiedSyntheticRelease} (records, their marginals as
 *       answers, and the certificate as the l∞ bound; {@code records} required).</li>
 * </ul>
 */
public interface WideRelease {
    /** Releases a window from its exact marginal counts (each device at most L reports), with secret randomness. */
    WideAnswer release(MarginalCounts counts, RandomBits secret);

    /** The pure guarantee of every release with data: the exact sum of the shares spent, rounded up. */
    PrivacyCost.Pure cost();
}
