package io.privacygateway.schemas.serde;

import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.registry.SchemaRegistryConfig;
import io.privacygateway.schemas.registry.SchemaRegistryException;
import io.privacygateway.schemas.wire.WireFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Serializes Avro records (generated {@link SpecificRecord} classes, or generic records) into the
 * Confluent wire format ({@link WireFormat}), registering or looking up the record's schema under
 * the topic's subject ({@code <topic>-value}, or {@code <topic>-key} for keys: TopicNameStrategy).
 *
 * <p>Either built with a {@link SchemaRegistryClient} (shared caches; {@link #configure} then only
 * sets key/value), or built empty and {@linkplain #configure configured} from a Kafka config map:
 * {@code schema.registry.url} and the other registry keys
 * ({@link SchemaRegistryConfig#fromClientConfigs}: unknown registry keys are refused), and
 * {@value AvroSerdeConfig#AUTO_REGISTER_SCHEMAS} (default true).
 *
 * <p>After the first record of a schema, serialization makes no registry request. A {@code null}
 * record serializes to {@code null} (a tombstone). Failures are Kafka
 * {@link SerializationException}s naming the topic, subject and cause.
 *
 * @param <T> the record type
 */
public class AvroSerializer<T extends IndexedRecord> implements Serializer<T> {

    private SchemaRegistryClient client;
    private boolean ownsClient;
    private boolean autoRegister = true;
    private boolean isKey;
    private final Map<Schema, DatumWriter<T>> specificWriters = new ConcurrentHashMap<>();
    private final Map<Schema, DatumWriter<T>> genericWriters = new ConcurrentHashMap<>();

    /** An unconfigured serializer: {@link #configure} must be called (Kafka does, for class names). */
    public AvroSerializer() {}

    /** A value serializer that auto-registers schemas through {@code client}. */
    public AvroSerializer(SchemaRegistryClient client) {
        this(client, true);
    }

    /** A value serializer through {@code client}; {@code autoRegister=false} only looks ids up. */
    public AvroSerializer(SchemaRegistryClient client, boolean autoRegister) {
        this.client = client;
        this.autoRegister = autoRegister;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        this.isKey = isKey;
        if (client == null) {
            client = new SchemaRegistryClient(SchemaRegistryConfig.fromClientConfigs(configs));
            ownsClient = true;
            autoRegister = AvroSerdeConfig.bool(configs, AvroSerdeConfig.AUTO_REGISTER_SCHEMAS, true);
        }
    }

    /** The subject this serializer uses for {@code topic}. */
    public String subject(String topic) {
        return isKey ? SchemaRegistryClient.keySubject(topic) : SchemaRegistryClient.valueSubject(topic);
    }

    @Override
    public byte[] serialize(String topic, T record) {
        if (record == null) {
            return null;
        }
        if (client == null) {
            throw new IllegalStateException("AvroSerializer is not configured: pass a SchemaRegistryClient or call"
                    + " configure() with schema.registry.url");
        }
        Schema schema = record.getSchema();
        String subject = subject(topic);
        int id;
        try {
            id = autoRegister ? client.register(subject, schema) : client.lookupId(subject, schema);
        } catch (SchemaRegistryException e) {
            throw new SerializationException("cannot " + (autoRegister ? "register" : "look up") + " schema "
                    + schema.getFullName() + " under subject " + subject + " (topic " + topic + "): "
                    + e.getMessage(), e);
        }
        try {
            return WireFormat.encode(id, writerFor(record, schema), record);
        } catch (IllegalArgumentException e) {
            throw new SerializationException("cannot serialize a " + schema.getFullName() + " for topic " + topic
                    + ": " + e.getMessage(), e);
        }
    }

    /**
     * A cached writer: generated classes are written with their own model (so logical types such
     * as timestamp-millis convert from {@code Instant}), generic records with the generic model.
     */
    @SuppressWarnings("unchecked")
    private DatumWriter<T> writerFor(T record, Schema schema) {
        if (record instanceof SpecificRecord) {
            return specificWriters.computeIfAbsent(schema,
                    s -> (DatumWriter<T>) SpecificData.getForClass(record.getClass()).createDatumWriter(s));
        }
        return genericWriters.computeIfAbsent(schema, s -> (DatumWriter<T>) GenericData.get().createDatumWriter(s));
    }

    @Override
    public void close() {
        if (ownsClient && client != null) {
            client.close();
        }
    }
}
