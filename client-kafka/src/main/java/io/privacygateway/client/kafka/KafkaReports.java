package io.privacygateway.client.kafka;

import io.privacygateway.client.DeviceReport;
import io.privacygateway.schemas.ReportRecords;
import io.privacygateway.schemas.wire.WireFormat;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.apache.avro.specific.SpecificRecord;

/** The Avro record ({@code LocalReport} or {@code CentralReport}) of a device's report, through {@link ReportRecords}. */
public final class KafkaReports {
    private KafkaReports() {}

    /** The record the gateway reads for this report (the payload array is not copied). */
    public static SpecificRecord record(DeviceReport r) {
        return r.kind() == DeviceReport.Kind.LOCAL
                ? ReportRecords.local(r.workloadId(), r.workloadVersion(), r.contentHash(), r.coordinates(),
                        r.eventTime(), r.mechanism(), r.epsilon(), r.payload(), r.protocolVersion())
                : ReportRecords.central(r.workloadId(), r.workloadVersion(), r.contentHash(), r.coordinates(),
                        r.eventTime(), r.value());
    }

    /**
     * The Kafka record value of this report, written directly: the Confluent wire format header ({@link WireFormat}:
     * magic byte, {@code schemaId} big-endian) and the Avro binary encoding of {@link #record}{@code (r)} under the
     * schema of its class ({@code LocalReport} or {@code CentralReport}), field by field in schema order. The bytes
     * are the same as the Avro serializer's for that record and schema id ({@code KafkaReportsBytesTest}); no record
     * object, writer or encoder is built (the HTTPS front door writes every report it accepts this way).
     *
     * <p>Precondition: {@code schemaId} is the id of {@link #record}{@code (r).getSchema()} under the topic's value
     * subject (the caller looks it up). Strings are written as Avro does ({@link String#getBytes} in UTF-8, an
     * unpaired surrogate becoming {@code ?}).
     *
     * @throws IllegalArgumentException if a field the schema requires is null (as the Avro record builder refuses)
     */
    public static byte[] valueBytes(int schemaId, DeviceReport r) {
        byte[] workloadId = utf8(r.workloadId(), "workloadId");
        byte[] contentHash = utf8(r.contentHash(), "contentHash");
        byte[] deviceId = utf8(r.deviceId(), "deviceId");
        boolean local = r.kind() == DeviceReport.Kind.LOCAL;
        byte[] mechanism = local ? utf8(r.mechanism(), "mechanism") : null;
        byte[] payload = local ? Objects.requireNonNull(r.payload(), "payload") : null;
        byte[] value = local ? null : utf8(r.value(), "value");
        int size = WireFormat.HEADER_LENGTH + stringSize(workloadId) + varintSize(zigzag(r.workloadVersion()))
                + stringSize(contentHash) + stringSize(deviceId) + varintSize(zigzag(r.period()))
                + varintSize(zigzag(r.sequence())) + varintSize(zigzag(r.eventTime()));
        if (local) {
            size += stringSize(mechanism) + 8 + stringSize(payload) + varintSize(zigzag(r.protocolVersion()));
        } else {
            size += stringSize(value);
        }
        byte[] out = new byte[size];
        out[0] = WireFormat.MAGIC_BYTE;
        out[1] = (byte) (schemaId >>> 24);
        out[2] = (byte) (schemaId >>> 16);
        out[3] = (byte) (schemaId >>> 8);
        out[4] = (byte) schemaId;
        int p = WireFormat.HEADER_LENGTH;
        p = writeBytes(out, p, workloadId);
        p = writeVarint(out, p, zigzag(r.workloadVersion()));
        p = writeBytes(out, p, contentHash);
        p = writeBytes(out, p, deviceId);
        p = writeVarint(out, p, zigzag(r.period()));
        p = writeVarint(out, p, zigzag(r.sequence()));
        p = writeVarint(out, p, zigzag(r.eventTime())); // timestamp-millis: the epoch milliseconds as a long
        if (local) {
            p = writeBytes(out, p, mechanism);
            long bits = Double.doubleToRawLongBits(r.epsilon()); // Avro: raw bits, little-endian
            for (int i = 0; i < 8; i++) {
                out[p++] = (byte) (bits >>> (8 * i));
            }
            p = writeBytes(out, p, payload);
            p = writeVarint(out, p, zigzag(r.protocolVersion()));
        } else {
            p = writeBytes(out, p, value);
        }
        if (p != size) {
            throw new IllegalStateException("wrote " + p + " of " + size + " bytes"); // a bug of this method
        }
        return out;
    }

    private static byte[] utf8(String s, String field) {
        if (s == null) {
            throw new IllegalArgumentException("cannot encode a report: field " + field + " is null");
        }
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static long zigzag(long v) {
        return (v << 1) ^ (v >> 63);
    }

    private static int varintSize(long z) {
        int n = 1;
        while ((z & ~0x7FL) != 0) {
            z >>>= 7;
            n++;
        }
        return n;
    }

    private static int stringSize(byte[] b) {
        return varintSize(zigzag(b.length)) + b.length;
    }

    private static int writeVarint(byte[] out, int p, long z) {
        while ((z & ~0x7FL) != 0) {
            out[p++] = (byte) ((z & 0x7F) | 0x80);
            z >>>= 7;
        }
        out[p++] = (byte) z;
        return p;
    }

    private static int writeBytes(byte[] out, int p, byte[] b) {
        p = writeVarint(out, p, zigzag(b.length));
        System.arraycopy(b, 0, out, p, b.length);
        return p + b.length;
    }
}
