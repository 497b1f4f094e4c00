package io.privacygateway.ingest;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The coordinates of reports this instance saw Kafka acknowledge, at most {@code capacity} (least recently seen
 * forgotten first), so that a resend to the same instance is answered {@code DUPLICATE} without a second copy on the
 * topic. An optimisation only: a resend to another instance, or after this one forgot, is written again and the
 * gateway's budget ledger refuses the copy ({@code DUPLICATE}), so it is never counted twice. Thread-safe.
 */
final class RecentReports {
    private final int capacity;
    private final LinkedHashMap<ReportKey, Boolean> seen;

    RecentReports(int capacity) {
        this.capacity = capacity;
        this.seen = new LinkedHashMap<>(Math.min(capacity, 1 << 16), 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<ReportKey, Boolean> eldest) {
                return size() > RecentReports.this.capacity;
            }
        };
    }

    /** Whether it remembers anything (capacity above 0); when not, callers need not build keys at all. */
    boolean enabled() {
        return capacity > 0;
    }

    synchronized boolean contains(ReportKey key) {
        return capacity > 0 && seen.get(key) != null;
    }

    synchronized void add(ReportKey key) {
        if (capacity > 0) {
            seen.put(key, Boolean.TRUE);
        }
    }
}
