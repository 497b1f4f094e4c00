package io.privacygateway.app.dashboard;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The gateway's rejected-report counts by reason over time: each {@link #sample()} reads the Micrometer
 * counters {@value #METER} (summed over their other tags, such as the workload) and remembers the totals
 * with the time of the sample; the oldest samples are forgotten beyond {@code kept}. Thread-safe; times come
 * from the injected clock.
 */
public final class RejectionHistory {
    /** The gateway's counter of rejected reports (tags {@code reason}, {@code workload}). */
    public static final String METER = "pgw.reports.rejected";

    private final MeterRegistry meters;
    private final int kept;
    private final Clock clock;
    private final Deque<Sample> samples = new ArrayDeque<>();

    /**
     * @param meters the gateway's registry, or {@code null} when there is none (every sample is empty)
     * @param kept samples kept, at least 2
     * @param clock the time source of the samples
     */
    public RejectionHistory(MeterRegistry meters, int kept, Clock clock) {
        if (kept < 2) {
            throw new IllegalArgumentException("rejection samples kept must be >= 2, got " + kept);
        }
        this.meters = meters;
        this.kept = kept;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Reads the counters now and remembers the totals. */
    public synchronized Sample sample() {
        Sample s = new Sample(clock.millis(), totals(meters));
        samples.addLast(s);
        while (samples.size() > kept) {
            samples.removeFirst();
        }
        return s;
    }

    /** The remembered samples, oldest first. */
    public synchronized List<Sample> samples() {
        return List.copyOf(samples);
    }

    /** The current totals of {@value #METER} by reason (empty for a {@code null} registry). */
    static SortedMap<String, Long> totals(MeterRegistry meters) {
        SortedMap<String, Long> out = new TreeMap<>();
        if (meters != null) {
            for (Counter c : meters.find(METER).counters()) {
                String reason = c.getId().getTag("reason");
                out.merge(reason == null ? "UNKNOWN" : reason, Math.round(c.count()), Long::sum);
            }
        }
        return Collections.unmodifiableSortedMap(out);
    }

    /**
     * @param at when the counters were read (epoch milliseconds)
     * @param totals rejected reports since the gateway started, by reason
     */
    public record Sample(long at, SortedMap<String, Long> totals) {}
}
