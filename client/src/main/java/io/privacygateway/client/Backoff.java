package io.privacygateway.client;

import java.time.Duration;

/**
 * Exponential backoff with jitter for resending a queued report: after the {@code n}-th failed attempt
 * ({@code n >= 1}) the report waits {@code d/2 + u·d/2} milliseconds, {@code d = min(cap, base·2^(n−1))}, with
 * {@code u} uniform in {@code [0, 1)} from public (non-secret) randomness; and never less than the server's
 * {@code Retry-After}. Half the delay is fixed (so a fleet never retries at once after an outage) and half is random
 * (so it spreads).
 *
 * @param base the first delay's upper bound (> 0)
 * @param cap the largest delay (>= base)
 */
public record Backoff(Duration base, Duration cap) {
    /** 1 s doubling up to 15 min. */
    public static final Backoff DEFAULT = new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(15));

    public Backoff {
        if (base == null || base.isNegative() || base.isZero()) {
            throw new IllegalArgumentException("backoff.base must be > 0, got " + base);
        }
        if (cap == null || cap.compareTo(base) < 0) {
            throw new IllegalArgumentException("backoff.cap must be >= backoff.base, got " + cap);
        }
    }

    /**
     * The delay after the {@code attempt}-th failure.
     *
     * @param attempt failures so far (>= 1)
     * @param u a uniform draw in {@code [0, 1)}
     * @param retryAfterMillis the server's minimum wait (0 if none)
     */
    public long delayMillis(int attempt, double u, long retryAfterMillis) {
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt must be >= 1, got " + attempt);
        }
        if (!(u >= 0 && u < 1)) {
            throw new IllegalArgumentException("u must be in [0, 1), got " + u);
        }
        long capMs = cap.toMillis();
        long d = Math.min(base.toMillis(), capMs);
        for (int i = 1; i < attempt && d < capMs; i++) {
            d = d > capMs / 2 ? capMs : d * 2;
        }
        long half = d / 2;
        return Math.max(retryAfterMillis, half + (long) Math.floor(u * (d - half)));
    }
}
