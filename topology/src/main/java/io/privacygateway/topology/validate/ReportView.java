package io.privacygateway.topology.validate;

/**
 * The fields of a report the gateway validates, independent of its wire encoding.
 *
 * @param workloadId the workload the device reports for
 * @param workloadVersion the workload version the device used
 * @param contentHash the workload content hash the device used
 * @param deviceId the reporting device
 * @param period the budget period index
 * @param sequence the report's sequence number within the period (local) or its contribution slot in its window
 *     (central)
 * @param eventTime when the value was observed (epoch millis)
 * @param mechanism the mechanism wire name (local reports) or {@code null} (central reports)
 * @param epsilon the ε the device charged (local reports) or {@code NaN} (central reports)
 * @param payload the randomized payload (local) or {@code null}
 * @param value the raw value (central) or {@code null}; never logged or copied to a rejection
 * @param protocolVersion the version of the mechanism's device protocol the report declares (local reports; 0 for a
 *     report from a build before protocol versions, and for central reports)
 */
public record ReportView(String workloadId, int workloadVersion, String contentHash, String deviceId, long period,
        int sequence, long eventTime, String mechanism, double epsilon, byte[] payload, String value,
        int protocolVersion) {

    /** A report without a protocol version: central, or local from a build before protocol versions. */
    public ReportView(String workloadId, int workloadVersion, String contentHash, String deviceId, long period,
            int sequence, long eventTime, String mechanism, double epsilon, byte[] payload, String value) {
        this(workloadId, workloadVersion, contentHash, deviceId, period, sequence, eventTime, mechanism, epsilon,
                payload, value, 0);
    }
}
