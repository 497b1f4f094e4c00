package io.privacygateway.app.simulate;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.planner.Plan;
import io.privacygateway.mechanisms.planner.Planner;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;

/**
 * What a simulation run decides before any value is used, the same in both modes: the dataset is not empty, and the
 * workload is resolved by {@link Planner#forTrial} from the spec, ε, the mechanism and the number of values only.
 *
 * @param resolved the spec actually run
 * @param plan the planner's plan when {@code auto} was resolved, else {@code null}
 * @param workload the workload of {@code resolved}
 */
record SimulationTrial(WorkloadSpec resolved, Plan plan, Workload workload) {
    /**
     * The trial of a dataset of {@code values.length} values.
     *
     * @param epsilon ε per answer, or {@code null} for the workload's
     * @param mechanism a mechanism overriding the workload's, or {@code null}
     * @throws IllegalArgumentException if {@code values} is empty
     */
    static SimulationTrial of(WorkloadSpec spec, int[] values, Epsilon epsilon, MechanismId mechanism) {
        if (values.length == 0) {
            throw new IllegalArgumentException("the values file has no values");
        }
        Planner.Trial trial = Planner.forTrial(spec, epsilon, mechanism, values.length);
        WorkloadSpec s = trial.resolved();
        return new SimulationTrial(s, trial.plan(), Workload.of(s));
    }
}
