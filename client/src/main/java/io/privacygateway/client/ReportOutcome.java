package io.privacygateway.client;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import java.time.Instant;

/**
 * What finally happened to one value given to {@link Client#report}. Never contains the value or the payload, so
 * it is safe to log.
 *
 * @param status what happened
 * @param coordinates the report's coordinates if a budget slot was charged, else {@code null}
 * @param eventTime the report's event time, {@code null} if no time was read
 * @param reason the gateway's reason code for {@link Status#REJECTED} (e.g. {@code VERSION_MISMATCH}), the last
 *     failure for {@link Status#DROPPED}, else empty
 * @param detail a human-readable explanation (never the value)
 */
public record ReportOutcome(Status status, ReportCoordinates coordinates, Instant eventTime, String reason,
        String detail) {

    /** Final states of a report. */
    public enum Status {
        /** The gateway's front door has it (or had it already: a resend). Budget charged. */
        ACCEPTED,
        /** Refused for good by the gateway (reason code in {@link #reason()}); the budget stays charged. */
        REJECTED,
        /** Not accepted before its window closed (its last failure in {@link #reason()}); the budget stays charged. */
        DROPPED,
        /** The client closed while the report was still queued: it is on disk and the next client sends it. */
        STILL_QUEUED,
        /** The value is not in the workload's domain: nothing charged, nothing queued. */
        INVALID_VALUE,
        /** The device's budget for the period is used up: nothing charged, nothing queued. */
        BUDGET_EXHAUSTED,
        /** Central mode: the device already made its L contributions to this window. */
        CONTRIBUTION_LIMIT,
        /** The offline queue is full: nothing charged, nothing queued. */
        QUEUE_FULL,
        /** The workload's protocol is still being built ({@link Client#ready}): nothing charged. */
        NOT_READY,
        /** The client has no such workload, or its protocol could not be built. */
        UNKNOWN_WORKLOAD,
        /** The durable write failed (storage full or read-only): nothing charged, nothing queued. */
        STORE_FAILED,
        /** The client is closed. */
        CLOSED
    }

    /** Whether the budget was charged for this value (the report was made). */
    public boolean charged() {
        return coordinates != null;
    }

    static ReportOutcome refused(Status status, Instant eventTime, String detail) {
        return new ReportOutcome(status, null, eventTime, "", detail);
    }
}
