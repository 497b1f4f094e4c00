package io.privacygateway.client;

import java.util.List;

/**
 * How a device's reports reach the gateway: {@link HttpTransport} (phones and browsers: the HTTPS ingestion
 * endpoint) or the Kafka transport of the client-kafka module (servers and relays). The {@link Client} calls
 * {@link #send} on its sender thread only, one batch at a time.
 *
 * <p><b>Contract.</b> {@link #send} either returns exactly one {@link ReportEnvelope.Result} per report, in the
 * batch's order, or throws a {@link TransportException} saying the whole batch failed and whether trying again can
 * help. A transport never says {@code ACCEPTED} for a report the gateway's front door does not durably have. A
 * transport may deliver a report whose answer is then lost (a timeout after the server took it): the client
 * sends it again, and the report's coordinates make that resend a {@code DUPLICATE}, never a second count.
 */
public interface Transport extends AutoCloseable {
    /**
     * Sends a batch (1 to {@link #maxBatch()} reports).
     *
     * @return one result per report, in order
     * @throws TransportException if the batch as a whole failed
     */
    List<ReportEnvelope.Result> send(List<DeviceReport> batch) throws TransportException;

    /** The most reports {@link #send} takes at once. */
    default int maxBatch() {
        return ReportEnvelope.MAX_REPORTS;
    }

    @Override
    default void close() {}
}
