package io.privacygateway.schemas.serde;

import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.registry.SchemaRegistryException;
import io.privacygateway.schemas.wire.AvroClassTrust;
import io.privacygateway.schemas.wire.WireFormat;
import io.privacygateway.schemas.wire.WireFormatException;
import io.privacygateway.schemas.wire.WireFormatException.Reason;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.DatumReader;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Deserializes Confluent wire-format values: reads the writer schema id, fetches the writer schema
 * from the registry (once per id), and reads the Avro body into the reader's schema with Avro
 * schema resolution, so producers and consumers on different (compatible) versions of a schema
 * interoperate: fields the reader does not know are skipped, fields the writer did not have take
 * the reader's defaults.
 *
 * <p>The reader is a generated {@link SpecificRecord} class (constructor argument, or the config key
 * {@value AvroSerdeConfig#SPECIFIC_AVRO_VALUE_TYPE} / {@value AvroSerdeConfig#SPECIFIC_AVRO_KEY_TYPE}),
 * or a generic reader schema ({@link #generic}).
 *
 * <p>Every failure on a non-null value is a {@link WireFormatException} with a
 * {@link WireFormatException.Reason}: {@code TOO_SHORT}, {@code BAD_MAGIC}, {@code UNKNOWN_SCHEMA_ID}
 * (the registry answered 40403), {@code INCOMPATIBLE_SCHEMA} (the writer schema cannot be read as
 * the reader's, decided once per id), {@code AVRO_DECODE_FAILURE}, {@code TRAILING_BYTES}, and
 * {@code REGISTRY_UNAVAILABLE} (not the record's fault). A {@code null} value deserializes to
 * {@code null} (tombstone).
 *
 * @param <T> the record type
 */
public class AvroDeserializer<T extends IndexedRecord> implements Deserializer<T> {

    /** A writer id resolved once: a reader, or why there is none. */
    private record Resolution<T>(DatumReader<T> reader, Reason failure, String message) {}

    private SchemaRegistryClient client;
    private boolean ownsClient;
    private Class<?> specificType;
    private Schema readerSchema;
    private GenericData model;
    private final Map<Integer, Resolution<T>> resolutions = new ConcurrentHashMap<>();

    /**
     * An unconfigured deserializer: {@link #configure} must be called with
     * {@code schema.registry.url} and {@value AvroSerdeConfig#SPECIFIC_AVRO_VALUE_TYPE} (or the key
     * variant).
     */
    public AvroDeserializer() {}

    /** A deserializer into {@code type}; the registry comes from {@link #configure}. */
    public AvroDeserializer(Class<T> type) {
        setSpecificType(type);
    }

    /** A deserializer into {@code type} through {@code client}. */
    public AvroDeserializer(Class<T> type, SchemaRegistryClient client) {
        setSpecificType(type);
        this.client = Objects.requireNonNull(client, "client");
    }

    private AvroDeserializer(Schema readerSchema, SchemaRegistryClient client) {
        this.readerSchema = readerSchema;
        this.model = GenericData.get();
        this.client = Objects.requireNonNull(client, "client");
    }

    /**
     * A deserializer into generic records of {@code readerSchema}, or of each value's writer schema
     * if {@code readerSchema} is null. Logical types stay in their underlying representation.
     */
    public static AvroDeserializer<GenericRecord> generic(Schema readerSchema, SchemaRegistryClient client) {
        return new AvroDeserializer<>(readerSchema, client);
    }

    private void setSpecificType(Class<?> type) {
        if (!SpecificRecord.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException(type.getName() + " is not a generated Avro SpecificRecord class");
        }
        AvroClassTrust.trustPackageOf(type);
        SpecificData data = SpecificData.getForClass(type);
        Schema schema = data.getSchema(type);
        if (schema == null || schema.getType() != Schema.Type.RECORD) {
            throw new IllegalArgumentException(type.getName() + " has no Avro record schema (SCHEMA$)");
        }
        this.specificType = type;
        this.readerSchema = schema;
        this.model = data;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        if (model == null) {
            String key = isKey ? AvroSerdeConfig.SPECIFIC_AVRO_KEY_TYPE : AvroSerdeConfig.SPECIFIC_AVRO_VALUE_TYPE;
            Object type = configs.get(key);
            if (type == null) {
                throw new IllegalArgumentException(key + " is required (the generated Avro class to read into)");
            }
            setSpecificType(type instanceof Class<?> c ? c : loadClass(key, String.valueOf(type).trim()));
        }
        if (client == null) {
            client = SchemaRegistryClient.fromConfigs(configs);
            ownsClient = true;
        }
    }

    private static Class<?> loadClass(String key, String name) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        try {
            return Class.forName(name, true, loader != null ? loader : AvroDeserializer.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException(key + ": class " + name + " not found", e);
        }
    }

    /** The reader schema, or null when reading generic records with each writer's schema. */
    public Schema readerSchema() {
        return readerSchema;
    }

    /** The generated class read into, or null for generic records. */
    public Class<?> specificType() {
        return specificType;
    }

    @Override
    public T deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        if (client == null || model == null) {
            throw new IllegalStateException("AvroDeserializer is not configured: pass a reader type and a"
                    + " SchemaRegistryClient or call configure() with schema.registry.url");
        }
        int id = WireFormat.schemaId(data);
        Resolution<T> resolution = resolutions.get(id);
        if (resolution == null) {
            resolution = resolve(id);
        }
        if (resolution.reader() == null) {
            throw new WireFormatException(resolution.failure(), id, resolution.message(), null);
        }
        return WireFormat.decodeBody(data, id, resolution.reader());
    }

    /**
     * Fetches the writer schema and builds the resolving reader. Registry failures are thrown and
     * not remembered (the next value asks again, subject to the client's missing-id cache); an
     * incompatible writer schema is remembered.
     */
    @SuppressWarnings("unchecked")
    private Resolution<T> resolve(int id) {
        Schema writer = WireFormat.lookupChecked(this::lookup, id);
        Schema reader = readerSchema != null ? readerSchema : writer;
        Resolution<T> resolution;
        try {
            WireFormat.checkResolvable(id, writer, reader);
            resolution = new Resolution<>((DatumReader<T>) model.createDatumReader(writer, reader), null, null);
        } catch (WireFormatException e) {
            resolution = new Resolution<>(null, e.reason(), e.detail());
        }
        Resolution<T> previous = resolutions.putIfAbsent(id, resolution);
        return previous != null ? previous : resolution;
    }

    private Schema lookup(int id) {
        try {
            return client.getById(id);
        } catch (SchemaRegistryException e) {
            // Only the registry's "schema not found" code makes the id unknown: a 404 without it (a
            // wrong registry URL path, say) must not turn every record into a rejection.
            Reason reason = e.errorCode() == SchemaRegistryException.SCHEMA_NOT_FOUND
                    ? Reason.UNKNOWN_SCHEMA_ID : Reason.REGISTRY_UNAVAILABLE;
            throw new WireFormatException(reason, id, e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        if (ownsClient && client != null) {
            client.close();
        }
    }
}
