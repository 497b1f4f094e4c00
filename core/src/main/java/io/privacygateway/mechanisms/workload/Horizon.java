package io.privacygateway.mechanisms.workload;

import io.privacygateway.mechanisms.param.Durations;
import java.time.Duration;

/**
 * A longer horizon answered from a workload's windows (declared under {@code window.horizons}).
 *
 * <ul>
 *   <li>{@link Span}: consecutive, epoch-aligned spans of a fixed length that is a whole multiple of the window
 *       size ({@code 1h}, {@code 1d}); each span's answer covers exactly its windows.
 *   <li>{@link SinceActivation}: everything from the version's activation on (central mode's running total).
 * </ul>
 *
 * <p>In local mode a horizon answer is computed from the sum of its windows' exact aggregates: post-processing of
 * reports already charged, at no extra ε. In central mode it is a running total released by the continual-release
 * mechanism.
 */
public sealed interface Horizon permits Horizon.Span, Horizon.SinceActivation {
    /** The longest span accepted: a little over a year. */
    Duration MAX_SPAN = Duration.ofDays(400);

    /** The name written in workload files and in the answers' {@code horizon} field. */
    String wireName();

    /** Spans of {@code size} aligned to the epoch: {@code [k·size, (k+1)·size)}. */
    record Span(Duration size) implements Horizon {
        public Span {
            if (size == null || size.toMillis() <= 0 || size.compareTo(MAX_SPAN) > 0) {
                throw new InvalidWorkloadException("window.horizons", "a horizon must be in (0, " + MAX_SPAN.toDays()
                        + "d], got " + size);
            }
        }

        public long millis() {
            return size.toMillis();
        }

        /** The start of the span containing {@code t}. */
        public long startOf(long t) {
            return Math.floorDiv(t, millis()) * millis();
        }

        @Override
        public String wireName() {
            return size.toString();
        }
    }

    /** Everything from the version's activation on. */
    record SinceActivation() implements Horizon {
        public static final String WIRE_NAME = "since-activation";

        @Override
        public String wireName() {
            return WIRE_NAME;
        }
    }

    /** Parses {@code since-activation} or a duration ({@code 1h}, {@code PT1H}). */
    static Horizon parse(String text) {
        if (SinceActivation.WIRE_NAME.equals(text == null ? null : text.trim())) {
            return new SinceActivation();
        }
        try {
            return new Span(Durations.parse(text));
        } catch (IllegalArgumentException e) {
            if (e instanceof InvalidWorkloadException) {
                throw e;
            }
            throw new InvalidWorkloadException("window.horizons", "each horizon must be a duration or "
                    + SinceActivation.WIRE_NAME + ": " + e.getMessage());
        }
    }
}
