package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Construction of the frequency oracles by {@link MechanismId}, with each oracle's optimal parameters (the
 * planner's variance predictions are the gateway's: {@code FrequencyOracleEstimator}).
 */
public final class FrequencyOracles {
    /** The mechanisms this package implements. */
    public static final Set<MechanismId> SUPPORTED = Set.copyOf(EnumSet.of(MechanismId.GRR, MechanismId.OUE,
            MechanismId.OLH, MechanismId.SUBSET_SELECTION, MechanismId.HADAMARD_RESPONSE, MechanismId.TREE));

    private FrequencyOracles() {}

    /**
     * The oracle {@code id} over {@code [0, domainSize)} with its optimal parameters: GRR; OUE
     * ({@code p = 1/2, q = 1/(e^ε+1)}); OLH ({@code g = round(e^ε+1)}); subset selection
     * ({@link SubsetSelection#optimalSubsetSize}); Hadamard response ({@code K} = smallest power of two
     * {@code > k}); tree ({@code domainSize} ordered buckets, {@link TreeMechanism#optimalBranching}).
     *
     * @throws IllegalArgumentException if {@code id} is not a frequency oracle, or a parameter is invalid
     */
    public static FrequencyOracle create(MechanismId id, int domainSize, Epsilon epsilon) {
        Require.nonNull("mechanism", id);
        Require.nonNull("epsilon", epsilon);
        return switch (id) {
            case GRR -> new GeneralizedRandomizedResponse(domainSize, epsilon);
            case OUE -> new OptimizedUnaryEncoding(domainSize, epsilon);
            case OLH -> new OptimizedLocalHashing(domainSize, epsilon);
            case SUBSET_SELECTION -> new SubsetSelection(domainSize, epsilon);
            case HADAMARD_RESPONSE -> new HadamardResponse(domainSize, epsilon);
            case TREE -> new TreeMechanism(domainSize, epsilon);
            default -> throw new IllegalArgumentException("mechanism must be one of " + SUPPORTED.stream()
                    .map(MechanismId::wireName).sorted().collect(Collectors.toList()) + ", got " + id.wireName());
        };
    }

    /** Whether {@code id} is a frequency oracle of this package. */
    public static boolean supports(MechanismId id) {
        return SUPPORTED.contains(id);
    }

    static double[] uniform(int k) {
        double[] f = new double[k];
        Arrays.fill(f, 1.0 / k);
        return f;
    }
}
