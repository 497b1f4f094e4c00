package io.privacygateway.mechanisms.accounting;

import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.param.Require;
import java.util.ArrayList;
import java.util.List;

/**
 * The standard {@link Accountant}s. Each states its theorem; all are exact-then-rounded-up
 * ({@link Composition}, {@link Conversions}).
 */
public final class Accountants {
    private Accountants() {}

    /**
     * Basic composition of pure DP: {@code Pure(Σ ε_i)} (Dwork &amp; Roth 2014, Theorem 3.16). Accepts only
     * pure events.
     */
    public static Accountant basicPure() {
        return new Named("basic-pure") {
            @Override
            public PrivacyCost account(List<PrivacyEvent> events) {
                return Composition.composePure(costs(events));
            }
        };
    }

    /**
     * zCDP composition: {@code Zcdp(Σ ρ_i + Σ ε_j²/2)} (Bun &amp; Steinke 2016, Lemma 1.7 and Prop. 1.4).
     * Accepts pure and zCDP events.
     */
    public static Accountant zcdp() {
        return new Named("zcdp") {
            @Override
            public PrivacyCost account(List<PrivacyEvent> events) {
                return Composition.composeZcdp(costs(events));
            }
        };
    }

    /**
     * zCDP composition followed by conversion to (ε, δ) at the given δ with
     * {@link Conversions#zcdpToEpsilon} (the smaller of Bun &amp; Steinke Prop. 1.3 and Canonne, Kamath &amp;
     * Steinke 2020 Cor. 13). Accepts pure and zCDP events.
     *
     * @param target the δ of the reported guarantee (required)
     */
    public static Accountant zcdpConverted(LogDelta target) {
        Require.nonNull("target", target);
        return new Named("zcdp-to-approximate(ln delta=" + target.value() + ")") {
            @Override
            public PrivacyCost account(List<PrivacyEvent> events) {
                double rho = Composition.composeZcdp(costs(events)).rho();
                return new PrivacyCost.Approximate(Conversions.zcdpToEpsilon(rho, target), target);
            }
        };
    }

    /**
     * Basic composition of approximate DP: {@code (Σ ε_i, Σ δ_i)} (Dwork &amp; Roth 2014, Theorem 3.16);
     * pure events have δ = 0, and the result is {@link PrivacyCost.Pure} when no event has a δ. Accepts pure
     * and approximate events.
     */
    public static Accountant basicApproximate() {
        return new Named("basic-approximate") {
            @Override
            public PrivacyCost account(List<PrivacyEvent> events) {
                return Composition.composeBasic(costs(events));
            }
        };
    }

    private static List<PrivacyCost> costs(List<PrivacyEvent> events) {
        Require.nonNull("events", events);
        List<PrivacyCost> costs = new ArrayList<>(events.size());
        for (int i = 0; i < events.size(); i++) {
            costs.add(Require.nonNull("events[" + i + "]", events.get(i)).cost());
        }
        return costs;
    }

    private abstract static class Named implements Accountant {
        private final String name;

        Named(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String toString() {
            return "Accountant[" + name + "]";
        }
    }
}
