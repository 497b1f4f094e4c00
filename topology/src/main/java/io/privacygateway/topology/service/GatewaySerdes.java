package io.privacygateway.topology.service;

import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.SyntheticData;
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
 * rejection records instead of stopping the stream. {@code answersReader} reads the answers topic back into the
 * answers store ({@link io.privacygateway.topology.answers.AnswersStore}).
 */
public record GatewaySerdes(Deserializer<WorkloadSpecRecord> workloads, Deserializer<LocalReport> localReports,
        Deserializer<CentralReport> centralReports, Serializer<WindowAnswer> answers, Serializer<Rejection> rejections,
        Serializer<SyntheticData> synthetic, Deserializer<WindowAnswer> answersReader) {

    /** Serdes backed by one registry client (its caches are shared). */
    public static GatewaySerdes withRegistry(SchemaRegistryClient client) {
        return new GatewaySerdes(new AvroDeserializer<>(WorkloadSpecRecord.class, client),
                new AvroDeserializer<>(LocalReport.class, client), new AvroDeserializer<>(CentralReport.class, client),
                new AvroSerializer<>(client), new AvroSerializer<>(client), new AvroSerializer<>(client),
                new AvroDeserializer<>(WindowAnswer.class, client));
    }
}
