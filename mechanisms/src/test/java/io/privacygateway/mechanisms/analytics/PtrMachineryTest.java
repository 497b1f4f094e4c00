package io.privacygateway.mechanisms.analytics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.accounting.BigMath;
import io.privacygateway.mechanisms.analytics.ptr.DistanceTest;
import io.privacygateway.mechanisms.analytics.ptr.SensitivityBoundRelease;
import io.privacygateway.mechanisms.central.purification.Purifier;
import io.privacygateway.mechanisms.central.sampling.LqNorm;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** The reusable propose-test-release pieces: the test's planning figures and Algorithm 11's tail offset. */
class PtrMachineryTest {

    @Test
    void theTestsPassProbabilityAndDistanceForAgree() {
        DistanceTest t = new DistanceTest(1, 25);
        double last = 0;
        for (long d = 0; d < 60; d++) {
            double p = t.passProbability(d);
            assertThat(p).isGreaterThanOrEqualTo(last);
            last = p;
        }
        long d = t.distanceFor(0.9);
        assertThat(t.passProbability(d)).isGreaterThanOrEqualTo(0.9);
        assertThat(t.passProbability(d - 1)).isLessThan(0.9);
        // 20 000 seeded tests at the distance where P(pass) ≈ 0.9: within 6 standard deviations (false failure < 1e-8)
        SeededRandomBits bits = new SeededRandomBits(3);
        int passed = 0;
        for (int i = 0; i < 20_000; i++) {
            passed += t.passes(d, bits) ? 1 : 0;
        }
        double p = t.passProbability(d);
        assertThat(Math.abs(passed - 20_000 * p)).isLessThan(6 * Math.sqrt(20_000 * p * (1 - p)));
        assertThatThrownBy(() -> new DistanceTest(1, 0)).hasMessageContaining("threshold");
    }

    @Test
    void algorithmElevensOffsetMakesAnUnderstatedBoundADeltaEvent() {
        LogDelta ld = new LogDelta(-30);
        Purifier pur = new Purifier(LqNorm.L2, new double[2], 4, Epsilon.of(1), ld, 1e-4);
        SensitivityBoundRelease s = new SensitivityBoundRelease(0.5, ld, pur.gridStep(), pur);
        // P(Z₀ < −c) = β^{c+1}/(1 + β) with β = e^{−1/t}, t >= 2: in 50 digits, at most δ
        var scale = io.privacygateway.mechanisms.central.PrivacySplit.dyadicUp(1, 0.5);
        BigDecimal beta = BigMath.exp(new BigDecimal(scale.denominator())
                .divide(new BigDecimal(scale.numerator()), BigMath.MC).negate());
        BigDecimal tail = beta.pow((int) s.offset() + 1, BigMath.MC).divide(BigDecimal.ONE.add(beta), BigMath.MC);
        assertThat(tail).isLessThanOrEqualTo(BigMath.exp(new BigDecimal(-30)));
        assertThat(s.epsilonTotal().value()).isEqualTo(2.0);
        assertThat(s.releaseBound(10, new SeededRandomBits(1))).isGreaterThanOrEqualTo(1);
        assertThat(s.release(new long[] {1, 2}, 3, new SeededRandomBits(2))).hasSize(2);
    }
}
