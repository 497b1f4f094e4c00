package io.privacygateway.mechanisms.central.sampling;

import static io.privacygateway.mechanisms.central.sampling.DistributionChecks.FALSE_FAILURE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.statistics.inference.ChiSquareTest;
import org.junit.jupiter.api.Test;

/**
 * Uniformity against the enumerated lattice ball: every sample is a point of L and the counts pass a
 * chi-square test of uniformity over all of L (false-failure probability at most 1e-6 each).
 */
class UniformBallLatticeTest {

    /** All points z of Z^d with |z_i| <= r that the ball contains, in lexicographic order. */
    private static List<List<Long>> enumerate(UniformBallLattice ball) {
        int d = ball.dimension();
        long r = (long) Math.floor(ball.radius());
        List<List<Long>> out = new ArrayList<>();
        long[] z = new long[d];
        Arrays.fill(z, -r);
        while (true) {
            if (ball.contains(z)) {
                List<Long> p = new ArrayList<>();
                for (long v : z) {
                    p.add(v);
                }
                out.add(p);
            }
            int i = d - 1;
            while (i >= 0 && z[i] == r) {
                z[i] = -r;
                i--;
            }
            if (i < 0) {
                return out;
            }
            z[i]++;
        }
    }

    private static void assertUniform(UniformBallLattice ball, RandomBits bits, int perPoint) {
        List<List<Long>> points = enumerate(ball);
        assertThat(BigInteger.valueOf(points.size())).as("size() of %s", ball).isEqualTo(ball.size());
        Map<List<Long>, Integer> index = new HashMap<>();
        for (int i = 0; i < points.size(); i++) {
            index.put(points.get(i), i);
        }
        long[] counts = new long[points.size()];
        int n = perPoint * points.size();
        for (int s = 0; s < n; s++) {
            long[] z = ball.sample(bits);
            assertThat(ball.contains(z)).as("%s contains %s", ball, Arrays.toString(z)).isTrue();
            List<Long> key = new ArrayList<>();
            for (long v : z) {
                key.add(v);
            }
            counts[index.get(key)]++;
        }
        if (counts.length > 1) {
            double p = ChiSquareTest.withDefaults().test(counts).getPValue();
            assertThat(p).as("uniformity on %s (%d points)", ball, points.size()).isGreaterThan(FALSE_FAILURE);
        }
    }

    @Test
    void cubeIsUniform() {
        RandomBits bits = new SeededRandomBits(41);
        assertUniform(UniformBallLattice.lInf(1, 5), bits, 200);
        assertUniform(UniformBallLattice.lInf(2, 3), bits, 100);
        assertUniform(UniformBallLattice.lInf(3, 2), bits, 100);
    }

    @Test
    void crossPolytopeIsUniform() {
        RandomBits bits = new SeededRandomBits(42);
        assertUniform(UniformBallLattice.l1(1, 4), bits, 200);
        assertUniform(UniformBallLattice.l1(2, 6), bits, 100);
        assertUniform(UniformBallLattice.l1(3, 4), bits, 100);
        assertUniform(UniformBallLattice.l1(3, 1), bits, 500); // N < d: the small-N proposal
    }

    @Test
    void euclideanBallRejectionIsExactlyUniformOverTheEnumeratedSet() {
        RandomBits bits = new SeededRandomBits(43);
        assertUniform(UniformBallLattice.l2(1, 20), bits, 200);
        assertUniform(UniformBallLattice.l2(2, 30), bits, 100);
        assertUniform(UniformBallLattice.l2(3, 10), bits, 100);
        assertUniform(UniformBallLattice.l2(3, 2), bits, 300); // M < d
    }

    @Test
    void highDimensionWithSmallRadiusIsUniformAndFast() {
        // L = {0, ±e_i}: 201 points in d = 100 for both l1 (N = 1) and l2 (M = 1)
        RandomBits bits = new SeededRandomBits(44);
        for (UniformBallLattice ball : List.of(UniformBallLattice.l1(100, 1), UniformBallLattice.l2(100, 1))) {
            assertThat(ball.size()).isEqualTo(BigInteger.valueOf(201));
            long[] counts = new long[201];
            for (int s = 0; s < 201 * 30; s++) {
                long[] z = ball.sample(bits);
                assertThat(ball.contains(z)).isTrue();
                int idx = 0;
                for (int i = 0; i < 100; i++) {
                    if (z[i] != 0) {
                        idx = 1 + 2 * i + (z[i] > 0 ? 1 : 0);
                    }
                }
                counts[idx]++;
            }
            assertThat(ChiSquareTest.withDefaults().test(counts).getPValue()).as("%s", ball)
                    .isGreaterThan(FALSE_FAILURE);
        }
    }

    @Test
    void largeBallsProduceMembersAndSymmetricMarginals() {
        // d = 50, large radius: every sample is in L; the first coordinate's sign is a fair coin
        // (two-sided binomial on 800 draws with the zero coordinates excluded, false failure <= 1e-6).
        RandomBits bits = new SeededRandomBits(45);
        for (UniformBallLattice ball : List.of(UniformBallLattice.l1(50, 1_000_000), UniformBallLattice.l2(50, 1L << 40),
                UniformBallLattice.lInf(50, 1L << 30), UniformBallLattice.l1(50, 1L << 30))) {
            int positive = 0;
            int nonzero = 0;
            for (int s = 0; s < 800; s++) {
                long[] z = ball.sample(bits);
                assertThat(ball.contains(z)).isTrue();
                if (z[0] != 0) {
                    nonzero++;
                    positive += z[0] > 0 ? 1 : 0;
                }
            }
            assertThat(org.apache.commons.statistics.inference.BinomialTest.withDefaults()
                    .test(nonzero, positive, 0.5).getPValue()).as("%s", ball).isGreaterThan(FALSE_FAILURE);
        }
    }

    @Test
    void l1SizeFormula() {
        // |{z ∈ Z^2 : |z1|+|z2| <= N}| = 2N² + 2N + 1
        for (long n = 1; n <= 10; n++) {
            assertThat(UniformBallLattice.l1(2, n).size()).isEqualTo(BigInteger.valueOf(2 * n * n + 2 * n + 1));
        }
        assertThat(UniformBallLattice.lInf(3, 2).size()).isEqualTo(BigInteger.valueOf(125));
        assertThatThrownBy(() -> UniformBallLattice.l2(1000, 1L << 40).size())
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("d=1000");
    }

    @Test
    void validation() {
        assertThatThrownBy(() -> UniformBallLattice.lInf(0, 3)).hasMessageContaining("dimension")
                .hasMessageContaining("got 0");
        assertThatThrownBy(() -> UniformBallLattice.l1(-1, 3)).hasMessageContaining("got -1");
        assertThatThrownBy(() -> UniformBallLattice.l1((1 << 20) + 1, 3)).hasMessageContaining("dimension")
                .hasMessageContaining("1048577");
        assertThatThrownBy(() -> UniformBallLattice.l1(3, 0)).hasMessageContaining("radius").hasMessageContaining("got 0");
        assertThatThrownBy(() -> UniformBallLattice.lInf(3, -5)).hasMessageContaining("got -5");
        assertThatThrownBy(() -> UniformBallLattice.lInf(3, (1L << 30) + 1)).hasMessageContaining("radius")
                .hasMessageContaining("1073741825");
        assertThatThrownBy(() -> UniformBallLattice.l2(3, 0)).hasMessageContaining("radiusSquared")
                .hasMessageContaining("got 0");
        assertThatThrownBy(() -> UniformBallLattice.l2(3, (1L << 60) + 1)).hasMessageContaining("radiusSquared");
        assertThatThrownBy(() -> UniformBallLattice.of(null, 3, 3)).hasMessageContaining("norm is required");
        // the extremes are accepted and sample
        RandomBits bits = new SeededRandomBits(46);
        assertThat(UniformBallLattice.lInf(1 << 20, 1).sample(bits)).hasSize(1 << 20);
        assertThat(UniformBallLattice.l2(2, 1L << 60).contains(UniformBallLattice.l2(2, 1L << 60).sample(bits)))
                .isTrue();
        assertThat(UniformBallLattice.l1(2, 1L << 30).contains(UniformBallLattice.l1(2, 1L << 30).sample(bits)))
                .isTrue();
    }
}
