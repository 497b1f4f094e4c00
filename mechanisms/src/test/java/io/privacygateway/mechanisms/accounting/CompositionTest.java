package io.privacygateway.mechanisms.accounting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.param.LogDelta;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Composition arithmetic against hand-computed values. */
class CompositionTest {
    @Test
    void pureSumsAreExactThenRoundedUp() {
        assertThat(Composition.sumEpsilon(0.25, 0.25, 0.5)).isEqualTo(1.0);
        assertThat(Composition.sumEpsilon()).isZero();
        // Ten doubles 0.1 (each 0.1000000000000000055511151231257827…) sum exactly to
        // 1.000000000000000055511151231257827…, above 1: the conservative result is the next double.
        // (Naive left-to-right double addition gives 0.9999999999999999, below the truth.)
        double[] tenths = new double[10];
        java.util.Arrays.fill(tenths, 0.1);
        assertThat(Composition.sumEpsilon(tenths)).isEqualTo(Math.nextUp(1.0));
        double naive = 0;
        for (double x : tenths) {
            naive += x;
        }
        assertThat(naive).isLessThan(1.0);
        assertThat(Composition.sumRho(1e-12, 1e-12)).isEqualTo(2e-12);
        assertThatThrownBy(() -> Composition.sumEpsilon(1, Double.NaN)).hasMessageContaining("epsilon[1]").hasMessageContaining("NaN");
        assertThatThrownBy(() -> Composition.sumRho(-1)).hasMessageContaining("rho[0]").hasMessageContaining("-1.0");
    }

    /** An exact ε account (a sum of doubles kept in BigDecimal) becomes one pure guarantee, rounded up once. */
    @Test
    void anExactTotalIsRoundedUpOnceToAPureGuarantee() {
        BigDecimal exact = new BigDecimal(0.1).add(new BigDecimal(0.2)); // 0.1 + 0.2 exactly, not a double
        PrivacyCost.Pure total = Composition.pureTotal(exact);
        assertThat(new BigDecimal(total.epsilon())).isGreaterThanOrEqualTo(exact);
        assertThat(new BigDecimal(Math.nextDown(total.epsilon()))).isLessThan(exact); // the smallest such double
        assertThat(total.epsilon()).isEqualTo(Composition.sumEpsilon(0.1, 0.2));
        assertThat(Composition.pureTotal(BigDecimal.ZERO).epsilon()).isZero();
        assertThat(Composition.pureTotal(new BigDecimal("1.5")).epsilon()).isEqualTo(1.5);
        assertThatThrownBy(() -> Composition.pureTotal(new BigDecimal("-1"))).hasMessageContaining("exactEpsilon");
        assertThatThrownBy(() -> Composition.pureTotal(null)).hasMessageContaining("exactEpsilon");
    }

    @Test
    void mixedCostsUnderZcdpComposition() {
        // Pure ε = 1 → ρ = 1²/2 = 0.5; zCDP ρ = 0.25; pure ε = 0.5 → 0.125; Gaussian Δ = 1, σ = 2 → 1/8 = 0.125.
        // Total ρ = 0.5 + 0.25 + 0.125 + 0.125 = 1.0, exactly.
        List<PrivacyCost> costs = List.of(new PrivacyCost.Pure(1), new PrivacyCost.Zcdp(0.25), new PrivacyCost.Pure(0.5),
                new PrivacyCost.Zcdp(Conversions.gaussianRho(1, 2)));
        PrivacyCost.Zcdp total = Composition.composeZcdp(costs);
        assertThat(total).isEqualTo(new PrivacyCost.Zcdp(1.0));
        // Converted at δ = 1/e (L = 1): standard gives 1 + 2·√1 = 3; CKS is tighter.
        LogDelta d = new LogDelta(-1);
        assertThat(Conversions.zcdpToEpsilon(total.rho(), d)).isLessThan(3.0);
        // Basic pure composition refuses the zCDP costs, naming the first one.
        assertThatThrownBy(() -> Composition.composePure(costs))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("costs[1]").hasMessageContaining("zcdp");
        assertThat(Composition.composePure(List.of(costs.get(0), costs.get(2)))).isEqualTo(new PrivacyCost.Pure(1.5));
    }

    @Test
    void basicApproximateCompositionAddsDeltasInLogSpace() {
        // ε: 1 + 0.5 + 0.25 = 1.75. δ: e^{-13} + e^{-13} = 2e^{-13}, ln = −13 + ln 2 = −12.306852819440055.
        List<PrivacyCost> costs = List.of(new PrivacyCost.Pure(1), new PrivacyCost.Approximate(0.5, new LogDelta(-13)),
                new PrivacyCost.Approximate(0.25, new LogDelta(-13)));
        PrivacyCost.Approximate total = (PrivacyCost.Approximate) Composition.composeBasic(costs);
        assertThat(total.epsilon()).isEqualTo(1.75);
        BigDecimal exact = BigDecimal.valueOf(-13).add(BigMath.ln(BigDecimal.valueOf(2)));
        assertThat(new BigDecimal(total.logDelta().value())).isGreaterThanOrEqualTo(exact)
                .isLessThanOrEqualTo(exact.add(new BigDecimal("1e-13")));

        // Deltas far below the double range: e^{-5000} + e^{-5001}: ln = −5000 + ln(1 + e^{-1}).
        PrivacyCost tiny = Composition.composeBasic(List.of(
                new PrivacyCost.Approximate(0, new LogDelta(-5000)), new PrivacyCost.Approximate(0, new LogDelta(-5001))));
        BigDecimal exactTiny = BigDecimal.valueOf(-5000).add(BigMath.ln(BigDecimal.ONE.add(BigMath.exp(BigDecimal.ONE.negate()))));
        double lnTiny = ((PrivacyCost.Approximate) tiny).logDelta().value();
        assertThat(new BigDecimal(lnTiny)).isGreaterThanOrEqualTo(exactTiny)
                .isLessThanOrEqualTo(exactTiny.add(new BigDecimal("1e-11")));

        // Only pure costs: δ = 0, reported as pure. Composed δ >= 1 has no guarantee: refused.
        assertThat(Composition.composeBasic(List.of(new PrivacyCost.Pure(2)))).isEqualTo(new PrivacyCost.Pure(2));
        assertThatThrownBy(() -> Composition.composeBasic(List.of(
                new PrivacyCost.Approximate(0, LogDelta.ofDelta(0.6)), new PrivacyCost.Approximate(0, LogDelta.ofDelta(0.6)))))
                .hasMessageContaining("delta");
        assertThatThrownBy(() -> Composition.composeBasic(List.of(new PrivacyCost.Zcdp(1))))
                .hasMessageContaining("costs[0]").hasMessageContaining("convert zCDP first");
        assertThatThrownBy(() -> Composition.composeZcdp(List.of(new PrivacyCost.Pure(1), new PrivacyCost.Approximate(1, new LogDelta(-5)))))
                .hasMessageContaining("costs[1]");
    }

    @Test
    void nothingComposedCostsNothing() {
        assertThat(Composition.composePure(List.of())).isEqualTo(new PrivacyCost.Pure(0));
        assertThat(Composition.composeZcdp(List.of())).isEqualTo(new PrivacyCost.Zcdp(0));
        assertThat(Composition.composeBasic(List.of())).isEqualTo(new PrivacyCost.Pure(0));
        assertThatThrownBy(() -> Composition.composeZcdp(null)).hasMessageContaining("costs");
    }

    @Test
    void zcdpSumOfPureCostsIsExactSquareOverTwoRoundedUp() {
        // 0.1²/2 exactly is 0.005000000000000000555…; three of them 0.015000000000000001665…;
        // the result is the smallest double not below that.
        PrivacyCost.Zcdp z = Composition.composeZcdp(List.of(
                new PrivacyCost.Pure(0.1), new PrivacyCost.Pure(0.1), new PrivacyCost.Pure(0.1)));
        BigDecimal tenth = new BigDecimal(0.1);
        BigDecimal exact = tenth.multiply(tenth).multiply(new BigDecimal("1.5"));
        assertThat(new BigDecimal(z.rho())).isGreaterThanOrEqualTo(exact);
        assertThat(new BigDecimal(Math.nextDown(z.rho()))).isLessThan(exact);
    }
}
