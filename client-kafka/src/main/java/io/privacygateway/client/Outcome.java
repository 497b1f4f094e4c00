package io.privacygateway.client;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * What {@link io.privacygateway.client.kafka.DeviceClient#report} did with one value. Never contains the value or the payload, so it is
 * safe to log.
 *
 * @param status what happened
 * @param coordinates the report's coordinates when a budget slot was used ({@link Status#SENT},
 *     {@link Status#SEND_FAILED}); otherwise {@code null}
 * @param eventTime the report's event time (the device clock when it reported), {@code null} for
 *     {@link Status#INVALID_VALUE}
 * @param delivery completes with the broker's acknowledgement of a {@link Status#SENT} report, or
 *     exceptionally if delivery failed; already failed for {@link Status#SEND_FAILED}; {@code null} when
 *     nothing was sent
 * @param detail a human-readable explanation (never the value)
 */
public record Outcome(Status status, ReportCoordinates coordinates, Instant eventTime,
        CompletableFuture<RecordMetadata> delivery, String detail) {

    /** What happened to a value. */
    public enum Status {
        /** Randomized (local) or wrapped (central) and handed to the producer; its budget slot is used. */
        SENT,
        /** The value is not in the workload's domain: nothing was sent and no budget was used. */
        INVALID_VALUE,
        /** The device's own budget for the period is used up: nothing was sent. */
        BUDGET_EXHAUSTED,
        /** Central mode: the device already made its L contributions to the current window; nothing was sent. */
        CONTRIBUTION_LIMIT,
        /**
         * The producer refused the record synchronously (e.g. the registry or the cluster could not be
         * reached). The budget slot stays used: the report might have left the device.
         */
        SEND_FAILED
    }

    /** Whether the report was handed to the producer. */
    public boolean sent() {
        return status == Status.SENT;
    }

    static Outcome refused(Status status, Instant eventTime, String detail) {
        return new Outcome(status, null, eventTime, null, detail);
    }
}
