package io.privacygateway.mechanisms.accounting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.param.Rho;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The accounting conversions and compositions at their edges (written against the mutants PIT found unchecked;
 * docs/mutation-testing.md): ρ = 0, the choice of the better Rényi order in the Canonne–Kamath–Steinke bound,
 * the Gaussian mechanism's ρ, a composed δ that reaches 1, and what each cost prints.
 */
class ZcdpConversionAndCompositionAtTheirLimitsTest {
    @Test
    void gaussianRhoIsSensitivitySquaredOverTwoSigmaSquaredRoundedUp() {
        assertThat(Conversions.gaussianRho(1.0, 1.0)).isEqualTo(0.5);
        assertThat(Conversions.gaussianRho(2.0, 4.0)).isEqualTo(0.125);
        double rho = Conversions.gaussianRho(1.0, 3.0);
        BigDecimal exact = BigDecimal.ONE.divide(new BigDecimal(18), java.math.MathContext.DECIMAL128);
        assertThat(new BigDecimal(rho)).isGreaterThanOrEqualTo(exact);
        assertThat(new BigDecimal(Math.nextDown(rho))).isLessThan(exact);
        assertThat(Conversions.gaussianRho(1.0, 0x1p-600)).isEqualTo(Double.POSITIVE_INFINITY);
    }

    @Test
    void zeroRhoConvertsToZeroEpsilonWithNoOrder() {
        Conversions.EpsilonBound b = Conversions.zcdpToEpsilonCks(0.0, LogDelta.ofDelta(1e-6));
        assertThat(b.epsilon()).isZero();
        assertThat(b.alphaMinusOne()).isNaN();
        assertThat(Conversions.zcdpToEpsilon(0.0, LogDelta.ofDelta(1e-6))).isZero();
    }

    /**
     * The bisection brackets the root of h(β) by two adjacent doubles and keeps the order with the smaller
     * (rounded-up) ε: the published ε is the bound at the returned order, and neither adjacent order is lower.
     */
    @Test
    void theCksBoundKeepsTheBetterOfTheTwoBracketingOrders() {
        for (double rho : new double[] {1e-6, 1e-3, 0.05, 0.5, 2.0, 30.0}) {
            for (double delta : new double[] {1e-12, 1e-6, 1e-3}) {
                LogDelta ld = LogDelta.ofDelta(delta);
                Conversions.EpsilonBound b = Conversions.zcdpToEpsilonCks(rho, ld);
                double beta = b.alphaMinusOne();
                double l = ld.logInverse();
                assertThat(b.epsilon()).as("ρ=%s δ=%s", rho, delta).isEqualTo(Math.max(0.0, Conversions.cksUp(rho, l, beta)));
                assertThat(b.epsilon()).isLessThanOrEqualTo(Math.max(0.0, Conversions.cksUp(rho, l, Math.nextUp(beta))));
                assertThat(b.epsilon()).isLessThanOrEqualTo(Math.max(0.0, Conversions.cksUp(rho, l, Math.nextDown(beta))));
                assertThat(b.epsilon()).isLessThanOrEqualTo(Conversions.zcdpToEpsilonStandard(rho, ld));
            }
        }
    }

    @Test
    void theLargestRhoIsBelowTheConversionOfMaxValueWhichIsInfinite() {
        LogDelta ld = LogDelta.ofDelta(1e-6);
        assertThat(Conversions.zcdpToEpsilon(Double.MAX_VALUE, ld)).isEqualTo(Double.POSITIVE_INFINITY);
        double rho = Conversions.largestRho(1.0, ld);
        assertThat(Conversions.zcdpToEpsilon(rho, ld)).isLessThanOrEqualTo(1.0);
        assertThat(Conversions.zcdpToEpsilon(Math.nextUp(rho), ld)).isGreaterThan(1.0);
        assertThat(Conversions.largestRho(1e300, ld)).isLessThan(Double.MAX_VALUE).isPositive();
    }

    @Test
    void aComposedDeltaOfExactlyOneIsRefusedByTheComposition() {
        // two costs with ln δ = −(ln 2 rounded up): ln(δ₁ + δ₂) is computed as −u + u = 0, i.e. δ = 1
        double u = Math.nextUp(StrictMath.log(2));
        PrivacyCost c = PrivacyCost.approximate(0.5, new LogDelta(-u));
        assertThatThrownBy(() -> Composition.composeBasic(List.of(c, c)))
                .hasMessageStartingWith("composed delta must be < 1");
    }

    @Test
    void costsPrintWhatTheyAre() {
        assertThat(PrivacyCost.pure(0.5).toString()).isEqualTo("Pure[ε=0.5]");
        assertThat(PrivacyCost.zcdp(0.25).toString()).isEqualTo("Zcdp[ρ=0.25]");
        assertThat(PrivacyCost.approximate(1.0, new LogDelta(-3.0)).toString()).isEqualTo("Approximate[ε=1.0, ln δ=-3.0]");
        assertThat(PrivacyCost.zcdp(Rho.of(0.125)).rho()).isEqualTo(0.125);
        assertThat(PrivacyCost.pure(Epsilon.of(2.0)).epsilon()).isEqualTo(2.0);
    }
}
