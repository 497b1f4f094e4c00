package io.privacygateway.mechanisms.workload;

/**
 * Which datasets are neighbours in the central model. Under add/remove the report count is sensitive
 * and must be released with noise; under replace-one it is public.
 */
public enum NeighbourRelation {
    ADD_REMOVE("add-remove"),
    REPLACE_ONE("replace-one");

    private final String wireName;

    NeighbourRelation(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static NeighbourRelation fromWireName(String name) {
        return WireNames.lookup(values(), NeighbourRelation::wireName, name, "neighbour relation");
    }
}
