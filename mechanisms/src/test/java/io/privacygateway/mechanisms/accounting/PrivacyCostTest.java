package io.privacygateway.mechanisms.accounting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.param.Rho;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Boundary tests for every validated field of {@link PrivacyCost}. */
class PrivacyCostTest {
    private static final Instant T = Instant.parse("2024-05-01T12:00:00Z");
    private static final LogDelta LD = new LogDelta(-13.8);

    @ParameterizedTest
    @ValueSource(doubles = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -1, -Double.MIN_VALUE})
    void costValuesMustBeFiniteAndNonNegative(double bad) {
        assertThatThrownBy(() -> new PrivacyCost.Pure(bad)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("epsilon").hasMessageContaining(String.valueOf(bad));
        assertThatThrownBy(() -> new PrivacyCost.Zcdp(bad)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rho").hasMessageContaining(String.valueOf(bad));
        assertThatThrownBy(() -> new PrivacyCost.Approximate(bad, LD)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("epsilon").hasMessageContaining(String.valueOf(bad));
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.0, Double.MIN_VALUE, 1e-12, 1, 40, 1e300, Double.MAX_VALUE})
    void costValuesAcceptZeroAndExtremes(double ok) {
        assertThat(new PrivacyCost.Pure(ok).epsilon()).isEqualTo(ok);
        assertThat(new PrivacyCost.Zcdp(ok).rho()).isEqualTo(ok);
        assertThat(new PrivacyCost.Approximate(ok, LD).epsilon()).isEqualTo(ok);
    }

    @Test
    void negativeZeroIsNormalised() {
        assertThat(new PrivacyCost.Pure(-0.0)).isEqualTo(new PrivacyCost.Pure(0.0));
        assertThat(Double.doubleToRawLongBits(new PrivacyCost.Zcdp(-0.0).rho())).isZero();
        assertThat(Double.doubleToRawLongBits(new PrivacyCost.Approximate(-0.0, LD).epsilon())).isZero();
    }

    @Test
    void approximateNeedsLogDeltaAndFactoriesCheckNull() {
        assertThatThrownBy(() -> new PrivacyCost.Approximate(1, null)).hasMessageContaining("logDelta");
        assertThatThrownBy(() -> PrivacyCost.pure((Epsilon) null)).hasMessageContaining("epsilon");
        assertThatThrownBy(() -> PrivacyCost.zcdp((Rho) null)).hasMessageContaining("rho");
        assertThat(PrivacyCost.pure(Epsilon.of(0.5))).isEqualTo(new PrivacyCost.Pure(0.5));
        assertThat(PrivacyCost.zcdp(Rho.of(0.5))).isEqualTo(new PrivacyCost.Zcdp(0.5));
        assertThat(PrivacyCost.approximate(1, LD).logDelta()).isEqualTo(LD);
        // ln δ itself is validated by LogDelta (δ must be in (0, 1)): here the extreme −5000 is fine.
        assertThat(new PrivacyCost.Approximate(1, new LogDelta(-5000)).logDelta().logInverse()).isEqualTo(5000);
        assertThat(new PrivacyCost.Pure(1).kind()).isEqualTo("pure");
        assertThat(new PrivacyCost.Zcdp(1).kind()).isEqualTo("zcdp");
        assertThat(new PrivacyCost.Approximate(1, LD).kind()).isEqualTo("approximate");
    }

}
