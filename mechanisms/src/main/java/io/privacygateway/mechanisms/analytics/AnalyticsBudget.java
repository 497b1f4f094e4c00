package io.privacygateway.mechanisms.analytics;

import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.workload.NeighbourRelation;

/**
 * What a window-analytics mechanism may spend and the public facts it plans with.
 *
 * @param epsilonCount the pure ε already spent on the report count (0 when it is public)
 * @param epsilon the pure ε left for the mechanism; its shares must add up (exactly) to at most this
 * @param plannedReports the report count parameters are planned for ({@code expectedReportsPerWindow})
 * @param relation the neighbour relation
 * @param contributions L, the most reports one device contributes to a window
 * @param confidence the confidence level of published bars and bounds
 */
public record AnalyticsBudget(double epsilonCount, double epsilon, long plannedReports, NeighbourRelation relation,
        int contributions, double confidence) {
    public AnalyticsBudget {
        Require.finiteNonNegative("epsilonCount", epsilonCount);
        Require.finitePositive("epsilon", epsilon);
        Require.inRange("plannedReports", plannedReports, 1, Long.MAX_VALUE);
        Require.nonNull("relation", relation);
        Require.positive("contributions", contributions);
        Require.inOpenRange("confidence", confidence, 0, 1);
    }

    /** Whether the neighbour relation is add/remove (whether the sums are monotone in the data). */
    public boolean addRemove() {
        return relation == NeighbourRelation.ADD_REMOVE;
    }
}
