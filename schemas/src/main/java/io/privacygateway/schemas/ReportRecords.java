package io.privacygateway.schemas;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.LocalReport;
import java.nio.ByteBuffer;
import java.time.Instant;

/**
 * The Avro records of reports: a workload version's coordinates (id, version, content hash and, for local
 * reports, the mechanism's wire name, ε per report and protocol version) plus a report's coordinates, event time and payload or
 * raw value. No budget is checked here: the device SDK builds records only for reports its budget admitted.
 */
public final class ReportRecords {
    private ReportRecords() {}

    /** A local report carrying a randomized payload (the array is not copied). */
    public static LocalReport local(ResolvedWorkload w, ReportCoordinates c, long eventTimeMillis, byte[] payload) {
        return LocalReport.newBuilder()
                .setWorkloadId(w.id())
                .setWorkloadVersion(w.spec().version())
                .setContentHash(w.contentHash())
                .setDeviceId(c.deviceId())
                .setPeriod(c.period())
                .setSequence(c.sequence())
                .setEventTime(Instant.ofEpochMilli(eventTimeMillis))
                .setMechanism(w.spec().mechanism().wireName())
                .setEpsilon(w.spec().epsilonPerReport().value())
                .setPayload(ByteBuffer.wrap(payload))
                .setProtocolVersion(w.spec().protocolVersion())
                .build();
    }

    /** A central report carrying the raw value (trusted-gateway model). */
    public static CentralReport central(ResolvedWorkload w, ReportCoordinates c, long eventTimeMillis, String value) {
        return CentralReport.newBuilder()
                .setWorkloadId(w.id())
                .setWorkloadVersion(w.spec().version())
                .setContentHash(w.contentHash())
                .setDeviceId(c.deviceId())
                .setPeriod(c.period())
                .setSequence(c.sequence())
                .setEventTime(Instant.ofEpochMilli(eventTimeMillis))
                .setValue(value)
                .build();
    }
}
