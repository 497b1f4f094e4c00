package io.privacygateway.mechanisms.local;

import io.privacygateway.mechanisms.linalg.PointSet;
import java.util.List;

/**
 * The server's unbiased estimate of a window, before any projection, as a sum of levels
 * (one level for single-scale mechanisms, {@code k} levels for chaining; MECHANISMS.md §3).
 *
 * @param levels the per-level estimates; their sum estimates the mean answer {@code x̄}
 * @param biasBound a bound on {@code ||E[Σ levels] − x̄||₂ / √m} that the mechanism accepts by design
 *     (α/2 for coarse projection, {@code 2^{-k}} for chaining, 0 otherwise)
 */
public record LocalEstimate(List<Level> levels, double biasBound) {
    public LocalEstimate {
        levels = List.copyOf(levels);
    }

    /**
     * One level's estimate.
     *
     * @param mean the unbiased estimate in query space {@code R^m}
     * @param standardErrors per-coordinate standard errors of {@code mean}
     * @param noiseScale σ: an upper estimate of the operator norm {@code √λ_max} of the covariance of
     *     {@code mean} (the noise is at most σ in every direction), used in the Gaussian-width error bound
     *     (MECHANISMS.md §3): {@code c/√n} for Gaussian-sign levels; for frequency oracles it can be far
     *     larger than any single standard error when the answers are correlated (prefix sums)
     * @param hull the finite set whose convex hull contains the level's true mean, onto which the level
     *     is projected, or {@code null} when that set is the workload's feasible set {@code K}
     * @param epsilon the pure ε spent on this level
     * @param radius the public radius of the level's vectors ({@code 0} when not applicable)
     */
    public record Level(double[] mean, double[] standardErrors, double noiseScale, PointSet hull, double epsilon,
            double radius) {}
}
