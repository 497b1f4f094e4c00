package io.privacygateway.mechanisms.projection;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.workload.Workload;

/**
 * Chooses the projection onto a workload's feasible set {@code K = conv{Q(x)}} (MECHANISMS.md §1): the
 * exact sort-based simplex projection for histograms, exact isotonic regression plus clipping for
 * prefix (CDF) workloads, and the certified hull solver for everything else.
 *
 * <p><b>Default hull tolerance.</b> {@link #hull(PointSet)} stops at a certified gap of
 * {@code 1e-10·m} on {@code f = ½‖w − y‖²}. Since {@code f} is 1-strongly convex,
 * {@code ‖w − P_K(y)‖ ≤ √(2·gap)}, so the solver's own error is at most {@code √(2e-10) ≈ 1.4e-5} per
 * coordinate (root mean square, i.e. in the normalized distance {@code ‖u − v‖/√m} of §1) whatever
 * {@code m} is: below 1.5% of a per-coordinate error bar of {@code 1e-3}, far smaller than any the
 * gateway publishes, while still well above the rounding floor of the gap evaluation (about
 * {@code m·2⁻⁵²·‖w − y‖·(‖w‖ + max‖a_i‖)}) for targets at realistic distances from {@code K}.
 */
public final class Projections {
    /** The default hull gap per coordinate: the tolerance is this times {@code m}. */
    public static final double DEFAULT_GAP_PER_COORDINATE = 1e-10;

    private Projections() {}

    /**
     * The projection onto the feasible set of {@code workload}, by its
     * {@link Workload#feasibleSetShape()}: {@link SimplexProjection}, {@link MonotoneUnitBoxProjection}
     * or {@link #hull(PointSet)} of its answer vectors.
     */
    public static ConvexProjection forWorkload(Workload workload) {
        if (workload == null) {
            throw new IllegalArgumentException("workload is required");
        }
        int m = workload.queryCount();
        return switch (workload.feasibleSetShape()) {
            case SIMPLEX -> new SimplexProjection(m);
            case MONOTONE_UNIT_BOX -> new MonotoneUnitBoxProjection(m);
            case HULL -> hull(workload.points());
        };
    }

    /** The certified projection onto {@code conv(atoms)} with {@link #defaultGapTolerance(int)}. */
    public static HullProjection hull(PointSet atoms) {
        if (atoms == null) {
            throw new IllegalArgumentException("atoms is required");
        }
        return new HullProjection(atoms, defaultGapTolerance(atoms.dim()));
    }

    /** {@code 1e-10·m}: see the class comment. */
    public static double defaultGapTolerance(int m) {
        Targets.requireDim("m", m);
        return DEFAULT_GAP_PER_COORDINATE * m;
    }
}
