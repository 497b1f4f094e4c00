package io.privacygateway.mechanisms.central;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/**
 * The central release's privacy arithmetic at its edges (written against the mutants PIT found unchecked;
 * docs/mutation-testing.md): a split whose last weight is 0, a split that leaves nothing for its last part,
 * noise parameters from a zero numerator or denominator, and what an analytics release's parameters report.
 */
class CentralSplitsAndNoiseParametersAtTheirLimitsTest {
    @Test
    void aLastWeightOfZeroGetsNothingEvenWhenARemainderIsLeft() {
        assertThat(PrivacySplit.split(1.0, 0.5, 0.0)).containsExactly(0.5, 0.0);
        assertThat(PrivacySplit.split(1.0, 0.5, 0.5)).containsExactly(0.5, 0.5);
    }

    @Test
    void aSplitThatLeavesNoRemainderForItsLastPartIsRefused() {
        assertThatThrownBy(() -> PrivacySplit.split(1.0, 1.0, 0.5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("weights leave no remainder for the last part");
    }

    @Test
    void noiseParametersNeedAPositiveNumeratorAndDenominator() {
        assertThatThrownBy(() -> PrivacySplit.dyadicUp(BigDecimal.ZERO, BigDecimal.ONE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("quotient of positive numbers");
        assertThatThrownBy(() -> PrivacySplit.dyadicUp(BigDecimal.ONE, BigDecimal.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("quotient of positive numbers");
        assertThat(PrivacySplit.dyadicUp(BigDecimal.ONE, new BigDecimal(4))).isEqualTo(Rational.of(1 << 18, 1 << 20));
    }

    @Test
    void analyticsParametersReportTheirGuaranteeAndPredictedError() {
        PrivacyCost.Pure total = new PrivacyCost.Pure(1.5);
        CentralParameters.Analytics a = new CentralParameters.Analytics(MechanismId.values()[0], 0.25, total, 0.125);
        assertThat(a.cost()).isSameAs(total);
        assertThat(a.predictedRms()).isEqualTo(0.125);
    }
}
