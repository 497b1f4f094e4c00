package io.privacygateway.mechanisms.robustness;

import io.privacygateway.mechanisms.param.Require;

/**
 * How far one report can move a window's answer, scaled by the window size: {@code n} times the largest
 * change of the answer when the payload of one of its {@code n} accepted reports is replaced by another
 * accepted payload. For the affine estimators of this project (every local mechanism except the tree,
 * see {@link PoisoningBound}) the change is exactly {@code 1/n} times a difference of two per-report
 * contribution vectors, so these numbers do not depend on {@code n} or on the other reports.
 *
 * @param linf {@code n · max_q |Δu_q|}: the change of one coordinate of the unprojected estimate
 *     {@code u = Σ_levels mean} (the estimate in answer space that the release projects)
 * @param l2 {@code n · ‖Δu‖₂}: the same change in Euclidean norm
 * @param projectedL2 a bound on {@code n · ‖Δa‖₂} for the published (projected) answer {@code a}: every
 *     projection onto a closed convex set is 1-Lipschitz in ℓ2, so a single-level release moves by at most
 *     {@code l2}; a multi-level release (chaining) projects each level separately and sums, so it moves by at
 *     most the sum of the levels' own ℓ2 changes (at least {@code l2}). The published answer's ℓ∞ change is
 *     at most its ℓ2 change (projection is not ℓ∞-Lipschitz, so {@code linf} does not carry over)
 * @param linfExact whether {@code linf} is attained by two accepted payloads (else a proven upper bound)
 * @param l2Exact whether {@code l2} is attained by two accepted payloads (else a proven upper bound)
 */
public record Influence(double linf, double l2, double projectedL2, boolean linfExact, boolean l2Exact) {
    public Influence {
        Require.finiteNonNegative("linf", linf);
        Require.finiteNonNegative("l2", l2);
        Require.finiteNonNegative("projectedL2", projectedL2);
    }

    /**
     * The larger of two influences, component by component; a component is exact if the influence it comes from
     * says so for it (either, on a tie).
     */
    Influence max(Influence o) {
        return new Influence(Math.max(linf, o.linf), Math.max(l2, o.l2), Math.max(projectedL2, o.projectedL2),
                exactOfMax(linf, linfExact, o.linf, o.linfExact), exactOfMax(l2, l2Exact, o.l2, o.l2Exact));
    }

    private static boolean exactOfMax(double a, boolean aExact, double b, boolean bExact) {
        return a > b ? aExact : b > a ? bExact : aExact || bExact;
    }

    /** Every value multiplied by {@code factor >= 0}. */
    Influence times(double factor) {
        return new Influence(linf * factor, l2 * factor, projectedL2 * factor, linfExact, l2Exact);
    }
}
