package io.privacygateway.schemas;

import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.SyntheticData;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.avro.WorkloadSpecRecord;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/**
 * The gateway's topics, their default names and the Avro record of their values. Keys are plain
 * strings (UTF-8): the device id for reports, the workload id for answers and workloads.
 * Subjects follow TopicNameStrategy: {@code <topic>-value}.
 */
public enum ProjectTopic {
    /** Randomized reports of local-mode workloads, from devices. */
    LOCAL_REPORTS("pgw.reports.local", LocalReport.class),
    /** Raw values of central-mode workloads, from devices (trusted gateway). */
    CENTRAL_REPORTS("pgw.reports.central", CentralReport.class),
    /** Published window answers. */
    ANSWERS("pgw.answers", WindowAnswer.class),
    /** Published synthetic records of wide workloads that declare {@code central.synthetic}, one per window. */
    SYNTHETIC("pgw.synthetic", SyntheticData.class),
    /** Reports that were not counted, and why (dead-letter topic). */
    REJECTIONS("pgw.rejections", Rejection.class),
    /** Resolved workload specs; compacted, keyed by workload id. */
    WORKLOADS("pgw.workloads", WorkloadSpecRecord.class);

    private final String defaultName;
    private final Class<? extends SpecificRecord> valueType;

    ProjectTopic(String defaultName, Class<? extends SpecificRecord> valueType) {
        this.defaultName = defaultName;
        this.valueType = valueType;
    }

    /** The topic name used unless the deployment overrides it. */
    public String defaultName() {
        return defaultName;
    }

    /** The generated class of the topic's values. */
    public Class<? extends SpecificRecord> valueType() {
        return valueType;
    }

    /** The current schema of the topic's values (what this build writes). */
    public Schema valueSchema() {
        return SpecificData.get().getSchema(valueType);
    }

    /** The value subject of the default topic name. */
    public String valueSubject() {
        return SchemaRegistryClient.valueSubject(defaultName);
    }
}
