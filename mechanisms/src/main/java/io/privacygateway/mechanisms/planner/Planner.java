package io.privacygateway.mechanisms.planner;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.WorkloadSpec;

/** The planner's entry point for both modes. */
public final class Planner {
    /** The n planned for when a workload declares no {@code expectedReportsPerWindow}. */
    public static final long DEFAULT_PLANNED_REPORTS = 10_000;

    private Planner() {}

    /** Plans a workload at ε (per report locally, per release centrally) and n reports per window. */
    public static Plan plan(WorkloadSpec spec, Epsilon epsilon, long n) {
        return spec.mode() == Mode.LOCAL ? LocalPlanner.plan(spec, epsilon, n) : CentralPlanner.plan(spec, epsilon, n);
    }

    /**
     * The workload resolved for deployment: {@code auto} replaced by the planner's choice for the
     * workload's own ε and {@code expectedReportsPerWindow} (default {@value #DEFAULT_PLANNED_REPORTS}),
     * which is also recorded in the spec so the (content-hashed) spec alone determines the protocol.
     * A spec that names a mechanism is returned with its planned n filled in.
     */
    public static WorkloadSpec resolve(WorkloadSpec spec) {
        long n = spec.expectedReportsPerWindow() > 0 ? spec.expectedReportsPerWindow() : DEFAULT_PLANNED_REPORTS;
        if (spec.mechanism() != MechanismId.AUTO) {
            return spec.toBuilder().expectedReportsPerWindow(n).build();
        }
        Epsilon eps = spec.epsilonPerAnswer(); // not the charge: running totals' ε is not the release's
        return plan(spec, eps, n).resolved();
    }
}
