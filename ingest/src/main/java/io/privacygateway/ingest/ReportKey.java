package io.privacygateway.ingest;

import io.privacygateway.client.DeviceReport;

/**
 * What makes two reports the same report for deduplication: the workload id and content hash, the coordinates
 * (device id, period, sequence) and the kind, the fields of {@link DeviceReport#dedupeKey()}, held without building
 * that string (one small object per report instead of a concatenation of all of them). Equal exactly when those
 * fields are equal.
 */
record ReportKey(String workloadId, String contentHash, String deviceId, long period, int sequence,
        DeviceReport.Kind kind) {
    static ReportKey of(DeviceReport r) {
        return new ReportKey(r.workloadId(), r.contentHash(), r.deviceId(), r.period(), r.sequence(), r.kind());
    }
}
