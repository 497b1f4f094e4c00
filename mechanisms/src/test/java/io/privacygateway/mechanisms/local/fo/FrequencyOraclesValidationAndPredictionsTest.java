package io.privacygateway.mechanisms.local.fo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The shared validation of {@link AbstractOracle} at its edges (what is refused, with which exception and
 * message, and what is still accepted), the planner's predictions of {@link FrequencyOracles} against
 * GRR's closed forms at uniform frequencies, and the defaults of the protocol wrapper.
 */
class FrequencyOraclesValidationAndPredictionsTest {
    private static final Epsilon EPS = Epsilon.of(1.0);

    /** A missing state or vector is refused as an argument error saying it got nothing (not a null dereference). */
    @Test
    void missingArgumentsAreArgumentErrors() {
        GeneralizedRandomizedResponse g = new GeneralizedRandomizedResponse(4, EPS);
        double[] f = FrequencyOracles.uniform(4);
        assertThatThrownBy(() -> g.accumulate(new byte[] {1}, 0, null)).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("state must have length 4, got nothing");
        assertThatThrownBy(() -> FrequencyOracleEstimator.of(g).estimate(new long[3], 1)).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("state must have length 4, got 3");
        assertThatThrownBy(() -> FrequencyOracleEstimator.of(g).variances(5, null)).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("frequencies must have length 4, got nothing");
        assertThatThrownBy(() -> FrequencyOracleEstimator.of(g).queryVariance(5, f, null)).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("coefficients must have length 4, got nothing");
        assertThatThrownBy(() -> FrequencyOracleEstimator.of(g).queryVariance(5, f, new double[5])).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("coefficients must have length 4, got 5");
        assertThatThrownBy(() -> FrequencyOracleEstimator.of(g).covarianceTimes(5, f, null)).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("u must have length 4, got nothing");
        assertThatThrownBy(() -> FrequencyOracleEstimator.of(g).queryVariances(5, f, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("answers");
        assertThatThrownBy(() -> FrequencyOracleEstimator.of(g).queryVariances(5, f, PointSet.of(1, new double[5][1])))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("answers must have one point per value (4), got 5");
    }

    /** The last entry of a vector is checked too, and the closed ends 0 and 1 of a frequency are accepted. */
    @Test
    void everyEntryIsCheckedAndTheEndsAreAccepted() {
        GeneralizedRandomizedResponse g = new GeneralizedRandomizedResponse(3, EPS);
        assertThatThrownBy(() -> FrequencyOracleEstimator.of(g).variances(5, new double[] {0, 0, Double.NaN})).hasMessageContaining("frequencies[2]");
        assertThatThrownBy(() -> FrequencyOracleEstimator.of(g).variances(5, new double[] {0, 0, -1e-300})).hasMessageContaining("frequencies[2]");
        assertThatThrownBy(() -> FrequencyOracleEstimator.of(g).covarianceTimes(5, new double[] {1, 0, 0}, new double[] {0, 0, Double.NEGATIVE_INFINITY}))
                .hasMessageContaining("u[2]");
        assertThat(FrequencyOracleEstimator.of(g).variances(1, new double[] {1, 0, 0})).hasSize(3);
        assertThat(FrequencyOracleEstimator.of(g).queryVariance(Long.MAX_VALUE, new double[] {0, 1, 0}, new double[] {1, 2, 3})).isPositive();
    }

    /**
     * p* = q* leaves no signal: GRR over two values with p = 1/2 (so q = 1/2) is refused, one grid step above
     * is accepted.
     */
    @Test
    void equalSupportProbabilitiesAreRefused() {
        long half = 1L << 52;
        assertThatThrownBy(() -> new GeneralizedRandomizedResponse(2, EPS, half, false))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("too small to be realised").hasMessageContaining("grr with domainSize=2");
        GeneralizedRandomizedResponse above = new GeneralizedRandomizedResponse(2, EPS, half + 1, false);
        assertThat(above.keepProbability().numerator()).isEqualTo(half + 1);
    }

    /**
     * The planner's mean per-value variance at uniform frequencies is GRR's closed form
     * {@code [p(1−p)/k + (1 − 1/k) q(1−q)]/(n(p−q)²)} (every value has the same variance).
     */
    @Test
    void predictedVarianceIsTheMeanOfTheClosedForm() {
        int k = 5;
        long n = 777;
        GeneralizedRandomizedResponse g = new GeneralizedRandomizedResponse(k, EPS);
        double p = g.keepProbability().value();
        double q = (1 - p) / (k - 1);
        double expected = (p * (1 - p) / k + (1 - 1.0 / k) * q * (1 - q)) / (n * (p - q) * (p - q));
        assertThat(FrequencyOracleEstimator.predictedVariance(g, n)).isCloseTo(expected, within(1e-12 * expected));
        assertThat(FrequencyOracleEstimator.predictedVariance(MechanismId.GRR, k, EPS, n)).isCloseTo(expected, within(1e-12 * expected));
    }

    /** The predicted query variance is GRR's {@code (2q − kq²)/(n(p−q)²)·(Σc² − (Σc)²/k)} at uniform frequencies. */
    @Test
    void predictedQueryVarianceIsTheClosedForm() {
        int k = 4;
        long n = 1000;
        GeneralizedRandomizedResponse g = new GeneralizedRandomizedResponse(k, EPS);
        double p = g.keepProbability().value();
        double q = (1 - p) / (k - 1);
        double[] c = {1, 0, 2, -1};
        double s1 = 2;
        double s2 = 6;
        double expected = (2 * q - k * q * q) / (n * (p - q) * (p - q)) * (s2 - s1 * s1 / k);
        assertThat(FrequencyOracleEstimator.predictedQueryVariance(g, n, c)).isCloseTo(expected, within(1e-12 * expected));
        assertThat(FrequencyOracles.uniform(4)).containsExactly(0.25, 0.25, 0.25, 0.25);
    }

    /** Every supported mechanism is created by the factory under its own id, and nothing else is supported. */
    @Test
    void theFactoryCoversExactlyTheSupportedSet() {
        for (MechanismId id : MechanismId.values()) {
            if (FrequencyOracles.supports(id)) {
                assertThat(FrequencyOracles.create(id, 6, EPS).id()).isEqualTo(id);
            } else {
                assertThatThrownBy(() -> FrequencyOracles.create(id, 6, EPS)).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("got " + id.wireName());
            }
        }
        assertThat(FrequencyOracles.SUPPORTED).hasSize(6);
        assertThatThrownBy(() -> FrequencyOracles.create(null, 6, EPS)).hasMessageContaining("mechanism");
        assertThatThrownBy(() -> FrequencyOracles.create(MechanismId.GRR, 6, null)).hasMessageContaining("epsilon");
    }

    /**
     * The protocol wrapper's defaults: no window limit beyond the integer range, a missing secret refused
     * before anything is drawn, and the accessors return what it was built with.
     */
    @Test
    void theProtocolHasNoWindowLimitAndRefusesMissingArguments() {
        Workload w = FrequencyOracleProtocolTest.workload("histogram", Map.of("labels", List.of("a", "b", "c")));
        GeneralizedRandomizedResponse g = new GeneralizedRandomizedResponse(3, EPS);
        FrequencyOracleProtocol p = new FrequencyOracleProtocol(w, g);
        assertThat(p.maxReportsPerWindow()).isEqualTo(Long.MAX_VALUE);
        assertThat(p.oracle()).isSameAs(g);
        assertThat(p.workload()).isSameAs(w);
        assertThat(p.epsilon()).isSameAs(g.epsilon());
        ReportCoordinates c = new ReportCoordinates("d", 1, 0);
        assertThatThrownBy(() -> p.randomize(0, c, (RandomBits) null)).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("secret is required");
        assertThatThrownBy(() -> p.publicBase(null)).hasMessageContaining("coordinates");
        assertThatThrownBy(() -> new FrequencyOracleProtocol(null, g)).hasMessageContaining("workload");
        assertThatThrownBy(() -> new FrequencyOracleProtocol(w, null)).hasMessageContaining("oracle");
        assertThatThrownBy(() -> FrequencyOracleProtocol.of(null, MechanismId.GRR, EPS)).hasMessageContaining("workload");
    }
}
