package io.privacygateway.client;

import java.io.IOException;
import java.util.Objects;

/**
 * A whole batch failed. {@link Kind#RETRY}: nothing is known to be lost, send again after a backoff (at least
 * {@link #retryAfterMillis()} if positive: the server's {@code Retry-After}). {@link Kind#TOO_LARGE}: the
 * batch or body exceeds the endpoint's limits, send smaller batches. {@link Kind#PERMANENT}: the endpoint will never
 * take these reports as sent (malformed body, revoked or unknown credential): the client counts them rejected.
 */
public final class TransportException extends IOException {
    /** What the failure means for the batch. */
    public enum Kind { RETRY, TOO_LARGE, PERMANENT }

    private final Kind kind;
    private final long retryAfterMillis;
    private final String reason;

    /**
     * @param kind what to do with the batch
     * @param reason a short code for stats and outcomes (e.g. {@code HTTP_503}, {@code CREDENTIAL}, {@code IO})
     * @param retryAfterMillis the server's wait ({@code Retry-After}), 0 if none
     * @param message a description (never a value or a payload)
     */
    public TransportException(Kind kind, String reason, long retryAfterMillis, String message, Throwable cause) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
        this.reason = reason;
        this.retryAfterMillis = Math.max(0, retryAfterMillis);
    }

    public Kind kind() {
        return kind;
    }

    public boolean retryable() {
        return kind != Kind.PERMANENT;
    }

    public long retryAfterMillis() {
        return retryAfterMillis;
    }

    public String reason() {
        return reason;
    }
}
