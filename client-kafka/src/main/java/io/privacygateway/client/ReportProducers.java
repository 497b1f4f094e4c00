package io.privacygateway.client;

import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.serde.AvroSerializer;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Kafka producers for reports. {@link #avro} writes keys as UTF-8 strings (the device id) and values in
 * the Confluent wire format through the project's {@link AvroSerializer} (magic byte, 4-byte schema id,
 * Avro binary), which is the only encoding the gateway reads.
 *
 * <p>Settings applied on top of the caller's (the caller's win): {@code acks=all},
 * {@code enable.idempotence=true} (no duplicates from retries), {@code linger.ms=5}, {@code max.block.ms=5000} (a
 * device's thread waits at most 5 s for an unreachable broker; the report is then {@code SEND_FAILED}). Serializer settings
 * in the caller's map are ignored: the serializers are fixed. A {@code partitioner.class} is refused: the
 * gateway requires every report on its device id's default partition.
 */
public final class ReportProducers {
    private ReportProducers() {}

    /** The producer settings used unless the caller overrides them. */
    public static Map<String, Object> defaults() {
        Map<String, Object> m = new HashMap<>();
        m.put(ProducerConfig.ACKS_CONFIG, "all");
        m.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        m.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        // a device's thread is never held for Kafka's default 60 s while the broker is unreachable: after 5 s
        // DeviceClient.report() returns SEND_FAILED (already charged; resend() sends the same report later)
        m.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000);
        return m;
    }

    /**
     * A report producer that looks schema ids up without registering (the gateway registers its schemas
     * at startup under the FULL_TRANSITIVE policy; devices should not).
     *
     * @param kafkaConfig at least {@code bootstrap.servers}; any producer setting (TLS, SASL, ...)
     * @param registry the schema registry the gateway uses
     */
    public static Producer<String, SpecificRecord> avro(Map<String, ?> kafkaConfig, SchemaRegistryClient registry) {
        return avro(kafkaConfig, registry, false);
    }

    /**
     * A report producer; {@code autoRegister=true} registers the record schemas on first use (for tools
     * and tests that run before a gateway has set the registry up).
     */
    public static Producer<String, SpecificRecord> avro(Map<String, ?> kafkaConfig, SchemaRegistryClient registry,
            boolean autoRegister) {
        return new KafkaProducer<>(merged(kafkaConfig), new StringSerializer(),
                new AvroSerializer<SpecificRecord>(registry, autoRegister));
    }

    /**
     * A report producer with its own registry client for {@code registryUrl} (Confluent API; closed with
     * the producer). Registry settings such as {@code basic.auth.user.info} are read from
     * {@code kafkaConfig}. Looks schema ids up without registering.
     */
    public static Producer<String, SpecificRecord> avro(Map<String, ?> kafkaConfig, String registryUrl) {
        Map<String, Object> producerConfig = merged(kafkaConfig);
        Map<String, Object> serde = new HashMap<>(kafkaConfig);
        serde.put("schema.registry.url", registryUrl);
        serde.put("auto.register.schemas", false);
        AvroSerializer<SpecificRecord> values = new AvroSerializer<>();
        values.configure(serde, false);
        return new KafkaProducer<>(producerConfig, new StringSerializer(), values);
    }

    /** A producer of raw bytes (for simulating devices that send bytes that are not reports). */
    public static Producer<String, byte[]> raw(Map<String, ?> kafkaConfig) {
        return new KafkaProducer<>(merged(kafkaConfig), new StringSerializer(), new ByteArraySerializer());
    }

    private static Map<String, Object> merged(Map<String, ?> kafkaConfig) {
        Object partitioner = kafkaConfig.get(ProducerConfig.PARTITIONER_CLASS_CONFIG);
        if (partitioner != null) {
            throw new IllegalArgumentException(ProducerConfig.PARTITIONER_CLASS_CONFIG + ": reports must use Kafka's"
                    + " default partitioner on the device id (the gateway rejects a report found on another partition"
                    + " as WRONG_PARTITION), got " + partitioner);
        }
        Map<String, Object> m = defaults();
        m.putAll(kafkaConfig);
        m.remove(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG);
        m.remove(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG);
        return m;
    }
}
