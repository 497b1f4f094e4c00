package io.privacygateway.schemas.serde;

import io.privacygateway.schemas.registry.SchemaRegistryClient;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.specific.SpecificRecord;

/** Factories of {@link AvroSerde}s. */
public final class AvroSerdes {
    private AvroSerdes() {}

    /** A value serde of a generated class through a shared client, auto-registering schemas. */
    public static <T extends SpecificRecord> AvroSerde<T> specific(Class<T> type, SchemaRegistryClient client) {
        return specific(type, client, true);
    }

    /** A value serde of a generated class through a shared client. */
    public static <T extends SpecificRecord> AvroSerde<T> specific(Class<T> type, SchemaRegistryClient client,
            boolean autoRegister) {
        return new AvroSerde<>(new AvroSerializer<>(client, autoRegister), new AvroDeserializer<>(type, client));
    }

    /**
     * A serde of a generated class whose registry comes from {@link AvroSerde#configure} (each
     * half then owns a client built from the config map).
     */
    public static <T extends SpecificRecord> AvroSerde<T> specific(Class<T> type) {
        return new AvroSerde<>(new AvroSerializer<>(), new AvroDeserializer<>(type));
    }

    /** A value serde of a generated class, configured from a Kafka config map now. */
    public static <T extends SpecificRecord> AvroSerde<T> specific(Class<T> type, Map<String, ?> configs) {
        AvroSerde<T> serde = specific(type);
        serde.configure(configs, false);
        return serde;
    }

    /**
     * A value serde of generic records: writes each record with its own schema and reads into
     * {@code readerSchema} (or each writer's schema if null).
     */
    public static AvroSerde<GenericRecord> generic(Schema readerSchema, SchemaRegistryClient client,
            boolean autoRegister) {
        return new AvroSerde<>(new AvroSerializer<>(client, autoRegister), AvroDeserializer.generic(readerSchema, client));
    }
}
