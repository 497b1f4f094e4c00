package io.privacygateway.mechanisms.release;

import io.privacygateway.mechanisms.workload.MechanismId;
import java.util.List;

/**
 * A published answer: consistent estimates of a window's mean answer vector {@code x̄}, their error
 * bars, and their privacy cost. Everything in it is a post-processing of the privatized data, so it
 * carries the privacy guarantee of the mechanism that produced it (pure ε, δ = 0).
 *
 * @param mechanism the mechanism that produced the answer
 * @param epsilon the pure ε of the release (per report in local mode, per window in central mode)
 * @param delta always 0: every published answer is pure ε-DP
 * @param n the number of reports (local mode) or the noisy/public count (central mode) used
 * @param labels the m query labels
 * @param estimates the published answers, in the feasible set K
 * @param unprojected the unbiased estimate before any projection (for diagnostics)
 * @param standardErrors per-coordinate standard errors of {@code unprojected}
 * @param lower per-coordinate lower ends of the error bars (clipped to [0, 1])
 * @param upper per-coordinate upper ends of the error bars (clipped to [0, 1])
 * @param confidence the confidence level of {@code lower/upper} and {@code rmsErrorBoundAtConfidence}
 * @param expectedRmsError the bound on the expected per-coordinate RMS error of {@code estimates}
 *     (MECHANISMS.md §3): {@code Σ_levels sqrt(min(σ², σ·g/m)) + bias}
 * @param rmsErrorBoundAtConfidence a bound on {@code ‖estimates − x̄‖₂/√m} that holds with
 *     probability at least {@code confidence}
 * @param levels per-level details
 * @param workloadHash the content hash of the workload
 */
public record Answer(
        MechanismId mechanism,
        double epsilon,
        double delta,
        long n,
        List<String> labels,
        double[] estimates,
        double[] unprojected,
        double[] standardErrors,
        double[] lower,
        double[] upper,
        double confidence,
        double expectedRmsError,
        double rmsErrorBoundAtConfidence,
        List<LevelDetail> levels,
        String workloadHash) {

    public Answer {
        labels = List.copyOf(labels);
        levels = List.copyOf(levels);
    }

    /**
     * Diagnostics of one level of the release.
     *
     * @param level 1-based level index
     * @param epsilon the ε spent on the level
     * @param radius the public radius of the level's vectors (0 if not applicable)
     * @param noiseScale σ of the level's estimate
     * @param gaussianWidth g of the level's hull (Monte Carlo)
     * @param hullSize the number of points whose hull the level was projected onto
     * @param projectionGap the certified duality gap of the level's projection (0 if exact)
     * @param rho central mode: the zCDP ρ of the level's Gaussian noise before purification (0 otherwise;
     *     such levels report {@code epsilon = 0}: their pure ε exists only for the purified answer as a whole)
     */
    public record LevelDetail(int level, double epsilon, double radius, double noiseScale, double gaussianWidth,
            int hullSize, double projectionGap, double rho) {}
}
