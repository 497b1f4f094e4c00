package io.privacygateway.mechanisms.projection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

class ProjectionSimplexTest {
    private static final double EPS = 1e-12;

    private static double[] randomTarget(UniformRandomProvider rng, int m, double spread) {
        double[] y = new double[m];
        for (int i = 0; i < m; i++) {
            y[i] = spread * (2 * rng.nextDouble() - 1) + 1.0 / m;
        }
        return y;
    }

    /** p_i = max(y_i − τ, 0) for one τ, p ≥ 0 and Σp = 1. */
    private static void assertKkt(double[] y, double[] p) {
        double sum = 0;
        double tau = Double.NaN;
        for (int i = 0; i < y.length; i++) {
            assertThat(p[i]).isGreaterThanOrEqualTo(0);
            sum += p[i];
            if (p[i] > 0) {
                if (Double.isNaN(tau)) {
                    tau = y[i] - p[i];
                }
                assertThat(y[i] - p[i]).isCloseTo(tau, within(1e-12 * (1 + Math.abs(tau))));
            }
        }
        assertThat(sum).isCloseTo(1.0, within(1e-12));
        for (int i = 0; i < y.length; i++) {
            if (p[i] == 0) {
                assertThat(y[i]).isLessThanOrEqualTo(tau + 1e-12 * (1 + Math.abs(tau)));
            }
        }
    }

    @Test
    void satisfiesKktAndMatchesBruteForceOverSupports() {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(11L);
        for (int trial = 0; trial < 400; trial++) {
            int m = 1 + trial % 8;
            double[] y = randomTarget(rng, m, trial % 3 == 0 ? 3.0 : 0.5);
            ProjectionResult r = new SimplexProjection(m).project(y);
            assertKkt(y, r.point());
            double[] bf = ProjectionBruteForce.simplex(y);
            assertThat(ProjectionBruteForce.distance(r.point(), bf)).isLessThan(1e-12);
            assertThat(r.dualityGap()).isZero();
            assertThat(r.weights()).isNull();
            assertThat(r.iterations()).isZero();
        }
    }

    @Test
    void satisfiesKktInHighDimensionWithTies() {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(12L);
        int m = 1000;
        double[] y = new double[m];
        for (int i = 0; i < m; i++) {
            y[i] = Math.floor(10 * rng.nextDouble()) / 100; // many exact ties
        }
        assertKkt(y, new SimplexProjection(m).project(y).point());
    }

    @Test
    void pointsOfTheSimplexAreFixedAndVerticesStay() {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(13L);
        for (int trial = 0; trial < 50; trial++) {
            int m = 2 + trial % 20;
            double[] p = ProjectionHullTest.randomConvexWeights(rng, m);
            double[] q = new SimplexProjection(m).project(p).point();
            assertThat(ProjectionBruteForce.distance(p, q)).isLessThan(1e-14);
        }
        double[] vertex = {0, 0, 1, 0};
        assertThat(new SimplexProjection(4).project(vertex).point()).containsExactly(0, 0, 1, 0);
        assertThat(new SimplexProjection(1).project(new double[] {-7.5}).point()).containsExactly(1.0);
    }

    @Test
    void isNonExpansiveTowardPointsOfTheSimplex() {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(14L);
        for (int trial = 0; trial < 200; trial++) {
            int m = 2 + trial % 10;
            double[] y = randomTarget(rng, m, 2.0);
            double[] x = ProjectionHullTest.randomConvexWeights(rng, m);
            double[] p = new SimplexProjection(m).project(y).point();
            assertThat(ProjectionBruteForce.distance(p, x))
                    .isLessThanOrEqualTo(ProjectionBruteForce.distance(y, x) + EPS);
        }
    }

    @Test
    void farAwayTargetsGoToTheRightVertexOrFace() {
        double[] y = {1e9, -3e9, 0.5e9};
        assertThat(new SimplexProjection(3).project(y).point()).containsExactly(1, 0, 0);
        double[] tie = {1e6, 1e6, -1e6};
        assertThat(new SimplexProjection(3).project(tie).point()).containsExactly(0.5, 0.5, 0);
    }
}
