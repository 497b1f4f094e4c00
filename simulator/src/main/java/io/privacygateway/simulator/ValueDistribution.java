package io.privacygateway.simulator;

import java.util.random.RandomGenerator;

/**
 * Where a simulated device's value comes from: draws one raw value, written as in a values file (a label, a
 * number inside a bucket, or comma-separated 0/1 attributes). Drawn from the simulator's public, seeded
 * generator: simulated values are synthetic data, not secrets. See {@link ValueDistributions}.
 */
@FunctionalInterface
public interface ValueDistribution {
    /** One raw value. */
    String sample(RandomGenerator rng);
}
