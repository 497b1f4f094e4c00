package io.privacygateway.mechanisms.continual;

import io.privacygateway.mechanisms.param.Require;
import java.time.Duration;
import java.util.Optional;

/**
 * A span of windows a running total is kept over: "since activation" (never reset), or calendar-aligned periods that
 * reset the total at every multiple of {@code resetEvery} since the Unix epoch (UTC), e.g. every hour or every day.
 *
 * <p>A horizon is public: which windows an answer covers depends only on the window schedule.
 *
 * @param resetEvery the period after which the total starts again; empty for since activation
 */
public record Horizon(Optional<Duration> resetEvery) {
    /** The label of the horizon that is never reset. */
    public static final String SINCE_ACTIVATION = "since-activation";

    public Horizon {
        Require.nonNull("resetEvery", resetEvery);
        resetEvery.ifPresent(d -> {
            if (d.isNegative() || d.isZero() || d.toMillis() <= 0 || d.toNanos() % 1_000_000 != 0) {
                throw new IllegalArgumentException("horizon.resetEvery must be a positive whole number of milliseconds,"
                        + " got " + d);
            }
        });
    }

    /** The running total since the first window. */
    public static Horizon sinceActivation() {
        return new Horizon(Optional.empty());
    }

    /** The running total since the start of the current period (aligned to the Unix epoch, UTC). */
    public static Horizon every(Duration period) {
        return new Horizon(Optional.of(Require.nonNull("period", period)));
    }

    /** The label published with the answer: {@code since-activation}, {@code P1D} for whole days, else ISO-8601 (PT1H). */
    public String label() {
        if (resetEvery.isEmpty()) {
            return SINCE_ACTIVATION;
        }
        Duration d = resetEvery.get();
        if (d.toMillis() % Duration.ofDays(1).toMillis() == 0) {
            return "P" + d.toDays() + "D";
        }
        return d.toString();
    }

    /** The period a window starting at {@code windowStart} (epoch milliseconds) belongs to; 0 for since activation. */
    public long periodOf(long windowStart) {
        return resetEvery.map(d -> Math.floorDiv(windowStart, d.toMillis())).orElse(0L);
    }

    /** Checks that every window falls into one period: the period is a whole number of windows. */
    void checkAgainst(Duration windowSize) {
        resetEvery.ifPresent(d -> {
            if (d.toMillis() % windowSize.toMillis() != 0) {
                throw new IllegalArgumentException("horizon " + label() + " must be a whole number of windows of "
                        + windowSize + ", got " + d);
            }
        });
    }
}
