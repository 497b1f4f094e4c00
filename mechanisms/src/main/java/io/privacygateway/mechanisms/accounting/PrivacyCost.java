package io.privacygateway.mechanisms.accounting;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.param.Rho;

/**
 * A privacy guarantee, either the cost one mechanism run consumed or the composed total of many runs.
 *
 * <ul>
 *   <li>{@link Pure}: ε-differential privacy (δ = 0): for neighbouring inputs and every output set the
 *       probability ratio is at most {@code e^ε}.</li>
 *   <li>{@link Zcdp}: ρ-zero-concentrated DP (Bun &amp; Steinke 2016, Def. 1.1): for every Rényi order
 *       {@code α > 1}, {@code D_α(M(x) || M(x')) ≤ ρ·α}.</li>
 *   <li>{@link Approximate}: (ε, δ)-DP, with δ carried as {@link LogDelta} ({@code ln δ}) because the values
 *       purification needs are far below the smallest positive double (MECHANISMS.md §4).</li>
 * </ul>
 *
 * <p>Preconditions, checked at construction: ε and ρ are finite and {@code >= 0} (0 is the guarantee of
 * doing nothing, the total of an empty composition; {@code -0.0} is normalised to {@code 0.0}); δ is in
 * {@code (0, 1)}, i.e. {@code ln δ} finite and {@code < 0} (checked by {@link LogDelta}). There is no upper
 * cap here, because composed totals may exceed the per-mechanism cap {@link Epsilon#MAX}; budgets are
 * checked by {@link io.privacygateway.mechanisms.budget.BudgetLedger}. Messages name the field and the bad value.
 */
public sealed interface PrivacyCost permits PrivacyCost.Pure, PrivacyCost.Zcdp, PrivacyCost.Approximate {

    /** Stable short name of the kind, used in messages ("pure", "zcdp", "approximate"). */
    String kind();

    /**
     * Pure ε-DP.
     *
     * @param epsilon the privacy loss bound, finite and {@code >= 0}
     */
    record Pure(double epsilon) implements PrivacyCost {
        public Pure {
            Require.finiteNonNegative("epsilon", epsilon);
            epsilon += 0.0; // -0.0 -> 0.0
        }

        @Override
        public String kind() {
            return "pure";
        }

        @Override
        public String toString() {
            return "Pure[ε=" + epsilon + "]";
        }
    }

    /**
     * ρ-zCDP (Bun &amp; Steinke 2016).
     *
     * @param rho the zCDP parameter, finite and {@code >= 0}
     */
    record Zcdp(double rho) implements PrivacyCost {
        public Zcdp {
            Require.finiteNonNegative("rho", rho);
            rho += 0.0;
        }

        @Override
        public String kind() {
            return "zcdp";
        }

        @Override
        public String toString() {
            return "Zcdp[ρ=" + rho + "]";
        }
    }

    /**
     * Approximate (ε, δ)-DP.
     *
     * @param epsilon finite and {@code >= 0}
     * @param logDelta {@code ln δ}, required (finite and {@code < 0} by construction of {@link LogDelta})
     */
    record Approximate(double epsilon, LogDelta logDelta) implements PrivacyCost {
        public Approximate {
            Require.finiteNonNegative("epsilon", epsilon);
            Require.nonNull("logDelta", logDelta);
            epsilon += 0.0;
        }

        @Override
        public String kind() {
            return "approximate";
        }

        @Override
        public String toString() {
            return "Approximate[ε=" + epsilon + ", ln δ=" + logDelta.value() + "]";
        }
    }

    static Pure pure(double epsilon) {
        return new Pure(epsilon);
    }

    static Pure pure(Epsilon epsilon) {
        return new Pure(Require.nonNull("epsilon", epsilon).value());
    }

    static Zcdp zcdp(double rho) {
        return new Zcdp(rho);
    }

    static Zcdp zcdp(Rho rho) {
        return new Zcdp(Require.nonNull("rho", rho).value());
    }

    static Approximate approximate(double epsilon, LogDelta logDelta) {
        return new Approximate(epsilon, logDelta);
    }
}
