package io.privacygateway.mechanisms.nets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.nets.LevelEpsilonSplit.Level;
import io.privacygateway.mechanisms.nets.LevelEpsilonSplit.Split;
import io.privacygateway.mechanisms.param.Alpha;
import io.privacygateway.mechanisms.param.Epsilon;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LevelEpsilonSplitTest {
    private static final int M = 64;

    /** Levels shaped like chaining on [0,1]^m: r_j ≈ 2^{-j+1}√m·u, widths with kinks inside the range. */
    private static List<Level> randomLevels(SplittableRandom r, int k) {
        List<Level> out = new ArrayList<>();
        for (int j = 1; j <= k; j++) {
            double radius = Math.scalb(Math.sqrt(M), 1 - j) * (0.3 + 0.7 * r.nextDouble());
            double width = radius * Math.sqrt(2 * Math.log(2 + r.nextInt(5000))) * (0.2 + r.nextDouble());
            out.add(new Level(radius, width));
        }
        return out;
    }

    private static long randomN(SplittableRandom r) {
        return (long) Math.pow(10, 2 + 4 * r.nextDouble());
    }

    private static double sumExact(double[] eps) {
        BigDecimal s = BigDecimal.ZERO;
        for (double v : eps) {
            s = s.add(new BigDecimal(v));
        }
        return s.doubleValue();
    }

    private static void assertBudget(double[] eps, double total) {
        assertBudget(eps, Epsilon.exactly(new BigDecimal(total)));
    }

    /** Σ ε_j <= the declared decimal, exactly, and the budget is spent (see LevelEpsilonSplitBudgetTest). */
    private static void assertBudget(double[] eps, Epsilon total) {
        BigDecimal s = BigDecimal.ZERO;
        for (double v : eps) {
            assertThat(v).isFinite().isGreaterThanOrEqualTo(0);
            s = s.add(new BigDecimal(v));
        }
        assertThat(s).isLessThanOrEqualTo(total.exact());
        assertThat(s.doubleValue()).isCloseTo(total.value(), within(1e-12 * total.value()));
    }

    /** min over ε_1 ∈ (0, E) of err_1(ε_1) + err_2(E − ε_1): a fine grid, then zooming in. */
    private static double bruteForce2(List<Level> l, long n, double e) {
        double bestX = 0;
        double best = Double.POSITIVE_INFINITY;
        double lo = 0;
        double hi = e;
        for (int round = 0; round < 6; round++) {
            int steps = 20_000;
            for (int i = 1; i < steps; i++) {
                double x = lo + (hi - lo) * i / steps;
                if (x <= 0 || x >= e) {
                    continue;
                }
                double v = LevelEpsilonSplit.predictedError(l, M, n, new double[] {x, e - x});
                if (v < best) {
                    best = v;
                    bestX = x;
                }
            }
            double w = (hi - lo) / steps * 4;
            lo = Math.max(0, bestX - w);
            hi = Math.min(e, bestX + w);
        }
        return best;
    }

    private static double bruteForce3(List<Level> l, long n, double e) {
        double bx = 0;
        double by = 0;
        double best = Double.POSITIVE_INFINITY;
        double x0 = 0;
        double x1 = e;
        double y0 = 0;
        double y1 = e;
        for (int round = 0; round < 6; round++) {
            int steps = 500;
            for (int i = 1; i < steps; i++) {
                double x = x0 + (x1 - x0) * i / steps;
                for (int jj = 1; jj < steps; jj++) {
                    double y = y0 + (y1 - y0) * jj / steps;
                    double z = e - x - y;
                    if (x <= 0 || y <= 0 || z <= 0) {
                        continue;
                    }
                    double v = LevelEpsilonSplit.predictedError(l, M, n, new double[] {x, y, z});
                    if (v < best) {
                        best = v;
                        bx = x;
                        by = y;
                    }
                }
            }
            double wx = (x1 - x0) / steps * 4;
            double wy = (y1 - y0) / steps * 4;
            x0 = Math.max(0, bx - wx);
            x1 = Math.min(e, bx + wx);
            y0 = Math.max(0, by - wy);
            y1 = Math.min(e, by + wy);
        }
        return best;
    }

    @Test
    void levelErrorFollowsTheFormula() {
        Level l = new Level(2.0, 3.0);
        double eps = 0.8;
        long n = 1000;
        double sigma = 2.0 * Math.sqrt(Math.PI / 2) / Math.tanh(0.4) / Math.sqrt(1000);
        assertThat(LevelEpsilonSplit.levelError(l, M, n, eps))
                .isCloseTo(Math.sqrt(Math.min(sigma * sigma, sigma * 3.0 / M)), within(1e-15));
        // small-noise branch: σ < g/m
        Level wide = new Level(0.01, 50.0);
        double s2 = 0.01 * Math.sqrt(Math.PI / 2) / Math.tanh(1.5) / Math.sqrt(1e6);
        assertThat(LevelEpsilonSplit.levelError(wide, M, 1_000_000, 3.0)).isCloseTo(s2, within(1e-18));
        assertThat(LevelEpsilonSplit.levelError(l, M, n, 0.0)).isInfinite();
        assertThat(LevelEpsilonSplit.levelError(new Level(0, 3), M, n, 0.5)).isZero();
        assertThat(LevelEpsilonSplit.levelError(new Level(2, 0), M, n, 0.5)).isZero();
    }

    @ParameterizedTest
    @ValueSource(doubles = {1e-300, 1e-20, 1e-8, 1e-3, 0.5, 1, 4, 10, 1e3, 1e8, 1e30})
    void quarticRootIsAccurate(double kk) {
        double d = LevelEpsilonSplit.quarticDelta(kk);
        assertThat(d).isPositive();
        // residual relative to the size of the terms, in the δ form
        double f = d * (4 + d * (6 + d * (4 + d))) - kk * (1 + d);
        double scale = d * (4 + d * (6 + d * (4 + d))) + kk * (1 + d);
        assertThat(Math.abs(f)).isLessThanOrEqualTo(1e-13 * scale);
    }

    @Test
    void equalSplitIsEqualAndWithinBudget() {
        for (double e : new double[] {0.1, 0.7, 1, 1.3, 3, 40}) {
            for (int k = 1; k <= 13; k++) {
                double[] eps = LevelEpsilonSplit.equal(k, Epsilon.of(e));
                assertThat(eps).hasSize(k);
                for (double v : eps) {
                    assertThat(v).isEqualTo(eps[0]).isCloseTo(e / k, within(1e-15 * e));
                }
                assertBudget(eps, e);
            }
        }
    }

    @Test
    void optimalMatchesBruteForceForTwoLevels() {
        SplittableRandom r = new SplittableRandom(101);
        int nonConvexSeen = 0;
        for (int trial = 0; trial < 25; trial++) {
            List<Level> levels = randomLevels(r, 2);
            long n = randomN(r);
            double e = 0.2 + 4 * r.nextDouble();
            Split opt = LevelEpsilonSplit.optimal(levels, M, n, Epsilon.of(e));
            double brute = bruteForce2(levels, n, e);
            assertThat(opt.predictedError()).as("trial %d", trial)
                    .isLessThanOrEqualTo(brute * (1 + 1e-9))
                    .isGreaterThanOrEqualTo(brute * (1 - 1e-6));
            assertThat(opt.predictedError())
                    .isCloseTo(LevelEpsilonSplit.predictedError(levels, M, n, opt.epsilons()), within(0.0));
            assertBudget(opt.epsilons(), e);
            assertThat(java.util.Arrays.stream(opt.epsilons()).allMatch(v -> v > 0)).isTrue();
            if (kinkInside(levels, n, e)) {
                nonConvexSeen++;
            }
        }
        assertThat(nonConvexSeen).as("trials whose error has a kink inside (0, ε)").isGreaterThan(5);
    }

    /** Whether some level switches branch (σ = g/m) at an ε in (0, total): σ(total) = c·coth(total/2) < g/m. */
    private static boolean kinkInside(List<Level> levels, long n, double e) {
        for (Level l : levels) {
            double c = l.radius() * Math.sqrt(Math.PI / 2) / Math.sqrt((double) n);
            double a = l.gaussianWidth() / M;
            if (c / Math.tanh(e / 2) < a) {
                return true;
            }
        }
        return false;
    }

    @Test
    void optimalMatchesBruteForceForThreeLevels() {
        SplittableRandom r = new SplittableRandom(202);
        for (int trial = 0; trial < 6; trial++) {
            List<Level> levels = randomLevels(r, 3);
            long n = randomN(r);
            double e = 0.3 + 3 * r.nextDouble();
            Split opt = LevelEpsilonSplit.optimal(levels, M, n, Epsilon.of(e));
            double brute = bruteForce3(levels, n, e);
            assertThat(opt.predictedError()).as("trial %d", trial)
                    .isLessThanOrEqualTo(brute * (1 + 1e-9))
                    .isGreaterThanOrEqualTo(brute * (1 - 1e-5));
            assertBudget(opt.epsilons(), e);
        }
    }

    /**
     * Negative control for a convex solver. Two identical levels whose error has its concave kink at
     * ε* (σ = g/m): with ε = 2ε* the symmetric split is a stationary point of the Lagrangian, and a
     * solver that assumed convexity would return it; moving budget from one level to the other improves
     * the error (slope halves across the kink). The optimum must be asymmetric and strictly better.
     */
    @Test
    void theProblemIsNotConvexAndTheSymmetricStationaryPointIsNotOptimal() {
        List<Level> levels = List.of(new Level(1.0, 20.0), new Level(1.0, 20.0));
        long n = 400;
        double c = Math.sqrt(Math.PI / 2) / 20;
        double a = 20.0 / M;
        double kink = Math.log((a / c + 1) / (a / c - 1)); // 2·acoth(a/c)
        double e = 2 * kink;
        Split opt = LevelEpsilonSplit.optimal(levels, M, n, Epsilon.of(e));
        Split eq = LevelEpsilonSplit.equalSplit(levels, M, n, Epsilon.of(e));
        assertThat(opt.predictedError()).isLessThan(eq.predictedError() * 0.99);
        assertThat(Math.abs(opt.epsilons()[0] - opt.epsilons()[1])).isGreaterThan(0.1);
        assertThat(opt.predictedError()).isLessThanOrEqualTo(bruteForce2(levels, n, e) * (1 + 1e-9));
        // midpoint convexity fails along the budget line: f((x+y)/2) > (f(x)+f(y))/2
        double x = kink - 0.1;
        double y = kink + 0.1;
        double fMid = LevelEpsilonSplit.predictedError(levels, M, n, new double[] {kink, e - kink});
        double fx = LevelEpsilonSplit.predictedError(levels, M, n, new double[] {x, e - x});
        double fy = LevelEpsilonSplit.predictedError(levels, M, n, new double[] {y, e - y});
        assertThat(fMid).isGreaterThan((fx + fy) / 2);
    }

    @Test
    void optimalNeverLosesToTheEqualSplit() {
        SplittableRandom r = new SplittableRandom(303);
        for (int trial = 0; trial < 60; trial++) {
            int k = 1 + r.nextInt(9);
            List<Level> levels = new ArrayList<>(randomLevels(r, k));
            if (r.nextInt(3) == 0) {
                levels.set(r.nextInt(k), new Level(0.0, 1.0)); // a trivial level
            }
            long n = randomN(r);
            Epsilon e = Epsilon.of(0.05 + 8 * r.nextDouble());
            Split opt = LevelEpsilonSplit.optimal(levels, M, n, e);
            Split eq = LevelEpsilonSplit.equalSplit(levels, M, n, e);
            assertThat(opt.predictedError()).isLessThanOrEqualTo(eq.predictedError());
            assertBudget(opt.epsilons(), e);
            for (int j = 0; j < k; j++) {
                if (levels.get(j).trivial()) {
                    assertThat(opt.epsilons()[j]).isZero();
                } else {
                    assertThat(opt.epsilons()[j]).isPositive();
                }
            }
        }
    }

    @Test
    void manyAmbiguousLevelsUseLocalSearchAndStillBeatEqual() {
        List<Level> levels = new ArrayList<>();
        for (int j = 0; j < LevelEpsilonSplit.MAX_ENUMERATED + 3; j++) {
            levels.add(new Level(0.5 + 0.1 * j, 30.0 - j));
        }
        long n = 500;
        Epsilon e = Epsilon.of(12);
        Split opt = LevelEpsilonSplit.optimal(levels, M, n, e);
        Split eq = LevelEpsilonSplit.equalSplit(levels, M, n, e);
        assertThat(opt.predictedError()).isLessThanOrEqualTo(eq.predictedError());
        assertBudget(opt.epsilons(), 12);
    }

    @Test
    void allTrivialLevelsGetNothing() {
        Split s = LevelEpsilonSplit.optimal(List.of(new Level(0, 1), new Level(1, 0)), M, 10, Epsilon.of(1));
        assertThat(s.epsilons()).containsExactly(0.0, 0.0);
        assertThat(s.predictedError()).isZero();
    }

    @Test
    void theOptimalSplitHelpsOnARealDecomposition() {
        PointSet points = NetsTestData.concat(NetsTestData.blobs(300, 16, 5, 0.04, 61),
                NetsTestData.uniform(200, 16, 62));
        ChainingDecomposition dec = ChainingDecomposition.build(points, Alpha.of(0.1));
        List<Level> levels = LevelEpsilonSplit.levelsOf(dec);
        assertThat(levels).hasSize(dec.levels());
        for (int j = 1; j <= dec.levels(); j++) {
            assertThat(levels.get(j - 1).radius()).isEqualTo(dec.radius(j));
            if (dec.levelSet(j).size() == 1) {
                assertThat(levels.get(j - 1).gaussianWidth()).isZero();
            }
        }
        Split opt = LevelEpsilonSplit.optimal(levels, 16, 10_000, Epsilon.of(2));
        Split eq = LevelEpsilonSplit.equalSplit(levels, 16, 10_000, Epsilon.of(2));
        assertThat(opt.predictedError()).isLessThan(eq.predictedError());
        assertThat(sumExact(opt.epsilons())).isCloseTo(2.0, within(1e-12));
    }

    @Test
    void rejectsBadArguments() {
        assertThatThrownBy(() -> new Level(-1, 1)).hasMessageContaining("radius").hasMessageContaining("-1.0");
        assertThatThrownBy(() -> new Level(1, Double.NaN)).hasMessageContaining("gaussianWidth")
                .hasMessageContaining("NaN");
        assertThatThrownBy(() -> LevelEpsilonSplit.equal(0, Epsilon.of(1))).hasMessageContaining("k")
                .hasMessageContaining("0");
        List<Level> one = List.of(new Level(1, 1));
        assertThatThrownBy(() -> LevelEpsilonSplit.optimal(one, 0, 10, Epsilon.of(1))).hasMessageContaining("m");
        assertThatThrownBy(() -> LevelEpsilonSplit.optimal(one, 4, 0, Epsilon.of(1))).hasMessageContaining("n")
                .hasMessageContaining("0");
        assertThatThrownBy(() -> LevelEpsilonSplit.optimal(List.of(), 4, 10, Epsilon.of(1)))
                .hasMessageContaining("levels");
        assertThatThrownBy(() -> LevelEpsilonSplit.predictedError(one, 4, 10, new double[2]))
                .hasMessageContaining("epsilons");
        assertThatThrownBy(() -> LevelEpsilonSplit.levelError(one.get(0), 4, 10, -0.5))
                .hasMessageContaining("epsilon").hasMessageContaining("-0.5");
    }
}
