package io.privacygateway.topology.validate;

/**
 * Why a record was rejected. Every rejection is written to the rejections topic with its reason code
 * and counted in the {@code pgw.reports.rejected} metric (tagged by reason and workload).
 */
public enum RejectReason {
    /** The bytes are not a readable report (wire format, unknown schema id, Avro decode failure). */
    MALFORMED,
    /** No workload with this id is registered. */
    UNKNOWN_WORKLOAD,
    /** The report's workload version or content hash is not the registered one. */
    VERSION_MISMATCH,
    /** The report names another mechanism than the workload declares (or the wrong mode's topic). */
    MECHANISM_MISMATCH,
    /** The report's ε is not the workload's ε per report. */
    EPSILON_MISMATCH,
    /** The payload has the wrong length or an impossible encoding. */
    BAD_PAYLOAD,
    /** The sequence number is outside {@code [0, reportsPerPeriod)} (central: the window's contribution slots {@code [0, L)}). */
    SEQUENCE_OUT_OF_RANGE,
    /** The budget period does not match the event time. */
    PERIOD_MISMATCH,
    /** The event time is too far from the broker's append time. */
    CLOCK_SKEW,
    /** The same (device, workload, period, sequence) was already accepted. */
    DUPLICATE,
    /** Accepting the report would take the device over its budget for the period. */
    BUDGET_EXHAUSTED,
    /** Central mode: the device already contributed its L reports to this window. */
    CONTRIBUTION_LIMIT,
    /** The report's window had already closed (event time older than window end + grace). */
    LATE,
    /** Central mode: the raw value is not in the workload's domain. */
    INVALID_VALUE,
    /**
     * The report arrived on another partition than its device id's (the default partitioner of the device id
     * as key): a device's budget is kept with its own partition, so reports placed elsewhere are refused.
     */
    WRONG_PARTITION,
    /**
     * Processing the record failed for a reason that is neither the record's shape nor the infrastructure (a
     * defect): the record is set aside with this reason instead of stopping the stream.
     */
    PROCESSING_ERROR,
    /** The record key is not the report's device id (reports are keyed by device id). */
    KEY_MISMATCH,
    /** Enrolled-device mode: the report carries no valid device credential for its device id. */
    UNAUTHENTICATED,
    /**
     * The report's window is not one the workload version answers: it starts before the version became active
     * (or after the workload was deleted).
     */
    NOT_ACTIVE,
    /** The report's ε would take the device over its budget group's budget (all the group's workloads together). */
    GROUP_BUDGET_EXHAUSTED,
    /**
     * The report's window already holds the most reports its mechanism can sum exactly (this partition's share of
     * it); nothing was charged. Only mechanisms with bounded fixed-point sums have such a limit (Gaussian-sign:
     * 2^27 reports per window).
     */
    WINDOW_FULL,
    /**
     * Local mode: the report's protocol version (the version of its mechanism's derivation the device randomized
     * with) is not the one the workload serves, or it is a legacy report (no version) of a mechanism whose derivation
     * changed; the report is never decoded with another version's rules.
     */
    PROTOCOL_MISMATCH
}
