package io.privacygateway.app.simulate;

import io.privacygateway.mechanisms.analytics.WindowStatistics;
import io.privacygateway.mechanisms.central.CentralRelease;
import io.privacygateway.mechanisms.runtime.CountsReleases;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.planner.Plan;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;

/**
 * Runs a dataset through the real central-mode release: each value is one device's raw report (L = 1),
 * the gateway counts them exactly and releases a pure ε-DP answer (noise, projection, purification) with
 * secret randomness. {@code auto} is resolved from the workload, ε and n only.
 */
public final class CentralSimulation {
    private CentralSimulation() {}

    /**
     * The outcome.
     *
     * @param resolved the spec actually run
     * @param plan the plan when {@code auto} was resolved, else {@code null}
     * @param pipeline the release (its parameters describe how ε was spent)
     * @param answer the published answer
     * @param truth the true answers ({@code Workload.trueAnswer}: the mean answers, or an analytics family's exact
     *     statistic)
     * @param familyError the analytics family's error measure of the answer ({@code WindowStatistics.error}), NaN
     *     for the linear families
     */
    public record Result(WorkloadSpec resolved, Plan plan, CentralRelease pipeline, Answer answer, double[] truth,
            double familyError) {}

    public static Result run(WorkloadSpec spec, int[] values, Epsilon epsilon, MechanismId mechanism, RandomBits secret) {
        SimulationTrial trial = SimulationTrial.of(spec, values, epsilon, mechanism);
        WorkloadSpec s = trial.resolved();
        Plan plan = trial.plan();
        Workload w = trial.workload();
        CentralRelease pipeline = CountsReleases.of(w);
        long[] counts = new long[w.universeSize()];
        for (int v : values) {
            counts[v]++;
        }
        Answer a = pipeline.release(counts, secret);
        double familyError = s.family().isWindowAnalytics()
                ? WindowStatistics.error(w, counts, a) : Double.NaN;
        return new Result(s, plan, pipeline, a, WindowStatistics.trueAnswer(w, counts), familyError);
    }
}
