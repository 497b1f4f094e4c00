package io.privacygateway.client;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.LocalReport;
import java.nio.ByteBuffer;
import java.time.Instant;

/**
 * The Avro records of reports {@link DeviceClient} has admitted against the device's budget (package-private:
 * the SDK exposes no way to build a report that bypasses the budget).
 */
final class ReportRecords {
    private ReportRecords() {}

    static LocalReport local(ResolvedWorkload w, ReportCoordinates c, long eventTimeMillis, byte[] payload) {
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
                .build();
    }

    static CentralReport central(ResolvedWorkload w, ReportCoordinates c, long eventTimeMillis, String value) {
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
