package io.privacygateway.mechanisms.local.fo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.coins.PublicCoins;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The tree's variance model and planning, checked against independent dense computations on tiny trees:
 * the level variance {@code V_ℓ} from the oracles' closed forms, the weights, the fit's linear map (built by
 * applying the fit to unit observations) and its transpose, query variances from dense per-report
 * covariances plus the level-assignment term, the average over all ranges by brute force, and the
 * branching factor search.
 */
class TreeMechanismModelTest {
    /** (k, B) of tiny trees: ragged ones, binary ones, flat ones and a height-1 tree. */
    private static final int[][] TREES = {{7, 3}, {12, 2}, {10, 3}, {9, 4}, {5, 2}, {2, 2}, {6, 6}, {13, 4}, {11, 3}};
    private static final double[] EPSILONS = {0.5, 1, 3};

    /** A relative tolerance of 1e-11 (the dense checks agree to ~1e-14; any changed term moves far more). */
    private static double relTol(double expected) {
        return 1e-11 * Math.abs(expected) + 1e-300;
    }

    /** {@code p*, q*, P(S_x = S_y = 1 | both other), P(S_v = S_y = 1)} of a level oracle, from its definition. */
    private static double[] law(SupportCountOracle o, int size) {
        double p = o.pStar();
        if (o instanceof OptimizedLocalHashing olh) {
            assertThat(o.id()).isEqualTo(MechanismId.OLH);
            double g = olh.range();
            // report = GRR over [g] of h(v); a value x != v is supported iff h(x) = report, h(x) uniform
            return new double[] {p, 1 / g, 1 / (g * g), p / g};
        }
        assertThat(o).isInstanceOf(GeneralizedRandomizedResponse.class);
        return new double[] {p, (1 - p) / (size - 1), 0, 0}; // one supported value per report
    }

    /** The per-node variance at uniform frequencies over {@code size} nodes with {@code nl} reports. */
    private static double closedNodeVariance(SupportCountOracle o, int size, double nl) {
        double[] law = law(o, size);
        double p = law[0];
        double q = law[1];
        double f = 1.0 / size;
        return (f * p * (1 - p) + (1 - f) * q * (1 - q)) / (nl * (p - q) * (p - q));
    }

    /** The level's model variance: the oracle's closed form plus the window sampling term. */
    private static double expectedLevelVariance(TreeMechanism t, int l, double nl, double n) {
        int d = t.levelSize(l);
        double sampling = (1.0 / d) * (1 - 1.0 / d) * Math.max(0, 1 / nl - 1 / n);
        return closedNodeVariance(t.levelOracle(l), d, nl) + sampling;
    }

    /** {@code B^{h−ℓ}}, the span of a level-{@code ℓ} node, computed here rather than by the tree. */
    private static long span(TreeMechanism t, int l) {
        long s = 1;
        for (int i = l; i < t.height(); i++) {
            s *= t.branching();
        }
        return s;
    }

    /** Level sizes {@code ⌈k / B^{h−ℓ}⌉}, computed independently. */
    private static int[] sizes(TreeMechanism t) {
        int[] d = new int[t.height() + 1];
        for (int l = 0; l <= t.height(); l++) {
            d[l] = (int) ((t.domainSize() + span(t, l) - 1) / span(t, l));
        }
        return d;
    }

    /**
     * The fit's linear part as a dense matrix: {@code m[l][j][x]} is the change of leaf {@code x} when the
     * observation of node {@code j} of level {@code l} rises by 1 (the fit is affine: root fixed at 1).
     */
    private static double[][][] fitMatrix(TreeMechanism t, TreeMechanism.Plan plan) {
        int h = t.height();
        int[] d = sizes(t);
        double[][] y = new double[h + 1][];
        for (int l = 1; l <= h; l++) {
            y[l] = new double[d[l]];
        }
        double[] base = new TreeEstimator(t).infer(plan, y)[h];
        double[][][] m = new double[h + 1][][];
        for (int l = 1; l <= h; l++) {
            m[l] = new double[d[l]][];
            for (int j = 0; j < d[l]; j++) {
                y[l][j] = 1;
                double[] leaves = new TreeEstimator(t).infer(plan, y)[h];
                y[l][j] = 0;
                m[l][j] = new double[leaves.length];
                for (int x = 0; x < leaves.length; x++) {
                    m[l][j][x] = leaves[x] - base[x];
                }
            }
        }
        return m;
    }

    /** Node coefficients {@code Mᵀc} of a leaf query {@code c}. */
    private static double[][] transposeTimes(double[][][] m, double[] c) {
        double[][] u = new double[m.length][];
        u[0] = new double[1];
        for (int l = 1; l < m.length; l++) {
            u[l] = new double[m[l].length];
            for (int j = 0; j < m[l].length; j++) {
                double s = 0;
                for (int x = 0; x < c.length; x++) {
                    s += m[l][j][x] * c[x];
                }
                u[l][j] = s;
            }
        }
        return u;
    }

    /**
     * Variance of {@code ⟨u, ŷ⟩} for one level oracle from the dense per-report covariance of the support
     * vector {@code S}: {@code Σ_v F_v uᵀ Cov(S | v) u / (nl (p* − q*)²)}.
     */
    private static double denseOracleVariance(SupportCountOracle o, int size, double nl, double[] freq, double[] u) {
        double[] law = law(o, size);
        double p = law[0];
        double q = law[1];
        double total = 0;
        for (int v = 0; v < size; v++) {
            double second = 0;
            double mean = 0;
            for (int x = 0; x < size; x++) {
                double ex = x == v ? p : q;
                mean += u[x] * ex;
                for (int z = 0; z < size; z++) {
                    double exz = x == z ? ex : (x == v || z == v ? law[3] : law[2]);
                    second += u[x] * u[z] * exz;
                }
            }
            total += freq[v] * (second - mean * mean);
        }
        return total / (nl * (p - q) * (p - q));
    }

    /**
     * The model variance of the query {@code c} at frequencies {@code f} for {@code n} reports and the design
     * {@code n_ℓ = n/h}, computed densely: level oracles with node frequencies {@code min(1, Σ f)} plus the
     * variance of the uniform level assignment, {@code (1/n) Σ_x f_x [h Σ_ℓ r_ℓ² − (Σ_ℓ r_ℓ)²]}.
     */
    private static double expectedQueryVariance(TreeMechanism t, double n, double[] f, double[] c) {
        int h = t.height();
        int[] d = sizes(t);
        double[] w = new double[h + 1];
        for (int l = 1; l <= h; l++) {
            w[l] = 1 / expectedLevelVariance(t, l, n / h, n);
        }
        double[][] u = transposeTimes(fitMatrix(t, t.plan(w)), c);
        double var = 0;
        for (int l = 1; l <= h; l++) {
            double[] freq = new double[d[l]];
            for (int x = 0; x < f.length; x++) {
                freq[(int) (x / span(t, l))] += f[x];
            }
            for (int j = 0; j < freq.length; j++) {
                freq[j] = Math.min(1, freq[j]);
            }
            var += denseOracleVariance(t.levelOracle(l), d[l], n / h, freq, u[l]);
        }
        double assignment = 0;
        for (int x = 0; x < f.length; x++) {
            double s1 = 0;
            double s2 = 0;
            for (int l = 1; l <= h; l++) {
                double r = u[l][(int) (x / span(t, l))];
                s1 += r;
                s2 += r * r;
            }
            assignment += f[x] * (h * s2 - s1 * s1);
        }
        return var + assignment / n;
    }

    private static double[] randomFrequencies(int k, Random r) {
        double[] f = new double[k];
        double s = 0;
        for (int x = 0; x < k; x++) {
            f[x] = x % 3 == 1 ? 0 : 0.1 + r.nextDouble();
            s += f[x];
        }
        for (int x = 0; x < k; x++) {
            f[x] /= s;
        }
        return f;
    }

    /** Level sizes are {@code ⌈k / B^{h−ℓ}⌉} with {@code h} the least height whose span covers k. */
    @Test
    void levelSizesAreCeilingsOfTheDomainOverTheSpans() {
        for (int k = 2; k <= 40; k++) {
            for (int b = 2; b <= Math.min(k, 7); b++) {
                TreeMechanism t = new TreeMechanism(k, Epsilon.of(1), b);
                int h = 0;
                long cover = 1;
                while (cover < k) {
                    cover *= b;
                    h++;
                }
                assertThat(t.height()).as("k=%d B=%d", k, b).isEqualTo(h);
                assertThat(t.levelSize(0)).isEqualTo(1);
                int[] d = sizes(t);
                for (int l = 0; l <= h; l++) {
                    assertThat(t.levelSize(l)).as("k=%d B=%d level %d", k, b, l).isEqualTo(d[l]);
                }
                assertThat(t.levelSize(h)).isEqualTo(k);
            }
        }
    }

    /**
     * Each level uses GRR unless OLH's closed-form per-node variance at uniform frequencies is strictly
     * smaller; across sizes both choices occur (the crossover is where the closed forms cross).
     */
    @Test
    void levelOracleIsTheSmallerClosedFormVariance() {
        for (double eps : new double[] {0.5, 1, 2}) {
            Epsilon e = Epsilon.of(eps);
            boolean sawGrr = false;
            boolean sawOlh = false;
            for (int size = 2; size <= 64; size++) {
                SupportCountOracle o = TreeMechanism.levelOracle(size, e);
                double grr = closedNodeVariance(new GeneralizedRandomizedResponse(size, e), size, 1);
                OptimizedLocalHashing olhOracle = new OptimizedLocalHashing(size, e,
                        OptimizedLocalHashing.optimalRange(e), PublicCoins.Stream.TREE_HASH, MechanismId.OLH);
                double olh = closedNodeVariance(olhOracle, size, 1);
                assertThat(olh).isNotEqualTo(grr);
                MechanismId expected = olh < grr ? MechanismId.OLH : MechanismId.GRR;
                assertThat(o.id()).as("eps=%s size=%d", eps, size).isEqualTo(expected);
                sawGrr |= expected == MechanismId.GRR;
                sawOlh |= expected == MechanismId.OLH;
            }
            assertThat(sawGrr).isTrue();
            assertThat(sawOlh).isTrue();
        }
    }

    /**
     * {@code V_ℓ} is the level oracle's closed-form per-node variance at uniform node frequencies with
     * {@code n_ℓ} reports, plus {@code (1/D)(1 − 1/D) max(0, 1/n_ℓ − 1/n)}, for GRR and OLH levels, with the
     * sampling term positive, zero ({@code n_ℓ = n}) and clamped ({@code n_ℓ > n}).
     */
    @Test
    void levelVarianceIsTheOracleClosedFormPlusTheSamplingTerm() {
        double[][] cases = {{5, 20}, {3.5, 7}, {1, 1000}, {20, 20}, {30, 20}, {0.25, 0.5}};
        boolean sawOlh = false;
        for (double eps : EPSILONS) {
            for (int[] kb : new int[][] {{7, 3}, {12, 2}, {10, 3}, {9, 4}, {40, 3}, {30, 30}}) {
                TreeMechanism t = new TreeMechanism(kb[0], Epsilon.of(eps), kb[1]);
                for (int l = 1; l <= t.height(); l++) {
                    sawOlh |= t.levelMechanism(l) == MechanismId.OLH;
                    for (double[] c : cases) {
                        double expected = expectedLevelVariance(t, l, c[0], c[1]);
                        assertThat(t.levelVariance(l, c[0], c[1])).as("eps=%s k=%d B=%d l=%d nl=%s n=%s", eps,
                                kb[0], kb[1], l, c[0], c[1]).isCloseTo(expected, within(relTol(expected)));
                    }
                }
            }
        }
        assertThat(sawOlh).isTrue();
        // the sampling term on its own: the difference to the full-window variance (nl = n)
        TreeMechanism t = new TreeMechanism(10, Epsilon.of(1), 3); // level 2 has D = 4 nodes
        double oracleOnly = closedNodeVariance(t.levelOracle(2), 4, 5);
        double withSampling = t.levelVariance(2, 5, 20);
        assertThat(withSampling - oracleOnly).isCloseTo(0.25 * 0.75 * (0.2 - 0.05), within(1e-14));
        assertThat(t.levelVariance(2, 5, 5)).isCloseTo(oracleOnly, within(relTol(oracleOnly)));
        assertThat(t.levelVariance(2, 5, 2)).isCloseTo(oracleOnly, within(relTol(oracleOnly)));
    }

    /**
     * The weights are exactly {@code 1/V_ℓ}; a level without reports weighs 0 (also when the whole window is
     * empty, {@code n = 0}); index 0 (the root) is never weighted.
     */
    @Test
    void weightsAreInverseLevelVariancesAndZeroForEmptyLevels() {
        for (int[] kb : TREES) {
            TreeMechanism t = new TreeMechanism(kb[0], Epsilon.of(1), kb[1]);
            int h = t.height();
            double[] nl = new double[h + 1];
            double n = 0;
            for (int l = 1; l <= h; l++) {
                nl[l] = l % 2 == 0 ? 0 : 3 + 5 * l;
                n += nl[l];
            }
            n += 1; // one more report somewhere
            double[] w = t.weights(nl, n);
            assertThat(w).hasSize(h + 1);
            assertThat(w[0]).isZero();
            for (int l = 1; l <= h; l++) {
                if (nl[l] == 0) {
                    assertThat(w[l]).isZero();
                } else {
                    assertThat(w[l]).isEqualTo(1 / t.levelVariance(l, nl[l], n));
                    double expected = 1 / expectedLevelVariance(t, l, nl[l], n);
                    assertThat(w[l]).isCloseTo(expected, within(relTol(expected)));
                }
            }
            double[] none = t.weights(new double[h + 1], 0); // an empty window: no level has reports
            for (double x : none) {
                assertThat(x).isZero();
            }
        }
    }

    /** The idealised design gives every level {@code n/h} reports: weights {@code 1/V_ℓ(n/h, n)}. */
    @Test
    void designWeightsSplitTheReportsEquallyOverTheLevels() {
        for (int[] kb : TREES) {
            TreeMechanism t = new TreeMechanism(kb[0], Epsilon.of(2), kb[1]);
            int h = t.height();
            for (double n : new double[] {1, 12, 1000}) {
                double[] w = t.designWeights(n);
                assertThat(w).hasSize(h + 1);
                assertThat(w[0]).isZero();
                for (int l = 1; l <= h; l++) {
                    double expected = 1 / expectedLevelVariance(t, l, n / h, n);
                    assertThat(w[l]).as("k=%d B=%d n=%s l=%d", kb[0], kb[1], n, l).isCloseTo(expected,
                            within(relTol(expected)));
                }
            }
        }
    }

    /**
     * A level of weight 0 does not influence the fit, whatever it observed; when the leaves weigh 0 every
     * leaf gets an equal share of its parent's fitted value (all children of a parent are unobserved).
     */
    @Test
    void aLevelOfWeightZeroIsIgnored() {
        Random r = new Random(11);
        for (int[] kb : TREES) {
            TreeMechanism t = new TreeMechanism(kb[0], Epsilon.of(1), kb[1]);
            int h = t.height();
            for (int zero = 1; zero <= h; zero++) {
                double[] w = new double[h + 1];
                for (int l = 1; l <= h; l++) {
                    w[l] = l == zero ? 0 : 0.5 + 4 * r.nextDouble();
                }
                TreeMechanism.Plan plan = t.plan(w);
                double[][] y = randomObservations(t, r);
                double[][] f1 = new TreeEstimator(t).infer(plan, y);
                for (int j = 0; j < y[zero].length; j++) {
                    y[zero][j] = 10 * r.nextGaussian();
                }
                double[][] f2 = new TreeEstimator(t).infer(plan, y);
                for (int l = 1; l <= h; l++) {
                    for (int j = 0; j < f1[l].length; j++) {
                        assertThat(f2[l][j]).as("k=%d B=%d zero level %d, level %d node %d", kb[0], kb[1], zero, l, j)
                                .isCloseTo(f1[l][j], within(1e-12));
                    }
                }
                if (zero == h) {
                    for (int x = 0; x < kb[0]; x++) {
                        int parent = x / kb[1];
                        int children = Math.min(kb[0], (parent + 1) * kb[1]) - parent * kb[1];
                        assertThat(f2[h][x]).isCloseTo(f2[h - 1][parent] / children, within(1e-13));
                    }
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

    /**
     * The adjoint is the transpose of the fit's linear map, built densely by applying the fit to unit
     * observation vectors: {@code adjoint(c)[ℓ][j] = Σ_x c_x M[x][(ℓ, j)]}, for positive and zero weights.
     */
    @Test
    void adjointIsTheTransposeOfTheFitsLinearMap() {
        Random r = new Random(12);
        for (int[] kb : TREES) {
            TreeMechanism t = new TreeMechanism(kb[0], Epsilon.of(1), kb[1]);
            int h = t.height();
            for (int trial = 0; trial < 3; trial++) {
                double[] w = new double[h + 1];
                for (int l = 1; l <= h; l++) {
                    w[l] = 0.2 + 5 * r.nextDouble();
                }
                if (trial == 1) {
                    w[h] = 0;
                } else if (trial == 2) {
                    w[1] = 0;
                }
                TreeMechanism.Plan plan = t.plan(w);
                double[][][] m = fitMatrix(t, plan);
                double[] c = new double[kb[0]];
                for (int x = 0; x < c.length; x++) {
                    c[x] = r.nextGaussian();
                }
                double[][] u = t.adjoint(plan, c);
                double[][] expected = transposeTimes(m, c);
                for (int l = 1; l <= h; l++) {
                    assertThat(u[l]).hasSize(t.levelSize(l));
                    for (int j = 0; j < u[l].length; j++) {
                        assertThat(u[l][j]).as("k=%d B=%d trial %d level %d node %d", kb[0], kb[1], trial, l, j)
                                .isCloseTo(expected[l][j], within(1e-12));
                    }
                }
            }
        }
    }

    /**
     * {@code queryVariance} is the sum of the level oracles' exact query variances (dense per-report
     * covariances, node frequencies aggregated) with {@code n/h} reports each, plus the variance of the
     * random level assignment; {@code variances} is the same for unit queries and {@code queryVariances}
     * the same per column of the answer set. Zero frequencies contribute nothing.
     */
    @Test
    void queryVariancesAreTheLevelOraclesPlusTheAssignmentVariance() {
        Random r = new Random(13);
        boolean sawOlh = false;
        for (double eps : EPSILONS) {
            for (int[] kb : TREES) {
                int k = kb[0];
                TreeMechanism t = new TreeMechanism(k, Epsilon.of(eps), kb[1]);
                for (int l = 1; l <= t.height(); l++) {
                    sawOlh |= t.levelMechanism(l) == MechanismId.OLH;
                }
                long n = 500 + r.nextInt(1000);
                double[] f = randomFrequencies(k, r);
                double[][] rows = new double[k][2];
                double[] c = new double[k];
                for (int x = 0; x < k; x++) {
                    c[x] = r.nextGaussian();
                    rows[x][0] = c[x];
                    rows[x][1] = x < k / 2 ? 1 : 0;
                }
                double expected = expectedQueryVariance(t, n, f, c);
                String what = String.format("eps=%s k=%d B=%d", eps, k, kb[1]);
                assertThat(FrequencyOracleEstimator.of(t).queryVariance(n, f, c)).as(what).isCloseTo(expected, within(relTol(expected)));
                double[] both = FrequencyOracleEstimator.of(t).queryVariances(n, f, PointSet.of(2, rows));
                assertThat(both).hasSize(2);
                assertThat(both[0]).as(what).isCloseTo(expected, within(relTol(expected)));
                double[] prefix = new double[k];
                Arrays.fill(prefix, 0, k / 2, 1);
                double expectedPrefix = expectedQueryVariance(t, n, f, prefix);
                assertThat(both[1]).as(what).isCloseTo(expectedPrefix, within(relTol(expectedPrefix)));
                double[] v = FrequencyOracleEstimator.of(t).variances(n, f);
                assertThat(v).hasSize(k);
                for (int x = 0; x < k; x++) {
                    double[] e = new double[k];
                    e[x] = 1;
                    double ex = expectedQueryVariance(t, n, f, e);
                    assertThat(v[x]).as("%s x=%d", what, x).isCloseTo(ex, within(relTol(ex)));
                }
            }
        }
        assertThat(sawOlh).isTrue();
    }

    /**
     * The level-assignment term on its own: on a two-level tree with all mass on one bucket it is
     * {@code (1/n)[2(r_1² + r_2²) − (r_1 + r_2)²] = (r_1 − r_2)²/n} with {@code r_ℓ} the query's coefficient
     * of the bucket's level-ℓ node; on a height-1 tree there is none.
     */
    @Test
    void levelAssignmentVarianceOfAPointMass() {
        TreeMechanism t = new TreeMechanism(7, Epsilon.of(1), 3);
        double[] f = new double[7];
        f[4] = 1;
        double[] c = {0.5, -1, 2, 0.25, 1.5, -0.75, 1};
        int n = 60;
        double[][] u = t.adjoint(t.plan(t.designWeights(n)), c);
        double r1 = u[1][1];
        double r2 = u[2][4];
        double oracles = 0;
        double[][] freq = {null, {0, 1, 0}, f};
        for (int l = 1; l <= 2; l++) {
            oracles += denseOracleVariance(t.levelOracle(l), t.levelSize(l), n / 2.0, freq[l], u[l]);
        }
        double expected = oracles + (r1 - r2) * (r1 - r2) / n;
        assertThat((r1 - r2) * (r1 - r2) / n).isGreaterThan(1e-3 * expected);
        assertThat(FrequencyOracleEstimator.of(t).queryVariance(n, f, c)).isCloseTo(expected, within(relTol(expected)));

        TreeMechanism flat = new TreeMechanism(5, Epsilon.of(1), 5);
        assertThat(flat.height()).isEqualTo(1);
        double[] g = {0.1, 0.2, 0, 0.3, 0.4};
        double[] d = {1, -2, 0.5, 3, 0};
        double[][] uf = flat.adjoint(flat.plan(flat.designWeights(100)), d);
        double only = denseOracleVariance(flat.levelOracle(1), 5, 100, g, uf[1]);
        assertThat(FrequencyOracleEstimator.of(flat).queryVariance(100, g, d)).isCloseTo(only, within(relTol(only)));
    }

    /**
     * The level oracles see node frequencies clamped to 1: frequencies that sum to more than 1 over a node
     * (each still in [0, 1]) are evaluated as a node frequency of exactly 1.
     */
    @Test
    void aggregatedNodeFrequenciesAreClampedToOne() {
        for (int[] kb : new int[][] {{7, 3}, {12, 2}, {9, 4}}) {
            int k = kb[0];
            TreeMechanism t = new TreeMechanism(k, Epsilon.of(1), kb[1]);
            double[] f = new double[k];
            Arrays.fill(f, 0.9);
            double[] c = new double[k];
            for (int x = 0; x < k; x++) {
                c[x] = (x % 4) - 1.5;
            }
            double expected = expectedQueryVariance(t, 200, f, c);
            assertThat(FrequencyOracleEstimator.of(t).queryVariance(200, f, c)).isCloseTo(expected, within(relTol(expected)));
        }
    }

    /**
     * The average variance over all {@code k(k+1)/2} ranges {@code [a, b)}, by brute force: each range's
     * node coefficients from the dense fit matrix, each node's error of variance {@code V_ℓ} at the design
     * {@code n/h}, independent.
     */
    @Test
    void averageRangeVarianceIsTheMeanOverAllRangesByBruteForce() {
        for (double eps : EPSILONS) {
            for (int[] kb : TREES) {
                int k = kb[0];
                TreeMechanism t = new TreeMechanism(k, Epsilon.of(eps), kb[1]);
                int h = t.height();
                for (double n : new double[] {1, 37}) {
                    double[] sigma2 = new double[h + 1];
                    double[] w = new double[h + 1];
                    for (int l = 1; l <= h; l++) {
                        sigma2[l] = expectedLevelVariance(t, l, n / h, n);
                        w[l] = 1 / sigma2[l];
                    }
                    double[][][] m = fitMatrix(t, t.plan(w));
                    double sum = 0;
                    int count = 0;
                    for (int a = 0; a < k; a++) {
                        for (int b = a + 1; b <= k; b++) {
                            double[] c = new double[k];
                            Arrays.fill(c, a, b, 1);
                            double[][] u = transposeTimes(m, c);
                            for (int l = 1; l <= h; l++) {
                                for (double ul : u[l]) {
                                    sum += sigma2[l] * ul * ul;
                                }
                            }
                            count++;
                        }
                    }
                    assertThat(count).isEqualTo(k * (k + 1) / 2);
                    double expected = sum / count;
                    assertThat(t.averageRangeVariance(n)).as("eps=%s k=%d B=%d n=%s", eps, k, kb[1], n)
                            .isCloseTo(expected, within(relTol(expected)));
                }
            }
        }
    }

    /**
     * {@link TreeMechanism#optimalBranching} is the smallest minimiser of the average range variance over
     * {@code B ∈ [2, min(16, k)]}: both ends of the range are reached (B = k for small domains, where the
     * flat tree wins, and B = 16 at k = 16 for a large ε).
     */
    @Test
    void optimalBranchingIsTheSmallestArgminOverItsRange() {
        boolean sawUpperEnd = false;
        boolean sawInterior = false;
        for (double eps : new double[] {0.5, 1, 4}) {
            Epsilon e = Epsilon.of(eps);
            for (int k : new int[] {2, 3, 4, 5, 7, 12, 14, 16, 17, 27}) {
                int best = 2;
                double bestV = Double.POSITIVE_INFINITY;
                for (int b = 2; b <= Math.min(16, k); b++) {
                    double v = new TreeMechanism(k, e, b).averageRangeVariance(1);
                    if (v < bestV) {
                        bestV = v;
                        best = b;
                    }
                }
                assertThat(TreeMechanism.optimalBranching(k, e)).as("k=%d eps=%s", k, eps).isEqualTo(best);
                assertThat(new TreeMechanism(k, e).branching()).isEqualTo(best);
                sawUpperEnd |= best == Math.min(16, k) && k > 2;
                sawInterior |= best < Math.min(16, k);
            }
        }
        assertThat(sawUpperEnd).isTrue();
        assertThat(sawInterior).isTrue();
        assertThat(TreeMechanism.optimalBranching(16, Epsilon.of(4))).isEqualTo(16);
    }

    /**
     * The search still runs at {@code k = 2048} (the limit is inclusive; there a large ε prefers a wide
     * tree over 4); above it {@code B = 4} without a search.
     */
    @Test
    void optimalBranchingSearchesUpToAndIncludingTheLimit() {
        Epsilon e = Epsilon.of(12);
        int b = TreeMechanism.optimalBranching(TreeMechanism.BRANCHING_SEARCH_LIMIT, e);
        assertThat(b).isNotEqualTo(4).isBetween(2, 16); // a search result (13 here), not the fixed 4
        assertThat(TreeMechanism.optimalBranching(2049, e)).isEqualTo(4);
        assertThat(TreeMechanism.optimalBranching(2049, Epsilon.of(0.5))).isEqualTo(4);
    }

    private static long[] stateOf(TreeMechanism t, long[] levelCounts, Random r) {
        long[] state = new long[t.stateLength()];
        int pos = t.height();
        for (int l = 1; l <= t.height(); l++) {
            state[l - 1] = levelCounts[l];
            for (int j = 0; j < t.levelSize(l); j++) {
                state[pos + j] = r.nextInt((int) levelCounts[l] + 1);
            }
            pos += t.levelSize(l);
        }
        return state;
    }

    /**
     * The estimate is the fit with the state's own level counts {@code n_ℓ} as the weights' report numbers
     * and each level's oracle estimate from its own counts (zeros for an empty level).
     */
    @Test
    void estimateUsesEachLevelsOwnReportCount() {
        Random r = new Random(14);
        for (int[] kb : new int[][] {{10, 3}, {12, 2}, {7, 3}}) {
            TreeMechanism t = new TreeMechanism(kb[0], Epsilon.of(1), kb[1]);
            int h = t.height();
            for (int trial = 0; trial < 2; trial++) {
                long[] counts = new long[h + 1];
                long n = 0;
                for (int l = 1; l <= h; l++) {
                    counts[l] = trial == 1 && l == 2 ? 0 : 5 + 40L * l * l;
                    n += counts[l];
                }
                long[] state = stateOf(t, counts, r);
                double[] nl = new double[h + 1];
                double[][] y = new double[h + 1][];
                int pos = h;
                for (int l = 1; l <= h; l++) {
                    nl[l] = counts[l];
                    long[] slice = Arrays.copyOfRange(state, pos, pos + t.levelSize(l));
                    y[l] = counts[l] > 0 ? new SupportCountEstimator(t.levelOracle(l)).estimate(slice, counts[l]) : new double[t.levelSize(l)];
                    pos += t.levelSize(l);
                }
                double[] expected = new TreeEstimator(t).infer(t.plan(t.weights(nl, n)), y)[h];
                double[] got = FrequencyOracleEstimator.of(t).estimate(state, n);
                for (int x = 0; x < kb[0]; x++) {
                    assertThat(got[x]).isCloseTo(expected[x], within(1e-13));
                }
            }
        }
    }

    /** A negative level count is rejected naming its slot and level; so is {@code n = 0} for an empty state. */
    @Test
    void malformedStatesAreRejected() {
        TreeMechanism t = new TreeMechanism(10, Epsilon.of(1), 3); // h = 3
        long[] state = new long[t.stateLength()];
        state[0] = -1;
        state[1] = 3;
        assertThatThrownBy(() -> FrequencyOracleEstimator.of(t).estimate(state, 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("state[0] (reports of level 1) must be >= 0, got -1");
        long[] late = new long[t.stateLength()];
        late[0] = 4;
        late[2] = -1;
        assertThatThrownBy(() -> FrequencyOracleEstimator.of(t).estimate(late, 3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("state[2] (reports of level 3) must be >= 0, got -1");
        assertThatThrownBy(() -> FrequencyOracleEstimator.of(t).estimate(new long[t.stateLength()], 0)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Ties keep the current choice: a candidate must be strictly better (GRR stays before OLH, smaller B first). */
    @Test
    void aCandidateReplacesTheCurrentChoiceOnlyWhenStrictlyBetter() {
        assertThat(TreeMechanism.strictlyBetter(1.0, 1.0)).isFalse();
        assertThat(TreeMechanism.strictlyBetter(Math.nextDown(1.0), 1.0)).isTrue();
        assertThat(TreeMechanism.strictlyBetter(Math.nextUp(1.0), 1.0)).isFalse();
        assertThat(TreeMechanism.strictlyBetter(1e300, Double.POSITIVE_INFINITY)).isTrue();
    }

    /**
     * The average range variance, bit for bit, where the summation over prefixes includes the whole domain: its
     * coefficients are zero in exact arithmetic (the root is fixed) but rounding residues here, so these bits pin
     * the summation as written (the value itself is checked against brute force in
     * {@link #averageRangeVarianceIsTheMeanOverAllRangesByBruteForce}). Without the whole-domain prefix the
     * last bits differ: 11.173126120839893 and 7.699446758168416.
     */
    @Test
    void averageRangeVarianceBitsArePinned() {
        assertThat(new TreeMechanism(5, Epsilon.of(0.5), 5).averageRangeVariance(1)).isEqualTo(11.17312612083989);
        assertThat(new TreeMechanism(8, Epsilon.of(1.0), 6).averageRangeVariance(1)).isEqualTo(7.699446758168417);
    }
}
