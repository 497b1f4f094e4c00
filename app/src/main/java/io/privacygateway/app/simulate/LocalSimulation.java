package io.privacygateway.app.simulate;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.planner.Plan;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;

/**
 * Runs a dataset through the real local-model code: each value becomes one device's report
 * ({@link LocalProtocol#randomize}, the device code path), the gateway accumulates the payloads exactly
 * and releases the answer ({@link LocalPipeline}). {@code auto} is resolved by the planner from the
 * workload, ε and the number of reports only, never from the values.
 */
public final class LocalSimulation {
    private LocalSimulation() {}

    /**
     * The outcome.
     *
     * @param resolved the workload spec with the mechanism actually run
     * @param plan the planner's plan when {@code auto} was resolved, else {@code null}
     * @param answer the published answer
     * @param truth the true mean answers of the dataset
     */
    public record Result(WorkloadSpec resolved, Plan plan, Answer answer, double[] truth) {}

    /**
     * Simulates one window.
     *
     * @param spec the workload (local mode)
     * @param values universe indices, one per device
     * @param epsilon per-report ε, or {@code null} for the workload's
     * @param mechanism a mechanism overriding the workload's, or {@code null}
     * @param secret the devices' secret randomness
     */
    public static Result run(WorkloadSpec spec, int[] values, Epsilon epsilon, MechanismId mechanism, RandomBits secret) {
        SimulationTrial trial = SimulationTrial.of(spec, values, epsilon, mechanism);
        WorkloadSpec s = trial.resolved();
        Plan plan = trial.plan();
        Workload w = trial.workload();
        long n = values.length;
        LocalPipeline pipeline = LocalPipeline.of(w);
        LocalProtocol protocol = pipeline.protocol();
        long[] state = new long[protocol.stateLength()];
        long[] counts = new long[w.universeSize()];
        for (int i = 0; i < values.length; i++) {
            ReportCoordinates coords = new ReportCoordinates("device-" + (i + 1), 0, 0);
            byte[] payload = protocol.randomize(values[i], coords, secret); // on the device
            if (!protocol.accumulate(payload, coords, state)) { // at the gateway
                throw new IllegalStateException("the gateway rejected a report the device produced");
            }
            counts[values[i]]++;
        }
        Answer answer = pipeline.release().release(state, n);
        return new Result(s, plan, answer, w.meanAnswer(counts));
    }
}
