package io.privacygateway.mechanisms.release;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A published answer: consistent estimates of a window's mean answer vector {@code x̄}, their error bars,
 * and their privacy cost.
 *
 * <p><b>What every field is a function of</b> (the full table is {@code docs/published-fields.md}): in
 * local mode, of the ε-LDP reports and public parameters; in central mode, of the <em>pure</em> outputs
 * of the release (the released count, and the purified vector or the Laplace-noised sums) and public
 * parameters, never of a pre-purification (approximate-DP) value. So every answer carries exactly the
 * guarantee in {@link #cost()}, and its type says that δ = 0.
 *
 * <p><b>Absent values are absent</b>: there is no sentinel. Every number present is finite (checked here);
 * {@link #unprojected()} and {@link #standardErrors()} are empty when no such vector exists (a central
 * window with a public count of 0 reports has no noisy vector to show).
 *
 * @param mechanism the mechanism that produced the answer
 * @param cost the pure-DP guarantee of the answer, as the mechanism computed it from what it spent: per
 *     report in local mode, per window in central mode (the exact sum of the parts it spent, rounded up)
 * @param n the number of reports (local mode), or the count the central release published: the noisy count
 *     clamped at 0 (add/remove) or the public count (replace-one)
 * @param labels the m query labels
 * @param estimates the published answers, in the feasible set K
 * @param unprojected the private vector before the final projection onto K, mapped to answer space: local
 *     mode, the unbiased estimate of the reports; central Laplace, the noisy mean; central Gaussian, the
 *     purified vector (histogram space: its answers {@code Σ_x v_x Q(x)}); empty when there is none
 * @param standardErrors per-coordinate standard errors of {@code unprojected} (empty with it)
 * @param lower per-coordinate lower ends of the error bars, in [0, 1]
 * @param upper per-coordinate upper ends of the error bars, in [0, 1]
 * @param confidence the confidence level of {@code lower/upper} and {@code rmsErrorBoundAtConfidence}
 * @param expectedRmsError a bound on (local mode) or a prediction of (central mode, at the published count)
 *     the expected per-coordinate RMS error {@code E‖estimates − x̄‖₂/√m}, bias included; never above the
 *     trivial bound {@code diam(K)/√m}
 * @param rmsErrorBoundAtConfidence a bound on {@code ‖estimates − x̄‖₂/√m} that holds with probability at
 *     least {@code confidence}; where the noise gives none (too few reports, or a mixing weight above the
 *     failure budget) the trivial bound {@code diam(K)/√m}, which always holds
 * @param levels per-level details (empty when no mechanism ran)
 * @param workloadHash the content hash of the workload
 */
public record Answer(
        MechanismId mechanism,
        PrivacyCost.Pure cost,
        long n,
        List<String> labels,
        double[] estimates,
        Optional<double[]> unprojected,
        Optional<double[]> standardErrors,
        double[] lower,
        double[] upper,
        double confidence,
        double expectedRmsError,
        double rmsErrorBoundAtConfidence,
        List<LevelDetail> levels,
        String workloadHash,
        Extras extras) {

    /** An answer without family-specific extras. */
    public Answer(MechanismId mechanism, PrivacyCost.Pure cost, long n, List<String> labels, double[] estimates,
            Optional<double[]> unprojected, Optional<double[]> standardErrors, double[] lower, double[] upper,
            double confidence, double expectedRmsError, double rmsErrorBoundAtConfidence, List<LevelDetail> levels,
            String workloadHash) {
        this(mechanism, cost, n, labels, estimates, unprojected, standardErrors, lower, upper, confidence,
                expectedRmsError, rmsErrorBoundAtConfidence, levels, workloadHash, Extras.NONE);
    }

    public Answer {
        Require.nonNull("mechanism", mechanism);
        Require.nonNull("cost", cost);
        labels = List.copyOf(Require.nonNull("labels", labels));
        int m = labels.size();
        finiteVector("estimates", estimates, m);
        Require.nonNull("unprojected", unprojected).ifPresent(v -> finiteVector("unprojected", v, m));
        Require.nonNull("standardErrors", standardErrors).ifPresent(v -> finiteVector("standardErrors", v, m));
        finiteVector("lower", lower, m);
        finiteVector("upper", upper, m);
        for (int q = 0; q < m; q++) {
            if (!(lower[q] <= upper[q])) {
                throw new IllegalArgumentException("lower[" + q + "] = " + lower[q] + " must be <= upper[" + q
                        + "] = " + upper[q]);
            }
        }
        Require.inOpenRange("confidence", confidence, 0, 1);
        Require.finiteNonNegative("expectedRmsError", expectedRmsError);
        Require.finiteNonNegative("rmsErrorBoundAtConfidence", rmsErrorBoundAtConfidence);
        levels = List.copyOf(Require.nonNull("levels", levels));
        Require.nonNull("workloadHash", workloadHash);
        Require.nonNull("extras", extras);
    }

    /**
     * The answer of a window with nothing to protect (its report count is public and 0: replace-one neighbours), for
     * which no mechanism runs: cost 0, {@code n = 0}, the given data-independent estimate (not copied), every bar the
     * whole range [0, 1], both RMS figures {@code trivialRms}, no unprojected vector, no standard errors, no levels.
     *
     * @param estimate a fixed point of the feasible set, one entry per label
     * @param trivialRms the RMS bound that holds with probability 1 (finite, {@code >= 0})
     * @throws IllegalArgumentException as the canonical constructor
     */
    public static Answer noData(MechanismId mechanism, List<String> labels, double[] estimate, double confidence,
            double trivialRms, String workloadHash, Extras extras) {
        Require.nonNull("estimates", estimate);
        double[] lower = new double[estimate.length];
        double[] upper = new double[estimate.length];
        Arrays.fill(upper, 1.0);
        return new Answer(mechanism, new PrivacyCost.Pure(0), 0, labels, estimate, Optional.empty(), Optional.empty(),
                lower, upper, confidence, trivialRms, trivialRms, List.of(), workloadHash, extras);
    }

    /** This answer with {@code extras}. */
    public Answer withExtras(Extras extras) {
        return new Answer(mechanism, cost, n, labels, estimates, unprojected, standardErrors, lower, upper, confidence,
                expectedRmsError, rmsErrorBoundAtConfidence, levels, workloadHash, extras);
    }

    /**
     * What some families publish besides one estimate per label, every value a function of the mechanism's
     * private output and public parameters like the rest of the answer.
     *
     * @param items a variable set of labelled values with error bars (e.g. heavy hitters found in the window),
     *     empty when the family has none
     * @param scalars named numbers (e.g. a regression's private error estimate, a release's stability flag, a
     *     heavy-hitter threshold), empty when none
     * @param maxErrorBound a bound on the largest error over the answers ({@code ‖estimates − x̄‖_∞}) that holds
     *     with probability at least the confidence, where the mechanism gives one
     */
    public record Extras(List<Item> items, Map<String, Double> scalars, OptionalDouble maxErrorBound) {
        public static final Extras NONE = new Extras(List.of(), Map.of(), OptionalDouble.empty());

        public Extras {
            items = List.copyOf(Require.nonNull("items", items));
            scalars = Map.copyOf(Require.nonNull("scalars", scalars));
            scalars.forEach((k, v) -> {
                if (!Double.isFinite(v)) {
                    throw new IllegalArgumentException("scalars[" + k + "] must be finite, got " + v);
                }
            });
            Require.nonNull("maxErrorBound", maxErrorBound).ifPresent(b -> Require.finiteNonNegative("maxErrorBound", b));
        }
    }

    /**
     * One labelled value of a variable set.
     *
     * @param label what it is (e.g. the heavy hitter's string)
     * @param estimate its estimate
     * @param lower the lower end of its error bar at the answer's confidence
     * @param upper the upper end
     */
    public record Item(String label, double estimate, double lower, double upper) {
        public Item {
            Require.nonNull("label", label);
            if (!(Double.isFinite(estimate) && Double.isFinite(lower) && Double.isFinite(upper) && lower <= upper)) {
                throw new IllegalArgumentException("item " + label + " needs finite estimate and bars, lower <= upper");
            }
        }
    }

    /** The ε of {@link #cost()} (δ = 0 by its type). */
    public double epsilon() {
        return cost.epsilon();
    }

    private static void finiteVector(String field, double[] v, int m) {
        Require.nonNull(field, v);
        if (v.length != m) {
            throw new IllegalArgumentException(field + " must have " + m + " entries (one per label), got " + v.length);
        }
        for (int q = 0; q < m; q++) {
            if (!Double.isFinite(v[q])) {
                throw new IllegalArgumentException(field + "[" + q + "] must be finite, got " + v[q]);
            }
        }
    }

    /**
     * Details of one level of the release, all public parameters or functions of the published count.
     *
     * @param level 1-based level index
     * @param cost what the level spent: pure ε for a local level and for the Laplace baseline's sums; the zCDP ρ
     *     of the discrete Gaussian noise for a central Gaussian level (an intermediate whose guarantee becomes
     *     pure only through purification of the answer as a whole, see {@link Answer#cost()})
     * @param radius the public radius of the level's vectors (0 if not applicable)
     * @param noiseScale the standard deviation of the level's noise per coordinate, in answer units
     * @param gaussianWidth g of the level's hull (Monte Carlo)
     * @param hullSize the number of points whose hull the level was projected onto
     * @param projectionGap the certified duality gap of the level's projection (0 if exact); present in local
     *     mode only: in central mode the level is projected before purification, so its gap depends on an
     *     approximate-DP value and is never published
     */
    public record LevelDetail(int level, PrivacyCost cost, double radius, double noiseScale, double gaussianWidth,
            int hullSize, OptionalDouble projectionGap) {
        public LevelDetail {
            Require.positive("level", level);
            Require.nonNull("cost", cost);
            Require.finiteNonNegative("radius", radius);
            Require.finiteNonNegative("noiseScale", noiseScale);
            Require.finiteNonNegative("gaussianWidth", gaussianWidth);
            Require.nonNull("projectionGap", projectionGap)
                    .ifPresent(g -> Require.finiteNonNegative("projectionGap", g));
        }
    }
}
