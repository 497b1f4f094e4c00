package io.privacygateway.app.dashboard;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.avro.generic.IndexedRecord;

/**
 * What the dashboard remembers: the last {@code windowsKept} answered windows of every series — a workload's
 * windows, and separately each of its longer horizons ({@link WindowView#series()}) — ordered by window start
 * (a window answered again, or a running total updated, replaces the earlier answer), when each workload's last answer
 * arrived, and how many answers-topic records could not be used, by reason.
 *
 * <p>Memory is bounded: at most {@code windowsKept} windows for each of at most {@link #MAX_WORKLOADS}
 * workloads (when a new workload would exceed that, the one whose last answer is oldest is forgotten), and
 * one counter per skip reason. Thread-safe: one thread (the answers reader) adds while the web server reads
 * snapshots. Times come from the injected clock.
 */
public final class AnswerHistory {
    /** Windows kept per workload unless configured otherwise. */
    public static final int DEFAULT_WINDOWS = 60;
    /** Upper bound on {@code windowsKept}. */
    public static final int MAX_WINDOWS = 10_000;
    /** Workloads remembered at most. */
    public static final int MAX_WORKLOADS = 200;

    private final int windowsKept;
    private final Clock clock;
    private final Map<String, TreeMap<Long, WindowView>> windows = new HashMap<>();
    private final Map<String, Long> lastAnswerAt = new HashMap<>();
    private final SortedMap<String, Long> skipped = new TreeMap<>();
    private long answers;

    /**
     * @param windowsKept windows kept per workload, in [1, {@value #MAX_WINDOWS}]
     * @param clock the time source for arrival times
     */
    public AnswerHistory(int windowsKept, Clock clock) {
        if (windowsKept < 1 || windowsKept > MAX_WINDOWS) {
            throw new IllegalArgumentException("windows kept must lie in [1, " + MAX_WINDOWS + "], got " + windowsKept);
        }
        this.windowsKept = windowsKept;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public int windowsKept() {
        return windowsKept;
    }

    /**
     * Adds an answer. Returns {@code false}, and remembers nothing, if the record lacks a workload id or a
     * window (see {@link WindowView#of}); the caller decides whether to count it as skipped.
     */
    public boolean accept(IndexedRecord answer) {
        Optional<WindowView> view = WindowView.of(answer, clock.millis());
        view.ifPresent(this::add);
        return view.isPresent();
    }

    private synchronized void add(WindowView v) {
        String id = v.series();
        if (!windows.containsKey(id) && windows.size() >= MAX_WORKLOADS) {
            String oldest = Collections.min(lastAnswerAt.entrySet(), Map.Entry.comparingByValue()).getKey();
            windows.remove(oldest);
            lastAnswerAt.remove(oldest);
        }
        TreeMap<Long, WindowView> w = windows.computeIfAbsent(id, k -> new TreeMap<>());
        Map.Entry<Long, WindowView> last = w.lastEntry();
        WindowView kept = last == null ? v : v.sharingLabelsOf(last.getValue());
        w.put(kept.windowStart(), kept);
        while (w.size() > windowsKept) {
            w.pollFirstEntry();
        }
        lastAnswerAt.put(id, kept.receivedAt());
        answers++;
    }

    /** Counts one answers-topic record that was not used, under a short reason code (never its content). */
    public synchronized void skipped(String reason) {
        skipped.merge(reason, 1L, Long::sum);
    }

    /** A consistent copy of everything, workloads sorted by id. */
    public synchronized Snapshot snapshot() {
        List<WorkloadHistory> out = new ArrayList<>();
        for (String id : new TreeMap<>(windows).keySet()) {
            out.add(new WorkloadHistory(id, List.copyOf(windows.get(id).values()), lastAnswerAt.get(id)));
        }
        return new Snapshot(List.copyOf(out), Collections.unmodifiableSortedMap(new TreeMap<>(skipped)), answers);
    }

    /**
     * One series' remembered windows.
     *
     * @param workloadId the series: the workload id, or {@code "<id> · <horizon>"} for a longer horizon
     * @param windows its windows, oldest first (never empty)
     * @param lastAnswerAt when its last answer arrived (epoch milliseconds)
     */
    public record WorkloadHistory(String workloadId, List<WindowView> windows, long lastAnswerAt) {
        /** The window with the latest start. */
        public WindowView latest() {
            return windows.get(windows.size() - 1);
        }
    }

    /**
     * @param workloads every remembered workload, sorted by id
     * @param skipped records not used, by reason
     * @param answers answers accepted since start (including forgotten ones)
     */
    public record Snapshot(List<WorkloadHistory> workloads, SortedMap<String, Long> skipped, long answers) {
        public long skippedTotal() {
            return skipped.values().stream().mapToLong(Long::longValue).sum();
        }
    }
}
