package io.privacygateway.client;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import java.util.Arrays;
import java.util.Objects;

/**
 * One report as it leaves the device, independent of the transport: the fields of the Avro records
 * {@code LocalReport} and {@code CentralReport} ({@code schemas/src/main/avro}, same names, same order). The HTTP
 * transport sends it in the report envelope ({@link ReportEnvelope}, docs/wire-format.md "Report envelope over
 * HTTPS"); the Kafka transport turns it into the Avro record.
 *
 * @param kind local (randomized payload) or central (raw value)
 * @param workloadId the workload's id
 * @param workloadVersion the workload version the device reported for
 * @param contentHash the content hash of that version's canonical form
 * @param deviceId the device id
 * @param period the budget period index
 * @param sequence the sequence number within the period
 * @param eventTime epoch ms
 * @param mechanism local: the mechanism's wire name; central: {@code null}
 * @param epsilon local: the pure ε per report; central: 0
 * @param payload local: the randomized payload (not copied); central: {@code null}
 * @param value central: the raw value; local: {@code null}
 * @param protocolVersion local: the version of the mechanism's protocol the payload was derived with (the spec's
 *     {@code protocolVersion}; docs/wire-format.md "Protocol versions"); central: 0
 */
public record DeviceReport(Kind kind, String workloadId, int workloadVersion, String contentHash, String deviceId,
        long period, int sequence, long eventTime, String mechanism, double epsilon, byte[] payload, String value,
        int protocolVersion) {

    /** Which record a report is. The ordinal is the union branch of the envelope (0 local, 1 central). */
    public enum Kind { LOCAL, CENTRAL }

    public DeviceReport {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(workloadId, "workloadId");
        Objects.requireNonNull(contentHash, "contentHash");
        ReportCoordinates.check(deviceId, period, sequence);
        if (kind == Kind.LOCAL) {
            Objects.requireNonNull(mechanism, "mechanism");
            Objects.requireNonNull(payload, "payload");
            if (value != null) {
                throw new IllegalArgumentException("a local report carries no raw value");
            }
            if (protocolVersion < 0) {
                throw new IllegalArgumentException("protocolVersion must be >= 0, got " + protocolVersion);
            }
        } else {
            Objects.requireNonNull(value, "value");
            if (payload != null || mechanism != null || protocolVersion != 0) {
                throw new IllegalArgumentException("a central report carries no payload, mechanism or protocol");
            }
        }
    }

    /** A local report. */
    public static DeviceReport local(String workloadId, int version, String contentHash, ReportCoordinates c,
            long eventTime, String mechanism, double epsilon, byte[] payload, int protocolVersion) {
        return new DeviceReport(Kind.LOCAL, workloadId, version, contentHash, c.deviceId(), c.period(), c.sequence(),
                eventTime, mechanism, epsilon, payload, null, protocolVersion);
    }

    /** A central report. */
    public static DeviceReport central(String workloadId, int version, String contentHash, ReportCoordinates c,
            long eventTime, String value) {
        return new DeviceReport(Kind.CENTRAL, workloadId, version, contentHash, c.deviceId(), c.period(),
                c.sequence(), eventTime, null, 0, null, value, 0);
    }

    /** The report's public coordinates. */
    public ReportCoordinates coordinates() {
        return new ReportCoordinates(deviceId, period, sequence);
    }

    /**
     * What identifies a report at the gateway: a resend of the same report has the same key, and the gateway counts a
     * key once ({@code DUPLICATE} otherwise). Workload id, content hash, device id, period and sequence.
     */
    public String dedupeKey() {
        return workloadId + '\n' + contentHash + '\n' + deviceId + '\n' + period + '\n' + sequence
                + (kind == Kind.CENTRAL ? "\nc" : "\nl");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeviceReport r && kind == r.kind && workloadId.equals(r.workloadId)
                && workloadVersion == r.workloadVersion && contentHash.equals(r.contentHash)
                && deviceId.equals(r.deviceId) && period == r.period && sequence == r.sequence
                && eventTime == r.eventTime && Objects.equals(mechanism, r.mechanism)
                && Double.compare(epsilon, r.epsilon) == 0 && Arrays.equals(payload, r.payload)
                && Objects.equals(value, r.value) && protocolVersion == r.protocolVersion;
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, workloadId, contentHash, deviceId, period, sequence, eventTime);
    }

    /** Never shows the payload or the value. */
    @Override
    public String toString() {
        return "DeviceReport[" + kind + " " + workloadId + " v" + workloadVersion + " " + deviceId + "/" + period
                + "/" + sequence + " @" + eventTime + "]";
    }
}
