package io.privacygateway.mechanisms.nets;

import static io.privacygateway.mechanisms.nets.NetsTestData.bruteForce;
import static io.privacygateway.mechanisms.nets.NetsTestData.violation;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Alpha;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class NestedNetsTest {

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("uniform m=2", NetsTestData.uniform(600, 2, 21), 6),
                Arguments.of("uniform m=16", NetsTestData.uniform(800, 16, 22), 6),
                Arguments.of("blobs m=24", NetsTestData.blobs(900, 24, 10, 0.03, 23), 7),
                Arguments.of("binary m=20 with duplicates",
                        NetsTestData.withDuplicates(NetsTestData.binary(500, 20, 0.2, 24), 5), 5),
                Arguments.of("cdf k=600", NetsTestData.cdf(600), 6),
                Arguments.of("lattice m=8 (exact boundary distances and ties)", NetsTestData.lattice(700, 8, 31), 4),
                Arguments.of("mixture m=64", NetsTestData.concat(NetsTestData.blobs(500, 64, 8, 0.05, 25),
                        NetsTestData.uniform(300, 64, 26), NetsTestData.binary(300, 64, 0.5, 27)), 6));
    }

    private static double[] dyadic(int k) {
        double[] s = new double[k];
        for (int j = 0; j < k; j++) {
            s[j] = Math.scalb(1.0, -(j + 1));
        }
        return s;
    }

    private static boolean[] extension(int k) {
        boolean[] e = new boolean[k];
        Arrays.fill(e, 1, k, true);
        return e;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void equalsTheBruteForceNestedGreedyBitForBit(String name, PointSet points, int k) {
        NetsTestData.BruteLevel[] ref = bruteForce(points, dyadic(k), extension(k));
        for (boolean bulk : new boolean[] {true, false}) {
            NestedNets nets = NestedNets.build(points, k, bulk);
            for (int j = 1; j <= k; j++) {
                assertThat(nets.netIndices(j)).as("S_%d, bulk=%b", j, bulk).isEqualTo(ref[j - 1].net());
                assertThat(nets.map(j)).as("π_%d, bulk=%b", j, bulk).isEqualTo(ref[j - 1].map());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyLevelIsSeparatedMaximalNestedAndMapsWithinItsScale(String name, PointSet points, int k) {
        NestedNets nets = NestedNets.build(points, k);
        int m = points.dim();
        for (int j = 1; j <= k; j++) {
            double t = Math.scalb(1.0, -j);
            assertThat(nets.scale(j)).isEqualTo(t);
            int[] net = nets.netIndices(j);
            int[] map = nets.map(j);
            assertThat(violation(points, t, net, map)).as("level %d", j).isNull();
            for (int x = 0; x < points.size(); x++) {
                assertThat(points.distance(x, map[x])).isLessThanOrEqualTo(t * Math.sqrt(m) * (1 + 1e-12));
            }
            if (j > 1) {
                SeparatedNet coarse = nets.level(j - 1);
                SeparatedNet fine = nets.level(j);
                for (int s : coarse.netIndices()) {
                    assertThat(fine.contains(s)).as("S_%d ⊆ S_%d", j - 1, j).isTrue();
                }
            }
        }
    }

    @Test
    void forAlphaUsesTheChainingLevelCount() {
        PointSet points = NetsTestData.uniform(50, 3, 28);
        assertThat(NestedNets.forAlpha(points, Alpha.of(0.05)).levels()).isEqualTo(6);
        assertThat(NestedNets.forAlpha(points, Alpha.of(0.5)).levels()).isEqualTo(2);
        assertThat(NestedNets.forAlpha(points, Alpha.of(0.25)).levels()).isEqualTo(3);
    }

    @Test
    void deterministicAcrossRunsAndConcurrentBuilds() throws Exception {
        PointSet points = NetsTestData.concat(NetsTestData.blobs(600, 32, 6, 0.04, 29),
                NetsTestData.uniform(300, 32, 30));
        NestedNets a = NestedNets.build(points, 6);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            var f1 = pool.submit(() -> NestedNets.build(points, 6));
            var f2 = pool.submit(() -> NestedNets.build(points, 6));
            for (NestedNets b : new NestedNets[] {NestedNets.build(points, 6), f1.get(), f2.get()}) {
                for (int j = 1; j <= 6; j++) {
                    assertThat(b.netIndices(j)).isEqualTo(a.netIndices(j));
                    assertThat(b.map(j)).isEqualTo(a.map(j));
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void rejectsBadArguments() {
        PointSet p = NetsTestData.uniform(10, 2, 1);
        assertThatThrownBy(() -> NestedNets.build(p, 0)).hasMessageContaining("levels").hasMessageContaining("0");
        assertThatThrownBy(() -> NestedNets.build(p, 257)).hasMessageContaining("levels").hasMessageContaining("257");
        assertThatThrownBy(() -> NestedNets.build(p, 3).level(4)).hasMessageContaining("level").hasMessageContaining("4");
        assertThatThrownBy(() -> NestedNets.forAlpha(p, null)).hasMessageContaining("alpha");
    }
}
