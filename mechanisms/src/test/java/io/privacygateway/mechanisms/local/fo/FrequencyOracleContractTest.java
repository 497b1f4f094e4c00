package io.privacygateway.mechanisms.local.fo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.protocols.LocalEstimators;
import io.privacygateway.mechanisms.random.RecordingDraws;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every public entry point of every oracle validates its arguments (no out-of-range value, state, n or
 * vector is ever used silently), and the accessors report the parameters the mechanism realises.
 */
class FrequencyOracleContractTest {
    private static List<FrequencyOracle> all(int k) {
        Epsilon e = Epsilon.of(1.0);
        return List.of(new GeneralizedRandomizedResponse(k, e), new OptimizedUnaryEncoding(k, e),
                new SubsetSelection(k, e, 2), new HadamardResponse(k, e), new OptimizedLocalHashing(k, e),
                new TreeMechanism(k, e, 2));
    }

    @Test
    void everyEntryPointValidates() {
        int k = 6;
        for (FrequencyOracle o : all(k)) {
            String id = o.id().wireName();
            byte[] y = o.randomize(1, 0, RecordingDraws.seeded(1));
            long[] state = new long[o.stateLength()];
            double[] f = FrequencyOracles.uniform(k);
            assertThatThrownBy(() -> o.randomize(k, 0, RecordingDraws.seeded(1))).as(id).hasMessageContaining("value");
            assertThatThrownBy(() -> o.randomize(-1, 0, RecordingDraws.seeded(1))).as(id).hasMessageContaining("value");
            assertThatThrownBy(() -> o.outputProbability(k, y, 0)).as(id).hasMessageContaining("value");
            assertThatThrownBy(() -> o.outputProbability(-1, y, 0)).as(id).hasMessageContaining("value");
            assertThatThrownBy(() -> o.accumulate(y, 0, new long[o.stateLength() + 1])).as(id)
                    .hasMessageContaining("state must have length " + o.stateLength());
            assertThatThrownBy(() -> o.accumulate(y, 0, null)).as(id).hasMessageContaining("state");
            assertThatThrownBy(() -> FrequencyOracleEstimator.of(o).estimate(new long[o.stateLength() - 1], 1)).as(id).hasMessageContaining("state");
            assertThat(o.accumulate(y, 0, state)).isTrue();
            assertThatThrownBy(() -> FrequencyOracleEstimator.of(o).estimate(state, 0)).as(id).hasMessageContaining("n");
            assertThatThrownBy(() -> FrequencyOracleEstimator.of(o).variances(0, f)).as(id).hasMessageContaining("n");
            assertThatThrownBy(() -> FrequencyOracleEstimator.of(o).variances(10, new double[k - 1])).as(id).hasMessageContaining("frequencies");
            assertThatThrownBy(() -> FrequencyOracleEstimator.of(o).variances(10, new double[] {0, 0, 0, 0, 0, 1.5})).as(id)
                    .hasMessageContaining("frequencies[5]");
            double[] c = new double[k];
            assertThatThrownBy(() -> FrequencyOracleEstimator.of(o).queryVariance(0, f, c)).as(id).hasMessageContaining("n");
            assertThatThrownBy(() -> FrequencyOracleEstimator.of(o).queryVariance(10, new double[k + 1], c)).as(id).hasMessageContaining("frequencies");
            assertThatThrownBy(() -> FrequencyOracleEstimator.of(o).queryVariance(10, f, new double[] {0, 0, Double.NaN, 0, 0, 0})).as(id)
                    .hasMessageContaining("coefficients[2] must be finite");
            assertThatThrownBy(() -> FrequencyOracleEstimator.of(o).queryVariance(10, f, new double[] {0, 0, 0, 0, 0, Double.POSITIVE_INFINITY}))
                    .as(id).hasMessageContaining("coefficients[5]");
            PointSet pts = PointSet.of(2, new double[k][2]);
            assertThatThrownBy(() -> FrequencyOracleEstimator.of(o).queryVariances(0, f, pts)).as(id).hasMessageContaining("n");
            assertThatThrownBy(() -> FrequencyOracleEstimator.of(o).queryVariances(10, new double[3], pts)).as(id).hasMessageContaining("frequencies");
            assertThatThrownBy(() -> FrequencyOracleEstimator.of(o).queryVariances(10, f, PointSet.of(2, new double[k - 1][2]))).as(id)
                    .hasMessageContaining("one point per value");
            assertThatThrownBy(() -> FrequencyOracleEstimator.of(o).covarianceTimes(0, f, c)).as(id).hasMessageContaining("n");
            assertThatThrownBy(() -> FrequencyOracleEstimator.of(o).covarianceTimes(10, new double[2], c)).as(id).hasMessageContaining("frequencies");
            assertThatThrownBy(() -> FrequencyOracleEstimator.of(o).covarianceTimes(10, f, new double[k + 1])).as(id).hasMessageContaining("u must have length");
            assertThatThrownBy(() -> FrequencyOracleEstimator.of(o).covarianceTimes(10, f, new double[] {Double.NaN, 0, 0, 0, 0, 0})).as(id)
                    .hasMessageContaining("u[0] must be finite");
        }
    }

    @Test
    void accessorsReportTheRealisedParameters() {
        Epsilon e = Epsilon.of(1.0);
        SubsetSelection ss = new SubsetSelection(6, e, 2);
        assertThat(ss.subsetSize()).isEqualTo(2);
        // the inclusion probability is the one the enumerated law realises: P(value ∈ S) = π
        var law = FrequencyOracleEnumerationTest.law(ss, 0, 0);
        var inS = io.privacygateway.mechanisms.random.Rational.ZERO;
        for (var entry : law.entrySet()) {
            if ((java.util.HexFormat.fromHexDigits(entry.getKey()) & 1) == 1) {
                inS = inS.add(entry.getValue());
            }
        }
        assertThat(inS).isEqualTo(io.privacygateway.mechanisms.random.Rational.dyadic(ss.inclusionProbability().numerator()));
        HadamardResponse hr = new HadamardResponse(5, e);
        assertThat(hr.order()).isEqualTo(8);
        var hlaw = FrequencyOracleEnumerationTest.law(hr, 2, 0);
        var inSet = io.privacygateway.mechanisms.random.Rational.ZERO;
        for (var entry : hlaw.entrySet()) {
            if (HadamardResponse.inSet(2, java.util.HexFormat.fromHexDigits(entry.getKey()))) {
                inSet = inSet.add(entry.getValue());
            }
        }
        assertThat(inSet).isEqualTo(io.privacygateway.mechanisms.random.Rational.dyadic(hr.inSetProbability().numerator()));
    }

    @Test
    void indexWidths() {
        assertThat(IndexCodec.widthFor(1)).isEqualTo(1);
        assertThat(IndexCodec.widthFor(256)).isEqualTo(1);
        assertThat(IndexCodec.widthFor(257)).isEqualTo(2);
        assertThat(IndexCodec.widthFor(1 << 16)).isEqualTo(2);
        assertThat(IndexCodec.widthFor((1 << 16) + 1)).isEqualTo(3);
        assertThat(IndexCodec.widthFor(1 << 24)).isEqualTo(3);
        assertThat(IndexCodec.widthFor((1 << 24) + 1)).isEqualTo(4);
        assertThat(IndexCodec.widthFor(Integer.MAX_VALUE)).isEqualTo(4);
        assertThatThrownBy(() -> IndexCodec.widthFor(0)).hasMessageContaining("got 0");
        assertThatThrownBy(() -> IndexCodec.widthFor(1L << 31)).hasMessageContaining("index range");
        byte[] three = IndexCodec.encode(0x010203, 3);
        assertThat(three).containsExactly(1, 2, 3);
        assertThat(IndexCodec.decode(three, 3, 0x010204)).isEqualTo(0x010203);
        assertThat(IndexCodec.decode(three, 3, 0x010203)).isEqualTo(-1);
        assertThat(IndexCodec.decode(three, 2, 1 << 16)).isEqualTo(-1);
        assertThat(IndexCodec.decode(null, 1, 10)).isEqualTo(-1);
    }

    @Test
    void protocolRejectsMalformedPayloadsAndHasOneLevel() {
        Workload w = FrequencyOracleProtocolTest.workload("histogram", Map.of("labels", List.of("a", "b", "c")));
        FrequencyOracleProtocol p = FrequencyOracleProtocol.of(w, MechanismId.GRR, Epsilon.of(1));
        ReportCoordinates c = new ReportCoordinates("d", 1, 0);
        long[] state = new long[p.stateLength()];
        assertThat(p.accumulate(new byte[] {3}, c, state)).isFalse();
        assertThat(p.accumulate(new byte[] {0, 0}, c, state)).isFalse();
        assertThat(state).containsOnly(0);
        assertThat(p.accumulate(new byte[] {2}, c, state)).isTrue();
        assertThat(state).containsExactly(0, 0, 1);
        assertThat(LocalEstimators.of(p).expectedLevelMean(0, new double[] {0.5, 0.25, 0.25})).containsExactly(0.5, 0.25, 0.25);
        assertThatThrownBy(() -> LocalEstimators.of(p).expectedLevelMean(1, new double[3])).hasMessageContaining("level must be 0");
        assertThatThrownBy(() -> LocalEstimators.of(p).expectedLevelMean(-1, new double[3])).hasMessageContaining("got -1");
    }

    @Test
    void grrAndOlhAreCertifiedAtTheirOwnKeepProbability() {
        // the certified keep numerator is the largest that passes: one more is refused
        GeneralizedRandomizedResponse g = new GeneralizedRandomizedResponse(5, Epsilon.of(0.7));
        long n = g.keepProbability().numerator();
        new GeneralizedRandomizedResponse(5, Epsilon.of(0.7), n, true);
        assertThatThrownBy(() -> new GeneralizedRandomizedResponse(5, Epsilon.of(0.7), n + 1, true))
                .hasMessageContaining("cannot be realised");
        // and the reverse ratio: a keep probability too small for the range is refused
        assertThatThrownBy(() -> new GeneralizedRandomizedResponse(5, Epsilon.of(0.7), 1, true))
                .hasMessageContaining("cannot be realised");
    }
}
