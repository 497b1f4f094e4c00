package io.privacygateway.simulator;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.schemas.ReportRecords;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.LocalReport;

/**
 * For simulated misbehaving devices only (this class is not part of the device SDK): builds the Avro report
 * records exactly as given: the workload's id, version, content hash (and, for
 * local reports, the mechanism's wire name and ε per report) plus the report's coordinates, event time and
 * payload or value. No check is made here that the coordinates are within a budget or that the period
 * matches the event time; the device SDK (client.kafka.DeviceClient) is the API that guarantees that. (Simulated misbehaving
 * devices use this class to build reports the gateway must reject.)
 */
public final class Reports {
    private Reports() {}

    /** A local-mode report carrying a randomized payload (the payload array is not copied). */
    public static LocalReport local(ResolvedWorkload w, ReportCoordinates c, long eventTimeMillis, byte[] payload) {
        return ReportRecords.local(w, c, eventTimeMillis, payload);
    }

    /** A central-mode report carrying the raw value (trusted-gateway model). */
    public static CentralReport central(ResolvedWorkload w, ReportCoordinates c, long eventTimeMillis, String value) {
        return ReportRecords.central(w, c, eventTimeMillis, value);
    }
}
