package io.privacygateway.mechanisms.nets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Alpha;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ChainingDecompositionTest {

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("uniform m=3, α=0.05", NetsTestData.uniform(700, 3, 41), 0.05),
                Arguments.of("blobs m=16, α=0.02", NetsTestData.blobs(800, 16, 7, 0.05, 42), 0.02),
                Arguments.of("binary m=10 with duplicates, α=0.1",
                        NetsTestData.withDuplicates(NetsTestData.binary(400, 10, 0.4, 43), 9), 0.1),
                Arguments.of("cdf k=400, α=0.05", NetsTestData.cdf(400), 0.05),
                Arguments.of("mixture m=64, α=0.05", NetsTestData.concat(NetsTestData.blobs(400, 64, 6, 0.05, 44),
                        NetsTestData.uniform(200, 64, 45), NetsTestData.binary(200, 64, 0.5, 46)), 0.05));
    }

    /** Components computed from the definition: x_k = π_k(x), x_j = π_j(x_{j+1}), c_j = x_j − x_{j−1}. */
    private static double[][][] componentsByDefinition(NestedNets nets) {
        PointSet p = nets.points();
        int k = nets.levels();
        double[][][] out = new double[k][p.size()][];
        for (int x = 0; x < p.size(); x++) {
            int[] xs = new int[k + 1];
            xs[k] = nets.level(k).map(x);
            for (int j = k - 1; j >= 1; j--) {
                xs[j] = nets.level(j).map(xs[j + 1]);
            }
            out[0][x] = p.row(xs[1]);
            for (int j = 2; j <= k; j++) {
                out[j - 1][x] = minus(p.row(xs[j]), p.row(xs[j - 1]));
            }
        }
        return out;
    }

    /** The wrong definition x_j = π_j(x): components π_j(x) − π_{j−1}(x). */
    private static double[][][] componentsDirect(NestedNets nets) {
        PointSet p = nets.points();
        int k = nets.levels();
        double[][][] out = new double[k][p.size()][];
        for (int x = 0; x < p.size(); x++) {
            out[0][x] = p.row(nets.level(1).map(x));
            for (int j = 2; j <= k; j++) {
                out[j - 1][x] = minus(p.row(nets.level(j).map(x)), p.row(nets.level(j - 1).map(x)));
            }
        }
        return out;
    }

    private static double[] minus(double[] a, double[] b) {
        double[] r = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            r[i] = (a[i] - b[i]) + 0.0;
        }
        return r;
    }

    /** X^(j) from the definition, as a list of distinct vectors. */
    private static List<double[]> levelSetByDefinition(NestedNets nets, int j) {
        PointSet p = nets.points();
        List<double[]> out = new ArrayList<>();
        for (int y : nets.netIndices(j)) {
            double[] v = j == 1 ? p.row(y) : minus(p.row(y), p.row(nets.level(j - 1).map(y)));
            if (out.stream().noneMatch(w -> Arrays.equals(w, v))) {
                out.add(v);
            }
        }
        return out;
    }

    private static boolean contains(PointSet set, double[] v) {
        for (int i = 0; i < set.size(); i++) {
            if (Arrays.equals(set.row(i), v)) {
                return true;
            }
        }
        return false;
    }

    /** Index of the first point whose level-j component is not in X^(j), or −1. */
    private static int firstNonMember(double[][][] comps, ChainingDecomposition dec) {
        for (int j = 1; j <= dec.levels(); j++) {
            for (int x = 0; x < comps[j - 1].length; x++) {
                if (!contains(dec.levelSet(j), comps[j - 1][x])) {
                    return x;
                }
            }
        }
        return -1;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void componentsFollowTheDefinitionAndLieInTheirLevelSets(String name, PointSet points, double alpha) {
        ChainingDecomposition dec = ChainingDecomposition.build(points, Alpha.of(alpha));
        assertThat(dec.levels()).isEqualTo(Alpha.of(alpha).chainingLevels());
        double[][][] def = componentsByDefinition(dec.nets());
        for (int j = 1; j <= dec.levels(); j++) {
            PointSet rows = dec.components(j);
            for (int x = 0; x < points.size(); x++) {
                assertThat(rows.row(x)).isEqualTo(def[j - 1][x]);
                assertThat(dec.component(j, x)).isEqualTo(def[j - 1][x]);
            }
        }
        assertThat(firstNonMember(def, dec)).isEqualTo(-1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void levelSetsAreExactlyTheDistinctDifferencesAndAllAreRealised(String name, PointSet points, double alpha) {
        ChainingDecomposition dec = ChainingDecomposition.build(points, Alpha.of(alpha));
        for (int j = 1; j <= dec.levels(); j++) {
            List<double[]> def = levelSetByDefinition(dec.nets(), j);
            PointSet set = dec.levelSet(j);
            assertThat(set.size()).isEqualTo(def.size());
            for (int i = 0; i < set.size(); i++) {
                assertThat(set.row(i)).isEqualTo(def.get(i));
            }
            boolean[] realised = new boolean[set.size()];
            for (int c : dec.componentIndex(j)) {
                realised[c] = true;
            }
            assertThat(realised).doesNotContain(false);
            assertThat(set.size()).isLessThanOrEqualTo(dec.nets().level(j).size());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void telescopesWithBiasAndRadiusBounds(String name, PointSet points, double alpha) {
        ChainingDecomposition dec = ChainingDecomposition.build(points, Alpha.of(alpha));
        int k = dec.levels();
        int m = points.dim();
        assertThat(dec.biasBound()).isEqualTo(Math.scalb(1.0, -k)).isLessThanOrEqualTo(alpha / 2);
        int[] xk = dec.chain(k);
        assertThat(xk).isEqualTo(dec.nets().map(k));
        for (int x = 0; x < points.size(); x++) {
            double[] sum = new double[m];
            for (int j = 1; j <= k; j++) {
                double[] c = dec.component(j, x);
                for (int i = 0; i < m; i++) {
                    sum[i] += c[i];
                }
            }
            double[] target = points.row(xk[x]);
            for (int i = 0; i < m; i++) {
                assertThat(sum[i]).isCloseTo(target[i], within(1e-12));
            }
            assertThat(points.distance(x, xk[x]) / Math.sqrt(m)).isLessThanOrEqualTo(dec.biasBound() * (1 + 1e-12));
        }
        for (int j = 1; j <= k; j++) {
            assertThat(dec.radiusBound(j)).isEqualTo(Math.scalb(Math.sqrt(m), 1 - j));
            assertThat(dec.radius(j)).isEqualTo(dec.levelSet(j).maxNorm())
                    .isLessThanOrEqualTo(dec.radiusBound(j) * (1 + 1e-12));
            double max = 0;
            for (int x = 0; x < points.size(); x++) {
                max = Math.max(max, norm(dec.component(j, x)));
            }
            assertThat(dec.radius(j)).isCloseTo(max, within(1e-12));
        }
        assertThat(dec.radii()).hasSize(k);
    }

    private static double norm(double[] v) {
        double s = 0;
        for (double d : v) {
            s += d * d;
        }
        return Math.sqrt(s);
    }

    /**
     * Negative control. In 1-D with t_1 = 1/2, t_2 = 1/4: S_1 = {0, 0.6}, S_2 = S_1 ∪ {0.32}.
     * x = 0.2 has π_2(x) = 0.32 but π_1(x) = 0, while π_1(0.32) = 0.6. The correct component is
     * 0.32 − 0.6 ∈ X^(2) = {0, −0.28}; the "direct" one π_2(x) − π_1(x) = 0.32 is not in X^(2).
     */
    @Test
    void definingXjAsPiJOfXBreaksMembership() {
        PointSet p = PointSet.of(1, new double[][] {{0.0}, {0.6}, {0.32}, {0.2}});
        NestedNets nets = NestedNets.build(p, 2);
        assertThat(nets.netIndices(1)).containsExactly(0, 1);
        assertThat(nets.netIndices(2)).containsExactly(0, 1, 2);
        assertThat(nets.map(2)[3]).isEqualTo(2);
        assertThat(nets.map(1)[3]).isEqualTo(0);
        assertThat(nets.map(1)[2]).isEqualTo(1);
        ChainingDecomposition dec = ChainingDecomposition.of(nets);
        assertThat(firstNonMember(componentsByDefinition(nets), dec)).isEqualTo(-1);
        assertThat(firstNonMember(componentsDirect(nets), dec)).isEqualTo(3);
        assertThat(dec.component(2, 3)[0]).isCloseTo(0.32 - 0.6, within(1e-15));
        assertThat(dec.levelSet(2).size()).isEqualTo(2);
    }

    @Test
    void onRandomDataTheDirectDefinitionAlsoFails() {
        // Not only a constructed corner case: on generic data the wrong definition leaves X^(j).
        PointSet points = NetsTestData.uniform(700, 3, 41);
        ChainingDecomposition dec = ChainingDecomposition.build(points, Alpha.of(0.05));
        assertThat(firstNonMember(componentsDirect(dec.nets()), dec)).isNotEqualTo(-1);
    }

    @Test
    void singlePointUniverse() {
        PointSet p = PointSet.of(4, new double[][] {{0.5, 0.5, 0.5, 0.5}});
        ChainingDecomposition dec = ChainingDecomposition.build(p, Alpha.of(0.1));
        assertThat(dec.levelSet(1).size()).isEqualTo(1);
        assertThat(dec.radius(1)).isCloseTo(1.0, within(1e-15));
        for (int j = 2; j <= dec.levels(); j++) {
            assertThat(dec.radius(j)).isZero();
            assertThat(dec.levelSet(j).size()).isEqualTo(1);
        }
    }
}
