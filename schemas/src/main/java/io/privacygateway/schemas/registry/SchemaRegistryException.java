package io.privacygateway.schemas.registry;

/**
 * A failed Schema Registry call: the HTTP status and the Confluent {@code error_code} and
 * {@code message} of the answer, or status {@link #NO_RESPONSE} when no answer came (connection
 * refused, timeout, interrupted, an answer too large to read), or {@link #NOT_SENT} when the client
 * did not send the request because lookups of unknown ids are paused or rate-limited.
 *
 * <p><b>Classification.</b> Only the registry's own "not found" error codes, in its Confluent
 * error JSON body of a 404, say that something does not exist: {@link #isSchemaNotFound()}
 * (40403), {@link #isSubjectNotFound()} (40401), {@link #isVersionNotFound()} (40402). Every other
 * failure, including a 404 without such a body (a wrong URL path, a reverse proxy, a registry
 * being replaced), any 5xx, a timeout or a refused connection, says nothing about the thing
 * asked for: the registry is unavailable.
 *
 * <p>Common Confluent error codes: 40401 subject not found, 40402 version not found, 40403 schema
 * not found, 409 incompatible schema (Apicurio sends 0), 42201 invalid schema, 42203 invalid
 * compatibility level, 50001–50003 registry-side errors.
 */
public class SchemaRegistryException extends RuntimeException {

    /** {@link #httpStatus()} when the registry did not answer. */
    public static final int NO_RESPONSE = -1;
    /**
     * {@link #httpStatus()} when the client did not send the request: lookups of unknown ids are
     * paused after a failure, or their rate limit is reached. The registry's state is unknown.
     */
    public static final int NOT_SENT = -2;
    /**
     * {@link #errorCode()} of a {@link #NOT_SENT} failure because the subject's listings for unknown ids are paced
     * (not because of a registry failure): see {@link #isPaced()}.
     */
    public static final int PACED = -3;

    public static final int SUBJECT_NOT_FOUND = 40401;
    public static final int VERSION_NOT_FOUND = 40402;
    public static final int SCHEMA_NOT_FOUND = 40403;

    private final int httpStatus;
    private final int errorCode;
    private final String registryMessage;

    public SchemaRegistryException(String request, int httpStatus, int errorCode, String registryMessage,
            Throwable cause) {
        super(request + " -> " + describe(httpStatus)
                + (errorCode != 0 ? ", error_code " + errorCode : "")
                + (registryMessage == null || registryMessage.isEmpty() ? "" : ": " + registryMessage), cause);
        this.httpStatus = httpStatus;
        this.errorCode = errorCode;
        this.registryMessage = registryMessage;
    }

    private static String describe(int status) {
        return switch (status) {
            case NO_RESPONSE -> "no response";
            case NOT_SENT -> "not sent";
            default -> "HTTP " + status;
        };
    }

    /** The HTTP status, or {@link #NO_RESPONSE} or {@link #NOT_SENT}. */
    public int httpStatus() {
        return httpStatus;
    }

    /** The Confluent {@code error_code} of the answer's JSON body, 0 if none. */
    public int errorCode() {
        return errorCode;
    }

    /** The registry's {@code message}, or the start of a non-JSON body, or the I/O error; may be null. */
    public String registryMessage() {
        return registryMessage;
    }

    /**
     * The registry said that the subject, version or schema asked for does not exist: HTTP 404
     * with error code 40401, 40402 or 40403. A 404 without one of these codes is not "not found"
     * (it is what a wrong path or a proxy answers).
     */
    public boolean isNotFound() {
        return isSubjectNotFound() || isVersionNotFound() || isSchemaNotFound();
    }

    /** HTTP 404 with error code 40403: no schema with that id (or not registered under the subject). */
    public boolean isSchemaNotFound() {
        return httpStatus == 404 && errorCode == SCHEMA_NOT_FOUND;
    }

    /** HTTP 404 with error code 40401: no such subject. */
    public boolean isSubjectNotFound() {
        return httpStatus == 404 && errorCode == SUBJECT_NOT_FOUND;
    }

    /** HTTP 404 with error code 40402: no such version of the subject. */
    public boolean isVersionNotFound() {
        return httpStatus == 404 && errorCode == VERSION_NOT_FOUND;
    }

    /**
     * Not sent because the client paces its listings of a subject for unknown ids (a flood of unknown ids): the
     * registry is fine and nothing is known about the id asked for.
     */
    public boolean isPaced() {
        return httpStatus == NOT_SENT && errorCode == PACED;
    }

    /** HTTP 409: the schema is incompatible with the subject's compatibility level. */
    public boolean isIncompatible() {
        return httpStatus == 409;
    }
}
