package io.privacygateway.topology;

import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.avro.WorkloadSpecRecord;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.serde.AvroDeserializer;
import io.privacygateway.schemas.serde.AvroSerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The (de)serializers of the gateway's topics: Avro in the Confluent wire format against a schema
 * registry. Reports are read as raw bytes and decoded inside the topology, so undecodable bytes become
 * rejection records instead of stopping the stream.
 */
public record GatewaySerdes(Deserializer<WorkloadSpecRecord> workloads, Deserializer<LocalReport> localReports,
        Deserializer<CentralReport> centralReports, Serializer<WindowAnswer> answers, Serializer<Rejection> rejections,
        Serializer<io.privacygateway.schemas.avro.SyntheticData> synthetic) {

    /** Serdes backed by one registry client (its caches are shared). */
    public static GatewaySerdes withRegistry(SchemaRegistryClient client) {
        return new GatewaySerdes(new AvroDeserializer<>(WorkloadSpecRecord.class, client),
                new AvroDeserializer<>(LocalReport.class, client), new AvroDeserializer<>(CentralReport.class, client),
                new AvroSerializer<>(client), new AvroSerializer<>(client), new AvroSerializer<>(client));
    }
}
