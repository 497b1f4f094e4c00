package io.privacygateway.mechanisms.workload;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The workload families of MECHANISMS.md §1 and the shape of their feasible set {@code K}. */
public enum QueryFamily {
    /** One-hot answers over k labels or buckets; K is the probability simplex. */
    HISTOGRAM("histogram", FeasibleSetShape.SIMPLEX),
    /** {@code q_t(x) = 1{x < t}}, t = 1..k−1, over k ordered buckets; K is the monotone vectors in [0,1]. */
    CDF("cdf", FeasibleSetShape.MONOTONE_UNIT_BOX),
    /** Every interval {@code [a, b]} of k ordered buckets; K is the hull of the points. */
    RANGE("range", FeasibleSetShape.HULL),
    /** All k-way marginals over d binary attributes; K is the hull of the points. */
    MARGINALS("marginals", FeasibleSetShape.HULL),
    /** An explicit set of answer vectors; K is their hull. */
    POINTS("points", FeasibleSetShape.HULL);

    private final String wireName;
    private final FeasibleSetShape shape;

    QueryFamily(String wireName, FeasibleSetShape shape) {
        this.wireName = wireName;
        this.shape = shape;
    }

    /** The name used in workload files. */
    public String wireName() {
        return wireName;
    }

    public FeasibleSetShape feasibleSetShape() {
        return shape;
    }

    public static QueryFamily fromWireName(String name) {
        for (QueryFamily f : values()) {
            if (f.wireName.equals(name)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown family \"" + name + "\" (known: "
                + Arrays.stream(values()).map(QueryFamily::wireName).collect(Collectors.joining(", ")) + ")");
    }
}
