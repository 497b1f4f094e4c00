package io.privacygateway.topology.release;

import io.privacygateway.mechanisms.central.wide.MarginalCounts;
import io.privacygateway.mechanisms.central.wide.WideAnswer;
import io.privacygateway.mechanisms.continual.ContinualCounter;
import io.privacygateway.mechanisms.continual.ContinualState;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SecureRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.runtime.CentralWorkload;

/**
 * Releases a central-mode window from its exact counts per universe value (or, for a wide workload, its exact
 * marginal counts: {@link #releaseWide}): noise, projection and purification happen here, with secret randomness, so the answer is pure ε-DP (δ = 0). All-zero counts (no
 * report arrived) are released the same way: a noise-only answer.
 */
@FunctionalInterface
public interface CentralReleaser {
    Answer release(CentralWorkload workload, long[] counts);

    /**
     * Adds a window to the running totals of a workload with horizons (the continual-release tree draws its node
     * noise here, with secret randomness). By default from {@link java.security.SecureRandom}.
     */
    default ContinualState runningTotals(ContinualCounter counter, ContinualState state, long windowStart,
            long[] counts) {
        return counter.update(state, windowStart, counts, new SecureRandomBits());
    }

    /**
     * Releases a window of a wide workload ({@link CentralWorkload#wide()}) from its exact marginal counts: the answer
     * and, for mwem, the synthetic records. By default with secret randomness from {@link java.security.SecureRandom}.
     */
    default WideAnswer releaseWide(CentralWorkload workload, MarginalCounts counts) {
        return workload.wideRelease().release(counts, new SecureRandomBits());
    }

    /** The workload's release, and its running totals, with this secret randomness. */
    static CentralReleaser withSecret(RandomBits secret) {
        return new CentralReleaser() {
            @Override
            public Answer release(CentralWorkload workload, long[] counts) {
                return workload.release().release(counts, secret);
            }

            @Override
            public WideAnswer releaseWide(CentralWorkload workload, MarginalCounts counts) {
                return workload.wideRelease().release(counts, secret);
            }

            @Override
            public ContinualState runningTotals(ContinualCounter counter, ContinualState state, long windowStart,
                    long[] counts) {
                return counter.update(state, windowStart, counts, secret);
            }
        };
    }

    /** The production releaser: noise from {@link java.security.SecureRandom}. */
    static CentralReleaser secure() {
        return withSecret(new SecureRandomBits());
    }
}
