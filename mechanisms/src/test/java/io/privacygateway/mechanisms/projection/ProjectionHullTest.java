package io.privacygateway.mechanisms.projection;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.testing.SyntheticPointSets;
import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

class ProjectionHullTest {

    static double[] randomConvexWeights(UniformRandomProvider rng, int n) {
        double[] p = new double[n];
        double s = 0;
        for (int i = 0; i < n; i++) {
            p[i] = -Math.log(1 - rng.nextDouble());
            s += p[i];
        }
        for (int i = 0; i < n; i++) {
            p[i] /= s;
        }
        return p;
    }

    static double[] combine(double[][] atoms, double[] p) {
        double[] w = new double[atoms[0].length];
        for (int i = 0; i < atoms.length; i++) {
            for (int t = 0; t < w.length; t++) {
                w[t] += p[i] * atoms[i][t];
            }
        }
        return w;
    }

    /** Atoms with coordinates from a small grid, so duplicates and collinear triples are common. */
    private static double[][] gridAtoms(UniformRandomProvider rng, int n, int m) {
        double[][] a = new double[n][m];
        for (int i = 0; i < n; i++) {
            for (int t = 0; t < m; t++) {
                a[i][t] = rng.nextInt(3) / 2.0;
            }
        }
        return a;
    }

    private static double[][] uniformAtoms(UniformRandomProvider rng, int n, int m) {
        double[][] a = new double[n][m];
        for (int i = 0; i < n; i++) {
            for (int t = 0; t < m; t++) {
                a[i][t] = rng.nextDouble();
            }
        }
        return a;
    }

    private static double[] randomTarget(UniformRandomProvider rng, int m, double spread) {
        double[] y = new double[m];
        for (int t = 0; t < m; t++) {
            y[t] = 0.5 + spread * (2 * rng.nextDouble() - 1);
        }
        return y;
    }

    /**
     * Checks, independently of the solver: the weights are convex and reproduce the point; every atom
     * satisfies ⟨y − w, a_i − w⟩ ≤ reported gap (up to the rounding of this check); and the reported
     * gap respects the tolerance unless the run was capped.
     */
    static void assertCertified(double[][] atoms, double[] y, ProjectionResult r, double tol) {
        double[] p = r.weights();
        assertThat(p).hasSize(atoms.length);
        double sum = 0;
        for (double v : p) {
            assertThat(v).isGreaterThanOrEqualTo(0);
            sum += v;
        }
        assertThat(sum).isCloseTo(1.0, org.assertj.core.api.Assertions.within(1e-12));
        assertThat(ProjectionBruteForce.distance(combine(atoms, p), r.point())).isLessThan(1e-12);
        double naiveGap = ProjectionBruteForce.frankWolfeGap(atoms, r.point(), y);
        assertThat(naiveGap).isLessThanOrEqualTo(r.dualityGap() + 1e-13);
        assertThat(r.dualityGap()).isLessThanOrEqualTo(tol);
        assertThat(Arrays.stream(p).filter(v -> v > 0).count()).isLessThanOrEqualTo(y.length + 1L);
    }

    private static void assertMatchesBruteForce(double[][] atoms, double[] y, double tol) {
        PointSet set = PointSet.of(y.length, atoms);
        ProjectionResult r = new HullProjection(set, tol).project(y);
        assertCertified(atoms, y, r, tol);
        double[] exact = ProjectionBruteForce.hull(atoms, y);
        double excess = ProjectionBruteForce.objective(r.point(), y) - ProjectionBruteForce.objective(exact, y);
        // the reported gap bounds the excess objective, and strong convexity bounds the distance
        assertThat(excess).isLessThanOrEqualTo(r.dualityGap() + 1e-12);
        assertThat(excess).isGreaterThanOrEqualTo(-1e-12);
        assertThat(ProjectionBruteForce.distance(r.point(), exact))
                .isLessThanOrEqualTo(Math.sqrt(2 * r.dualityGap()) + 1e-6);
    }

    @Test
    void matchesBruteForceOnTinyInstances() {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(31L);
        for (int trial = 0; trial < 600; trial++) {
            int n = 1 + trial % 6;
            int m = 2 + trial % 3;
            double[][] atoms = trial % 2 == 0 ? uniformAtoms(rng, n, m) : gridAtoms(rng, n, m);
            double[] y = randomTarget(rng, m, trial % 4 == 0 ? 3.0 : 0.8);
            assertMatchesBruteForce(atoms, y, 1e-12);
        }
    }

    /** A tolerance below the rounding floor must not stop the run early: it converges as far as it can. */
    @Test
    void zeroToleranceConvergesToTheRoundingFloor() {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(43L);
        for (int trial = 0; trial < 200; trial++) {
            int n = 2 + trial % 5;
            int m = 2 + trial % 3;
            double[][] atoms = trial % 2 == 0 ? uniformAtoms(rng, n, m) : gridAtoms(rng, n, m);
            double[] y = randomTarget(rng, m, 4.0);
            ProjectionResult r = new HullProjection(PointSet.of(m, atoms), 0.0).project(y);
            double[] exact = ProjectionBruteForce.hull(atoms, y);
            assertThat(ProjectionBruteForce.frankWolfeGap(atoms, r.point(), y)).isLessThanOrEqualTo(r.dualityGap());
            assertThat(r.dualityGap()).isLessThan(1e-12);
            assertThat(ProjectionBruteForce.distance(r.point(), exact)).isLessThan(2e-6);
        }
    }

    @Test
    void reportedGapBoundsTheExcessAtLooseTolerances() {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(32L);
        for (int trial = 0; trial < 300; trial++) {
            int n = 3 + trial % 4;
            int m = 2 + trial % 3;
            double[][] atoms = uniformAtoms(rng, n, m);
            double[] y = randomTarget(rng, m, 1.5);
            assertMatchesBruteForce(atoms, y, trial % 2 == 0 ? 1e-2 : 1e-4);
        }
    }

    @Test
    void oneHotAtomsGiveTheExactSimplexProjection() {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(33L);
        for (int trial = 0; trial < 40; trial++) {
            int m = 2 + trial;
            double[][] oneHot = new double[m][m];
            for (int i = 0; i < m; i++) {
                oneHot[i][i] = 1;
            }
            double[] y = randomTarget(rng, m, 1.0);
            for (int t = 0; t < m; t++) {
                y[t] -= 0.5 - 1.0 / m;
            }
            ProjectionResult r = new HullProjection(PointSet.of(m, oneHot), 1e-12).project(y);
            assertCertified(oneHot, y, r, 1e-12);
            double[] exact = new SimplexProjection(m).project(y).point();
            assertThat(ProjectionBruteForce.distance(r.point(), exact)).isLessThan(2e-6);
            assertThat(r.weights()).containsExactly(r.point());
        }
    }

    @Test
    void cdfAtomsGiveTheExactMonotoneBoxProjection() {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(34L);
        for (int trial = 0; trial < 40; trial++) {
            int k = 3 + trial; // buckets; m = k − 1 prefix queries q_t(x) = 1{x < t}
            int m = k - 1;
            double[][] steps = new double[k][m];
            for (int x = 0; x < k; x++) {
                for (int t = 1; t < k; t++) {
                    steps[x][t - 1] = x < t ? 1 : 0;
                }
            }
            double[] y = new double[m];
            for (int t = 0; t < m; t++) {
                y[t] = (t + 1.0) / k + 0.3 * (2 * rng.nextDouble() - 1) + (trial % 5 == 0 ? 0.8 : 0);
            }
            ProjectionResult r = new HullProjection(PointSet.of(m, steps), 1e-12).project(y);
            assertCertified(steps, y, r, 1e-12);
            double[] exact = new MonotoneUnitBoxProjection(m).project(y).point();
            assertThat(ProjectionBruteForce.distance(r.point(), exact)).isLessThan(2e-6);
        }
    }

    @Test
    void certifiesRandomZeroOneInstancesOfModerateSize() {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(35L);
        for (int trial = 0; trial < 12; trial++) {
            int n = 50 + 40 * trial;
            int m = 10 + 5 * trial;
            PointSet set = SyntheticPointSets.randomBinaryPoints(n, m, 0.1, 0.5, rng);
            double[][] atoms = rows(set);
            double[] y = SyntheticPointSets.noisyMean(set, 200, trial % 3 == 0 ? 0.2 : 0.02, rng);
            double tol = 1e-9;
            ProjectionResult r = new HullProjection(set, tol).project(y);
            assertCertified(atoms, y, r, tol);
            assertThat(r.iterations()).isLessThanOrEqualTo(HullProjection.defaultMaxIterations(set));
        }
    }

    @Test
    void certifiesAffinelyDependentMarginalAtoms() {
        // 2-way marginals over 4 binary attributes: 16 atoms in R^24 spanning an 10-dimensional affine space
        int d = 4;
        double[][] atoms = new double[1 << d][24];
        for (int x = 0; x < (1 << d); x++) {
            int q = 0;
            for (int i = 0; i < d; i++) {
                for (int j = i + 1; j < d; j++) {
                    for (int cell = 0; cell < 4; cell++) {
                        boolean match = ((x >>> i) & 1) == (cell >>> 1) && ((x >>> j) & 1) == (cell & 1);
                        atoms[x][q++] = match ? 1 : 0;
                    }
                }
            }
        }
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(36L);
        PointSet set = PointSet.of(24, atoms);
        for (int trial = 0; trial < 30; trial++) {
            double sigma = trial % 2 == 0 ? 0.05 : 0.3;
            double[] y = SyntheticPointSets.noisyMean(set, 50, sigma, rng);
            ProjectionResult r = new HullProjection(set, 1e-12).project(y);
            assertCertified(atoms, y, r, 1e-12);
            assertThat(Arrays.stream(r.weights()).filter(v -> v > 0).count()).isLessThanOrEqualTo(11);
        }
    }

    @Test
    void pointsOfTheHullAreFixed() {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(37L);
        for (int trial = 0; trial < 60; trial++) {
            int n = 2 + trial % 30;
            int m = 2 + trial % 7;
            double[][] atoms = trial % 2 == 0 ? uniformAtoms(rng, n, m) : gridAtoms(rng, n, m);
            double[] x = combine(atoms, randomConvexWeights(rng, n));
            ProjectionResult r = new HullProjection(PointSet.of(m, atoms), 1e-12).project(x);
            assertCertified(atoms, x, r, 1e-12);
            assertThat(ProjectionBruteForce.distance(r.point(), x)).isLessThanOrEqualTo(r.distanceBound() + 1e-9);
        }
    }

    @Test
    void isNonExpansiveTowardPointsOfTheHull() {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(38L);
        for (int trial = 0; trial < 100; trial++) {
            int n = 2 + trial % 25;
            int m = 2 + trial % 6;
            double[][] atoms = uniformAtoms(rng, n, m);
            HullProjection hull = new HullProjection(PointSet.of(m, atoms), 1e-10);
            double[] y = randomTarget(rng, m, 2.0);
            ProjectionResult r = hull.project(y);
            for (int k = 0; k < 5; k++) {
                double[] x = combine(atoms, randomConvexWeights(rng, n));
                assertThat(ProjectionBruteForce.distance(r.point(), x))
                        .isLessThanOrEqualTo(ProjectionBruteForce.distance(y, x) + r.distanceBound() + 1e-12);
            }
        }
    }

    @Test
    void handlesASingleAtomAndDuplicates() {
        double[][] one = {{0.2, 0.7, 0.1}};
        ProjectionResult r = new HullProjection(PointSet.of(3, one), 0.0).project(new double[] {5, -5, 1});
        assertThat(r.point()).containsExactly(0.2, 0.7, 0.1);
        assertThat(r.weights()).containsExactly(1.0);
        assertThat(r.dualityGap()).isLessThan(1e-12);

        double[][] dup = {{0, 0}, {1, 0}, {1, 0}, {0, 0}, {1, 0}, {0, 1}};
        double[] y = {0.8, 0.9};
        ProjectionResult d = new HullProjection(PointSet.of(2, dup), 1e-12).project(y);
        assertCertified(dup, y, d, 1e-12);
        assertThat(ProjectionBruteForce.distance(d.point(), new double[] {0.45, 0.55})).isLessThan(1e-6);
    }

    @Test
    void targetsOnVerticesAndEdgesAreExact() {
        double[][] square = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0.5, 0.5}};
        HullProjection hull = new HullProjection(PointSet.of(2, square), 1e-12);
        for (double[] v : square) {
            ProjectionResult r = hull.project(v);
            assertThat(ProjectionBruteForce.distance(r.point(), v)).isLessThan(1e-12);
            assertCertified(square, v, r, 1e-12);
        }
        double[] onEdge = {1.0, 0.25};
        ProjectionResult e = hull.project(onEdge);
        assertThat(ProjectionBruteForce.distance(e.point(), onEdge)).isLessThan(1e-9);
        double[] collinear = {2.0, 2.0}; // nearest point is the vertex (1, 1), also on the diagonal
        assertThat(ProjectionBruteForce.distance(hull.project(collinear).point(), new double[] {1, 1}))
                .isLessThan(1e-9);
    }

    @Test
    void farAwayTargetsAreCertifiedHonestly() {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(39L);
        for (int trial = 0; trial < 60; trial++) {
            int n = 2 + trial % 5;
            int m = 2 + trial % 3;
            double[][] atoms = uniformAtoms(rng, n, m);
            double scale = trial % 2 == 0 ? 1e3 : 1e6;
            double[] y = randomTarget(rng, m, scale);
            ProjectionResult r = new HullProjection(PointSet.of(m, atoms), 1e-9).project(y);
            double[] exact = ProjectionBruteForce.hull(atoms, y);
            double naiveGap = ProjectionBruteForce.frankWolfeGap(atoms, r.point(), y);
            // at this distance the rounding of the check itself is about 1e-16·‖y‖·diam
            double slack = 1e-14 * scale;
            assertThat(naiveGap).isLessThanOrEqualTo(r.dualityGap() + slack);
            double excess = ProjectionBruteForce.objective(r.point(), y) - ProjectionBruteForce.objective(exact, y);
            assertThat(excess).isLessThanOrEqualTo(r.dualityGap() + slack);
            assertThat(ProjectionBruteForce.distance(r.point(), exact))
                    .isLessThanOrEqualTo(Math.sqrt(2 * (r.dualityGap() + slack)) + 1e-9);
        }
    }

    @Test
    void aCappedRunReportsTheGapItAchieved() {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(40L);
        PointSet set = SyntheticPointSets.randomBinaryPoints(300, 40, 0.1, 0.5, rng);
        double[][] atoms = rows(set);
        double[] y = SyntheticPointSets.noisyMean(set, 100, 0.02, rng);
        double previous = Double.POSITIVE_INFINITY;
        for (int cap : new int[] {1, 5, 20}) {
            ProjectionResult r = new HullProjection(set, 1e-12, cap).project(y);
            assertThat(r.iterations()).isLessThanOrEqualTo(cap);
            double naiveGap = ProjectionBruteForce.frankWolfeGap(atoms, r.point(), y);
            assertThat(naiveGap).isLessThanOrEqualTo(r.dualityGap() + 1e-13);
            assertThat(r.dualityGap()).isLessThanOrEqualTo(naiveGap + 1e-10); // honest, not inflated
            assertThat(r.dualityGap()).isGreaterThan(1e-12); // not converged this early
            assertThat(ProjectionBruteForce.objective(r.point(), y)).isLessThanOrEqualTo(previous);
            previous = ProjectionBruteForce.objective(r.point(), y);
        }
    }

    @Test
    void warmStartsReachTheSameCertifiedAnswer() {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(41L);
        PointSet set = SyntheticPointSets.randomBinaryPoints(400, 30, 0.1, 0.5, rng);
        double[][] atoms = rows(set);
        HullProjection hull = new HullProjection(set, 1e-10);
        double[] y = SyntheticPointSets.noisyMean(set, 500, 0.02, rng);
        ProjectionResult cold = hull.project(y);
        assertCertified(atoms, y, cold, 1e-10);
        // restarting from the optimal weights needs no further iteration
        ProjectionResult again = hull.project(y, cold.weights());
        assertCertified(atoms, y, again, 1e-10);
        assertThat(again.iterations()).isZero();
        // a nearby target (the next window) from the previous weights
        double[] next = y.clone();
        for (int t = 0; t < next.length; t++) {
            next[t] += 0.01 * (2 * rng.nextDouble() - 1);
        }
        ProjectionResult warm = hull.project(next, cold.weights());
        ProjectionResult reference = hull.project(next);
        assertCertified(atoms, next, warm, 1e-10);
        assertThat(ProjectionBruteForce.distance(warm.point(), reference.point()))
                .isLessThanOrEqualTo(warm.distanceBound() + reference.distanceBound() + 1e-12);
        // arbitrary (even uniform) initial weights are valid starts
        double[] uniform = new double[set.size()];
        Arrays.fill(uniform, 3.0);
        assertCertified(atoms, next, hull.project(next, uniform), 1e-10);
    }

    @Test
    void concurrentCallsGiveTheSameAnswersAsSequentialOnes() throws Exception {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(42L);
        PointSet set = SyntheticPointSets.randomBinaryPoints(300, 25, 0.1, 0.5, rng);
        HullProjection hull = new HullProjection(set, 1e-10);
        double[][] targets = new double[16][];
        ProjectionResult[] sequential = new ProjectionResult[targets.length];
        for (int i = 0; i < targets.length; i++) {
            targets[i] = SyntheticPointSets.noisyMean(set, 100, 0.05, rng);
            sequential[i] = hull.project(targets[i]);
        }
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            java.util.List<java.util.concurrent.Future<ProjectionResult>> futures = new java.util.ArrayList<>();
            for (double[] y : targets) {
                futures.add(pool.submit(() -> hull.project(y)));
            }
            for (int i = 0; i < targets.length; i++) {
                ProjectionResult r = futures.get(i).get();
                assertThat(r.point()).containsExactly(sequential[i].point());
                assertThat(r.dualityGap()).isEqualTo(sequential[i].dualityGap());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    static double[][] rows(PointSet set) {
        double[][] a = new double[set.size()][];
        for (int i = 0; i < a.length; i++) {
            a[i] = set.row(i);
        }
        return a;
    }
}
