package io.privacygateway.mechanisms.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.param.LogDelta;
import org.junit.jupiter.api.Test;

/**
 * The two places where the CKS conversion meets a boundary exactly: the bisection for the minimising order when
 * h(β) = ρβ² + ln(1+β) − L is exactly 0.0 at a midpoint, and the two formulas for ln(1 − 1/α) at β = 1.
 */
class ConversionsBisectionTest {
    /**
     * The bisection's first midpoint is β = 1.5 (halfway between the bit patterns of the smallest and the largest
     * positive double). With L chosen so that h(1.5) is exactly 0.0 in the same floating-point evaluation, 1.5
     * belongs to the lower side (h ≤ 0), so the bracket is [1.5, nextUp(1.5)] and the bound is reported at 1.5
     * (ties go to the lower order). Treating h = 0 as the upper side would give the bracket [nextDown(1.5), 1.5]
     * and report nextDown(1.5).
     */
    @Test
    void anOrderWhereTheRootFunctionIsExactlyZeroIsTheLowerEndOfTheBracket() {
        double rho = 1.0;
        double beta = 1.5;
        double l = rho * beta * beta + StrictMath.log1p(beta);
        assertThat(rho * beta * beta + StrictMath.log1p(beta) - l).isZero();
        Conversions.EpsilonBound bound = Conversions.zcdpToEpsilonCks(rho, new LogDelta(-l));
        assertThat(bound.alphaMinusOne()).isEqualTo(1.5);
        assertThat(bound.epsilon()).isEqualTo(Conversions.cksUp(rho, l, 1.5));
        assertThat(Conversions.cksUp(rho, l, 1.5)).isLessThanOrEqualTo(Conversions.cksUp(rho, l, Math.nextUp(1.5)));
    }

    /**
     * At β = 1 the two formulas for ln(1 − 1/α) = ln(β/(1+β)) used by {@code cksUp} (ln β − ln(1+β) for β ≤ 1,
     * ln(1 − 1/(1+β)) above) give the same rounded-up value, bit for bit: StrictMath's ln(1+1) and −ln(1−½) are
     * the same double. So where the switch between them sits at β = 1 (≤ or <) does not change any result;
     * this test is the proof, and it fails if either formula's rounding changes.
     */
    @Test
    void bothFormulasForTheLogTermAgreeExactlyAtOrderTwo() {
        double fromSmallBetaFormula = DirectedRounding.subUp(DirectedRounding.logUp(1.0),
                DirectedRounding.log1pDown(1.0));
        double fromLargeBetaFormula = DirectedRounding.log1pUp(
                -DirectedRounding.divDown(1.0, DirectedRounding.addUp(1.0, 1.0)));
        assertThat(fromSmallBetaFormula).isEqualTo(fromLargeBetaFormula);
        for (double rho : new double[] {1e-6, 0.5, 3.0}) {
            double l = 7.0;
            double a = DirectedRounding.mulUp(2.0, rho);
            double b = DirectedRounding.divUp(DirectedRounding.subUp(l, DirectedRounding.log1pDown(1.0)), 1.0);
            assertThat(Conversions.cksUp(rho, l, 1.0))
                    .isEqualTo(DirectedRounding.addUp(DirectedRounding.addUp(a, b), fromLargeBetaFormula));
        }
    }
}
