package io.privacygateway.mechanisms.workload;

/** A workload declaration is invalid; the message names the field (as a path) and the bad value. */
public final class InvalidWorkloadException extends IllegalArgumentException {
    private final String field;

    public InvalidWorkloadException(String field, String message) {
        super(field + ": " + message);
        this.field = field;
    }

    /** The path of the offending field, e.g. {@code budget.period} or {@code domain.labels[2]}. */
    public String field() {
        return field;
    }
}
