package io.privacygateway.mechanisms.planner;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.WorkloadSpec;

/** The planner's entry point for both modes. */
public final class Planner {
    /** The n planned for when a workload declares no {@code expectedReportsPerWindow}. */
    public static final long DEFAULT_PLANNED_REPORTS = WorkloadSpec.DEFAULT_PLANNED_REPORTS;

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
        long n = spec.plannedReportsPerWindow();
        if (spec.mechanism() != MechanismId.AUTO) {
            return spec.toBuilder().expectedReportsPerWindow(n).build();
        }
        Epsilon eps = spec.epsilonPerAnswer(); // not the charge: running totals' ε is not the release's
        return plan(spec, eps, n).resolved();
    }

    /**
     * A workload resolved for a trial run on {@code n} known values (the {@code simulate} command): ε per answer set
     * to {@code epsilon} (the declared one when null) with the budget raised to at least one charge, the mechanism
     * replaced when one is given, then {@code auto} resolved by the planner at that ε and n, or n recorded as the
     * planned reports.
     *
     * @param plan the planner's plan when {@code auto} was resolved, else {@code null}
     */
    public record Trial(WorkloadSpec resolved, Plan plan) {}

    /** See {@link Trial}; {@code epsilon} and {@code mechanism} may be null (keep the declared ones). */
    public static Trial forTrial(WorkloadSpec spec, Epsilon epsilon, MechanismId mechanism, long n) {
        Epsilon eps = epsilon != null ? epsilon : spec.epsilonPerAnswer();
        WorkloadSpec s = spec.toBuilder().epsilonPerAnswer(eps).budgetAtLeastOneCharge().build();
        if (mechanism != null) {
            s = s.toBuilder().mechanism(mechanism).build();
        }
        if (s.mechanism() == MechanismId.AUTO) {
            Plan plan = plan(s, eps, n);
            return new Trial(plan.resolved(), plan);
        }
        if (s.expectedReportsPerWindow() == 0) {
            s = s.toBuilder().expectedReportsPerWindow(n).build();
        }
        return new Trial(s, null);
    }
}
