package io.privacygateway.topology.state;

import java.time.Duration;

/**
 * A window of one workload version: the workload id, its content hash and the window start (epoch
 * millis). Windows are aligned to the epoch: {@code start = ⌊t / size⌋·size}. The string form
 * {@code <workloadId>#<contentHash>@<start>} is used as a state-store and topic key (workload ids cannot
 * contain '#' or '@'); aggregates of different workload versions are never merged.
 */
public record WindowKey(String workloadId, String contentHash, long start) {

    /** The window of event time {@code eventTimeMs}. */
    public static WindowKey of(String workloadId, String contentHash, long eventTimeMs, Duration size) {
        long s = size.toMillis();
        return new WindowKey(workloadId, contentHash, Math.floorDiv(eventTimeMs, s) * s);
    }

    /** The end of the window (exclusive). */
    public long end(Duration size) {
        return start + size.toMillis();
    }

    /** Whether the window is closed once stream time reaches {@code watermark}: {@code end + grace <= watermark}. */
    public boolean closedAt(long watermark, Duration size, Duration grace) {
        return end(size) + grace.toMillis() <= watermark;
    }

    public String asString() {
        return workloadId + "#" + contentHash + "@" + start;
    }

    public static WindowKey parse(String s) {
        int hash = s.indexOf('#');
        int at = s.lastIndexOf('@');
        if (hash <= 0 || at <= hash) {
            throw new IllegalArgumentException("not a window key: " + s);
        }
        return new WindowKey(s.substring(0, hash), s.substring(hash + 1, at), Long.parseLong(s.substring(at + 1)));
    }
}
