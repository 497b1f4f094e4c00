package io.privacygateway.topology.processors;

import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.topology.workload.ActiveWorkload;

/**
 * Releases a central-mode window from its exact counts per universe value: noise, projection and
 * purification happen here, with secret randomness, so the answer is pure ε-DP (δ = 0).
 */
@FunctionalInterface
public interface CentralReleaser {
    Answer release(ActiveWorkload workload, long[] counts, long n);
}
