package io.privacygateway.mechanisms.param;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The parameter value objects at their edges: the exact rounding of ρ sums, the certified lower bound of
 * {@code e^x} against 60 known digits of e, validation messages that name the field, and the accessors and
 * value semantics that the rest of the code relies on (written against the mutants PIT found unchecked; see
 * docs/mutation-testing.md).
 */
class ParameterValueSemanticsAndValidationTest {
    /** e to 60 significant digits. */
    private static final BigDecimal E = new BigDecimal("2.71828182845904523536028747135266249775724709369995957496697");

    @Test
    void rhoSumsAreTheExactSumRoundedUpAndExactSumsStayExact() {
        SplittableRandom r = new SplittableRandom(11);
        for (int i = 0; i < 5_000; i++) {
            double a = r.nextDouble() * Math.pow(2, r.nextInt(-30, 30));
            double b = r.nextDouble() * Math.pow(2, r.nextInt(-30, 30));
            double s = Rho.sumRoundedUp(a, b);
            BigDecimal exact = new BigDecimal(a).add(new BigDecimal(b));
            assertThat(s).as("%s + %s", a, b).isEqualTo(DirectedDoubles.ceil(exact));
        }
        assertThat(Rho.sumRoundedUp(1.0, 2.0)).isEqualTo(3.0);
        assertThat(Rho.sumRoundedUp(0.1, 0.2)).isEqualTo(DirectedDoubles.ceil(new BigDecimal(0.1).add(new BigDecimal(0.2))));
        assertThat(Rho.of(0.5).plus(Rho.of(0.25)).value()).isEqualTo(0.75);
    }

    @Test
    void rhoOrdersByValueAndPrintsIt() {
        assertThat(Rho.of(0.5).compareTo(Rho.of(0.25))).isPositive();
        assertThat(Rho.of(0.25).compareTo(Rho.of(0.5))).isNegative();
        assertThat(Rho.of(0.5).compareTo(Rho.of(0.5))).isZero();
        assertThat(Rho.of(0.5).toString()).isEqualTo("ρ=0.5");
    }

    @Test
    void theCertifiedLowerBoundOfEIsBelowEAndCorrectToTheDigitsAsked() {
        for (int digits : new int[] {10, 20, 40}) {
            BigDecimal lower = ExpBounds.lowerBoundExact(1.0, digits);
            assertThat(lower).isLessThanOrEqualTo(E);
            BigDecimal gap = E.subtract(lower);
            assertThat(gap).as("digits %d", digits)
                    .isLessThan(BigDecimal.ONE.movePointLeft(digits + 2)); // comfortably inside the precision asked
        }
        assertThat(ExpBounds.lowerBoundExact(0.0, 40)).isEqualByComparingTo(BigDecimal.ONE);
        // e^2 = e·e: the bound of e^2 is below (e_hi)^2 and above (e_lo)^2 minus the precision
        BigDecimal e2 = E.multiply(E, MathContext.DECIMAL128);
        BigDecimal lower2 = ExpBounds.lowerBoundExact(2.0, 30);
        assertThat(lower2).isLessThanOrEqualTo(e2.add(BigDecimal.ONE.movePointLeft(32)));
        assertThat(e2.subtract(lower2).abs()).isLessThan(BigDecimal.ONE.movePointLeft(29));
        // a large exponent still ends, below the true value
        BigDecimal big = ExpBounds.lowerBoundExact(700, 10);
        assertThat(big.doubleValue()).isLessThanOrEqualTo(Math.exp(700) * (1 + 1e-15)).isGreaterThan(Math.exp(700) * (1 - 1e-9));
        assertThatThrownBy(() -> ExpBounds.lowerBoundExact(-0.5, 10)).hasMessageContaining("x must be");
        assertThatThrownBy(() -> ExpBounds.lowerBoundExact(700.5, 10)).hasMessageContaining("x must be");
        assertThatThrownBy(() -> ExpBounds.lowerBoundExact(Double.NaN, 10)).hasMessageContaining("x must be");
        assertThatThrownBy(() -> ExpBounds.lowerBoundExact(1, 0)).hasMessageContaining("digits");
    }

    @Test
    void doubleBoundsOfTheExponentialBracketIt() {
        for (double x : new double[] {-3, 0, 0.5, 1, 7.25}) {
            BigDecimal exp = new BigDecimal(Math.exp(x));
            assertThat(ExpBounds.lower(x)).isLessThan(Math.exp(x)).isGreaterThan(Math.exp(x) * (1 - 1e-14));
            assertThat(ExpBounds.upper(x)).isGreaterThan(Math.exp(x)).isLessThan(Math.exp(x) * (1 + 1e-14));
            assertThat(new BigDecimal(ExpBounds.lower(x))).isLessThan(exp);
        }
        assertThat(new BigDecimal(ExpBounds.lower(1.0))).isLessThan(E);
        assertThat(new BigDecimal(ExpBounds.upper(1.0))).isGreaterThan(E);
    }

    @Test
    void epsilonRefusesZeroAndAboveTheMaximumNamingTheField() {
        assertThatThrownBy(() -> Epsilon.exactly("budget.epsilon", BigDecimal.ZERO))
                .hasMessage("budget.epsilon must be in (0, 40.0], got 0");
        assertThatThrownBy(() -> Epsilon.exactly("budget.epsilon", new BigDecimal("-1")))
                .hasMessageStartingWith("budget.epsilon must be in (0, 40.0]");
        assertThat(Epsilon.exactly("e", new BigDecimal("40")).value()).isEqualTo(40.0);
        assertThatThrownBy(() -> Epsilon.exactly("e", new BigDecimal("40.0000000001")))
                .hasMessageStartingWith("e must be in (0, 40.0]");
        assertThatThrownBy(() -> Epsilon.of("reports.epsilon", 0.0)).hasMessageStartingWith("reports.epsilon must be");
        assertThat(Epsilon.of("reports.epsilon", 0.25).exact()).isEqualByComparingTo("0.25");
    }

    @Test
    void epsilonValueSemantics() {
        Epsilon a = Epsilon.of(0.1);
        assertThat(a).isEqualTo(Epsilon.exactly(new BigDecimal("0.100")));
        assertThat(a.hashCode()).isEqualTo(Epsilon.exactly(new BigDecimal("0.100")).hashCode());
        assertThat(a).isNotEqualTo(Epsilon.of(0.2)).isNotEqualTo("0.1");
        assertThat(a.hashCode()).isNotEqualTo(Epsilon.of(0.2).hashCode());
        assertThat(a.toString()).isEqualTo("ε=0.1");
        assertThat(a.compareTo(Epsilon.of(0.2))).isNegative();
        assertThat(Epsilon.of(0.2).compareTo(a)).isPositive();
        assertThat(a.compareTo(Epsilon.exactly(new BigDecimal("0.10")))).isZero();
        assertThat(Require.positive("n", 3)).isEqualTo(3);
        assertThat(ConfidenceLevel.of(0.9).beta()).isCloseTo(0.1, org.assertj.core.data.Offset.offset(1e-15));
        assertThat(Alpha.of(0.5).value()).isEqualTo(0.5);
        assertThat(Epsilon.of(1.0).exp()).isEqualTo(StrictMath.exp(1.0)).isCloseTo(Math.E, within(1e-15));
        assertThat(Epsilon.of(2.0).exp()).isEqualTo(StrictMath.exp(2.0));
    }

    @Test
    void requireReturnsTheValueItCheckedAndNamesTheField() {
        assertThat(Require.inHalfOpenRange("f", 0.75, 0.5, 1.0)).isEqualTo(0.75);
        assertThat(Require.inHalfOpenRange("f", 1.0, 0.5, 1.0)).isEqualTo(1.0);
        assertThatThrownBy(() -> Require.inHalfOpenRange("f", 0.5, 0.5, 1.0)).hasMessageStartingWith("f must be");
        assertThatThrownBy(() -> Require.nonBlank("name", null)).hasMessage("name must be a non-empty string, got nothing");
        assertThatThrownBy(() -> Require.nonBlank("name", "  ")).hasMessage("name must be a non-empty string, got \"  \"");
        assertThat(Require.nonBlank("name", "x")).isEqualTo("x");
    }

    @Test
    void logDeltaGivesDeltaBackAndPrintsItsLogarithm() {
        LogDelta d = LogDelta.ofDelta(1e-6);
        assertThat(d.delta()).isCloseTo(1e-6, org.assertj.core.data.Offset.offset(1e-20));
        assertThat(new LogDelta(-2.0).delta()).isEqualTo(StrictMath.exp(-2.0));
        assertThat(new LogDelta(-2.0).toString()).isEqualTo("ln δ=-2.0");
    }
}
