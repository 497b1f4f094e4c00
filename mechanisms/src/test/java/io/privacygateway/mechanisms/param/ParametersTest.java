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
    @ValueSource(doubles = {Double.MIN_VALUE, 1e-9, 0.5, 1, 4, 40})
    void epsilonAcceptsRange(double ok) {
        assertThat(new Epsilon(ok).value()).isEqualTo(ok);
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
        assertThat(new ConfidenceLevel(0.95).twoSidedZ()).isCloseTo(1.959964, org.assertj.core.data.Offset.offset(1e-6));
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
    void compositionRoundsUpOnlyWhenInexact() {
        assertThat(new Epsilon(0.5).plus(new Epsilon(1.0)).value()).isEqualTo(1.5);
        double s = new Epsilon(0.1).plus(new Epsilon(0.2)).value();
        assertThat(new BigDecimal(s)).isGreaterThanOrEqualTo(new BigDecimal(0.1).add(new BigDecimal(0.2)));
        assertThat(new Rho(1e-3).plus(new Rho(3e-20)).value()).isGreaterThan(1e-3);
    }
}
