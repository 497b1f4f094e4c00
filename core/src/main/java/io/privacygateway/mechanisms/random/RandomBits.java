package io.privacygateway.mechanisms.random;

/**
 * A source of independent, uniformly distributed 64-bit words.
 *
 * <p>All randomness in the mechanisms is drawn through this interface and turned into exact
 * Bernoulli and uniform-integer draws by {@link ExactSampler}; no mechanism calls a floating-point
 * sampler for secret randomness. In production the source is {@link SecureRandomBits}; seeded sources
 * ({@link SeededRandomBits}) are for public randomness, reproducible simulations and tests.
 */
public interface RandomBits {
    /** The next uniformly random 64-bit word. */
    long nextLong();
}
