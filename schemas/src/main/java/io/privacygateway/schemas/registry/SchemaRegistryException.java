package io.privacygateway.schemas.registry;

/**
 * A failed Schema Registry call: the HTTP status and the Confluent {@code error_code} and
 * {@code message} of the answer, or status {@link #NO_RESPONSE} when no answer came (connection
 * refused, timeout, interrupted).
 *
 * <p>Common Confluent error codes: 40401 subject not found, 40402 version not found, 40403 schema
 * not found, 409 incompatible schema (Apicurio sends 0), 42201 invalid schema, 42203 invalid
 * compatibility level, 50001–50003 registry-side errors.
 */
public class SchemaRegistryException extends RuntimeException {

    /** {@link #httpStatus()} when the registry did not answer. */
    public static final int NO_RESPONSE = -1;

    public static final int SUBJECT_NOT_FOUND = 40401;
    public static final int VERSION_NOT_FOUND = 40402;
    public static final int SCHEMA_NOT_FOUND = 40403;

    private final int httpStatus;
    private final int errorCode;
    private final String registryMessage;

    public SchemaRegistryException(String request, int httpStatus, int errorCode, String registryMessage,
            Throwable cause) {
        super(request + " -> " + (httpStatus == NO_RESPONSE ? "no response" : "HTTP " + httpStatus)
                + (errorCode != 0 ? ", error_code " + errorCode : "")
                + (registryMessage == null || registryMessage.isEmpty() ? "" : ": " + registryMessage), cause);
        this.httpStatus = httpStatus;
        this.errorCode = errorCode;
        this.registryMessage = registryMessage;
    }

    /** The HTTP status, or {@link #NO_RESPONSE}. */
    public int httpStatus() {
        return httpStatus;
    }

    /** The Confluent {@code error_code} of the answer, 0 if none. */
    public int errorCode() {
        return errorCode;
    }

    /** The registry's {@code message}, or the start of a non-JSON body, or the I/O error; may be null. */
    public String registryMessage() {
        return registryMessage;
    }

    /** A 404 (subject, version or schema id not found). */
    public boolean isNotFound() {
        return httpStatus == 404;
    }

    /** HTTP 409: the schema is incompatible with the subject's compatibility level. */
    public boolean isIncompatible() {
        return httpStatus == 409;
    }
}
