package io.privacygateway.mechanisms.release;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.ConfidenceLevel;
import java.util.Arrays;

/**
 * Error bars of a projected estimate (MECHANISMS.md §3, Lemma 5.3 of the query-release paper).
 *
 * <p><b>Expected error.</b> For an unbiased level estimate {@code y = x̄ + N} with {@code x̄} in the
 * convex set {@code S} the level is projected onto, {@code ‖P_S(y) − x̄‖² ≤ ⟨N, P_S(y) − x̄⟩ ≤
 * sup_{w∈S}⟨N, w − x̄⟩}. When the noise covariance Σ has operator norm at most σ², the increments of
 * {@code w ↦ ⟨N, w⟩} are dominated by those of {@code σ⟨G, w⟩}, so by Sudakov–Fernique the mean of
 * the supremum is at most {@code σ·g(S)}; projection is also non-expansive, so
 * {@code E‖P_S(y) − x̄‖² ≤ min(tr Σ, σ·g(S))}. Levels add by the triangle inequality (Lemma 3.3), a
 * final projection onto K never increases the distance to {@code x̄ ∈ K}, and the mechanism's
 * deliberate bias adds {@code biasBound}. (The noise is an average of many independent reports, so
 * it is treated as Gaussian, as in the paper's subgaussian analysis.)
 *
 * <p><b>High-probability bound.</b> {@code G ↦ sup_{w∈S}⟨Σ^{1/2}G, w − x̄⟩} is
 * {@code σ·diam(S)}-Lipschitz, so by Gaussian concentration it exceeds {@code σ(g(S) + diam(S)·√(2t))}
 * with probability at most {@code e^{-t}}; independently {@code ‖N‖² ≤ tr Σ + 2σ√(tr Σ · t) + 2σ²t}
 * except with probability {@code e^{-t}} (Hsu, Kakade and Zhang 2012; Laurent–Massart when Σ = σ²I).
 * Each holds with probability {@code 1 − β/2} per level, and levels share β by a union bound.
 *
 * <p><b>Per-coordinate bars.</b> If the unprojected coordinate {@code u_q} is within {@code z·se_q} of
 * its mean (probability {@code confidence} under the normal approximation of an average of many
 * independent reports), then the published {@code a_q} is within {@code |a_q − u_q| + z·se_q + b_q} of
 * {@code x̄_q}, where {@code b_q} bounds the deliberate per-coordinate bias. Projection can move a
 * coordinate away from the truth, so the distance it moved is added rather than ignored. Bars are
 * clipped to [0, 1], which always contains {@code x̄_q}.
 */
public final class ErrorBars {
    private ErrorBars() {}

    /**
     * The per-level inputs of the bounds.
     *
     * @param sigma σ, the operator-norm scale of the noise ({@code √λ_max} of its covariance)
     * @param trace {@code tr Σ}, the sum of the per-coordinate variances
     * @param gaussianWidth g of the level's hull
     * @param diameter a bound on the hull's diameter
     */
    public record LevelNoise(double sigma, double trace, double gaussianWidth, double diameter) {}

    /** Bars and bounds. */
    public record Bounds(double[] lower, double[] upper, double expectedRmsError, double rmsErrorBoundAtConfidence) {}

    /**
     * {@code √min(tr Σ, σ·g(S))}: the bound on {@code √E‖P_S(y) − x̄‖²} of one projected level (see the class
     * comment), in l2 (not normalised by √m).
     *
     * @param sigma the operator-norm scale of the noise
     * @param trace {@code tr Σ} ({@code m·σ²} for i.i.d. coordinates)
     * @param width g(S)
     */
    public static double expectedLevelError(double sigma, double trace, double width) {
        return Math.sqrt(Math.min(trace, sigma * width));
    }

    /**
     * The high-probability version: with probability at least {@code 1 − 2e^{−t}},
     * {@code ‖P_S(y) − x̄‖₂ <= √min(σ(g + diam·√(2t)), tr Σ + 2σ√(tr Σ·t) + 2σ²t)} (each of the two bounds
     * fails with probability at most {@code e^{−t}}, see the class comment).
     */
    public static double levelErrorBound(double sigma, double trace, double width, double diameter, double t) {
        double widthBound = sigma * (width + diameter * Math.sqrt(2 * t));
        double chiBound = trace + 2 * sigma * Math.sqrt(trace * t) + 2 * sigma * sigma * t;
        return Math.sqrt(Math.min(widthBound, chiBound));
    }

    /**
     * Computes the error bars.
     *
     * @param published the published (projected) estimate a
     * @param unprojected the unbiased estimate u (sum of levels before projection)
     * @param standardErrors per-coordinate standard errors of u
     * @param perCoordinateBias per-coordinate bias bounds b_q (null = none)
     * @param levels per-level noise
     * @param biasBound normalized l2 bias bound of the mechanism
     * @param confidence the confidence level
     */
    public static Bounds compute(double[] published, double[] unprojected, double[] standardErrors,
            double[] perCoordinateBias, LevelNoise[] levels, double biasBound, ConfidenceLevel confidence) {
        return compute(published, unprojected, standardErrors, perCoordinateBias, levels, biasBound, confidence, 0, 1);
    }

    /**
     * As {@link #compute(double[], double[], double[], double[], LevelNoise[], double, ConfidenceLevel)}, with the
     * bars clipped to {@code [clipLo, clipHi]} instead of [0, 1] (the mean family: the range {@code [lo, hi]},
     * which contains every coordinate of K).
     */
    public static Bounds compute(double[] published, double[] unprojected, double[] standardErrors,
            double[] perCoordinateBias, LevelNoise[] levels, double biasBound, ConfidenceLevel confidence,
            double clipLo, double clipHi) {
        int m = published.length;
        double z = Confidence.twoSidedZ(confidence);
        double[] lo = new double[m];
        double[] hi = new double[m];
        for (int q = 0; q < m; q++) {
            double h = Math.abs(published[q] - unprojected[q]) + z * standardErrors[q]
                    + (perCoordinateBias == null ? 0 : perCoordinateBias[q]);
            lo[q] = barLower(published[q], h, clipLo, clipHi);
            hi[q] = barUpper(published[q], h, clipLo, clipHi);
        }
        double expected = biasBound;
        double atConfidence = biasBound;
        double betaPerBound = confidence.beta() / (2.0 * Math.max(1, levels.length));
        double t = Math.log(1 / betaPerBound);
        for (LevelNoise l : levels) {
            expected += expectedLevelError(l.sigma(), l.trace(), l.gaussianWidth()) / Math.sqrt(m);
            atConfidence += levelErrorBound(l.sigma(), l.trace(), l.gaussianWidth(), l.diameter(), t) / Math.sqrt(m);
        }
        return new Bounds(lo, hi, expected, atConfidence);
    }

    /**
     * Bars {@code [a_q − h_q, a_q + h_q] ∩ [0, 1]} of answers that lie in [0, 1] ({@code h_q} may be +∞: the
     * whole range), or the whole range everywhere when {@code valid} is false.
     *
     * @param estimate the published estimate a
     * @param halfWidth h, one per coordinate (at least as many as {@code estimate})
     * @param valid whether the half widths hold (false: no bar narrower than [0, 1] is published)
     * @return {@code {lower, upper}}, fresh arrays of the estimate's length
     */
    public static double[][] clipped(double[] estimate, double[] halfWidth, boolean valid) {
        int m = estimate.length;
        double[] lo = new double[m];
        double[] hi = new double[m];
        for (int q = 0; q < m; q++) {
            double h = valid ? halfWidth[q] : Double.POSITIVE_INFINITY;
            lo[q] = clippedLower(estimate[q], h);
            hi[q] = clippedUpper(estimate[q], h);
        }
        return new double[][] {lo, hi};
    }

    /**
     * {@link #clipped(double[], double[], boolean)} with one half width for every coordinate: the bars of a bound
     * on the largest error (an l∞ bound), {@code [a_q − h, a_q + h] ∩ [0, 1]}, or [0, 1] everywhere when
     * {@code valid} is false.
     */
    public static double[][] clipped(double[] estimate, double halfWidth, boolean valid) {
        int m = estimate.length;
        double[] lo = new double[m];
        double[] hi = new double[m];
        double h = valid ? halfWidth : Double.POSITIVE_INFINITY;
        for (int q = 0; q < m; q++) {
            lo[q] = clippedLower(estimate[q], h);
            hi[q] = clippedUpper(estimate[q], h);
        }
        return new double[][] {lo, hi};
    }

    private static double clippedLower(double a, double h) {
        return h < Double.POSITIVE_INFINITY ? barLower(a, h, 0, 1) : 0;
    }

    private static double clippedUpper(double a, double h) {
        return h < Double.POSITIVE_INFINITY ? barUpper(a, h, 0, 1) : 1;
    }

    /**
     * The lower end of the bar {@code [a − h, a + h] ∩ [lo, hi]} around an answer whose true value lies in
     * {@code [lo, hi]}, with the centre first clamped into {@code [lo, hi]}: an estimate a rounding error outside
     * the box (a projection onto K lands within an ulp of it) still gets an ordered bar, {@code lower <= upper},
     * and the bar only widens (for {@code a > hi} it becomes {@code [hi − h, hi]} ⊇ {@code [a − h, hi]}), so a bar
     * that held still holds.
     *
     * @param a the estimate (finite)
     * @param h the half width ({@code >= 0})
     * @param lo the lower end of the box containing every true answer
     * @param hi the upper end ({@code >= lo})
     */
    public static double barLower(double a, double h, double lo, double hi) {
        return Math.max(lo, Math.min(hi, a) - h);
    }

    /**
     * A copy of {@code v} with every coordinate clamped into {@code [lo, hi]}: the Euclidean projection onto a box,
     * so for every point x of the box, {@code ‖clamp(v) − x‖ <= ‖v − x‖}. Releases apply it to the estimate a
     * projection onto K returned (K lies in the box; the projection lands within rounding of K, e.g. an answer of
     * {@code 1 + 2^-52} for a share): post-processing that only removes rounding.
     */
    public static double[] clampedInto(double[] v, double lo, double hi) {
        double[] out = new double[v.length];
        for (int q = 0; q < v.length; q++) {
            out[q] = Math.min(hi, Math.max(lo, v[q]));
        }
        return out;
    }

    /** The upper end of the bar of {@link #barLower}: {@code min(hi, max(lo, a) + h)}. */
    public static double barUpper(double a, double h, double lo, double hi) {
        return Math.min(hi, Math.max(lo, a) + h);
    }

    /**
     * An upper bound on the diameter of {@code conv(atoms)}: the smaller of twice the largest norm and the
     * diagonal of the bounding box.
     */
    public static double diameterBound(PointSet atoms) {
        int m = atoms.dim();
        double[] lo = new double[m];
        double[] hi = new double[m];
        Arrays.fill(lo, Double.POSITIVE_INFINITY);
        Arrays.fill(hi, Double.NEGATIVE_INFINITY);
        for (int i = 0; i < atoms.size(); i++) {
            for (int q = 0; q < m; q++) {
                double v = atoms.get(i, q);
                lo[q] = Math.min(lo[q], v);
                hi[q] = Math.max(hi[q], v);
            }
        }
        double box = 0;
        for (int q = 0; q < m; q++) {
            box += (hi[q] - lo[q]) * (hi[q] - lo[q]);
        }
        return Math.min(2 * atoms.maxNorm(), Math.sqrt(box));
    }
}
