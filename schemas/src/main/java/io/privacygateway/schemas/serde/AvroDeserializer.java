package io.privacygateway.schemas.serde;

import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.registry.SchemaRegistryConfig;
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
 * Deserializes Confluent wire-format values: reads the writer schema id, finds the writer schema
 * in the registry (once per id), and reads the Avro body into the reader's schema with Avro
 * schema resolution, so producers and consumers on different (compatible) versions of a schema
 * interoperate: fields the reader does not know are skipped, fields the writer did not have take
 * the reader's defaults.
 *
 * <p>The reader is a generated {@link SpecificRecord} class (constructor argument, or the config key
 * {@value AvroSerdeConfig#SPECIFIC_AVRO_VALUE_TYPE} / {@value AvroSerdeConfig#SPECIFIC_AVRO_KEY_TYPE}),
 * or a generic reader schema ({@link #generic}).
 *
 * <p><b>Which ids are accepted.</b> With the subject check (the default for generated classes;
 * {@value AvroSerdeConfig#SUBJECT_CHECK}), a value read from topic {@code t} must carry the id of a
 * schema registered under {@code t-value} ({@code t-key} for keys; Confluent's TopicNameStrategy,
 * which {@link AvroSerializer} follows). The ids of the subject come from
 * {@link SchemaRegistryClient#schemaUnderSubject}: an id outside the subject is rejected
 * ({@code SCHEMA_NOT_IN_SUBJECT}) only when a listing of the subject that began after the value
 * was read does not have it, so a version registered a moment earlier is never refused; a flood of
 * distinct garbage ids costs a bounded, paced number of listings
 * ({@code schema.registry.max.id.lookups.per.interval} per lookup interval), and ids beyond that
 * are {@code SCHEMA_NOT_CHECKED} (nothing concluded). Without the subject check (generic
 * readers, or {@code subject.check=false}), the writer schema is fetched by id
 * ({@link SchemaRegistryClient#getById}, rate-limited), and any registered schema the reader can
 * resolve is accepted.
 *
 * <p>Every failure on a non-null value is a {@link WireFormatException} with a
 * {@link WireFormatException.Reason}: {@code TOO_SHORT}, {@code BAD_MAGIC},
 * {@code SCHEMA_NOT_IN_SUBJECT} (subject check), {@code SCHEMA_NOT_CHECKED} (subject check, listings
 * paced: not the record's fault, read again later), {@code UNKNOWN_SCHEMA_ID} (lookup by id: the
 * registry answered 40403), {@code INCOMPATIBLE_SCHEMA} (the writer schema cannot be read as the
 * reader's, decided once per id), {@code AVRO_DECODE_FAILURE}, {@code TRAILING_BYTES}, and
 * {@code REGISTRY_UNAVAILABLE} (not the record's fault: any other registry failure, never
 * remembered). A {@code null} value deserializes to {@code null} (tombstone).
 *
 * <p>Thread-safe once configured. Resolved ids are kept per subject for the life of the
 * deserializer; ids that failed to resolve are not kept, except ids whose writer schema is
 * incompatible (registered ids, so their number is bounded by the registry).
 *
 * @param <T> the record type
 */
public class AvroDeserializer<T extends IndexedRecord> implements Deserializer<T> {

    /** A writer id resolved once: a reader, or why there is none. */
    private record Resolution<T>(DatumReader<T> reader, Reason failure, String message) {}

    /** The key of {@link #resolutions} for ids looked up without a subject. */
    private static final String NO_SUBJECT = "";

    private SchemaRegistryClient client;
    private boolean ownsClient;
    private Class<?> specificType;
    private Schema readerSchema;
    private GenericData model;
    private boolean subjectCheck;
    private boolean isKey;
    /** Subject (or {@link #NO_SUBJECT}) → writer id → resolution. */
    private final Map<String, Map<Integer, Resolution<T>>> resolutions = new ConcurrentHashMap<>();

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
        this.subjectCheck = false;
    }

    /**
     * A deserializer into generic records of {@code readerSchema}, or of each value's writer schema
     * if {@code readerSchema} is null. Logical types stay in their underlying representation.
     * Writer schemas are looked up by id (no subject check) unless {@link #subjectCheck(boolean)}
     * turns the check on.
     */
    public static AvroDeserializer<GenericRecord> generic(Schema readerSchema, SchemaRegistryClient client) {
        return new AvroDeserializer<>(readerSchema, client);
    }

    /**
     * Turns the subject check on or off (see the class comment); on by default for generated
     * classes, off for {@link #generic} readers. Call before the first value.
     *
     * @return this
     */
    public AvroDeserializer<T> subjectCheck(boolean enabled) {
        this.subjectCheck = enabled;
        resolutions.clear();
        return this;
    }

    /** Whether values must carry the id of a schema registered under the topic's subject. */
    public boolean subjectCheck() {
        return subjectCheck;
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
        this.subjectCheck = true;
    }

    /**
     * Reads {@value AvroSerdeConfig#SPECIFIC_AVRO_VALUE_TYPE} (or the key variant) unless a type was
     * given, {@value AvroSerdeConfig#SUBJECT_CHECK}, and, unless a client was given, the registry
     * keys of {@link SchemaRegistryConfig#fromClientConfigs} (unknown registry keys are refused).
     */
    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        this.isKey = isKey;
        if (model == null) {
            String key = isKey ? AvroSerdeConfig.SPECIFIC_AVRO_KEY_TYPE : AvroSerdeConfig.SPECIFIC_AVRO_VALUE_TYPE;
            Object type = configs.get(key);
            if (type == null) {
                throw new IllegalArgumentException(key + " is required (the generated Avro class to read into)");
            }
            setSpecificType(type instanceof Class<?> c ? c : loadClass(key, String.valueOf(type).trim()));
        }
        subjectCheck(AvroSerdeConfig.bool(configs, AvroSerdeConfig.SUBJECT_CHECK, subjectCheck));
        if (client == null) {
            client = new SchemaRegistryClient(SchemaRegistryConfig.fromClientConfigs(configs));
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

    /** The subject whose ids this deserializer accepts for {@code topic}, with the subject check. */
    public String subject(String topic) {
        return isKey ? SchemaRegistryClient.keySubject(topic) : SchemaRegistryClient.valueSubject(topic);
    }

    /**
     * Decodes one value read from {@code topic}.
     *
     * @throws WireFormatException for every failure (see the class comment); a {@code null}
     *     {@code topic} skips the subject check
     */
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
        String subject = subjectCheck && topic != null ? subject(topic) : NO_SUBJECT;
        Map<Integer, Resolution<T>> resolved = resolutions.get(subject);
        if (resolved == null) {
            resolved = resolutions.computeIfAbsent(subject, s -> new ConcurrentHashMap<>());
        }
        Resolution<T> resolution = resolved.get(id);
        if (resolution == null) {
            resolution = resolve(subject, id, resolved);
        }
        if (resolution.reader() == null) {
            throw new WireFormatException(resolution.failure(), id, resolution.message(), null);
        }
        return WireFormat.decodeBody(data, id, resolution.reader());
    }

    /**
     * Finds the writer schema and builds the resolving reader. Registry failures and ids outside
     * the subject are thrown and not remembered here (the client bounds what asking again costs);
     * an incompatible writer schema is remembered.
     */
    @SuppressWarnings("unchecked")
    private Resolution<T> resolve(String subject, int id, Map<Integer, Resolution<T>> resolved) {
        Schema writer = WireFormat.lookupChecked(i -> lookup(subject, i), id);
        Schema reader = readerSchema != null ? readerSchema : writer;
        Resolution<T> resolution;
        try {
            WireFormat.checkResolvable(id, writer, reader);
            resolution = new Resolution<>((DatumReader<T>) model.createDatumReader(writer, reader), null, null);
        } catch (WireFormatException e) {
            resolution = new Resolution<>(null, e.reason(), e.detail());
        }
        Resolution<T> previous = resolved.putIfAbsent(id, resolution);
        return previous != null ? previous : resolution;
    }

    private Schema lookup(String subject, int id) {
        if (subject.equals(NO_SUBJECT)) {
            try {
                return client.getById(id);
            } catch (SchemaRegistryException e) {
                // Only the registry's "schema not found" code (40403 in its error JSON) makes the id
                // unknown: anything else, a bare 404 included, says nothing about the record.
                Reason reason = e.isSchemaNotFound() ? Reason.UNKNOWN_SCHEMA_ID : Reason.REGISTRY_UNAVAILABLE;
                throw new WireFormatException(reason, id, e.getMessage(), e);
            }
        }
        Schema schema;
        try {
            schema = client.schemaUnderSubject(subject, id);
        } catch (SchemaRegistryException e) {
            if (e.isPaced()) {
                throw new WireFormatException(Reason.SCHEMA_NOT_CHECKED, id, "schema id " + id + " is not one of"
                        + " subject " + subject + "'s known ids and the registry was not asked about it: the subject"
                        + " was already listed " + client.config().maxIdLookupsPerInterval() + " times for unknown"
                        + " ids in the last " + client.config().lookupInterval().toMillis() + " ms", e);
            }
            throw new WireFormatException(Reason.REGISTRY_UNAVAILABLE, id, "cannot list the schemas of subject "
                    + subject + ": " + e.getMessage(), e);
        }
        if (schema == null) {
            throw new WireFormatException(Reason.SCHEMA_NOT_IN_SUBJECT, id, "schema id " + id
                    + " is not registered under subject " + subject + " (as the registry listed it after this"
                    + " value was read)", null);
        }
        return schema;
    }

    @Override
    public void close() {
        if (ownsClient && client != null) {
            client.close();
        }
    }
}
