package io.privacygateway.mechanisms.planner;

import io.privacygateway.mechanisms.param.Alpha;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.workload.EpsilonSplit;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.WorkloadSpec;

/**
 * A concrete mechanism configuration the planner considers.
 *
 * @param id the mechanism
 * @param alpha α for coarse projection and chaining, else {@code null}
 * @param split the ε split for chaining, else {@code null}
 */
public record Candidate(MechanismId id, Alpha alpha, EpsilonSplit split) {

    /** A short human label, e.g. {@code chaining (α=1/8, optimal split)}. */
    public String label() {
        StringBuilder sb = new StringBuilder(id.wireName());
        if (alpha != null) {
            sb.append(" (α=").append(formatAlpha(alpha.value()));
            if (split != null) {
                sb.append(", ").append(split.wireName()).append(" split");
            }
            sb.append(')');
        }
        return sb.toString();
    }

    private static String formatAlpha(double a) {
        double inv = 1 / a;
        return inv == Math.rint(inv) ? "1/" + (long) inv : Double.toString(a);
    }

    /**
     * The spec resolved to this candidate for {@code epsilon} (per report in local mode, per release in
     * central mode) and {@code n} planned reports per window.
     */
    public WorkloadSpec apply(WorkloadSpec base, Epsilon epsilon, long n) {
        WorkloadSpec.Builder b = base.toBuilder().epsilonPerAnswer(epsilon).budgetAtLeastOneCharge().mechanism(id)
                .expectedReportsPerWindow(n);
        if (alpha != null) {
            b.alpha(alpha);
        }
        if (split != null) {
            b.epsilonSplit(split);
        }
        return b.build();
    }
}
