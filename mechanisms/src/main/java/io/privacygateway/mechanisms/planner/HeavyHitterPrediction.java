package io.privacygateway.mechanisms.planner;

import io.privacygateway.mechanisms.local.heavy.HeavyHitterEstimator;
import io.privacygateway.mechanisms.local.heavy.HeavyHitterParameters;
import io.privacygateway.mechanisms.local.heavy.HeavyHitterProtocol;
import io.privacygateway.mechanisms.pipeline.HeavyHitterPipeline;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.WorkloadSpec;

/**
 * The closed-form prediction for a heavy-hitters workload at {@code n} reports per window, from the variance the
 * protocol's estimator uses ({@link HeavyHitterProtocol}; {@code docs/heavy-hitters.md}), with every level receiving
 * its expected {@code n/G} reports and the collision term left out (a population whose {@code Σ f²} is small; the
 * collision term adds {@code Σ f²/(R(W − 1))} to every variance below):
 *
 * <ul>
 *   <li>a share {@code f} estimated on one level of {@code m = n/G} reports has variance
 *       {@code κ²((1 − f)V₀ + f·V₁)/m + f(1 − f)(1/m − 1/n)}, {@code κ = W/(W − 1)}, with the protocol's own
 *       per-report variances {@code V₀}, {@code V₁} ({@link HeavyHitterEstimator#otherBucketReportVariance},
 *       {@link HeavyHitterEstimator#ownBucketReportVariance}, the ones its estimator uses); an item ending on an
 *       earlier level pools more levels and has less;</li>
 *   <li>the threshold of a level is {@code z(0.05/M)·σ(0)}, {@code M} the prefixes it scores: at most
 *       {@code 256^b} on level 0 and {@code T·256^b} on the others, so the predicted threshold share (the detection
 *       floor, the largest over levels) is {@code z(0.05/(T·256^b))·σ(0)} when {@code G > 1}.</li>
 * </ul>
 *
 * @param params the protocol's parameters
 * @param n the planned reports per window
 * @param otherBucketVariance the protocol's {@code V₀}
 * @param ownBucketVariance the protocol's {@code V₁}
 * @param standardErrorAtZero {@code σ(0)}, the standard error of a share-0 item's estimate on one level
 * @param thresholdShare the predicted threshold share
 */
public record HeavyHitterPrediction(HeavyHitterParameters params, long n, double otherBucketVariance,
        double ownBucketVariance, double standardErrorAtZero, double thresholdShare) {
    /** How the prediction is obtained, for plan output. */
    public static final String METHOD = "closed form from the protocol's variance: each level receives n/G reports,"
            + " collisions left out (they add Σf²/(R(W−1)) to every variance); the threshold is the Bonferroni"
            + " z(0.05/M)·σ(0) of a level that scores M = T·256^b prefixes";

    /** The prediction for a resolved heavy-hitters spec at {@code n >= 1} reports per window. */
    public static HeavyHitterPrediction of(WorkloadSpec resolved, long n) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be >= 1, got " + n);
        }
        HeavyHitterParameters p = HeavyHitterPipeline.parameters(resolved);
        HeavyHitterEstimator estimator = new HeavyHitterEstimator(new HeavyHitterProtocol(p,
                CanonicalForm.contentHash(resolved)));
        double v0 = estimator.otherBucketReportVariance();
        double m = Math.max(1.0, (double) n / p.levels());
        double kappa = p.width() / (p.width() - 1.0);
        double se0 = Math.sqrt(kappa * kappa * v0 / m);
        double prefixes = Math.pow(256, p.segmentBytes()) * (p.levels() > 1 ? p.candidates() : 1);
        double z = HeavyHitterEstimator.wholeItemQuantile(prefixes);
        return new HeavyHitterPrediction(p, n, v0, estimator.ownBucketReportVariance(), se0, z * se0);
    }

    /** The standard error of a share-{@code f} item's estimate on one level (see the class comment). */
    public double standardError(double f) {
        double m = Math.max(1.0, (double) n / params.levels());
        double kappa = params.width() / (params.width() - 1.0);
        double fc = Math.min(1, Math.max(0, f));
        return Math.sqrt(kappa * kappa * ((1 - fc) * otherBucketVariance + fc * ownBucketVariance) / m
                + fc * (1 - fc) * Math.max(0, 1 / m - 1.0 / n));
    }
}
