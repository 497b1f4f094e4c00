package io.privacygateway.mechanisms.runtime;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.amplification.AmplifiedGuarantee;
import io.privacygateway.mechanisms.central.wide.SyntheticRecords;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.release.Answer;
import java.util.Optional;

/**
 * What one {@link WindowRelease} of a window (or a horizon span) yields: everything the release step publishes about
 * it, computed in {@code mechanisms}, so that the step only schedules, accounts and writes.
 *
 * @param mechanism the wire name of the mechanism published and accounted for (the answer's mechanism; the declared
 *     one for a fallback or an empty local window; {@code continual-tree} for a running total)
 * @param answer the answer; empty for a local window without reports (nothing to estimate)
 * @param synthetic the window's synthetic records (a wide workload that declares {@code central.synthetic}): the
 *     released records, or for a fallback none, with the fallback's cost; empty otherwise
 * @param cost the guarantee the answer realises (its {@link Answer#cost()}; a local answer's ε per report)
 * @param amplified a local answer's amplified central (ε, δ) against readers of answers only, over the crowd the
 *     device identity vouches for; empty where it does not apply
 * @param fallback whether this is the data-independent fallback of a central window whose release did not finish
 */
public record ReleaseResult(String mechanism, Optional<Answer> answer, Optional<SyntheticRecords> synthetic,
        PrivacyCost.Pure cost, Optional<Amplified> amplified, boolean fallback) {
    public ReleaseResult {
        Require.nonNull("mechanism", mechanism);
        Require.nonNull("answer", answer);
        Require.nonNull("synthetic", synthetic);
        Require.nonNull("cost", cost);
        Require.nonNull("amplified", amplified);
    }

    /** A computed central answer, with the window's synthetic records if any. */
    public static ReleaseResult of(Answer a, Optional<SyntheticRecords> synthetic) {
        return new ReleaseResult(a.mechanism().wireName(), Optional.of(a), synthetic, a.cost(), Optional.empty(),
                false);
    }

    /** This result under another published mechanism name (the running totals' {@code continual-tree}). */
    public ReleaseResult named(String name) {
        return new ReleaseResult(name, answer, synthetic, cost, amplified, fallback);
    }

    /** This result with the given amplified guarantee (tools and tests that build an answer themselves). */
    public ReleaseResult withAmplified(Optional<Amplified> guarantee) {
        return new ReleaseResult(mechanism, answer, synthetic, cost, guarantee, fallback);
    }

    /** The report count published: the answer's, 0 for an empty local window. */
    public long n() {
        return answer.map(Answer::n).orElse(0L);
    }

    /**
     * An amplified guarantee and the crowd it is computed over.
     *
     * @param guarantee the amplified (ε, δ)
     * @param crowdBasis what vouches for the crowd (a {@code DeviceAuthentication} basis name)
     * @param crowdReports the number of reports the crowd counts
     */
    public record Amplified(AmplifiedGuarantee guarantee, String crowdBasis, long crowdReports) {}
}
