package io.privacygateway.mechanisms.random;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;

/**
 * A reproducible, seeded generator (commons-rng XO_RO_SHI_RO_128_PP). <strong>Not for secret
 * randomness</strong>: only for public randomness (Monte Carlo of public quantities), reproducible
 * simulations on synthetic data ({@code simulate --seed}) and tests. Not thread-safe.
 */
public final class SeededRandomBits implements RandomBits {
    private final UniformRandomProvider rng;

    public SeededRandomBits(long seed) {
        this.rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    }

    /** The underlying commons-rng provider, for use with commons-rng samplers in simulations. */
    public UniformRandomProvider provider() {
        return rng;
    }

    @Override
    public long nextLong() {
        return rng.nextLong();
    }
}
