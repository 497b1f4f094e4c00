package io.privacygateway.mechanisms.coins;

import io.privacygateway.mechanisms.random.RandomBits;

/**
 * SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014),
 * the public-coin stream generator of the wire format: {@code x += 0x9E3779B97F4A7C15; return
 * mix64(x)}, with the variant-13 finalizer {@link #mix64}. Fully specified, so a second SDK reproduces
 * it bit for bit. <strong>Public randomness only.</strong> Not thread-safe.
 */
public final class SplitMix64 implements RandomBits {
    /** The golden-ratio increment. */
    public static final long GOLDEN = 0x9E3779B97F4A7C15L;
    private long state;

    public SplitMix64(long seed) {
        this.state = seed;
    }

    /** Re-seeds in place (avoids an allocation per report on the server's hot path). */
    public void reset(long seed) {
        this.state = seed;
    }

    @Override
    public long nextLong() {
        state += GOLDEN;
        return mix64(state);
    }

    /** The SplitMix64 finalizer (Stafford's variant 13). */
    public static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
