package io.privacygateway.mechanisms.workload;

/**
 * A raw device value does not belong to the workload's domain (unknown label, out-of-range number,
 * malformed attribute vector). The message says why without echoing more than the offending value.
 */
public final class InvalidValueException extends Exception {
    public InvalidValueException(String message) {
        super(message);
    }
}
