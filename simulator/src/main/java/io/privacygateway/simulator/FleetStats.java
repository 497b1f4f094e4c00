package io.privacygateway.simulator;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * What a {@link FleetSimulator} has done so far (a snapshot).
 *
 * @param turns device turns taken (each turn is one device's attempt to report for one workload)
 * @param sent records handed to a producer, per kind (a duplicate turn sends a VALID record and its
 *     DUPLICATE copy)
 * @param refusedLocally turns in which the device SDK refused to report (budget or contribution limit used up)
 * @param invalidValues turns whose value was outside the workload's domain (a custom distribution's
 *     mistake; nothing sent)
 * @param deliveryFailures records the producer reported as not delivered (or refused synchronously)
 */
public record FleetStats(long turns, Map<ReportKind, Long> sent, long refusedLocally, long invalidValues,
        long deliveryFailures) {

    public FleetStats {
        EnumMap<ReportKind, Long> m = new EnumMap<>(ReportKind.class);
        for (ReportKind k : ReportKind.values()) {
            m.put(k, sent.getOrDefault(k, 0L));
        }
        sent = Collections.unmodifiableMap(m);
    }

    /** Records of one kind sent. */
    public long sent(ReportKind kind) {
        return sent.get(kind);
    }

    /** All records sent. */
    public long totalSent() {
        return sent.values().stream().mapToLong(Long::longValue).sum();
    }
}
