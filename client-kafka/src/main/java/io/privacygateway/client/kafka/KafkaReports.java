package io.privacygateway.client.kafka;

import io.privacygateway.client.DeviceReport;
import io.privacygateway.schemas.ReportRecords;
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
}
