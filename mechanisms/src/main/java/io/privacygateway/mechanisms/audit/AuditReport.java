package io.privacygateway.mechanisms.audit;

import java.util.List;

/**
 * The outcome of an audit: one {@link AuditRow} per audited release. With probability at least
 * {@code confidence}, every row's ε̂ is at most the true privacy loss of its release on its inputs
 * (union bound over the rows), so for a mechanism that meets its declared ε, {@link #violation()} is
 * {@code true} with probability at most {@code 1 − confidence}.
 *
 * @param workloadId the workload audited
 * @param mode {@code local} or {@code central}
 * @param mechanism the mechanism (wire name)
 * @param confidence the joint confidence of all rows
 * @param samples test outputs per input and row
 * @param rows the audited releases
 */
public record AuditReport(String workloadId, String mode, String mechanism, double confidence, long samples,
        List<AuditRow> rows) {
    public AuditReport {
        rows = List.copyOf(rows);
    }

    /** Whether some row's ε̂ exceeds its declared ε. */
    public boolean violation() {
        return rows.stream().anyMatch(AuditRow::violation);
    }

    /** The largest ε̂/ε over the rows. */
    public double maxRatio() {
        return rows.stream().mapToDouble(AuditRow::ratio).max().orElse(0);
    }
}
