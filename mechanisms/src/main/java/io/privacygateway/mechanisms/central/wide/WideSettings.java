package io.privacygateway.mechanisms.central.wide;

import io.privacygateway.mechanisms.param.ConfidenceLevel;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import io.privacygateway.mechanisms.workload.WorkloadSpec;

/**
 * The public declaration a central wide release is built from: what a central-mode workload file declares
 * ({@code central: {epsilonPerRelease, neighbour, contributionsPerWindow}}, {@code confidence},
 * {@code expectedReportsPerWindow}) and the workload's content hash, which every answer carries.
 *
 * @param epsilon the pure ε of every release (the exact declared decimal)
 * @param neighbour the neighbour relation: add/remove (the count is noised) or replace-one (the count is public)
 * @param contributions L, the most reports one device contributes to one window, in {@code [1, 2^20]}
 * @param confidence the confidence of the error bars and of the published max-error bound
 * @param plannedReports the n parameters are chosen for, {@code >= 1}
 * @param workloadHash the workload's content hash (non-blank)
 */
public record WideSettings(Epsilon epsilon, NeighbourRelation neighbour, int contributions, ConfidenceLevel confidence,
        long plannedReports, String workloadHash) {
    /** The n parameters are planned for when a workload declares none. */
    public static final long DEFAULT_PLANNED_REPORTS = WorkloadSpec.DEFAULT_PLANNED_REPORTS;

    public WideSettings {
        Require.nonNull("epsilon", epsilon);
        Require.nonNull("neighbour", neighbour);
        Require.inRange("contributions", contributions, 1, 1 << 20);
        Require.nonNull("confidence", confidence);
        Require.inRange("plannedReports", plannedReports, 1, MarginalCounts.MAX_REPORTS);
        Require.nonBlank("workloadHash", workloadHash);
    }

    /**
     * The settings of a central-mode workload spec (its ε per release, neighbour relation, L, confidence and
     * planned n), with the given content hash.
     */
    public static WideSettings of(WorkloadSpec spec, String workloadHash) {
        Require.nonNull("spec", spec);
        WorkloadSpec.Central c = spec.central();
        long planned = spec.plannedReportsPerWindow();
        return new WideSettings(c.epsilonPerRelease(), c.neighbour(), c.contributionsPerWindow(), spec.confidence(),
                planned, workloadHash);
    }

    /** The failure probability of the bars: {@code 1 − confidence}. */
    public double beta() {
        return confidence.beta();
    }

    /** Whether the report count is public (replace-one). */
    public boolean countPublic() {
        return neighbour == NeighbourRelation.REPLACE_ONE;
    }
}
