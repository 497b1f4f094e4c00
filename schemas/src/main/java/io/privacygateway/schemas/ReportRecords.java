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
        return local(w.id(), w.spec().version(), w.contentHash(), c, eventTimeMillis, w.spec().mechanism().wireName(),
                w.spec().epsilonPerReport().value(), payload, w.spec().protocolVersion());
    }

    /**
     * A local report from its fields (what a device SDK or the HTTPS front door holds; the array is not copied).
     * {@code protocolVersion} is the version of the mechanism's protocol the payload was derived with (0: legacy).
     */
    public static LocalReport local(String workloadId, int workloadVersion, String contentHash, ReportCoordinates c,
            long eventTimeMillis, String mechanism, double epsilon, byte[] payload, int protocolVersion) {
        return LocalReport.newBuilder()
                .setWorkloadId(workloadId)
                .setWorkloadVersion(workloadVersion)
                .setContentHash(contentHash)
                .setDeviceId(c.deviceId())
                .setPeriod(c.period())
                .setSequence(c.sequence())
                .setEventTime(Instant.ofEpochMilli(eventTimeMillis))
                .setMechanism(mechanism)
                .setEpsilon(epsilon)
                .setPayload(ByteBuffer.wrap(payload))
                .setProtocolVersion(protocolVersion)
                .build();
    }

    /** A central report carrying the raw value (trusted-gateway model). */
    public static CentralReport central(ResolvedWorkload w, ReportCoordinates c, long eventTimeMillis, String value) {
        return central(w.id(), w.spec().version(), w.contentHash(), c, eventTimeMillis, value);
    }

    /** A central report from its fields. */
    public static CentralReport central(String workloadId, int workloadVersion, String contentHash,
            ReportCoordinates c, long eventTimeMillis, String value) {
        return CentralReport.newBuilder()
                .setWorkloadId(workloadId)
                .setWorkloadVersion(workloadVersion)
                .setContentHash(contentHash)
                .setDeviceId(c.deviceId())
                .setPeriod(c.period())
                .setSequence(c.sequence())
                .setEventTime(Instant.ofEpochMilli(eventTimeMillis))
                .setValue(value)
                .build();
    }
}
