package io.privacygateway.mechanisms.local.factorization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.local.fo.Grid;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.random.SecretDraws;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Edge and exactness tests of the workload factorization: the dense helpers against hand-computed matrices, the
 * optimiser's objective, gradient and capped-simplex projection against independent computations (Gauss-Jordan
 * inverse, central differences, the sort-based projection), its seeded path against a reference run of the
 * documented algorithm, and the mechanism's rounding, sampling and reconstruction against independent versions.
 */
class FactorizationOptimiserAgainstReferenceComputationsTest {

    // ---------------------------------------------------------------- independent helpers

    /** Gauss-Jordan inverse with partial pivoting (independent of {@link Dense}). */
    static double[][] gaussJordan(double[][] a) {
        int n = a.length;
        double[][] m = new double[n][2 * n];
        for (int i = 0; i < n; i++) {
            System.arraycopy(a[i], 0, m[i], 0, n);
            m[i][n + i] = 1;
        }
        for (int c = 0; c < n; c++) {
            int piv = c;
            for (int r = c + 1; r < n; r++) {
                if (Math.abs(m[r][c]) > Math.abs(m[piv][c])) {
                    piv = r;
                }
            }
            double[] t = m[c];
            m[c] = m[piv];
            m[piv] = t;
            double p = m[c][c];
            for (int j = 0; j < 2 * n; j++) {
                m[c][j] /= p;
            }
            for (int r = 0; r < n; r++) {
                if (r != c) {
                    double f = m[r][c];
                    for (int j = 0; j < 2 * n; j++) {
                        m[r][j] -= f * m[c][j];
                    }
                }
            }
        }
        double[][] out = new double[n][n];
        for (int i = 0; i < n; i++) {
            System.arraycopy(m[i], n, out[i], 0, n);
        }
        return out;
    }

    /** Mᵢⱼ = Σ_o q[o][i] q[o][j] / Σ_k q[o][k]. */
    static double[][] info(double[][] q) {
        int n = q[0].length;
        double[][] m = new double[n][n];
        for (double[] row : q) {
            double d = Arrays.stream(row).sum();
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    m[i][j] += row[i] * row[j] / d;
                }
            }
        }
        return m;
    }

    static double[][] gramOf(double[][] w) {
        int n = w[0].length;
        double[][] g = new double[n][n];
        for (double[] r : w) {
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    g[i][j] += r[i] * r[j];
                }
            }
        }
        return g;
    }

    /**
     * Whether a symmetric matrix is (numerically) positive definite: every pivot of Gaussian elimination without
     * pivoting is above 10⁻¹⁰ of the largest diagonal entry (a singular information matrix has pivots at rounding
     * level).
     */
    static boolean positiveDefinite(double[][] a) {
        int n = a.length;
        double[][] m = deepCopy(a);
        double scale = 0;
        for (int i = 0; i < n; i++) {
            scale = Math.max(scale, Math.abs(a[i][i]));
        }
        for (int c = 0; c < n; c++) {
            if (!(m[c][c] > 1e-10 * scale)) {
                return false;
            }
            for (int r = c + 1; r < n; r++) {
                double f = m[r][c] / m[c][c];
                for (int j = c; j < n; j++) {
                    m[r][j] -= f * m[c][j];
                }
            }
        }
        return true;
    }

    /** tr(M⁻¹ WᵀW), the documented objective; +∞ when M is singular. */
    static double referenceLoss(double[][] q, double[][] w) {
        if (!positiveDefinite(info(q))) {
            return Double.POSITIVE_INFINITY;
        }
        double[][] mi = gaussJordan(info(q));
        double[][] g = gramOf(w);
        double t = 0;
        for (int i = 0; i < mi.length; i++) {
            for (int j = 0; j < mi.length; j++) {
                t += mi[i][j] * g[j][i];
            }
        }
        return t;
    }

    static double[][] referenceStrategy(double[][] s, double eps, double k) {
        double e = Math.exp(eps);
        int p = s.length;
        double[][] q = new double[p][s[0].length];
        for (int o = 0; o < p; o++) {
            for (int i = 0; i < s[0].length; i++) {
                q[o][i] = (1 + (e - 1) * s[o][i]) / (p + (e - 1) * k);
            }
        }
        return q;
    }

    /** The loss as a function of s, by the reference formulas. */
    static double lossOfS(double[][] s, double[][] w, double eps, double k) {
        return referenceLoss(referenceStrategy(s, eps, k), w);
    }

    /** Central-difference gradient of the loss with respect to s. */
    static double[][] numericGradient(double[][] s, double[][] w, double eps, double k, double h) {
        double[][] g = new double[s.length][s[0].length];
        for (int o = 0; o < s.length; o++) {
            for (int i = 0; i < s[0].length; i++) {
                double[][] plus = deepCopy(s);
                double[][] minus = deepCopy(s);
                plus[o][i] += h;
                minus[o][i] -= h;
                g[o][i] = (lossOfS(plus, w, eps, k) - lossOfS(minus, w, eps, k)) / (2 * h);
            }
        }
        return g;
    }

    /**
     * The analytic gradient written out: with A = M⁻¹GM⁻¹, ∂L/∂q[o][i] = −2 (q_o A)ᵢ/d_o + q_oᵀAq_o/d_o², times
     * ∂q/∂s = (e^ε − 1)/(p + (e^ε − 1)K). Checked against central differences below.
     */
    static double[][] analyticGradient(double[][] s, double[][] w, double eps, double k) {
        double e = Math.exp(eps);
        int p = s.length;
        int n = s[0].length;
        double[][] q = referenceStrategy(s, eps, k);
        double[][] mi = gaussJordan(info(q));
        double[][] g = gramOf(w);
        double[][] a = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                for (int u = 0; u < n; u++) {
                    for (int v = 0; v < n; v++) {
                        a[i][j] += mi[i][u] * g[u][v] * mi[v][j];
                    }
                }
            }
        }
        double chain = (e - 1) / (p + (e - 1) * k);
        double[][] out = new double[p][n];
        for (int o = 0; o < p; o++) {
            double d = Arrays.stream(q[o]).sum();
            double quad = 0;
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    quad += q[o][i] * a[i][j] * q[o][j];
                }
            }
            for (int i = 0; i < n; i++) {
                double qa = 0;
                for (int j = 0; j < n; j++) {
                    qa += q[o][j] * a[j][i];
                }
                out[o][i] = (-2 * qa / d + quad / (d * d)) * chain;
            }
        }
        return out;
    }

    /**
     * Exact Euclidean projection of one column onto {0 <= s <= 1, Σ s = K}: the shift t with Σ clip(v − t) = K is
     * found between consecutive breakpoints (v and v − 1), where the sum is linear in t.
     */
    static double[] projectColumn(double[] v, double k) {
        List<Double> br = new ArrayList<>();
        for (double x : v) {
            br.add(x);
            br.add(x - 1);
        }
        br.sort(null);
        for (int b = 0; b + 1 < br.size(); b++) {
            double t0 = br.get(b);
            double t1 = br.get(b + 1);
            double f0 = clipSum(v, t0);
            double f1 = clipSum(v, t1);
            if (f0 >= k && f1 <= k) {
                double t = f0 == f1 ? t0 : t0 + (f0 - k) * (t1 - t0) / (f0 - f1);
                double[] out = new double[v.length];
                for (int o = 0; o < v.length; o++) {
                    out[o] = Math.min(1, Math.max(0, v[o] - t));
                }
                return out;
            }
        }
        throw new AssertionError("no breakpoint bracket");
    }

    static double clipSum(double[] v, double t) {
        double s = 0;
        for (double x : v) {
            s += Math.min(1, Math.max(0, x - t));
        }
        return s;
    }

    static double[][] referenceProject(double[][] s, double k) {
        double[][] out = deepCopy(s);
        for (int i = 0; i < s[0].length; i++) {
            double[] col = new double[s.length];
            for (int o = 0; o < s.length; o++) {
                col[o] = s[o][i];
            }
            double[] pr = projectColumn(col, k);
            for (int o = 0; o < s.length; o++) {
                out[o][i] = pr[o];
            }
        }
        return out;
    }

    static double[][] deepCopy(double[][] a) {
        double[][] c = new double[a.length][];
        for (int i = 0; i < a.length; i++) {
            c[i] = a[i].clone();
        }
        return c;
    }

    static void assertMatrixClose(double[][] actual, double[][] expected, double tol, String what) {
        assertThat(actual.length).as(what).isEqualTo(expected.length);
        for (int i = 0; i < expected.length; i++) {
            for (int j = 0; j < expected[i].length; j++) {
                assertThat(actual[i][j]).as("%s [%d][%d]", what, i, j).isCloseTo(expected[i][j], within(tol));
            }
        }
    }

    static final double[][] W3 = {{1, 1, 0}, {0, 1, 1}, {1, 0, 0}, {2, 0, 1}};

    // ---------------------------------------------------------------- Dense

    /** The SPD inverse of L·Lᵀ (L = [[2,0,0],[1,2,0],[0,1,1]]) is the Gauss-Jordan one, exactly symmetric. */
    @Test
    void inverseSpdOfAKnownCholeskyProduct() {
        double[][] a = {{4, 2, 0}, {2, 5, 2}, {0, 2, 2}};
        double[][] inv = Dense.inverseSpd(a);
        // det = 16; adjugate by hand: inverse = [[6,-4,4],[-4,8,-8],[4,-8,16]]/16
        double[][] expected = {{6 / 16.0, -4 / 16.0, 4 / 16.0}, {-4 / 16.0, 8 / 16.0, -8 / 16.0},
            {4 / 16.0, -8 / 16.0, 16 / 16.0}};
        assertMatrixClose(inv, expected, 1e-15, "inverse");
        assertMatrixClose(inv, gaussJordan(a), 1e-14, "vs Gauss-Jordan");
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                assertThat(inv[i][j]).isEqualTo(inv[j][i]);
            }
        }
        assertThat(Dense.inverseSpd(new double[][] {{4}})[0][0]).isEqualTo(0.25);
        double[][] two = Dense.inverseSpd(new double[][] {{2, 1}, {1, 2}});
        assertMatrixClose(two, new double[][] {{2 / 3.0, -1 / 3.0}, {-1 / 3.0, 2 / 3.0}}, 1e-15, "2x2");
    }

    /** Not positive definite: a zero pivot (singular PSD), a negative pivot, an indefinite matrix and NaN give null. */
    @Test
    void inverseSpdRejectsNonPositiveDefiniteMatrices() {
        assertThat(Dense.inverseSpd(new double[][] {{1, 1}, {1, 1}})).isNull(); // second pivot exactly 0
        assertThat(Dense.inverseSpd(new double[][] {{0}})).isNull();
        assertThat(Dense.inverseSpd(new double[][] {{-1}})).isNull();
        assertThat(Dense.inverseSpd(new double[][] {{1, 2}, {2, 1}})).isNull();
        assertThat(Dense.inverseSpd(new double[][] {{Double.NaN}})).isNull();
        assertThat(Dense.inverseSpd(new double[][] {{4, 2, 0}, {2, 1, 0}, {0, 0, 1}})).isNull();
    }

    /** Products of rectangular matrices by hand; a zero factor skips its row of b even when that row is infinite. */
    @Test
    void multiplyAndTransposeMatchHandComputedProducts() {
        double[][] a = {{1, 2, 3}, {4, 5, 6}};
        double[][] b = {{7, 8}, {9, 10}, {11, 12}};
        assertThat(Dense.multiply(a, b)).isDeepEqualTo(new double[][] {{58, 64}, {139, 154}});
        assertThat(Dense.multiply(b, a)).isDeepEqualTo(new double[][] {{39, 54, 69}, {49, 68, 87}, {59, 82, 105}});
        double[][] inf = {{Double.POSITIVE_INFINITY, 1}, {2, 3}};
        assertThat(Dense.multiply(new double[][] {{0, 1}}, inf)).isDeepEqualTo(new double[][] {{2, 3}});
        assertThat(Dense.transpose(a)).isDeepEqualTo(new double[][] {{1, 4}, {2, 5}, {3, 6}});
        assertThat(Dense.transpose(new double[][] {{1, 2}})).isDeepEqualTo(new double[][] {{1}, {2}});
    }

    /**
     * An infinite diagonal entry (infinite variance) inverts to 0 in its row and column, the rest being the inverse
     * of the finite block: the factorisation never multiplies an entry it has not computed yet by an infinite one.
     */
    @Test
    void inverseSpdWithAnInfiniteDiagonalEntry() {
        double inf = Double.POSITIVE_INFINITY;
        assertThat(Dense.inverseSpd(new double[][] {{inf, 0}, {0, 4}})).isDeepEqualTo(new double[][] {{0, 0}, {0, 0.25}});
        assertThat(Dense.inverseSpd(new double[][] {{4, 0}, {0, inf}})).isDeepEqualTo(new double[][] {{0.25, 0}, {0, 0}});
    }

    // ---------------------------------------------------------------- StrategyOptimizer

    /** K must lie strictly inside (0, p): both ends and NaN are rejected, values just inside accepted. */
    @Test
    void kMustBeStrictlyInsideZeroP() {
        assertThatThrownBy(() -> new StrategyOptimizer(W3, 1, 4, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new StrategyOptimizer(W3, 1, 4, 4)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new StrategyOptimizer(W3, 1, 4, Double.NaN))
                .isInstanceOf(IllegalArgumentException.class);
        new StrategyOptimizer(W3, 1, 4, 1e-9);
        new StrategyOptimizer(W3, 1, 4, Math.nextDown(4.0));
        assertThat(StrategyOptimizer.defaultK(1.5, 12)).isEqualTo(12 / (StrictMath.exp(1.5) + 1));
        assertThat(StrategyOptimizer.defaultK(0.0, 6)).isEqualTo(3.0);
    }

    /** Q(s) = (1 + (e^ε − 1)s)/(p + (e^ε − 1)K) entry by entry; its columns sum to 1 when s's sum to K. */
    @Test
    void strategyIsTheStatedAffineMap() {
        StrategyOptimizer opt = new StrategyOptimizer(W3, 0.7, 4, 1.5);
        double[][] s = {{0.5, 1, 0}, {0.25, 0, 1}, {0.75, 0.5, 0.5}, {0, 0, 0}};
        double e = Math.exp(0.7);
        double[][] q = opt.strategy(s);
        for (int o = 0; o < 4; o++) {
            for (int i = 0; i < 3; i++) {
                assertThat(q[o][i]).isCloseTo((1 + (e - 1) * s[o][i]) / (4 + (e - 1) * 1.5), within(1e-16));
            }
        }
        for (int i = 0; i < 3; i++) {
            double col = 0;
            for (int o = 0; o < 4; o++) {
                col += q[o][i];
            }
            assertThat(col).isCloseTo(1, within(1e-15));
        }
    }

    /** The loss of s and of a raw strategy is tr((QᵀD⁻¹Q)⁻¹WᵀW), by an independent inverse and Gram matrix. */
    @Test
    void lossIsTheTraceObjective() {
        double eps = 0.9;
        double k = 1.3;
        StrategyOptimizer opt = new StrategyOptimizer(W3, eps, 4, k);
        double[][] s = {{0.2, 0.9, 0.1}, {0.4, 0.1, 0.7}, {0.6, 0.2, 0.2}, {0.1, 0.1, 0.3}};
        double expected = lossOfS(s, W3, eps, k);
        assertThat(opt.loss(s, null)).isCloseTo(expected, within(1e-12 * expected));
        double[][] raw = {{0.5, 0.1, 0.2}, {0.3, 0.6, 0.1}, {0.2, 0.3, 0.7}};
        double r = referenceLoss(raw, W3);
        assertThat(opt.lossOf(raw)).isCloseTo(r, within(1e-12 * r));
        // randomized response on 2 values with p = 2: L = tr(M⁻¹ G) by hand
        StrategyOptimizer two = new StrategyOptimizer(new double[][] {{1, 0}, {0, 1}}, Math.log(3), 2, 0.5);
        double[][] rr = {{0.75, 0.25}, {0.25, 0.75}}; // M = [[5/8, 3/8],[3/8, 5/8]], M⁻¹ = [[5/2,-3/2],[-3/2,5/2]]
        assertThat(two.lossOf(rr)).isCloseTo(5.0, within(1e-13));
    }

    /** A strategy with equal columns does not identify the data: the loss is +∞. */
    @Test
    void singularStrategyHasInfiniteLoss() {
        StrategyOptimizer opt = new StrategyOptimizer(W3, 1, 2, 1);
        assertThat(opt.lossOf(new double[][] {{0.5, 0.5, 0.5}, {0.5, 0.5, 0.5}})).isEqualTo(Double.POSITIVE_INFINITY);
        double[][] grad = new double[2][3];
        assertThat(opt.loss(new double[][] {{0.5, 0.5, 0.5}, {0.5, 0.5, 0.5}}, grad))
                .isEqualTo(Double.POSITIVE_INFINITY);
    }

    /** The gradient equals central differences of the objective and the written-out analytic formula. */
    @Test
    void gradientMatchesCentralDifferences() {
        double eps = 1.1;
        double k = 1.4;
        StrategyOptimizer opt = new StrategyOptimizer(W3, eps, 4, k);
        double[][] s = {{0.2, 0.9, 0.1}, {0.4, 0.1, 0.7}, {0.6, 0.2, 0.2}, {0.2, 0.2, 0.4}};
        double[][] g = new double[4][3];
        double l = opt.loss(s, g);
        assertThat(l).isCloseTo(lossOfS(s, W3, eps, k), within(1e-12 * l));
        double[][] num = numericGradient(s, W3, eps, k, 1e-5);
        double[][] ana = analyticGradient(s, W3, eps, k);
        double scale = 0;
        for (double[] r : num) {
            for (double v : r) {
                scale = Math.max(scale, Math.abs(v));
            }
        }
        assertThat(scale).isGreaterThan(0.1);
        assertMatrixClose(g, num, 1e-6 * scale, "vs central differences");
        assertMatrixClose(g, ana, 1e-12 * scale, "vs analytic");
        // a second, asymmetric workload and p = 3
        double[][] w2 = {{1, 0}, {1, 1}, {0, 3}};
        StrategyOptimizer o2 = new StrategyOptimizer(w2, 0.4, 3, 0.8);
        double[][] s2 = {{0.1, 0.5}, {0.6, 0.2}, {0.1, 0.1}};
        double[][] g2 = new double[3][2];
        o2.loss(s2, g2);
        double[][] num2 = numericGradient(s2, w2, 0.4, 0.8, 1e-5);
        assertMatrixClose(g2, num2, 1e-6 * Math.abs(num2[0][0]) + 1e-6, "second case");
    }

    /** The bisection projection equals the exact breakpoint projection, including clipping at both ends. */
    @Test
    void projectionIsTheExactCappedSimplexProjection() {
        double[][] s = {{0.3, 5, -2, 0.5}, {0.9, -1, -3, 0.5}, {2.0, 0.2, -2.5, 0.5}, {-0.4, 0.1, -2.2, 0.5}};
        StrategyOptimizer o4 = new StrategyOptimizer(new double[][] {{1, 1, 1, 1}}, 1, 4, 1.5);
        double[][] expected = referenceProject(s, 1.5);
        double[][] actual = deepCopy(s);
        o4.project(actual);
        assertMatrixClose(actual, expected, 1e-12, "projection");
        // column 1 clips 5 to 1 and column 3 keeps equal entries equal: exact values by hand
        assertThat(actual[0][1]).isEqualTo(1.0);
        for (int o = 0; o < 4; o++) {
            assertThat(actual[o][3]).isCloseTo(0.375, within(1e-12));
        }
        // K near p: the shift lies near min − 1
        StrategyOptimizer near = new StrategyOptimizer(new double[][] {{1}}, 1, 3, 2.9);
        double[][] c = {{0.2}, {0.5}, {0.8}};
        double[][] ce = referenceProject(c, 2.9);
        near.project(c);
        assertMatrixClose(c, ce, 1e-12, "K near p");
        // K near 0: the shift lies near max
        StrategyOptimizer small = new StrategyOptimizer(new double[][] {{1}}, 1, 3, 0.1);
        double[][] d = {{0.2}, {0.5}, {0.8}};
        small.project(d);
        assertMatrixClose(d, new double[][] {{0}, {0}, {0.1}}, 1e-12, "K near 0");
    }

    /**
     * The projection bit for bit (device and gateway must derive the same strategy): 100 halvings of the bracket
     * [min − 1, max], the lower end moving while the clipped sum exceeds K, then the bracket's midpoint. The
     * expected bits come from a transcription of that description run outside Java (IEEE doubles): within 2^-53
     * of the exact projection (the identity for [0.5, 0.5, 0]; [1, 0, 0] for [1.5, 0.2, −0.3]).
     */
    @Test
    void projectionBitsAreTheDocumentedBisection() {
        StrategyOptimizer opt = new StrategyOptimizer(new double[][] {{1, 1}}, 1, 3, 1);
        double[][] s = {{0.5, 1.5}, {0.5, 0.2}, {0.0, -0.3}};
        opt.project(s);
        assertThat(s[0][0]).isEqualTo(0x1.0000000000001p-1);
        assertThat(s[1][0]).isEqualTo(0x1.0000000000001p-1);
        assertThat(s[2][0]).isEqualTo(0x1.0000000000030p-54);
        assertThat(s[0][1]).isEqualTo(1.0);
        assertThat(s[1][1]).isEqualTo(0x1p-53);
        assertThat(s[2][1]).isEqualTo(0.0);
    }

    /** Zero iterations: the start is the seeded uniforms (row-major) projected onto the capped simplex. */
    @Test
    void startIsTheProjectedSeededUniforms() {
        StrategyOptimizer opt = new StrategyOptimizer(W3, 1, 4, 1.2);
        double[][] s0 = new double[4][3];
        SplittableRandom rnd = new SplittableRandom(99);
        for (int o = 0; o < 4; o++) {
            for (int i = 0; i < 3; i++) {
                s0[o][i] = rnd.nextDouble();
            }
        }
        assertMatrixClose(opt.optimise(0, 99), referenceProject(s0, 1.2), 1e-12, "start");
    }

    /**
     * The documented search, run by the reference formulas: start at step 10⁻³, halve until the projected trial
     * lowers the loss (or the step falls below 10⁻¹⁴, then stop), accept and grow the step by 1.5. The iterates
     * after 1, 2, 5 and 40 iterations agree with the optimiser's.
     */
    @Test
    void seededPathIsTheDocumentedBacktrackingDescent() {
        double eps = 1.0;
        double k = StrategyOptimizer.defaultK(eps, 4);
        StrategyOptimizer opt = new StrategyOptimizer(W3, eps, 4, k);
        for (int iterations : new int[] {1, 2, 5, 40}) {
            double[][] ref = referenceOptimise(W3, eps, 4, k, iterations, 5);
            assertMatrixClose(opt.optimise(iterations, 5), ref, 1e-9, "iterations " + iterations);
        }
        double[][] start = referenceOptimise(W3, eps, 4, k, 0, 5);
        double[][] one = referenceOptimise(W3, eps, 4, k, 1, 5);
        assertThat(lossOfS(one, W3, eps, k)).isLessThan(lossOfS(start, W3, eps, k));
    }

    /** The same with a large first step being rejected: p = 3, n = 2 at ε = 3 halves the step before accepting. */
    @Test
    void aRejectedLargeFirstStepIsHalvedOnTheReferencePath() {
        double[][] w = {{1, 0}, {1, 1}};
        StrategyOptimizer opt = new StrategyOptimizer(w, 3, 3, 1);
        for (int iterations : new int[] {1, 3, 30}) {
            double[][] ref = referenceOptimise(w, 3, 3, 1, iterations, 11);
            assertMatrixClose(opt.optimise(iterations, 11), ref, 1e-9, "iterations " + iterations);
        }
        int[] halvings = new int[1];
        referenceOptimise(w, 3, 3, 1, 30, 11, halvings);
        assertThat(halvings[0]).as("the path backtracks").isPositive();
    }

    /**
     * From seed 7 the first trial step 10⁻³ does not lower the loss: the search must halve it (the projected trials are singular strategies) and
     * go on rather than stop at the start; the path is the reference one.
     */
    @Test
    void aRejectedFirstStepIsHalvedNotTheEnd() {
        double eps = 1.0;
        double k = StrategyOptimizer.defaultK(eps, 4);
        int[] halvings = new int[1];
        double[][] ref = referenceOptimise(W3, eps, 4, k, 1, 7, halvings);
        assertThat(halvings[0]).as("the first step is rejected").isPositive();
        double[][] start = referenceOptimise(W3, eps, 4, k, 0, 7);
        assertThat(lossOfS(ref, W3, eps, k)).isLessThan(lossOfS(start, W3, eps, k));
        StrategyOptimizer opt = new StrategyOptimizer(W3, eps, 4, k);
        assertMatrixClose(opt.optimise(1, 7), ref, 1e-9, "one iteration");
        assertMatrixClose(opt.optimise(4, 7), referenceOptimise(W3, eps, 4, k, 4, 7), 1e-9, "four iterations");
    }

    /** A constant objective (one value: L = WᵀW whatever s) stops at the start: no trial ever lowers it. */
    @Test
    void constantObjectiveStopsAtTheStart() {
        StrategyOptimizer opt = new StrategyOptimizer(new double[][] {{2}}, 1, 3, 1);
        assertThat(opt.loss(new double[][] {{0.1}, {0.2}, {0.7}}, null)).isCloseTo(4, within(1e-12));
        double[][] start = opt.optimise(0, 3);
        assertMatrixClose(opt.optimise(50, 3), start, 1e-12, "no move");
        // p = 4, seed 1: every trial down to a step below 10⁻¹⁴ lands on a point a few ulps away with exactly the
        // same loss; a tie is not an improvement, so the result is the start bit for bit
        StrategyOptimizer four = new StrategyOptimizer(new double[][] {{2}}, 1, 4, 1);
        double[][] s0 = four.optimise(0, 1);
        double[][] g = new double[4][1];
        double loss = four.loss(s0, g);
        double[][] next = new double[4][1];
        for (int o = 0; o < 4; o++) {
            next[o][0] = s0[o][0] - 1e-3 * g[o][0];
        }
        four.project(next);
        assertThat(four.loss(next, null)).isEqualTo(loss);
        assertThat(next).isNotEqualTo(s0); // a tie at a moved point
        assertThat(four.optimise(50, 1)).isDeepEqualTo(s0);
    }

    static double[][] referenceOptimise(double[][] w, double eps, int p, double k, int iterations, long seed) {
        return referenceOptimise(w, eps, p, k, iterations, seed, new int[1]);
    }

    /** As above, counting the step halvings in {@code halvings[0]}. */
    static double[][] referenceOptimise(double[][] w, double eps, int p, double k, int iterations, long seed,
            int[] halvings) {
        int n = w[0].length;
        SplittableRandom rnd = new SplittableRandom(seed);
        double[][] s = new double[p][n];
        for (int o = 0; o < p; o++) {
            for (int i = 0; i < n; i++) {
                s[o][i] = rnd.nextDouble();
            }
        }
        s = referenceProject(s, k);
        double loss = lossOfS(s, w, eps, k);
        double[][] g = analyticGradient(s, w, eps, k);
        double step = 1e-3;
        for (int it = 0; it < iterations; it++) {
            double[][] next;
            double trial;
            while (true) {
                next = new double[p][n];
                for (int o = 0; o < p; o++) {
                    for (int i = 0; i < n; i++) {
                        next[o][i] = s[o][i] - step * g[o][i];
                    }
                }
                next = referenceProject(next, k);
                trial = lossOfS(next, w, eps, k);
                if (trial < loss || step < 1e-14) {
                    break;
                }
                step /= 2;
                halvings[0]++;
            }
            if (!(trial < loss)) {
                break;
            }
            s = next;
            loss = trial;
            g = analyticGradient(s, w, eps, k);
            step *= 1.5;
        }
        return s;
    }

    // ---------------------------------------------------------------- FactorizationMechanism

    static double[][] prefix(int n) {
        return FactorizationMechanismTest.prefix(n);
    }

    /** gridBits outside [8, 30] is rejected; both ends are accepted. */
    @Test
    void gridBitsOutsideEightToThirtyAreRefused() {
        Epsilon e = Epsilon.of(1);
        assertThatThrownBy(() -> new FactorizationMechanism(prefix(3), e, 6, 5, 7, 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new FactorizationMechanism(prefix(3), e, 6, 5, 31, 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new FactorizationMechanism(prefix(3), e, 6, 5, 8, 1).values()).isEqualTo(3);
        FactorizationMechanism m = new FactorizationMechanism(prefix(3), e, 6, 5, 30, 1);
        assertThat(m.outputs()).isEqualTo(6);
        assertThat(m.epsilon()).isEqualTo(e);
    }

    /** Largest-remainder rounding of the mixed strategy on the 2^bits grid (ties to the lower output). */
    static long[][] referenceRound(double[][] q, double lambda, int bits) {
        int p = q.length;
        int n = q[0].length;
        long one = 1L << bits;
        long[][] w = new long[p][n];
        for (int x = 0; x < n; x++) {
            double[] frac = new double[p];
            long sum = 0;
            for (int o = 0; o < p; o++) {
                double v = ((1 - lambda) * q[o][x] + lambda / p) * one;
                w[o][x] = (long) Math.floor(v);
                frac[o] = v - w[o][x];
                sum += w[o][x];
            }
            Integer[] order = new Integer[p];
            for (int o = 0; o < p; o++) {
                order[o] = o;
            }
            double[] fr = frac;
            Arrays.sort(order, (u, v) -> fr[u] != fr[v] ? Double.compare(fr[v], fr[u]) : Integer.compare(u, v));
            for (int r = 0; r < one - sum; r++) {
                w[order[r]][x]++;
            }
        }
        return w;
    }

    static boolean referencePrivate(long[][] w, BigDecimal bound) {
        for (long[] row : w) {
            long max = Arrays.stream(row).max().getAsLong();
            long min = Arrays.stream(row).min().getAsLong();
            if (min < 1 || BigDecimal.valueOf(max).compareTo(bound.multiply(BigDecimal.valueOf(min))) > 0) {
                return false;
            }
        }
        return true;
    }

    record Expected(long[][] w, double lambda) {}

    /** The K search of docs/wire-format.md §8.1, written out independently: trial losses at 1, 1.5, 2, 3, 4 × p/(e^ε+1). */
    static double referenceK(double[][] workload, double eps, int p, long seed) {
        double base = p / (StrictMath.exp(eps) + 1);
        double bestK = base;
        double bestLoss = Double.POSITIVE_INFINITY;
        for (double m : new double[] {1, 1.5, 2, 3, 4}) {
            double k = m * base;
            if (k >= p) {
                break;
            }
            StrategyOptimizer o = new StrategyOptimizer(workload, eps, p, k);
            double loss = o.loss(o.optimise(40, seed), null);
            if (loss >= bestLoss) {
                break;
            }
            bestK = k;
            bestLoss = loss;
        }
        return bestK;
    }

    static Expected expected(double[][] workload, Epsilon e, int p, int iterations, int bits, long seed) {
        StrategyOptimizer opt = new StrategyOptimizer(workload, e.value(), p, referenceK(workload, e.value(), p, seed));
        double[][] q = opt.strategy(opt.optimise(iterations, seed));
        BigDecimal bound = Grid.expLower(e);
        double lambda = 0;
        for (int j = -21; j <= 0; j++) {
            lambda = j < -20 ? 0 : Math.pow(2, j);
            long[][] w = referenceRound(q, lambda, bits);
            if (referencePrivate(w, bound)) {
                return new Expected(w, lambda);
            }
        }
        throw new AssertionError("no λ");
    }

    static void assertSameWeights(FactorizationMechanism m, Expected ex, int bits) {
        BigInteger den = BigInteger.ONE.shiftLeft(bits);
        for (int o = 0; o < m.outputs(); o++) {
            for (int x = 0; x < m.values(); x++) {
                assertThat(m.probability(x, o)).as("o=%d x=%d", o, x)
                        .isEqualTo(Rational.of(BigInteger.valueOf(ex.w[o][x]), den));
            }
        }
        assertThat(m.mixing()).isEqualTo(ex.lambda);
    }

    /**
     * On the coarse 2^8 grid the rounded optimum breaks the exact ratio check, so the mechanism mixes in the
     * uniform strategy: the weights and λ equal the independent rounding's (the smallest passing λ of 0, 2^-20, …, 1/2, 1).
     */
    @Test
    void coarseGridNeedsMixingAndRoundsByLargestRemainders() {
        boolean sawMixing = false;
        boolean sawZero = false;
        for (double eps : new double[] {0.5, 1, 2}) {
            for (int p : new int[] {6, 8}) {
                Epsilon e = Epsilon.of(eps);
                FactorizationMechanism m = new FactorizationMechanism(prefix(3), e, p, 60, 8, 3);
                Expected ex = expected(prefix(3), e, p, 60, 8, 3);
                assertSameWeights(m, ex, 8);
                sawMixing |= ex.lambda > 0;
                sawZero |= ex.lambda == 0;
                double worst = 0;
                for (long[] row : ex.w) {
                    worst = Math.max(worst, Arrays.stream(row).max().getAsLong()
                            / (double) Arrays.stream(row).min().getAsLong());
                }
                assertThat(m.worstRatio()).isEqualTo(worst);
            }
        }
        assertThat(sawMixing).as("some case needs λ > 0").isTrue();
        assertThat(sawZero).as("some case needs no mixing").isTrue();
    }

    /** The fine 2^30 grid with ties in the fractions (entries of s clipped to 0 or 1): the same independent rounding. */
    @Test
    void fineGridWeightsAreTheIndependentRounding() {
        Epsilon e = Epsilon.of(1);
        FactorizationMechanism m = new FactorizationMechanism(prefix(4), e, 8, 80, 30, 7);
        assertSameWeights(m, expected(prefix(4), e, 8, 80, 30, 7), 30);
    }

    /** Every u of the 2^8 uniform draw maps to the first output whose cumulative weight exceeds u. */
    @Test
    void samplingByCumulativeIntervals() {
        Epsilon e = Epsilon.of(1);
        FactorizationMechanism m = new FactorizationMechanism(prefix(3), e, 6, 40, 8, 3);
        for (int x = 0; x < 3; x++) {
            long[] cum = new long[6];
            long c = 0;
            for (int o = 0; o < 6; o++) {
                c += m.probability(x, o).multiply(Rational.of(256, 1)).numerator().longValueExact();
                cum[o] = c;
            }
            assertThat(c).isEqualTo(256);
            for (int u = 0; u < 256; u++) {
                int expected = 0;
                while (cum[expected] <= u) {
                    expected++;
                }
                int uu = u;
                int[] asked = new int[1];
                int got = m.randomize(x, new SecretDraws() {
                    @Override
                    public boolean bernoulli(long numerator, int gridBits) {
                        throw new AssertionError("no Bernoulli draw");
                    }

                    @Override
                    public int uniformInt(int n) {
                        asked[0] = n;
                        return uu;
                    }
                });
                assertThat(got).as("x=%d u=%d", x, u).isEqualTo(expected);
                assertThat(asked[0]).isEqualTo(256);
            }
        }
        assertThatThrownBy(() -> m.randomize(-1, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> m.randomize(3, null)).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * p = 4 outputs: every u maps to the first output whose cumulative weight exceeds u (the search's upper end is
     * output p − 1, never past it).
     */
    @Test
    void withFourOutputsEachUniformPicksTheFirstOutputAboveIt() {
        FactorizationMechanism m = new FactorizationMechanism(prefix(2), Epsilon.of(1), 4, 20, 8, 9);
        for (int x = 0; x < 2; x++) {
            long[] cum = new long[4];
            long c = 0;
            for (int o = 0; o < 4; o++) {
                c += m.probability(x, o).multiply(Rational.of(256, 1)).numerator().longValueExact();
                cum[o] = c;
            }
            for (int u = 0; u < 256; u++) {
                int expected = 0;
                while (cum[expected] <= u) {
                    expected++;
                }
                int uu = u;
                assertThat(m.randomize(x, new SecretDraws() {
                    @Override
                    public boolean bernoulli(long numerator, int gridBits) {
                        throw new AssertionError();
                    }

                    @Override
                    public int uniformInt(int n) {
                        return uu;
                    }
                })).as("x=%d u=%d", x, u).isEqualTo(expected);
            }
        }
    }

    /**
     * ε = 10⁻³⁰⁰: e^ε is 1 in double (the strategy is exactly uniform, 2^8/4 = 64 per output, no remainder to
     * distribute) and the certified bound is exactly 1, so equal weights (ratio exactly 1) pass with no mixing.
     */
    @Test
    void exactlyUniformWeightsPassARatioBoundOfOne() {
        Epsilon e = Epsilon.of(1e-300);
        assertThat(Grid.expLower(e).compareTo(BigDecimal.ONE)).isZero();
        FactorizationMechanism m = new FactorizationMechanism(new double[][] {{1}}, e, 4, 3, 8, 1);
        assertThat(m.mixing()).isZero();
        for (int o = 0; o < 4; o++) {
            assertThat(m.probability(0, o)).isEqualTo(Rational.of(1, 4));
        }
        assertThat(m.worstRatio()).isEqualTo(1.0);
        assertThat(FactorizationEstimates.frequencies(m, new long[] {1, 2, 3, 4}, 10)[0]).isCloseTo(1.0, within(1e-12));
    }

    /**
     * 300 outputs on a 2^8 grid: some output would always get weight 0 (256 units for 300 rows), which the exact
     * check refuses whatever the mixing, so construction refuses it up front naming the field; 256 outputs (one
     * unit each at full mixing) are accepted.
     */
    @Test
    void moreOutputsThanGridUnitsCannotBePrivate() {
        assertThatThrownBy(() -> new FactorizationMechanism(new double[][] {{1}}, Epsilon.of(1), 300, 2, 8, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outputs must be at most 2^gridBits = 256");
        FactorizationMechanism full = new FactorizationMechanism(new double[][] {{1}}, Epsilon.of(1), 256, 2, 8, 1);
        for (int o = 0; o < 256; o++) {
            assertThat(full.probability(0, o)).isEqualTo(Rational.of(1, 256));
        }
    }

    /**
     * With ε = 10⁻³⁰⁰ the certified bound is exactly 1, so every row must be constant: only full mixing (λ = 1, every
     * column the same) passes the ratio check, and the mechanism reaches it — where it then stops because a
     * strategy that is the same for every value carries no information (not because no rounding passed).
     */
    @Test
    void fullMixingIsTheLastResortAndAlwaysPassesTheRatioCheck() {
        Epsilon e = Epsilon.of(1e-300);
        assertThatThrownBy(() -> new FactorizationMechanism(prefix(3), e, 6, 20, 8, 3))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("does not identify the data");
        long[][] w = FactorizationMechanism.round(new double[][] {{0.9, 0.1}, {0.1, 0.9}}, 1.0, 8);
        assertThat(w).isDeepEqualTo(new long[][] {{128, 128}, {128, 128}});
        long[][] six = FactorizationMechanism.round(new double[][] {{1, 0}, {0, 0}, {0, 1}, {0, 0}, {0, 0}, {0, 0}},
                1.0, 8);
        for (int o = 0; o < 6; o++) {
            assertThat(six[o]).containsExactly(o < 4 ? 43 : 42, o < 4 ? 43 : 42);
        }
    }

    /**
     * The mixing schedule on crafted strategies: with a ratio bound of exactly 1 only constant rows pass, so a
     * non-uniform strategy needs λ = 1 (and gets it); an output that no column uses (a row of zeros) is refused at
     * λ = 0 although its ratio is 0/0, and mixing gives it weight.
     */
    @Test
    void theMixingScheduleEndsAtFullMixingAndRefusesUnusedOutputs() {
        FactorizationMechanism.Mixed full = FactorizationMechanism.mix(new double[][] {{0.9, 0.1}, {0.1, 0.9}},
                BigDecimal.ONE, 8);
        assertThat(full.lambda()).isEqualTo(1.0);
        assertThat(full.weights()).isDeepEqualTo(new long[][] {{128, 128}, {128, 128}});

        double[][] unused = {{1, 1}, {0, 0}};
        assertThat(FactorizationMechanism.passes(new long[][] {{256, 256}, {0, 0}}, BigDecimal.valueOf(3))).isFalse();
        FactorizationMechanism.Mixed mixed = FactorizationMechanism.mix(unused, BigDecimal.valueOf(3), 8);
        assertThat(mixed.lambda()).isPositive();
        for (long[] row : mixed.weights()) {
            assertThat(Arrays.stream(row).min().getAsLong()).isGreaterThanOrEqualTo(1);
        }
        assertThat(mixed.weights()).isDeepEqualTo(referenceRound(unused, mixed.lambda(), 8));
        assertThat(referencePrivate(referenceRound(unused, mixed.lambda() / 2, 8), BigDecimal.valueOf(3))).isFalse();
    }

    /**
     * A column that sums to just below 1 by rounding leaves exactly p units after flooring; they are distributed
     * (largest remainders), not refused. A column summing to more than 1, or short by more than p units, is refused.
     */
    @Test
    void aColumnShortByRoundingGetsItsRemainingUnits() {
        double below = 0.5 - 1e-9;
        long[][] w = FactorizationMechanism.round(new double[][] {{below}, {below}}, 0, 8);
        assertThat(w[0][0]).isEqualTo(128);
        assertThat(w[1][0]).isEqualTo(128);
        assertThatThrownBy(() -> FactorizationMechanism.round(new double[][] {{0.49}, {0.49}}, 0, 8))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("column 0 does not sum to 1");
        assertThatThrownBy(() -> FactorizationMechanism.round(new double[][] {{0.6}, {0.6}}, 0, 8))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("column 0 does not sum to 1");
    }

    /**
     * The reconstruction is the weighted least-squares left inverse (QᵀD⁻¹Q)⁻¹QᵀD⁻¹ of the rounded strategy,
     * computed here by Gauss-Jordan, applied to arbitrary counts (with zeros) and divided by n; the predicted
     * per-user variance is tr((QᵀD⁻¹Q)⁻¹WᵀW)/n of the rounded strategy.
     */
    @Test
    void reconstructionAndVarianceFromTheRoundedStrategy() {
        Epsilon e = Epsilon.of(1);
        double[][] w = prefix(4);
        FactorizationMechanism m = new FactorizationMechanism(w, e, 8, 60, 12, 5);
        int p = 8;
        int n = 4;
        double[][] q = new double[p][n];
        for (int o = 0; o < p; o++) {
            for (int x = 0; x < n; x++) {
                q[o][x] = m.probability(x, o).doubleValue();
            }
        }
        double[][] mi = gaussJordan(info(q));
        long[] counts = {3, 0, 7, 1, 0, 12, 5, 2};
        long total = 41;
        double[] expected = new double[n];
        for (int x = 0; x < n; x++) {
            for (int o = 0; o < p; o++) {
                double d = Arrays.stream(q[o]).sum();
                double v = 0;
                for (int j = 0; j < n; j++) {
                    v += mi[x][j] * q[o][j] / d;
                }
                expected[x] += v * counts[o];
            }
            expected[x] /= total;
        }
        double[] est = FactorizationEstimates.frequencies(m, counts, total);
        for (int x = 0; x < n; x++) {
            assertThat(est[x]).as("x=%d", x).isCloseTo(expected[x], within(1e-9));
        }
        double loss = referenceLoss(q, w);
        assertThat(m.perUserTotalVariance()).isCloseTo(loss / n, within(1e-9 * loss));
    }

    /**
     * The optimiser is a deterministic function of its inputs, so device and gateway derive the same strategy: its
     * output is pinned bit for bit (it uses StrictMath, so this holds on every JVM). The pins also fix the
     * backtracking rule: a trial step is accepted only if it lowers the loss strictly (accepting an exact tie
     * changes the last bits of both cases here).
     */
    @Test
    void theOptimisersOutputIsPinnedBitForBit() {
        StrategyOptimizer one = new StrategyOptimizer(new double[][] {{1}}, 1.0, 4, StrategyOptimizer.defaultK(1.0, 4));
        assertThat(one.optimise(5, 1)).isDeepEqualTo(new double[][] {
            {0.15357667077288845}, {0.3327968528633086}, {0.5580178491874037}, {0.03137431265637963}});
        StrategyOptimizer two = new StrategyOptimizer(new double[][] {{1, 0}, {1, 1}}, 2.0, 3,
                StrategyOptimizer.defaultK(2.0, 3));
        assertThat(two.optimise(30, 1)).isDeepEqualTo(new double[][] {
            {0.0, 0.0}, {0.3576087660663527, 0.0}, {0.0, 0.3576087660663527}});
    }
}
