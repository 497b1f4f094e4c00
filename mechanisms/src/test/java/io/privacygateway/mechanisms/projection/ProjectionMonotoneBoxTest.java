package io.privacygateway.mechanisms.projection;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

class ProjectionMonotoneBoxTest {

    private static double[] randomTarget(UniformRandomProvider rng, int m) {
        double[] y = new double[m];
        for (int i = 0; i < m; i++) {
            y[i] = 2 * rng.nextDouble() - 0.5 + 0.1 * i; // partly increasing, often outside [0, 1]
        }
        return y;
    }

    /** A random point of M: sorted uniforms. */
    static double[] randomMonotone(UniformRandomProvider rng, int m) {
        double[] v = new double[m];
        for (int i = 0; i < m; i++) {
            v[i] = rng.nextDouble();
        }
        java.util.Arrays.sort(v);
        return v;
    }

    private static void assertInM(double[] w) {
        for (int i = 0; i < w.length; i++) {
            assertThat(w[i]).isBetween(0.0, 1.0);
            if (i > 0) {
                assertThat(w[i]).isGreaterThanOrEqualTo(w[i - 1]);
            }
        }
    }

    @Test
    void matchesBruteForceOverAllBlockPartitions() {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(21L);
        for (int trial = 0; trial < 400; trial++) {
            int m = 1 + trial % 8;
            double[] y = randomTarget(rng, m);
            ProjectionResult r = new MonotoneUnitBoxProjection(m).project(y);
            assertInM(r.point());
            double[] bf = ProjectionBruteForce.monotoneBox(y);
            assertThat(ProjectionBruteForce.distance(r.point(), bf)).isLessThan(1e-12);
            assertThat(r.dualityGap()).isZero();
            assertThat(r.weights()).isNull();
        }
    }

    @Test
    void satisfiesTheVariationalInequality() {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(22L);
        for (int trial = 0; trial < 100; trial++) {
            int m = 5 + trial % 40;
            double[] y = randomTarget(rng, m);
            double[] w = new MonotoneUnitBoxProjection(m).project(y).point();
            assertInM(w);
            // ⟨y − w, v − w⟩ ≤ 0 for points v of M, including the vertices (0,…,0,1,…,1)
            for (int s = 0; s <= m; s++) {
                double[] v = new double[m];
                for (int i = s; i < m; i++) {
                    v[i] = 1;
                }
                assertThat(inner(y, w, v)).isLessThanOrEqualTo(1e-12);
            }
            assertThat(inner(y, w, randomMonotone(rng, m))).isLessThanOrEqualTo(1e-12);
        }
    }

    private static double inner(double[] y, double[] w, double[] v) {
        double s = 0;
        for (int i = 0; i < y.length; i++) {
            s += (y[i] - w[i]) * (v[i] - w[i]);
        }
        return s;
    }

    @Test
    void idempotentAndNonExpansive() {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(23L);
        for (int trial = 0; trial < 100; trial++) {
            int m = 1 + trial % 30;
            double[] x = randomMonotone(rng, m);
            MonotoneUnitBoxProjection p = new MonotoneUnitBoxProjection(m);
            assertThat(p.project(x).point()).containsExactly(x);
            double[] y = randomTarget(rng, m);
            assertThat(ProjectionBruteForce.distance(p.project(y).point(), x))
                    .isLessThanOrEqualTo(ProjectionBruteForce.distance(y, x) + 1e-12);
        }
    }

    @Test
    void poolsViolatorsAndClips() {
        MonotoneUnitBoxProjection p = new MonotoneUnitBoxProjection(4);
        assertThat(p.project(new double[] {0.9, 0.1, 0.5, 0.7}).point()).containsExactly(0.5, 0.5, 0.5, 0.7);
        assertThat(p.project(new double[] {-2, -1, 3, 4}).point()).containsExactly(0, 0, 1, 1);
        assertThat(p.project(new double[] {5, 4, 3, 2}).point()).containsExactly(1, 1, 1, 1);
        // clipping after pooling, not before: the pooled mean of (1.75, −0.25) is 0.75,
        // while clipping first would give (1, 0) and then 0.5
        assertThat(new MonotoneUnitBoxProjection(2).project(new double[] {1.75, -0.25}).point())
                .containsExactly(0.75, 0.75);
    }
}
