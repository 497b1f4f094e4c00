package io.privacygateway.mechanisms.nets;

import static io.privacygateway.mechanisms.nets.NetsTestData.bruteForce;
import static io.privacygateway.mechanisms.nets.NetsTestData.violation;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.linalg.PointSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class SeparatedNetTest {

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("uniform m=1 small", NetsTestData.uniform(200, 1, 1), 0.01),
                Arguments.of("uniform m=3 small", NetsTestData.uniform(300, 3, 2), 0.1),
                Arguments.of("uniform m=8 indexed", NetsTestData.uniform(1500, 8, 3), 0.06),
                Arguments.of("uniform m=8 indexed coarse", NetsTestData.uniform(1500, 8, 4), 0.2),
                Arguments.of("blobs m=16 indexed", NetsTestData.blobs(1200, 16, 12, 0.05, 5), 0.03),
                Arguments.of("binary m=12 with duplicates",
                        NetsTestData.withDuplicates(NetsTestData.binary(900, 12, 0.3, 6), 7), 0.2),
                Arguments.of("cdf k=700", NetsTestData.cdf(700), 0.05),
                Arguments.of("lattice m=4 (exact boundary distances and ties)", NetsTestData.lattice(900, 4, 10), 0.25),
                Arguments.of("lattice m=16 indexed", NetsTestData.lattice(1100, 16, 15), 0.125),
                Arguments.of("mixture m=9 (m not a multiple of 8)", NetsTestData.concat(
                        NetsTestData.blobs(400, 9, 5, 0.02, 7), NetsTestData.uniform(400, 9, 8),
                        NetsTestData.binary(300, 9, 0.5, 9)), 0.04));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void equalsTheBruteForceGreedyBitForBit(String name, PointSet points, double t) {
        NetsTestData.BruteLevel ref = bruteForce(points, new double[] {t}, new boolean[] {false})[0];
        for (boolean bulk : new boolean[] {true, false}) {
            SeparatedNet net = SeparatedNet.greedy(points, t, bulk);
            assertThat(net.netIndices()).as("bulk=%b", bulk).isEqualTo(ref.net());
            assertThat(net.map()).as("bulk=%b", bulk).isEqualTo(ref.map());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void isSeparatedMaximalAndMapsToNearestWithinT(String name, PointSet points, double t) {
        SeparatedNet net = SeparatedNet.greedy(points, t);
        assertThat(violation(points, t, net.netIndices(), net.map())).isNull();
        assertThat(net.coveringRadius()).isLessThanOrEqualTo(t);
        for (int x = 0; x < points.size(); x++) {
            assertThat(net.distanceToNet(x)).isLessThanOrEqualTo(t);
            if (net.contains(x)) {
                assertThat(net.map(x)).isEqualTo(x);
            }
        }
    }

    @Test
    void viewsAreConsistent() {
        PointSet points = NetsTestData.blobs(300, 5, 4, 0.1, 11);
        SeparatedNet net = SeparatedNet.greedy(points, 0.08);
        PointSet s = net.net();
        int[] idx = net.netIndices();
        assertThat(s.size()).isEqualTo(net.size()).isEqualTo(idx.length);
        for (int i = 0; i < idx.length; i++) {
            assertThat(s.row(i)).isEqualTo(points.row(idx[i]));
        }
        int[] toNet = net.mapToNet();
        int[] map = net.map();
        for (int x = 0; x < points.size(); x++) {
            assertThat(idx[toNet[x]]).isEqualTo(map[x]);
        }
        assertThat(idx).isSorted();
    }

    @Test
    void tiesGoToTheLowestIndex() {
        // 1-D, t = 0.5: net {0, 2}? greedy: 0 admitted (value 0), 1 (value 1) is > 0.5 away -> admitted,
        // point value 0.5 is at exactly 0.5 from 0 and 0.5 from 1: covered, maps to the lowest index 0.
        PointSet p = PointSet.of(1, new double[][] {{1.0}, {0.0}, {0.5}});
        SeparatedNet net = SeparatedNet.greedy(p, 0.5);
        assertThat(net.netIndices()).containsExactly(0, 1);
        assertThat(net.map()).containsExactly(0, 1, 0);
    }

    @Test
    void boundaryDistanceEqualToTIsCovered() {
        // exactly t apart counts as "within t": not separated, so not admitted.
        PointSet p = PointSet.of(1, new double[][] {{0.0}, {0.25}});
        assertThat(SeparatedNet.greedy(p, 0.25).netIndices()).containsExactly(0);
    }

    @Test
    void theCheckerCatchesBrokenNets() {
        PointSet points = NetsTestData.uniform(400, 4, 12);
        double t = 0.15;
        SeparatedNet net = SeparatedNet.greedy(points, t);
        int[] idx = net.netIndices();
        // not maximal: drop a net point (re-map everything to the nearest remaining net point)
        int dropped = idx[idx.length / 2];
        int[] smaller = NetsTestData.without(idx, dropped);
        int[] remap = new int[points.size()];
        for (int x = 0; x < points.size(); x++) {
            int best = -1;
            for (int s : smaller) {
                if (best < 0 || points.distance(x, s) < points.distance(x, best)) {
                    best = s;
                }
            }
            remap[x] = best;
        }
        assertThat(violation(points, t, smaller, remap)).contains("is " ).contains("from its net point");
        // not separated: add a covered point
        int covered = -1;
        for (int x = 0; x < points.size() && covered < 0; x++) {
            if (!net.contains(x)) {
                covered = x;
            }
        }
        int[] bigger = java.util.stream.IntStream.concat(java.util.Arrays.stream(idx),
                java.util.stream.IntStream.of(covered)).sorted().toArray();
        int[] map = net.map();
        map[covered] = covered;
        assertThat(violation(points, t, bigger, map)).startsWith("net points");
    }

    @Test
    void deterministicAcrossRunsAndThreads() throws Exception {
        PointSet points = NetsTestData.concat(NetsTestData.blobs(700, 16, 9, 0.04, 13),
                NetsTestData.uniform(500, 16, 14));
        SeparatedNet a = SeparatedNet.greedy(points, 0.05);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<SeparatedNet> f1 = pool.submit(() -> SeparatedNet.greedy(points, 0.05));
            Future<SeparatedNet> f2 = pool.submit(() -> SeparatedNet.greedy(points, 0.05));
            for (SeparatedNet b : new SeparatedNet[] {f1.get(), f2.get(), SeparatedNet.greedy(points, 0.05)}) {
                assertThat(b.netIndices()).isEqualTo(a.netIndices());
                assertThat(b.map()).isEqualTo(a.map());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.0, -0.1, Double.NaN, Double.POSITIVE_INFINITY})
    void rejectsBadSeparation(double bad) {
        PointSet p = NetsTestData.uniform(10, 2, 1);
        assertThatThrownBy(() -> SeparatedNet.greedy(p, bad))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("separation")
                .hasMessageContaining(String.valueOf(bad));
    }

    @Test
    void rejectsEmptyAndMissingPoints() {
        assertThatThrownBy(() -> SeparatedNet.greedy(PointSet.of(3, new double[0][]), 0.1))
                .hasMessageContaining("points.size").hasMessageContaining("0");
        assertThatThrownBy(() -> SeparatedNet.greedy(null, 0.1)).hasMessageContaining("points");
        assertThatThrownBy(() -> SeparatedNet.greedy(NetsTestData.uniform(3, 2, 1), 1e-170))
                .hasMessageContaining("separation").hasMessageContaining("1.0E-170");
    }
}
