package io.privacygateway.topology.release;

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

    /** The workload's release with this secret randomness. */
    static CentralReleaser withSecret(RandomBits secret) {
        return (w, counts) -> w.release().release(counts, secret);
    }

    /** The production releaser: noise from {@link java.security.SecureRandom}. */
    static CentralReleaser secure() {
        return withSecret(new SecureRandomBits());
    }
}
