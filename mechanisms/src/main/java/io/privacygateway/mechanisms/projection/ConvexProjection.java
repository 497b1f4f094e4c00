package io.privacygateway.mechanisms.projection;

/**
 * Euclidean projection {@code P_K(y) = argmin_{w ∈ K} ½‖w − y‖²} onto a closed convex set
 * {@code K ⊂ R^dim}, the feasible set of a workload (MECHANISMS.md §1).
 *
 * <p><b>Guarantee.</b> {@link #project} returns a point together with a certified upper bound
 * {@link ProjectionResult#dualityGap()} on {@code f(point) − min_K f}, {@code f(w) = ½‖w − y‖²}; exact
 * methods report {@code 0.0} (their only error is floating-point rounding). Because {@code f} is
 * 1-strongly convex, the returned point is within {@code √(2·gap)} of the exact projection, and for
 * every {@code x ∈ K}: {@code ‖point − x‖ ≤ ‖y − x‖ + √(2·gap)} (projection onto a set containing the
 * true answer never increases the error, MECHANISMS.md §1).
 *
 * <p><b>Preconditions.</b> {@code y} has length {@link #dim()} and only finite entries; otherwise an
 * {@link IllegalArgumentException} names the bad length or the bad index and value. {@code y} is never
 * modified. Implementations are immutable and thread-safe.
 */
public interface ConvexProjection {
    /** The dimension {@code m} of the ambient space. */
    int dim();

    /** The projection of {@code y} onto {@code K}. */
    ProjectionResult project(double[] y);
}
