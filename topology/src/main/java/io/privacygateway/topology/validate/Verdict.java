package io.privacygateway.topology.validate;

/**
 * The outcome of validating a report: accepted, or rejected with a reason and a message for the
 * rejection record (messages never contain payloads or raw values).
 *
 * @param reason the rejection reason, or {@code null} when accepted
 * @param message why, for operators
 */
public record Verdict(RejectReason reason, String message) {
    public static final Verdict ACCEPT = new Verdict(null, "");

    public static Verdict reject(RejectReason reason, String message) {
        return new Verdict(reason, message);
    }

    public boolean accepted() {
        return reason == null;
    }
}
