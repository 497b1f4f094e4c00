package io.privacygateway.mechanisms.workload;

import java.util.List;

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
    POINTS("points", FeasibleSetShape.HULL),

    // ---- window analytics (central mode only; docs/analytics.md) --------------------------------------
    /** The most frequent label of a window; the answer is the released label (or none when unstable). */
    MODE("mode", null),
    /** Ordinary least squares of a bounded response on bounded features (a grid); the answer is θ. */
    REGRESSION("regression", null),
    /** A convex model (logistic regression) fitted to a grid of features and a binary label; the answer is θ. */
    ERM("erm", null),

    // ---- numeric means (local mode; docs/local-accuracy.md) -------------------------------------------------
    /**
     * The mean of a bounded scalar in {@code [lo, hi]} (a range domain; K is the interval {@code [lo, hi]}), or of a
     * bounded vector (a {@link Domain.Ball} or {@link Domain.Box}: never materialised, run by the vector protocols).
     */
    MEAN("mean", FeasibleSetShape.HULL),

    // ---- open-domain heavy hitters (local mode; docs/heavy-hitters.md) ----------------------------------------
    /**
     * The frequent strings of an open domain (a {@link Domain.Strings} domain): the answer is a variable set of
     * items, each with its estimated share; there is no universe and no feasible set K.
     */
    HEAVY_HITTERS("heavy-hitters", null);

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

    /**
     * The shape of K.
     *
     * @throws IllegalStateException for the window-analytics families and heavy-hitters, whose answers are not
     *     means of {@code Q(x)} and have no feasible set K
     */
    public FeasibleSetShape feasibleSetShape() {
        if (shape == null) {
            throw new IllegalStateException("family " + wireName + " has no feasible set K: its answers are not means"
                    + " of answer vectors over a universe");
        }
        return shape;
    }

    /**
     * Whether the family is one of the central-mode window analytics (mode, regression, erm), whose answer is a
     * non-linear statistic of the window's counts rather than a mean of answer vectors.
     */
    public boolean isWindowAnalytics() {
        return this == MODE || this == REGRESSION || this == ERM;
    }

    /**
     * Whether the family's values form an open domain that is never materialised as a universe (heavy-hitters): its
     * answers are a variable set of labels per window.
     */
    public boolean isOpenDomain() {
        return this == HEAVY_HITTERS;
    }

    /**
     * The central-mode mechanisms the family can run ({@code auto} chooses among them): the purified Gaussian
     * mechanisms and the Laplace baseline for the linear families (marginals also the wide mechanisms, mwem,
     * worst-case-chaining and certified-synthetic), each analytics family's own mechanisms otherwise.
     */
    public List<MechanismId> centralMechanisms() {
        return switch (this) {
            case MODE -> List.of(MechanismId.MODE_PTR, MechanismId.MODE_EXPONENTIAL);
            case REGRESSION -> List.of(MechanismId.REGRESSION_ADASSP, MechanismId.REGRESSION_SSP);
            case ERM -> List.of(MechanismId.ERM_EXPONENTIAL, MechanismId.ERM_DPSGD,
                    MechanismId.ERM_OUTPUT_PERTURBATION);
            case MARGINALS -> List.of(MechanismId.CENTRAL_PROJECTION, MechanismId.CENTRAL_CHAINING,
                    MechanismId.LAPLACE, MechanismId.MWEM, MechanismId.WORST_CASE_CHAINING,
                    MechanismId.CERTIFIED_SYNTHETIC);
            default -> List.of(MechanismId.CENTRAL_PROJECTION, MechanismId.CENTRAL_CHAINING,
                    MechanismId.LAPLACE);
        };
    }

    public static QueryFamily fromWireName(String name) {
        return WireNames.lookup(values(), QueryFamily::wireName, name, "family");
    }
}
