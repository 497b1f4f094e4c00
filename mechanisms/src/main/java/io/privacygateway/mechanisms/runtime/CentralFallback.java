package io.privacygateway.mechanisms.runtime;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.analytics.CoefficientAnswers;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.release.ErrorBars;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import io.privacygateway.mechanisms.workload.QueryFamily;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The answer a central window gets when its release cannot finish (a certificate that cannot be reached, a step or
 * size limit, a numeric failure, a computation still running at the window's fixed publication time, a defect): a
 * <b>data-independent</b> answer, so a window is never skipped and its cost never changes.
 *
 * <p><b>Guarantee.</b> Every field is a function of the workload's public parameters only (and, under replace-one
 * neighbours, of the public report count): no mechanism output and no report enters it, so publishing it reveals
 * nothing about the window beyond the fact that the release fell back. It carries the cost the release would have
 * carried ({@link #cost}) and the gateway charges the window exactly as for a computed answer.
 *
 * <p><b>Honest error information.</b> The estimate is a fixed public point and every bar is the trivial interval that
 * holds with probability 1: [0, 1] for answers in [0, 1] (histogram, cdf, range, marginals, points, mode and the wide
 * families), {@code [−B, B]} for an erm coefficient (B the model's public radius), and
 * {@code ±}{@link CoefficientAnswers#MAX_ERROR} for a regression coefficient (the model has no public bound); both RMS
 * figures are the matching trivial bounds. There are no levels, no unprojected vector and no standard errors.
 */
public final class CentralFallback {
    private CentralFallback() {}

    /**
     * The data-independent answer of one window of {@code c}.
     *
     * @param publicCount the window's report count, used only under replace-one neighbours (where it is public); under
     *     add/remove the fallback publishes {@code n = 0}
     */
    public static Answer answer(CentralWorkload c, long publicCount) {
        WorkloadSpec spec = c.spec();
        List<String> labels = c.queryLabels();
        int m = labels.size();
        double confidence = spec.confidence().value();
        long n = spec.central().neighbour() == NeighbourRelation.REPLACE_ONE ? Math.max(0, publicCount) : 0;
        PrivacyCost.Pure cost = cost(c);
        double[] estimate;
        double[] lower = new double[m];
        double[] upper = new double[m];
        double rms;
        if (c.wide().isPresent()) {
            estimate = c.wide().get().uniformAnswers();
            Arrays.fill(upper, 1.0);
            rms = 1.0;
            return new Answer(spec.mechanism(), cost, n, labels, estimate, Optional.empty(), Optional.empty(), lower,
                    upper, confidence, rms, rms, List.of(), c.contentHash(),
                    new Answer.Extras(List.of(), Map.of(), OptionalDouble.of(1.0)));
        }
        QueryFamily family = spec.family();
        if (family == QueryFamily.MODE) {
            estimate = new double[m];
            Arrays.fill(upper, 1.0);
            rms = Math.sqrt(2.0 / m);
        } else if (family == QueryFamily.ERM || family == QueryFamily.REGRESSION) {
            double bound = family == QueryFamily.ERM ? spec.model().radius() : CoefficientAnswers.MAX_ERROR;
            estimate = new double[m];
            Arrays.fill(lower, -bound);
            Arrays.fill(upper, bound);
            rms = bound; // every coefficient of the truth is within the bound of 0, with probability 1
        } else {
            PointSet p = c.workload().points();
            estimate = new double[p.dim()];
            for (int i = 0; i < p.size(); i++) {
                for (int q = 0; q < p.dim(); q++) {
                    estimate[q] += p.get(i, q) / p.size();
                }
            }
            Arrays.fill(upper, 1.0);
            rms = ErrorBars.diameterBound(p) / Math.sqrt(m);
        }
        return new Answer(spec.mechanism(), cost, n, labels, estimate, Optional.empty(), Optional.empty(), lower, upper,
                confidence, rms, rms, List.of(), c.contentHash());
    }

    /**
     * The cost a computed answer of {@code c} carries (the release's exact sum of shares, rounded up), or, if no
     * release can be built, the declared {@code central.epsilonPerRelease}. Public either way.
     */
    public static PrivacyCost.Pure cost(CentralWorkload c) {
        try {
            return c.windowRelease().cost();
        } catch (RuntimeException e) {
            return new PrivacyCost.Pure(c.parameters().epsilonPerRelease().value());
        }
    }
}
