package io.privacygateway.mechanisms.workload;

/** How chaining divides ε (or ρ) across levels. */
public enum EpsilonSplit {
    /** ε_j = ε / k, as in the query-release paper. */
    EQUAL("equal"),
    /** The split minimising the predicted total error (MECHANISMS.md §3). */
    OPTIMAL("optimal");

    private final String wireName;

    EpsilonSplit(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static EpsilonSplit fromWireName(String name) {
        return WireNames.lookup(values(), EpsilonSplit::wireName, name, "epsilon split");
    }
}
