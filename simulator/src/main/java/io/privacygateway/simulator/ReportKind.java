package io.privacygateway.simulator;

/**
 * The kinds of record a {@link FleetSimulator} sends: valid reports, and what misbehaving devices do, with
 * the rejection reason the gateway is expected to give.
 */
public enum ReportKind {
    /** A report made by the device SDK within the device's budget: the gateway should count it. */
    VALID(null),
    /** An accepted report sent again, immediately, byte for byte: {@code DUPLICATE}. */
    DUPLICATE("DUPLICATE"),
    /** A report with a sequence number at or beyond the device's budget: {@code SEQUENCE_OUT_OF_RANGE}. */
    OVER_BUDGET("SEQUENCE_OUT_OF_RANGE"),
    /** Random bytes that are not a report (sent through a byte producer): {@code MALFORMED}. */
    GARBAGE("MALFORMED"),
    /** Local mode: a report claiming another ε than the workload's: {@code EPSILON_MISMATCH}. */
    WRONG_EPSILON("EPSILON_MISMATCH"),
    /** Local mode: a report naming another mechanism than the workload's: {@code MECHANISM_MISMATCH}. */
    WRONG_MECHANISM("MECHANISM_MISMATCH"),
    /**
     * A device whose clock runs behind (it buffered its report): the event time lies in a window that has
     * closed, {@code LATE}; or, if it lies more than the gateway's maximum event age (1 h by default) before
     * the broker's append time, {@code CLOCK_SKEW}.
     */
    LATE("LATE"),
    /** A device whose clock runs ahead by more than the gateway allows (1 min by default): {@code CLOCK_SKEW}. */
    CLOCK_SKEW("CLOCK_SKEW");

    private final String expectedRejection;

    ReportKind(String expectedRejection) {
        this.expectedRejection = expectedRejection;
    }

    /** The gateway's rejection reason code for this kind ({@code RejectionReason} symbol), or null for VALID. */
    public String expectedRejection() {
        return expectedRejection;
    }

    /** Whether this is a misbehaviour. */
    public boolean misbehaviour() {
        return this != VALID;
    }
}
