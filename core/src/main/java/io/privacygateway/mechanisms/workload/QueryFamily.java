package io.privacygateway.mechanisms.workload;

import java.util.List;

/** The workload families of MECHANISMS.md §1 and the shape of their feasible set {@code K}. */
public enum QueryFamily {
    /** One-hot answers over k labels or buckets; K is the probability simplex. */
    HISTOGRAM("histogram", FeasibleSetShape.SIMPLEX, new FamilyRules.HistogramRules()),
    /** {@code q_t(x) = 1{x < t}}, t = 1..k−1, over k ordered buckets; K is the monotone vectors in [0,1]. */
    CDF("cdf", FeasibleSetShape.MONOTONE_UNIT_BOX, new FamilyRules.CdfRules()),
    /** Every interval {@code [a, b]} of k ordered buckets; K is the hull of the points. */
    RANGE("range", FeasibleSetShape.HULL, new FamilyRules.RangeRules()),
    /** All k-way marginals over d binary attributes; K is the hull of the points. */
    MARGINALS("marginals", FeasibleSetShape.HULL, new FamilyRules.MarginalsRules()),
    /** An explicit set of answer vectors; K is their hull. */
    POINTS("points", FeasibleSetShape.HULL, new FamilyRules.PointsRules()),

    // ---- window analytics (central mode only; docs/analytics.md) --------------------------------------
    /** The most frequent label of a window; the answer is the released label (or none when unstable). */
    MODE("mode", null, new FamilyRules.ModeRules()),
    /** Ordinary least squares of a bounded response on bounded features (a grid); the answer is θ. */
    REGRESSION("regression", null, new FamilyRules.RegressionRules()),
    /** A convex model (logistic regression) fitted to a grid of features and a binary label; the answer is θ. */
    ERM("erm", null, new FamilyRules.ErmRules()),

    // ---- numeric means (local mode; docs/local-accuracy.md) -------------------------------------------------
    /**
     * The mean of a bounded scalar in {@code [lo, hi]} (a range domain; K is the interval {@code [lo, hi]}), or of a
     * bounded vector (a {@link Domain.Ball} or {@link Domain.Box}: never materialised, run by the vector protocols).
     */
    MEAN("mean", FeasibleSetShape.HULL, new FamilyRules.MeanRules()),

    // ---- open-domain heavy hitters (local mode; docs/heavy-hitters.md) ----------------------------------------
    /**
     * The frequent strings of an open domain (a {@link Domain.Strings} domain): the answer is a variable set of
     * items, each with its estimated share; there is no universe and no feasible set K.
     */
    HEAVY_HITTERS("heavy-hitters", null, new FamilyRules.HeavyHittersRules());

    private final String wireName;
    private final FeasibleSetShape shape;
    private final FamilyRules rules;

    QueryFamily(String wireName, FeasibleSetShape shape, FamilyRules rules) {
        this.wireName = wireName;
        this.shape = shape;
        this.rules = rules;
    }

    /** The family's rules: its domains, queries, size, answer matrix and central mechanisms. */
    public FamilyRules rules() {
        return rules;
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

    /** The central-mode mechanisms the family can run ({@link FamilyRules#centralMechanisms()}). */
    public List<MechanismId> centralMechanisms() {
        return rules.centralMechanisms();
    }

    public static QueryFamily fromWireName(String name) {
        return WireNames.lookup(values(), QueryFamily::wireName, name, "family");
    }
}
