package io.privacygateway.topology.processors;

import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SecureRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.topology.workload.ActiveWorkload;

/**
 * Releases a central-mode window from its exact counts per universe value: noise, projection and
 * purification happen here, with secret randomness, so the answer is pure ε-DP (δ = 0).
 */
@FunctionalInterface
public interface CentralReleaser {
    Answer release(ActiveWorkload workload, long[] counts, long n);

    /** The workload's {@link io.privacygateway.mechanisms.central.CentralPipeline} with this secret randomness. */
    static CentralReleaser withSecret(RandomBits secret) {
        return (w, counts, n) -> w.central().release(counts, secret);
    }

    /** The production releaser: noise from {@link java.security.SecureRandom}. */
    static CentralReleaser secure() {
        return withSecret(new SecureRandomBits());
    }
}
