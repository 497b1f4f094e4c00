package io.privacygateway.topology.state;

/**
 * A window of one workload version: the workload id, its content hash and the window start (epoch millis).
 * The string form {@code <workloadId>#<contentHash>@<start>} is its state-store and topic key (workload ids
 * cannot contain '#' or '@'); aggregates of different workload versions are never merged. Window arithmetic
 * (start of an event time, close) belongs to the workload's {@code WorkloadSpec.Window}.
 */
public record WindowKey(String workloadId, String contentHash, long start) {

    public String asString() {
        return workloadId + "#" + contentHash + "@" + start;
    }

    /**
     * Parses the string form.
     *
     * @throws IllegalArgumentException if {@code s} is not a window key
     */
    public static WindowKey parse(String s) {
        int hash = s.indexOf('#');
        int at = s.lastIndexOf('@');
        if (hash <= 0 || at <= hash + 1 || at == s.length() - 1) {
            throw new IllegalArgumentException("not a window key");
        }
        try {
            return new WindowKey(s.substring(0, hash), s.substring(hash + 1, at), Long.parseLong(s.substring(at + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a window key", e);
        }
    }
}
