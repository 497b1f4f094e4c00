package io.privacygateway.mechanisms.analytics;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.param.ConfidenceLevel;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.release.Confidence;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The answer of a regression or erm release: one coefficient per feature with its error information. Every
 * argument must be a function of the release's pure outputs and public parameters.
 *
 * <p>The error information is an <b>estimate</b>, not a guarantee: {@code errorEstimate} is a plug-in estimate
 * of {@code ‖θ̂ − θ‖₂} (θ the exact statistic) from the noise's public parameters and pure outputs; the standard
 * error of every coefficient is {@code errorEstimate/√d}, the bars are {@code θ̂ ± z·se} with z the normal
 * quantile of the confidence, and both RMS fields are {@code errorEstimate/√d} (expected) and
 * {@code z·errorEstimate/√d}. {@code docs/published-fields.md} says so for consumers.
 */
public final class CoefficientAnswers {
    /** Published error estimates are capped here (a noisy design can make them arbitrarily large). */
    public static final double MAX_ERROR = 1e12;

    private CoefficientAnswers() {}

    public static Answer of(Workload w, MechanismId id, PrivacyCost.Pure cost, long published, double[] theta,
            double errorEstimate, double confidence, List<Answer.LevelDetail> levels, Map<String, Double> scalars) {
        int d = theta.length;
        double err = Math.min(MAX_ERROR, Double.isFinite(errorEstimate) ? errorEstimate : MAX_ERROR);
        double se = err / Math.sqrt(d);
        double z = Confidence.twoSidedZ(new ConfidenceLevel(confidence));
        double[] sd = new double[d];
        double[] lower = new double[d];
        double[] upper = new double[d];
        for (int j = 0; j < d; j++) {
            sd[j] = se;
            lower[j] = theta[j] - z * se;
            upper[j] = theta[j] + z * se;
        }
        LinkedHashMap<String, Double> s = new LinkedHashMap<>(scalars);
        s.put("errorEstimate", err);
        return new Answer(id, cost, published, w.queryLabels(), theta.clone(), Optional.empty(), Optional.of(sd),
                lower, upper, confidence, se, z * se, levels, w.contentHash(),
                new Answer.Extras(List.of(), s, OptionalDouble.empty()));
    }

    /**
     * The answer with per-coefficient error information: standard errors {@code se_j} of the noise and estimates
     * {@code b_j} of a deliberate bias (a ridge's pull), all in the coefficients' own units. The bars are
     * {@code θ̂_j ± (z·se_j + b_j)}; {@code errorEstimate} is {@code ‖se‖₂ + ‖b‖₂}; the RMS fields are
     * {@code √(mean se²) + √(mean b²)} and {@code √(mean (z·se + b)²)}. A non-finite or larger value is capped at
     * {@link #MAX_ERROR} (the coefficient is not determined).
     *
     * @param standardErrors {@code se_j >= 0} (may be +∞)
     * @param bias {@code b_j >= 0} (may be +∞)
     */
    public static Answer of(Workload w, MechanismId id, PrivacyCost.Pure cost, long published, double[] theta,
            double[] standardErrors, double[] bias, double confidence, List<Answer.LevelDetail> levels,
            Map<String, Double> scalars) {
        int d = theta.length;
        if (standardErrors.length != d || bias.length != d) {
            throw new IllegalArgumentException("one standard error and one bias per coefficient are needed");
        }
        double z = Confidence.twoSidedZ(new ConfidenceLevel(confidence));
        double[] sd = new double[d];
        double[] lower = new double[d];
        double[] upper = new double[d];
        double seSq = 0;
        double biasSq = 0;
        double halfSq = 0;
        for (int j = 0; j < d; j++) {
            sd[j] = capped(standardErrors[j]);
            double b = capped(bias[j]);
            double h = capped(z * sd[j] + b);
            lower[j] = theta[j] - h;
            upper[j] = theta[j] + h;
            seSq += sd[j] * sd[j];
            biasSq += b * b;
            halfSq += h * h;
        }
        LinkedHashMap<String, Double> s = new LinkedHashMap<>(scalars);
        s.put("errorEstimate", capped(Math.sqrt(seSq) + Math.sqrt(biasSq)));
        return new Answer(id, cost, published, w.queryLabels(), theta.clone(), Optional.empty(), Optional.of(sd),
                lower, upper, confidence, capped(Math.sqrt(seSq / d) + Math.sqrt(biasSq / d)),
                capped(Math.sqrt(halfSq / d)), levels, w.contentHash(),
                new Answer.Extras(List.of(), s, OptionalDouble.empty()));
    }

    private static double capped(double v) {
        return Double.isFinite(v) ? Math.min(MAX_ERROR, v) : MAX_ERROR;
    }
}
