package io.privacygateway.mechanisms.local.gaussian;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;

/**
 * One level of a Gaussian-sign protocol (MECHANISMS.md §2–§3): the vector each universe value
 * randomizes at this level, the ε it spends, and the set the level's mean is projected onto.
 *
 * <p>For single-scale mechanisms there is one level ({@code Q(x)}, or the α/2-net rounding of
 * {@code Q(x)} for coarse projection); for chaining, level {@code j} holds the chaining increments
 * {@code x_1} and {@code x_{j+1} − x_j} (§3, Lemma 4.2).
 *
 * @param epsilon the pure ε of this level's release
 * @param valueVectors one row per universe value, in universe order: the vector {@code v(x)} the device
 *     with value {@code x} randomizes. The level's public radius is {@code valueVectors.maxNorm()}, so
 *     {@code ||v(x)|| ≤ r} holds by construction; radius 0 means the level carries no information (the
 *     device still sends a fair, input-independent bit)
 * @param hull the finite set whose convex hull contains the level's true mean (the level is projected
 *     onto its convex hull), or {@code null} when that set is the workload's feasible set {@code K}; its
 *     dimension must equal {@code valueVectors.dim()}
 */
public record GaussianLevel(Epsilon epsilon, PointSet valueVectors, PointSet hull) {
    public GaussianLevel {
        Require.nonNull("epsilon", epsilon);
        Require.nonNull("valueVectors", valueVectors);
        if (valueVectors.size() < 1) {
            throw new IllegalArgumentException("valueVectors must have at least one row, got 0");
        }
        if (hull != null && hull.dim() != valueVectors.dim()) {
            throw new IllegalArgumentException(
                    "hull must have dimension " + valueVectors.dim() + " (that of valueVectors), got " + hull.dim());
        }
    }

    /** The public radius {@code r = max_x ||v(x)||}. */
    public double radius() {
        return valueVectors.maxNorm();
    }

    /** The dimension {@code m}. */
    public int dimension() {
        return valueVectors.dim();
    }
}
