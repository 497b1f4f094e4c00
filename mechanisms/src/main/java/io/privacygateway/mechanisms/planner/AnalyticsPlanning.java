package io.privacygateway.mechanisms.planner;

import io.privacygateway.mechanisms.analytics.release.AnalyticsMechanisms;
import io.privacygateway.mechanisms.analytics.SyntheticWindows;
import io.privacygateway.mechanisms.analytics.WindowStatistics;
import io.privacygateway.mechanisms.analytics.mode.ModeMechanism;
import io.privacygateway.mechanisms.analytics.release.AnalyticsRelease;
import io.privacygateway.mechanisms.central.CentralRelease;
import io.privacygateway.mechanisms.runtime.CountsReleases;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.reference.ReferenceData;
import io.privacygateway.mechanisms.workload.QueryFamily;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.List;

/**
 * Predictions for the window-analytics families ({@code docs/analytics.md}), on public synthetic windows
 * ({@link SyntheticWindows}, one per {@link ReferenceData} distribution) at the planned n: the family's error
 * measure ({@link AnalyticsMechanisms#errorMeasure}) in place of an RMS. Mode: in closed form (the exponential
 * mechanism's exact probability of a wrong label; the purified test's upper bound on it). Regression and erm: the
 * mean over seeded releases through the real mechanism (public planning: seeded randomness is fine here).
 */
final class AnalyticsPlanning {
    /**
     * Seeded releases per reference distribution for a regression workload. Laplace SSP's error is heavy-tailed
     * (a noisy XᵀX close to singular gives a wild θ once in tens of releases), so its mean needs many trials; a
     * release costs microseconds.
     */
    static final int REGRESSION_TRIALS = 60;
    /** Seeded releases per reference distribution for an erm workload (the grid sampler takes ≈ 50 ms a release). */
    static final int ERM_TRIALS = 6;
    /** Windows larger than this are planned at this size (the error measures are per-report averages). */
    static final long MAX_SIMULATED = 200_000;

    private AnalyticsPlanning() {}

    static String method(QueryFamily f) {
        return (f == QueryFamily.MODE ? "closed form" : "simulation: " + trials(f) + " seeded releases")
                + " per public synthetic window (one per reference distribution) through the real mechanism; error"
                + " measure: " + AnalyticsMechanisms.errorMeasure(f) + "; closed form column: the mechanism's own"
                + " prediction at the planned n";
    }

    /** Seeded releases per reference distribution for a regression or erm workload. */
    static int trials(QueryFamily f) {
        return f == QueryFamily.REGRESSION ? REGRESSION_TRIALS : ERM_TRIALS;
    }

    static Prediction predict(WorkloadSpec spec, Epsilon epsilon, long n, Candidate c, List<ReferenceData> refs) {
        return CentralPlanner.withPipeline(spec, epsilon, n, c, refs, pipeline -> predict(pipeline, n, c, refs));
    }

    private static Prediction predict(CentralRelease pipeline, long n, Candidate c, List<ReferenceData> refs) {
        Workload w = pipeline.workload();
        AnalyticsRelease release = (AnalyticsRelease) pipeline;
        double[] simulated = new double[refs.size()];
        for (int r = 0; r < refs.size(); r++) {
            long[] counts = SyntheticWindows.counts(w, refs.get(r), Math.min(n, MAX_SIMULATED));
            if (release.mechanism() instanceof ModeMechanism m) {
                simulated[r] = 1 - m.probabilityCorrect(counts);
                continue;
            }
            double sum = 0;
            int trials = trials(w.spec().family());
            for (int t = 0; t < trials; t++) {
                sum += WindowStatistics.error(w, counts,
                        pipeline.release(counts, new SeededRandomBits(0xA7A1L + 7919L * r + 104729L * t)));
            }
            simulated[r] = sum / trials;
        }
        return new Prediction(c, true, "", Double.NaN, release.mechanism().predictedError(), simulated, Double.NaN);
    }
}
