package io.privacygateway.mechanisms.local.fo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The tree's structure, its weighted constrained inference (consistency, exactness, optimality) and B. */
class TreeMechanismTest {
    private static final Epsilon EPS = Epsilon.of(1.0);

    @Test
    void shapeOfARaggedTree() {
        TreeMechanism t = new TreeMechanism(10, EPS, 3);
        assertThat(t.height()).isEqualTo(3); // 27 >= 10 > 9
        assertThat(new int[] {t.levelSize(0), t.levelSize(1), t.levelSize(2), t.levelSize(3)}).containsExactly(1, 2, 4, 10);
        assertThat(t.ancestor(9, 1)).isEqualTo(1);
        assertThat(t.ancestor(8, 1)).isZero();
        assertThat(t.ancestor(9, 2)).isEqualTo(3);
        assertThat(t.stateLength()).isEqualTo(3 + 2 + 4 + 10);
        TreeMechanism flat = new TreeMechanism(6, EPS, 6);
        assertThat(flat.height()).isEqualTo(1);
        TreeMechanism big = new TreeMechanism(256, EPS, 4);
        assertThat(big.height()).isEqualTo(4);
        assertThat(big.levelMechanism(1)).isEqualTo(MechanismId.GRR); // 4 nodes: GRR beats OLH at eps = 1
        assertThat(big.levelMechanism(4)).isEqualTo(MechanismId.OLH); // 256 nodes: OLH
        assertThat(big.payloadBytes()).isEqualTo(1);
    }

    /** Node totals A_ℓ f of a leaf vector f. */
    private static double[][] nodeTotals(TreeMechanism t, double[] f) {
        double[][] y = new double[t.height() + 1][];
        for (int l = 0; l <= t.height(); l++) {
            y[l] = new double[t.levelSize(l)];
            for (int x = 0; x < f.length; x++) {
                y[l][t.ancestor(x, l)] += f[x];
            }
        }
        return y;
    }

    private static double[] randomDistribution(int k, Random r) {
        double[] f = new double[k];
        double s = 0;
        for (int x = 0; x < k; x++) {
            f[x] = r.nextDouble() * (x % 4 == 0 ? 0 : 1);
            s += f[x];
        }
        for (int x = 0; x < k; x++) {
            f[x] /= s;
        }
        return f;
    }

    @Test
    void noiseFreeNodeFrequenciesAreRecoveredExactly() {
        Random r = new Random(1);
        for (int[] kb : new int[][] {{10, 3}, {64, 4}, {100, 2}, {37, 5}, {256, 7}}) {
            TreeMechanism t = new TreeMechanism(kb[0], EPS, kb[1]);
            double[] f = randomDistribution(kb[0], r);
            double[] nl = new double[t.height() + 1];
            for (int l = 1; l <= t.height(); l++) {
                nl[l] = 100 + 37 * l; // unequal levels
            }
            double[] w = t.weights(nl, 1000);
            double[] leaves = new TreeEstimator(t).infer(t.plan(w), nodeTotals(t, f))[t.height()];
            for (int x = 0; x < f.length; x++) {
                assertThat(leaves[x]).isCloseTo(f[x], within(1e-12));
            }
            if (t.height() >= 3) { // a middle level without reports does not matter when the leaves are known
                w[2] = 0;
                leaves = new TreeEstimator(t).infer(t.plan(w), nodeTotals(t, f))[t.height()];
                for (int x = 0; x < f.length; x++) {
                    assertThat(leaves[x]).isCloseTo(f[x], within(1e-12));
                }
            }
        }
    }

    private static double[][] randomObservations(TreeMechanism t, Random r) {
        double[][] y = new double[t.height() + 1][];
        for (int l = 1; l <= t.height(); l++) {
            y[l] = new double[t.levelSize(l)];
            for (int u = 0; u < y[l].length; u++) {
                y[l][u] = r.nextGaussian();
            }
        }
        return y;
    }

    private static void assertConsistent(TreeMechanism t, double[][] f) {
        assertThat(f[0][0]).isEqualTo(1.0);
        for (int l = 0; l < t.height(); l++) {
            double[] sums = new double[t.levelSize(l)];
            for (int c = 0; c < t.levelSize(l + 1); c++) {
                assertThat(f[l + 1][c]).isFinite();
                sums[c / t.branching()] += f[l + 1][c];
            }
            for (int p = 0; p < sums.length; p++) {
                assertThat(sums[p]).as("level %d node %d", l, p).isCloseTo(f[l][p], within(1e-9));
            }
        }
        // every prefix, summed from its canonical decomposition into maximal nodes, equals the leaf sum
        int k = t.domainSize();
        double[] leaves = f[t.height()];
        for (int end = 0; end <= k; end++) {
            double fromNodes = 0;
            int pos = 0;
            while (pos < end) {
                int level = t.height();
                long span = 1;
                for (int l = t.height() - 1; l >= 0; l--) {
                    long s = span * t.branching();
                    if (pos % s != 0 || Math.min(pos + s, k) > end) {
                        break;
                    }
                    span = s;
                    level = l;
                }
                fromNodes += f[level][t.ancestor(pos, level)];
                pos = (int) Math.min(pos + span, k);
            }
            double fromLeaves = 0;
            for (int x = 0; x < end; x++) {
                fromLeaves += leaves[x];
            }
            assertThat(fromNodes).as("prefix %d", end).isCloseTo(fromLeaves, within(1e-9));
        }
    }

    @Test
    void fitIsConsistentForArbitraryObservationsAndWeights() {
        Random r = new Random(2);
        for (int[] kb : new int[][] {{10, 3}, {64, 4}, {100, 2}, {37, 5}}) {
            TreeMechanism t = new TreeMechanism(kb[0], EPS, kb[1]);
            double[] w = new double[t.height() + 1];
            for (int l = 1; l <= t.height(); l++) {
                w[l] = 0.1 + r.nextDouble() * 10;
            }
            assertConsistent(t, new TreeEstimator(t).infer(t.plan(w), randomObservations(t, r)));
            w[t.height()] = 0; // no leaf reports: leaves split their parents equally
            assertConsistent(t, new TreeEstimator(t).infer(t.plan(w), randomObservations(t, r)));
            java.util.Arrays.fill(w, 0); // no reports at all: uniform
            double[][] f = new TreeEstimator(t).infer(t.plan(w), randomObservations(t, r));
            assertConsistent(t, f);
        }
    }

    @Test
    void estimatesFromRealStatesAreConsistentEvenWithEmptyLevels() {
        TreeMechanism t = new TreeMechanism(30, EPS, 3);
        RandomBits secret = new SeededRandomBits(3);
        RandomBits bases = new SeededRandomBits(4);
        long[] state = new long[t.stateLength()];
        for (int n = 1; n <= 200; n++) {
            long b = bases.nextLong();
            t.accumulate(t.randomize(n % 30, b, secret), b, state);
            if (n <= 3 || n == 200) {
                assertConsistent(t, new TreeEstimator(t).consistentNodes(state, n));
                double s = 0;
                for (double v : FrequencyOracleEstimator.of(t).estimate(state, n)) {
                    s += v;
                }
                assertThat(s).isCloseTo(1.0, within(1e-9));
            }
        }
    }

    /** The two-pass fit equals the weighted least-squares solution with Σθ = 1, solved directly. */
    @Test
    void fitIsTheConstrainedWeightedLeastSquaresSolution() {
        Random r = new Random(5);
        for (int[] kb : new int[][] {{7, 2}, {10, 3}, {9, 4}}) {
            TreeMechanism t = new TreeMechanism(kb[0], EPS, kb[1]);
            int k = kb[0];
            double[] w = new double[t.height() + 1];
            for (int l = 1; l <= t.height(); l++) {
                w[l] = 0.2 + r.nextDouble() * 5;
            }
            double[][] y = randomObservations(t, r);
            double[] fit = new TreeEstimator(t).infer(t.plan(w), y)[t.height()];
            // KKT system: [A'WA  1; 1'  0] [θ; λ] = [A'Wy; 1]
            double[][] m = new double[k + 1][k + 2];
            for (int l = 1; l <= t.height(); l++) {
                for (int a = 0; a < k; a++) {
                    for (int b = 0; b < k; b++) {
                        if (t.ancestor(a, l) == t.ancestor(b, l)) {
                            m[a][b] += w[l];
                        }
                    }
                    m[a][k + 1] += w[l] * y[l][t.ancestor(a, l)];
                }
            }
            for (int a = 0; a < k; a++) {
                m[a][k] = 1;
                m[k][a] = 1;
            }
            m[k][k + 1] = 1;
            double[] theta = solve(m);
            for (int x = 0; x < k; x++) {
                assertThat(fit[x]).isCloseTo(theta[x], within(1e-10));
            }
        }
    }

    private static double[] solve(double[][] m) {
        int n = m.length;
        for (int c = 0; c < n; c++) {
            int piv = c;
            for (int i = c + 1; i < n; i++) {
                if (Math.abs(m[i][c]) > Math.abs(m[piv][c])) {
                    piv = i;
                }
            }
            double[] tmp = m[c];
            m[c] = m[piv];
            m[piv] = tmp;
            for (int i = 0; i < n; i++) {
                if (i != c) {
                    double f = m[i][c] / m[c][c];
                    for (int j = c; j <= n; j++) {
                        m[i][j] -= f * m[c][j];
                    }
                }
            }
        }
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = m[i][n] / m[i][i];
        }
        return x;
    }

    /** The adjoint pass gives the query's node coefficients: Σ c_x ΔF(x) = Σ ⟨u, Δy⟩. */
    @Test
    void adjointMatchesTheFit() {
        Random r = new Random(6);
        for (int[] kb : new int[][] {{10, 3}, {64, 4}, {37, 5}}) {
            TreeMechanism t = new TreeMechanism(kb[0], EPS, kb[1]);
            for (int trial = 0; trial < 3; trial++) {
                double[] w = new double[t.height() + 1];
                for (int l = 1; l <= t.height(); l++) {
                    w[l] = trial == 2 && l == 1 ? 0 : 0.1 + r.nextDouble() * 10;
                }
                if (trial == 1) {
                    w[t.height()] = 0;
                }
                TreeMechanism.Plan plan = t.plan(w);
                double[] c = new double[kb[0]];
                for (int x = 0; x < c.length; x++) {
                    c[x] = r.nextGaussian();
                }
                double[][] u = t.adjoint(plan, c);
                double[][] y1 = randomObservations(t, r);
                double[][] y2 = randomObservations(t, r);
                double[] f1 = new TreeEstimator(t).infer(plan, y1)[t.height()];
                double[] f2 = new TreeEstimator(t).infer(plan, y2)[t.height()];
                double lhs = 0;
                for (int x = 0; x < c.length; x++) {
                    lhs += c[x] * (f1[x] - f2[x]);
                }
                double rhs = 0;
                for (int l = 1; l <= t.height(); l++) {
                    for (int v = 0; v < u[l].length; v++) {
                        rhs += u[l][v] * (y1[l][v] - y2[l][v]);
                    }
                }
                assertThat(lhs).isCloseTo(rhs, within(1e-9));
            }
        }
    }

    /** The prefix of all buckets is the fixed root: zero variance; prefixes get much less variance than leaf sums. */
    @Test
    void prefixVariancesBenefitFromTheTree() {
        TreeMechanism t = new TreeMechanism(256, EPS, 4);
        double[] f = FrequencyOracles.uniform(256);
        double[] all = new double[256];
        java.util.Arrays.fill(all, 1);
        assertThat(FrequencyOracleEstimator.of(t).queryVariance(10_000, f, all)).isCloseTo(0, within(1e-15));
        double[] half = new double[256];
        java.util.Arrays.fill(half, 0, 128, 1);
        double[] v = FrequencyOracleEstimator.of(t).variances(10_000, f);
        double sumOfLeafVariances = 0;
        for (int x = 0; x < 128; x++) {
            sumOfLeafVariances += v[x];
        }
        assertThat(FrequencyOracleEstimator.of(t).queryVariance(10_000, f, half)).isLessThan(sumOfLeafVariances / 10);
        // and the tree beats the flat OLH on the half-domain prefix
        OptimizedLocalHashing flat = new OptimizedLocalHashing(256, EPS);
        assertThat(FrequencyOracleEstimator.of(t).queryVariance(10_000, f, half)).isLessThan(FrequencyOracleEstimator.of(flat).queryVariance(10_000, f, half));
    }

    @Test
    void optimalBranchingIsFoundQuickly() {
        StringBuilder sb = new StringBuilder("optimal B:");
        for (int k : new int[] {16, 64, 256, 1024}) {
            for (double eps : new double[] {0.5, 1, 2, 4}) {
                long t0 = System.nanoTime();
                int b = TreeMechanism.optimalBranching(k, Epsilon.of(eps));
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertThat(b).isBetween(2, 16);
                assertThat(ms).as("k=%d eps=%s", k, eps).isLessThan(5_000);
                sb.append(String.format(" k=%d/eps=%s:B=%d(%dms)", k, eps, b, ms));
                // it is the minimiser over the searched range
                double best = new TreeMechanism(k, Epsilon.of(eps), b).averageRangeVariance(1);
                for (int other : new int[] {2, 4, 8, 16}) {
                    if (other <= k) {
                        assertThat(best).isLessThanOrEqualTo(new TreeMechanism(k, Epsilon.of(eps), other).averageRangeVariance(1));
                    }
                }
            }
        }
        assertThat(TreeMechanism.optimalBranching(5000, EPS)).isEqualTo(4);
        System.out.println(sb);
    }

    /**
     * A workload's tree takes the branching factor that suits its own queries: the brute-force argmin over
     * B ∈ [2, 16] of the mean closed-form variance of the workload's queries at uniform data. A 32-bucket CDF takes
     * B = 2 at ε ≤ 1 (the all-ranges choice it had before is 6, with 10–12% more variance on the prefixes), a
     * 128-bucket CDF at ε = 4 takes 2 (before: 12); all ranges over 32 buckets keep 6. The protocol built from a
     * workload carries it.
     */
    @Test
    void aWorkloadsTreeTakesTheBranchingThatSuitsItsOwnQueries() {
        record Case(String family, int k, double epsilon, int expected) {}
        for (Case c : java.util.List.of(new Case("cdf", 32, 0.5, 2), new Case("cdf", 32, 1, 2),
                new Case("cdf", 128, 4, 2), new Case("range", 32, 1, 6))) {
            io.privacygateway.mechanisms.workload.Workload w = io.privacygateway.mechanisms.workload.Workload.of(
                    io.privacygateway.mechanisms.testing.TestWorkloads.local(c.family(),
                            io.privacygateway.mechanisms.testing.TestWorkloads.buckets(c.k()), "tree"));
            Epsilon e = Epsilon.of(c.epsilon());
            double[] uniform = FrequencyOracles.uniform(c.k());
            int argmin = 0;
            double best = Double.POSITIVE_INFINITY;
            for (int b = 2; b <= 16; b++) {
                double mean = java.util.Arrays.stream(FrequencyOracleEstimator.of(new TreeMechanism(c.k(), e, b)).queryVariances(1, uniform,
                        w.points())).average().orElseThrow();
                if (mean < best * (1 - 1e-12)) {
                    best = mean;
                    argmin = b;
                }
            }
            assertThat(argmin).as("%s", c).isEqualTo(c.expected());
            assertThat(TreeMechanism.optimalBranching(e, w.points())).as("%s", c).isEqualTo(c.expected());
            TreeMechanism built = (TreeMechanism) FrequencyOracleProtocol.of(w, MechanismId.TREE, e).oracle();
            assertThat(built.branching()).as("%s", c).isEqualTo(c.expected());
        }
        assertThat(TreeMechanism.optimalBranching(32, Epsilon.of(1))).isEqualTo(6); // the all-ranges rule, unchanged
    }
}
