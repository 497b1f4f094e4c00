package io.privacygateway.schemas.wire;

import io.privacygateway.schemas.wire.WireFormatException.Reason;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/**
 * The Confluent Schema Registry wire format of a Kafka record value:
 *
 * <pre>
 * byte 0      magic byte, always 0
 * bytes 1..4  schema id, 32-bit big-endian (the registry's global id of the writer schema)
 * bytes 5..   the datum in Avro binary encoding (no container, no fingerprint)
 * </pre>
 *
 * <p>Decoding is defensive: the header is validated, the body is read with a decoder that checks
 * every declared length against the bytes that remain (no allocation a message cannot back), and
 * the body must be consumed exactly. Every failure is a {@link WireFormatException} with a
 * {@link Reason}; Avro's runtime exceptions (and index errors on hostile data) are caught and
 * reported as {@link Reason#AVRO_DECODE_FAILURE}, so nothing else escapes.
 */
public final class WireFormat {

    /** The first byte of every value. */
    public static final byte MAGIC_BYTE = 0;
    /** Magic byte plus schema id. */
    public static final int HEADER_LENGTH = 5;

    static {
        AvroClassTrust.trustPackage(AvroClassTrust.PROJECT_PACKAGE);
    }

    private WireFormat() {}

    /** Looks up a writer schema by its registry id. */
    @FunctionalInterface
    public interface SchemaLookup {
        /**
         * The schema registered under {@code id}.
         *
         * @throws WireFormatException with {@link Reason#UNKNOWN_SCHEMA_ID} if there is none, or
         *     {@link Reason#REGISTRY_UNAVAILABLE} if the registry cannot be asked
         */
        Schema schemaById(int id);
    }

    // ---- encoding ---------------------------------------------------------------------------------

    /** Encodes a generated (specific) record with its own schema under {@code schemaId}. */
    public static byte[] encode(int schemaId, SpecificRecord record) {
        Schema schema = record.getSchema();
        return encode(schemaId, new SpecificDatumWriter<>(schema, SpecificData.getForClass(record.getClass())), record);
    }

    /** Encodes a generic record with its own schema under {@code schemaId}. */
    public static byte[] encode(int schemaId, IndexedRecord record) {
        if (record instanceof SpecificRecord specific) {
            return encode(schemaId, specific);
        }
        return encode(schemaId, new GenericDatumWriter<>(record.getSchema(), GenericData.get()), record);
    }

    /**
     * Encodes {@code datum} with {@code writer} under {@code schemaId}.
     *
     * @throws IllegalArgumentException if the datum does not fit the writer's schema (for example a
     *     required field is null): a bug of the producer, not of the data on the wire
     */
    public static <T> byte[] encode(int schemaId, DatumWriter<T> writer, T datum) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64);
        out.write(MAGIC_BYTE);
        out.write(schemaId >>> 24);
        out.write(schemaId >>> 16);
        out.write(schemaId >>> 8);
        out.write(schemaId);
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        try {
            writer.write(datum, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory failed", e);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("cannot encode " + describe(datum) + ": " + e, e);
        }
        return out.toByteArray();
    }

    private static String describe(Object datum) {
        return datum instanceof IndexedRecord r ? "a " + r.getSchema().getFullName() : String.valueOf(datum);
    }

    // ---- decoding ---------------------------------------------------------------------------------

    /**
     * Validates the header and returns the schema id.
     *
     * @throws WireFormatException {@link Reason#TOO_SHORT} (null, empty or under 5 bytes),
     *     {@link Reason#BAD_MAGIC}
     */
    public static int schemaId(byte[] data) {
        if (data == null || data.length < HEADER_LENGTH) {
            throw new WireFormatException(Reason.TOO_SHORT, "a value needs at least " + HEADER_LENGTH
                    + " bytes (magic byte and schema id), got " + (data == null ? "null" : data.length));
        }
        if (data[0] != MAGIC_BYTE) {
            throw new WireFormatException(Reason.BAD_MAGIC,
                    String.format("first byte must be 0x00, got 0x%02x", data[0] & 0xFF));
        }
        return (data[1] & 0xFF) << 24 | (data[2] & 0xFF) << 16 | (data[3] & 0xFF) << 8 | (data[4] & 0xFF);
    }

    /**
     * Reads the Avro body (after the header) with {@code reader}, which must have been built for
     * the writer schema the header names. The body must be consumed exactly.
     *
     * @throws WireFormatException {@link Reason#TOO_SHORT}, {@link Reason#AVRO_DECODE_FAILURE},
     *     {@link Reason#TRAILING_BYTES}
     */
    public static <T> T decodeBody(byte[] data, int schemaId, DatumReader<T> reader) {
        if (data == null || data.length < HEADER_LENGTH) {
            throw new WireFormatException(Reason.TOO_SHORT, "a value needs at least " + HEADER_LENGTH + " bytes");
        }
        BoundedBinaryDecoder decoder = new BoundedBinaryDecoder(data, HEADER_LENGTH, data.length - HEADER_LENGTH);
        T datum;
        try {
            datum = reader.read(null, decoder);
        } catch (IOException | RuntimeException e) {
            // RuntimeException: AvroRuntimeException/AvroTypeException, and the index and class-cast
            // errors Avro's readers raise on hostile enum and union indexes.
            throw new WireFormatException(Reason.AVRO_DECODE_FAILURE, schemaId,
                    "Avro body of " + (data.length - HEADER_LENGTH) + " bytes (schema id " + schemaId
                            + ") does not decode: " + e.getMessage(), e);
        }
        int left = decoder.remainingBytes();
        if (left != 0) {
            throw new WireFormatException(Reason.TRAILING_BYTES, schemaId, left + " bytes remain after the Avro datum"
                    + " ends at offset " + decoder.position() + " of " + data.length, null);
        }
        return datum;
    }

    /**
     * Decodes a value into a generic record of its writer schema (no resolution): for tools,
     * diagnostics and tests.
     */
    public static GenericData.Record decodeGeneric(byte[] data, SchemaLookup lookup) {
        int id = schemaId(data);
        Schema writer = lookupChecked(lookup, id);
        return decodeBody(data, id, new GenericDatumReader<GenericData.Record>(writer, writer, GenericData.get()));
    }

    /**
     * Decodes a value into {@code reader}'s schema, resolving the writer schema named by the header
     * (Avro schema resolution: skipped writer fields, reader defaults, promotions).
     *
     * @throws WireFormatException also with {@link Reason#INCOMPATIBLE_SCHEMA} when the writer
     *     schema cannot be read as {@code reader}
     */
    public static <T> T decode(byte[] data, SchemaLookup lookup, Schema reader, GenericData model) {
        int id = schemaId(data);
        Schema writer = lookupChecked(lookup, id);
        checkResolvable(id, writer, reader);
        @SuppressWarnings("unchecked")
        DatumReader<T> datumReader = model.createDatumReader(writer, reader);
        return decodeBody(data, id, datumReader);
    }

    /**
     * Looks up the writer schema of {@code id}, turning any surprise of the lookup into a typed
     * exception: ids {@code <= 0} and a null answer are {@link Reason#UNKNOWN_SCHEMA_ID}, an
     * unchecked exception other than a {@link WireFormatException} is
     * {@link Reason#REGISTRY_UNAVAILABLE}.
     */
    public static Schema lookupChecked(SchemaLookup lookup, int id) {
        if (id <= 0) {
            throw new WireFormatException(Reason.UNKNOWN_SCHEMA_ID, id, "schema ids are positive, got " + id, null);
        }
        Schema schema;
        try {
            schema = lookup.schemaById(id);
        } catch (WireFormatException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new WireFormatException(Reason.REGISTRY_UNAVAILABLE, id, "looking up schema id " + id + " failed: "
                    + e.getMessage(), e);
        }
        if (schema == null) {
            throw new WireFormatException(Reason.UNKNOWN_SCHEMA_ID, id, "no schema with id " + id, null);
        }
        return schema;
    }

    /**
     * Checks with Avro's reader/writer compatibility rules that data written with {@code writer}
     * can be read as {@code reader}.
     *
     * @throws WireFormatException {@link Reason#INCOMPATIBLE_SCHEMA} if not
     */
    public static void checkResolvable(int schemaId, Schema writer, Schema reader) {
        SchemaCompatibility.SchemaPairCompatibility result;
        try {
            result = SchemaCompatibility.checkReaderWriterCompatibility(reader, writer);
        } catch (RuntimeException e) {
            throw new WireFormatException(Reason.INCOMPATIBLE_SCHEMA, schemaId, "writer schema " + schemaId
                    + " cannot be compared with " + reader.getFullName() + ": " + e, e);
        }
        if (result.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            throw new WireFormatException(Reason.INCOMPATIBLE_SCHEMA, schemaId, "writer schema " + schemaId + " ("
                    + writer.getFullName() + ") cannot be read as " + reader.getFullName() + ": "
                    + result.getResult().getIncompatibilities(), null);
        }
    }
}
