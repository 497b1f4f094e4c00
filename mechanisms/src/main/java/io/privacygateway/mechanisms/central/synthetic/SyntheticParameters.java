package io.privacygateway.mechanisms.central.synthetic;

import io.privacygateway.mechanisms.param.ConfidenceLevel;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.workload.NeighbourRelation;

/**
 * The declared parameters of a certified synthetic-data release, validated at construction (messages name the
 * field). Everything here is public.
 *
 * @param layout the attributes d and the marginal order s of the tables the certificate covers
 * @param epsilon the total pure ε of one window's release (δ = 0)
 * @param neighbour the neighbour relation (add/remove: the count is noised; replace-one: it is public)
 * @param contributions L, the most reports one device contributes to a window, {@code >= 1}
 * @param basis the noise basis ({@link NoiseBasis#IDENTITY} recommended; {@link NoiseBasis#HAAR} is the paper's)
 * @param confidence the probability with which the certificate holds (its failure probability is
 *     {@code 1 − confidence}, over the mechanism's noise)
 * @param records N, the exact number of synthetic records released per window, in {@code [1, 2^24]}
 * @param candidates the most candidate records the LP weighs when {@code 2^d} exceeds it (otherwise the whole
 *     domain), in {@code [16, 2^16]}
 * @param plannedReports the report count the ε split is chosen for, {@code >= 1}
 */
public record SyntheticParameters(MarginalLayout layout, Epsilon epsilon, NeighbourRelation neighbour,
        int contributions, NoiseBasis basis, ConfidenceLevel confidence, int records, int candidates,
        long plannedReports) {
    /** Default N: 65,536 records (at most that many distinct rows, each with a multiplicity). */
    public static final int DEFAULT_RECORDS = 1 << 16;
    /** Default candidate budget. */
    public static final int DEFAULT_CANDIDATES = 4096;
    /** The most records per window. */
    public static final int MAX_RECORDS = 1 << 24;

    public SyntheticParameters {
        Require.nonNull("layout", layout);
        Require.nonNull("epsilon", epsilon);
        Require.nonNull("neighbour", neighbour);
        Require.positive("contributions", contributions);
        Require.nonNull("basis", basis);
        Require.nonNull("confidence", confidence);
        Require.inRange("records", records, 1, MAX_RECORDS);
        Require.inRange("candidates", candidates, 16, 1 << 16);
        Require.inRange("plannedReports", plannedReports, 1, Long.MAX_VALUE / 4);
    }

    /**
     * The defaults: identity basis, confidence 0.95, {@value #DEFAULT_RECORDS} records, {@value #DEFAULT_CANDIDATES}
     * candidates, planned for 10,000 reports.
     */
    public static SyntheticParameters of(MarginalLayout layout, Epsilon epsilon, NeighbourRelation neighbour,
            int contributions) {
        return new SyntheticParameters(layout, epsilon, neighbour, contributions, NoiseBasis.IDENTITY,
                ConfidenceLevel.of(0.95), DEFAULT_RECORDS, DEFAULT_CANDIDATES, 10_000);
    }

    public SyntheticParameters withBasis(NoiseBasis b) {
        return new SyntheticParameters(layout, epsilon, neighbour, contributions, b, confidence, records, candidates,
                plannedReports);
    }

    public SyntheticParameters withRecords(int n) {
        return new SyntheticParameters(layout, epsilon, neighbour, contributions, basis, confidence, n, candidates,
                plannedReports);
    }

    public SyntheticParameters withCandidates(int c) {
        return new SyntheticParameters(layout, epsilon, neighbour, contributions, basis, confidence, records, c,
                plannedReports);
    }

    public SyntheticParameters withPlannedReports(long n) {
        return new SyntheticParameters(layout, epsilon, neighbour, contributions, basis, confidence, records,
                candidates, n);
    }

    public SyntheticParameters withConfidence(ConfidenceLevel c) {
        return new SyntheticParameters(layout, epsilon, neighbour, contributions, basis, c, records, candidates,
                plannedReports);
    }
}
