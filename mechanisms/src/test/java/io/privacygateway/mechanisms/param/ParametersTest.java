package io.privacygateway.mechanisms.param;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ParametersTest {

    @ParameterizedTest
    @ValueSource(doubles = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.0, -0.0, -1.0, 40.0001, 1e300})
    void epsilonRejectsBadValuesAndShowsThem(double bad) {
        assertThatThrownBy(() -> new Epsilon(bad))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("epsilon")
                .hasMessageContaining(String.valueOf(bad));
    }

    @ParameterizedTest
    @ValueSource(doubles = {1e-300, 1e-9, 0.5, 1, 4, 40})
    void epsilonAcceptsRange(double ok) {
        Epsilon e = new Epsilon(ok);
        assertThat(e.exact()).isEqualByComparingTo(Double.toString(ok));
        assertThat(e.value()).isLessThanOrEqualTo(ok).isGreaterThan(Math.nextDown(Math.nextDown(ok)));
    }

    @ParameterizedTest
    @ValueSource(doubles = {Double.NaN, Double.POSITIVE_INFINITY, 0.0, -2})
    void rhoRejectsBadValues(double bad) {
        assertThatThrownBy(() -> new Rho(bad)).hasMessageContaining("rho").hasMessageContaining(String.valueOf(bad));
    }

    @ParameterizedTest
    @ValueSource(doubles = {Double.NaN, Double.NEGATIVE_INFINITY, 0.0, 1e-3, Double.POSITIVE_INFINITY})
    void logDeltaMustBeFiniteNegative(double bad) {
        assertThatThrownBy(() -> new LogDelta(bad)).hasMessageContaining(String.valueOf(bad));
    }

    @Test
    void logDeltaCarriesValuesBelowDoubleRange() {
        LogDelta d = new LogDelta(-5000);
        assertThat(d.delta()).isZero();
        assertThat(d.logInverse()).isEqualTo(5000);
        assertThatThrownBy(() -> LogDelta.ofDelta(0)).hasMessageContaining("delta");
        assertThatThrownBy(() -> LogDelta.ofDelta(1)).hasMessageContaining("delta");
    }

    @ParameterizedTest
    @ValueSource(doubles = {Double.NaN, 0, 1, -0.5, 1.5, Double.POSITIVE_INFINITY})
    void confidenceAndAlphaAreOpenUnitInterval(double bad) {
        assertThatThrownBy(() -> new ConfidenceLevel(bad)).hasMessageContaining("confidence");
        assertThatThrownBy(() -> new Alpha(bad)).hasMessageContaining("alpha");
    }

    @Test
    void confidenceQuantile() {
        assertThat(io.privacygateway.mechanisms.release.Confidence.twoSidedZ(new ConfidenceLevel(0.95))).isCloseTo(1.959964, org.assertj.core.data.Offset.offset(1e-6));
    }

    @Test
    void chainingLevelsFollowLemma42() {
        assertThat(new Alpha(0.5).chainingLevels()).isEqualTo(2);
        assertThat(new Alpha(0.25).chainingLevels()).isEqualTo(3);
        assertThat(new Alpha(0.1).chainingLevels()).isEqualTo(5);
        assertThat(new Alpha(0.99).chainingLevels()).isEqualTo(2);
    }

    @Test
    void expBoundsBracketTheExactValue() {
        for (double x : new double[] {1e-6, 0.1, 0.5, 1, 2, 4, 10, 39.9}) {
            BigDecimal exact = ExpBounds.lowerBoundExact(x, 40);
            assertThat(new BigDecimal(ExpBounds.lower(x))).isLessThan(exact);
            // upper bound above the exact value: exact lower bound + a tiny tail is still below upper
            assertThat(new BigDecimal(ExpBounds.upper(x))).isGreaterThan(exact);
        }
    }

    @Test
    void compositionIsExactInTheDeclaredDecimals() {
        assertThat(new Epsilon(0.5).plus(new Epsilon(1.0)).value()).isEqualTo(1.5);
        Epsilon sum = new Epsilon(0.1).plus(new Epsilon(0.2));
        assertThat(sum.exact()).isEqualByComparingTo("0.3");
        assertThat(sum).isEqualTo(new Epsilon(0.3));
        assertThat(new Rho(1e-3).plus(new Rho(3e-20)).value()).isGreaterThan(1e-3);
    }

    @Test
    void theComputedValueNeverExceedsTheDeclaredDecimal() {
        for (double d : new double[] {0.1, 0.2, 0.3, 1.0 / 3, 0.7, 1, 1.1, 2.5, 3.3, 39.9, 40, 1e-9}) {
            Epsilon e = new Epsilon(d);
            assertThat(e.exact()).isEqualByComparingTo(Double.toString(d));
            assertThat(new BigDecimal(e.value())).isLessThanOrEqualTo(e.exact());
            assertThat(Math.nextUp(e.value()) > d || new BigDecimal(Math.nextUp(e.value())).compareTo(e.exact()) > 0)
                    .as("value is the largest double not above the decimal").isTrue();
        }
        assertThat(new Epsilon(0.1).value()).isEqualTo(Math.nextDown(0.1)); // the double 0.1 is above one tenth
        assertThat(new Epsilon(0.5).value()).isEqualTo(0.5);
    }

    @Test
    void sumsAreExactSoBudgetsAreNeitherOverNorUnderCounted() {
        Epsilon tenth = new Epsilon(0.1);
        assertThat(Epsilon.sum(java.util.List.of(tenth, tenth, tenth))).isEqualByComparingTo("0.3");
        Epsilon third = new Epsilon(1.0 / 3 + 1e-13);
        assertThat(Epsilon.sum(java.util.List.of(third, third, third)).compareTo(BigDecimal.ONE)).isPositive();
        assertThatThrownBy(() -> Epsilon.exactly(new BigDecimal("40.0000000001")))
                .hasMessageContaining("epsilon");
        assertThatThrownBy(() -> Epsilon.exactly(BigDecimal.ZERO)).hasMessageContaining("epsilon");
    }
}
