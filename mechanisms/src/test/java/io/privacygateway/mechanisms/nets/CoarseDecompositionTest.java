package io.privacygateway.mechanisms.nets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Alpha;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CoarseDecompositionTest {

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("uniform m=4, α=0.2", NetsTestData.uniform(500, 4, 51), 0.2),
                Arguments.of("blobs m=32 indexed, α=0.05", NetsTestData.blobs(1400, 32, 9, 0.03, 52), 0.05),
                Arguments.of("cdf k=300, α=0.1", NetsTestData.cdf(300), 0.1),
                Arguments.of("binary with duplicates, α=0.3",
                        NetsTestData.withDuplicates(NetsTestData.binary(400, 12, 0.5, 53), 4), 0.3));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void roundsEveryPointToItsNearestNetPointWithinHalfAlpha(String name, PointSet points, double alpha) {
        CoarseDecomposition dec = CoarseDecomposition.build(points, Alpha.of(alpha));
        int m = points.dim();
        assertThat(dec.biasBound()).isEqualTo(alpha / 2);
        assertThat(dec.realisedBias()).isLessThanOrEqualTo(alpha / 2);
        SeparatedNet net = dec.net();
        assertThat(net.separation()).isEqualTo(alpha / 2);
        assertThat(NetsTestData.violation(points, alpha / 2, net.netIndices(), net.map())).isNull();
        NetsTestData.BruteLevel ref = NetsTestData.bruteForce(points, new double[] {alpha / 2}, new boolean[] {false})[0];
        assertThat(net.netIndices()).isEqualTo(ref.net());
        PointSet hull = dec.hull();
        PointSet rounded = dec.rounded();
        int[] hullIndex = dec.hullIndex();
        assertThat(rounded.size()).isEqualTo(points.size());
        for (int x = 0; x < points.size(); x++) {
            double[] r = dec.rounded(x);
            assertThat(rounded.row(x)).isEqualTo(r);
            assertThat(hull.row(hullIndex[x])).isEqualTo(r);
            assertThat(r).isEqualTo(points.row(ref.map()[x]));
            double d = 0;
            for (int i = 0; i < m; i++) {
                d += (r[i] - points.get(x, i)) * (r[i] - points.get(x, i));
            }
            assertThat(Math.sqrt(d / m)).isLessThanOrEqualTo(alpha / 2 * (1 + 1e-12));
        }
        assertThat(dec.radius()).isEqualTo(hull.maxNorm()).isLessThanOrEqualTo(points.maxNorm());
        assertThat(dec.radius()).isLessThanOrEqualTo(Math.sqrt(m));
    }

    @Test
    void meanOfRoundedDataIsWithinTheBias() {
        PointSet points = NetsTestData.blobs(600, 8, 4, 0.1, 54);
        CoarseDecomposition dec = CoarseDecomposition.build(points, Alpha.of(0.1));
        int m = points.dim();
        double[] mean = new double[m];
        double[] meanRounded = new double[m];
        for (int x = 0; x < points.size(); x++) {
            double[] r = dec.rounded(x);
            for (int i = 0; i < m; i++) {
                mean[i] += points.get(x, i) / points.size();
                meanRounded[i] += r[i] / points.size();
            }
        }
        double d = 0;
        for (int i = 0; i < m; i++) {
            d += (mean[i] - meanRounded[i]) * (mean[i] - meanRounded[i]);
        }
        assertThat(Math.sqrt(d / m)).isLessThanOrEqualTo(dec.biasBound());
    }

    @Test
    void rejectsMissingArguments() {
        assertThatThrownBy(() -> CoarseDecomposition.build(NetsTestData.uniform(5, 2, 1), null))
                .hasMessageContaining("alpha");
        assertThatThrownBy(() -> CoarseDecomposition.build(null, Alpha.of(0.1))).hasMessageContaining("points");
    }
}
