package io.privacygateway.topology.release;

import io.privacygateway.mechanisms.continual.ContinualCounter;
import io.privacygateway.mechanisms.continual.ContinualState;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SecureRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.runtime.CentralWorkload;

/**
 * Releases a central-mode window from its exact counts per universe value: noise, projection and
 * purification happen here, with secret randomness, so the answer is pure ε-DP (δ = 0). All-zero counts (no
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

    /** The workload's release, and its running totals, with this secret randomness. */
    static CentralReleaser withSecret(RandomBits secret) {
        return new CentralReleaser() {
            @Override
            public Answer release(CentralWorkload workload, long[] counts) {
                return workload.release().release(counts, secret);
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
