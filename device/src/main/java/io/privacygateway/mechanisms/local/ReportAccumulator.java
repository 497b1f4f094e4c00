package io.privacygateway.mechanisms.local;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.workload.MechanismId;

/**
 * The gateway half of a local-model protocol: what the server needs to check and add up reports, and nothing
 * of the device's value domain. {@link LocalProtocol} (closed universes of integer values) and protocols over
 * other kinds of values (for example the open-domain heavy hitters of
 * {@code io.privacygateway.mechanisms.local.heavy}) share it, so the gateway's exactly-once windowed aggregation
 * runs them unchanged.
 *
 * <p><b>Aggregation.</b> The server state is a {@code long[]} of length {@link #stateLength()} updated
 * by exact integer (fixed-point) additions only, so the aggregate of a window does not depend on the
 * order or partitioning of reports: merging two partial aggregates is element-wise addition.
 *
 * <p>Implementations are immutable and thread-safe.
 */
public interface ReportAccumulator {
    /** The mechanism implemented. */
    MechanismId id();

    /** The pure ε of one report (the sum over levels for multi-level protocols). */
    Epsilon epsilon();

    /** The exact length of every valid payload, in bytes. */
    int payloadBytes();

    /** The number of counters in the server's aggregate state. */
    int stateLength();

    /**
     * The most reports one window's aggregate can hold exactly: beyond it the integer sums could overflow and
     * {@code estimate} refuses the window. Unbounded ({@link Long#MAX_VALUE}) unless a protocol says otherwise.
     */
    default long maxReportsPerWindow() {
        return Long.MAX_VALUE;
    }

    /**
     * Server side: adds one report to {@code state} with exact integer arithmetic.
     *
     * @return {@code false}, leaving {@code state} untouched, if the payload is malformed (wrong
     *     length or an impossible encoding)
     */
    boolean accumulate(byte[] payload, ReportCoordinates coordinates, long[] state);

    /**
     * As {@link #accumulate(byte[], ReportCoordinates, long[])} with the coordinates given one by one (checked as
     * {@link ReportCoordinates} checks them), so the gateway's per-report path forms no coordinates object.
     * Protocols that derive public coins override it without allocating; the result is always the same as
     * {@code accumulate(payload, new ReportCoordinates(deviceId, period, sequence), state)}.
     */
    default boolean accumulate(byte[] payload, String deviceId, long period, int sequence, long[] state) {
        return accumulate(payload, new ReportCoordinates(deviceId, period, sequence), state);
    }
}
