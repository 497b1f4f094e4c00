package io.privacygateway.mechanisms.workload;

/** Which exact projection applies to a workload's feasible set {@code K} (MECHANISMS.md §1). */
public enum FeasibleSetShape {
    /** The probability simplex: exact sort-based projection. */
    SIMPLEX,
    /** Monotone vectors {@code 0 <= y_1 <= ... <= y_m <= 1}: isotonic regression then clipping. */
    MONOTONE_UNIT_BOX,
    /** The convex hull of the finite point set: generic solver with a certified duality gap. */
    HULL
}
