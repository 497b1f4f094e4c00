package io.privacygateway.mechanisms.random;

import java.security.SecureRandom;

/**
 * Secret randomness from {@link SecureRandom}: the only source a device or the gateway uses for
 * randomness that protects privacy. Thread-safe (SecureRandom is).
 */
public final class SecureRandomBits implements RandomBits {
    private final SecureRandom random;

    public SecureRandomBits() {
        this(new SecureRandom());
    }

    public SecureRandomBits(SecureRandom random) {
        this.random = random;
    }

    @Override
    public long nextLong() {
        return random.nextLong();
    }
}
