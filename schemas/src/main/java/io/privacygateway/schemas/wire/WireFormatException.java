package io.privacygateway.schemas.wire;

import java.util.Objects;
import org.apache.kafka.common.errors.SerializationException;

/**
 * A record value that cannot be decoded from the Confluent wire format, with a machine-readable
 * {@link Reason}. The only exception {@link WireFormat#decode} and the project's
 * {@code AvroDeserializer} throw for bad input: the gateway turns it into a rejection (reason
 * {@code MALFORMED}) when {@link #isRecordFault()}, and retries or fails otherwise.
 *
 * <p>It extends Kafka's {@link SerializationException}, so Kafka clients and Kafka Streams'
 * deserialization exception handlers see the exception type they expect, with the reason intact.
 */
public class WireFormatException extends SerializationException {

    /** Why a value could not be decoded. */
    public enum Reason {
        /** Fewer than the 5 header bytes (magic byte and schema id); includes an empty value. */
        TOO_SHORT(true),
        /** The first byte is not the Confluent magic byte 0. */
        BAD_MAGIC(true),
        /**
         * The schema id is not registered: the registry answered 40403 for it (lookup by id), or
         * it is not positive.
         */
        UNKNOWN_SCHEMA_ID(true),
        /**
         * The schema id is not registered under the subject the value was read for
         * ({@code <topic>-value}), according to the registry's list of that subject's versions
         * fetched after the value was read. Includes ids that exist under another subject (a record
         * of another topic) and ids that do not exist at all.
         */
        SCHEMA_NOT_IN_SUBJECT(true),
        /**
         * The schema id is not among the subject's ids the reader knows, and the registry was not asked
         * about it: the reader's listings of the subject for unknown ids are paced (a flood of unknown
         * ids) and the allowance is spent. Nothing is concluded about the id; read it again later (a
         * version registered meanwhile is found by the next listing, whichever id triggers it). Not the
         * record's fault as such: a reader of untrusted input may still refuse the record rather than
         * wait (the gateway rejects such a report MALFORMED, naming this reason, so a flood cannot stall it).
         */
        SCHEMA_NOT_CHECKED(false),
        /**
         * The writer schema cannot be resolved to the reader's schema (a different record, or an
         * incompatible evolution).
         */
        INCOMPATIBLE_SCHEMA(true),
        /** The Avro body is truncated, malformed, or does not match the writer schema. */
        AVRO_DECODE_FAILURE(true),
        /** The Avro body decoded but bytes remain after it. */
        TRAILING_BYTES(true),
        /**
         * The schema registry could not be asked, or its answer says nothing about the id: no
         * answer, a timeout, HTTP 5xx, a 404 without the registry's own "not found" error code (a
         * wrong URL path, a proxy), an unreadable answer, or lookups paused or rate-limited after
         * such a failure. Not the record's fault, so not a reason to reject it: retry later.
         */
        REGISTRY_UNAVAILABLE(false);

        private final boolean recordFault;

        Reason(boolean recordFault) {
            this.recordFault = recordFault;
        }

        /** Whether the bytes themselves are bad (reject the record) rather than the environment. */
        public boolean isRecordFault() {
            return recordFault;
        }
    }

    private final Reason reason;
    private final int schemaId;
    private final String detail;

    public WireFormatException(Reason reason, String message) {
        this(reason, -1, message, null);
    }

    public WireFormatException(Reason reason, int schemaId, String message, Throwable cause) {
        super(reason + ": " + message, cause);
        this.reason = Objects.requireNonNull(reason, "reason");
        this.schemaId = schemaId;
        this.detail = message;
    }

    /** The message without the reason prefix. */
    public String detail() {
        return detail;
    }

    /** Why decoding failed. */
    public Reason reason() {
        return reason;
    }

    /** The schema id read from the header, or -1 if the header was not read. */
    public int schemaId() {
        return schemaId;
    }

    /** Shorthand for {@code reason().isRecordFault()}. */
    public boolean isRecordFault() {
        return reason.isRecordFault();
    }
}
