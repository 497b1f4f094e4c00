package io.privacygateway.topology.state;

/**
 * One span of a longer horizon of one workload version: the workload id, its content hash, the horizon's
 * length (0 for since-activation) and the span's start (epoch millis; since-activation: the version's first
 * window). The string form {@code <workloadId>#<contentHash>~<horizonMillis>@<start>} is its state-store key.
 */
public record HorizonKey(String workloadId, String contentHash, long horizonMillis, long start) {

    public String asString() {
        return workloadId + "#" + contentHash + "~" + horizonMillis + "@" + start;
    }

    /**
     * Parses the string form.
     *
     * @throws IllegalArgumentException if {@code s} is not a horizon key
     */
    public static HorizonKey parse(String s) {
        int hash = s.indexOf('#');
        int tilde = s.lastIndexOf('~');
        int at = s.lastIndexOf('@');
        if (hash <= 0 || tilde <= hash + 1 || at <= tilde + 1 || at == s.length() - 1) {
            throw new IllegalArgumentException("not a horizon key");
        }
        try {
            return new HorizonKey(s.substring(0, hash), s.substring(hash + 1, tilde),
                    Long.parseLong(s.substring(tilde + 1, at)), Long.parseLong(s.substring(at + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a horizon key", e);
        }
    }
}
