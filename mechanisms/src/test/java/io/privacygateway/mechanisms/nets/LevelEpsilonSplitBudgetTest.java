package io.privacygateway.mechanisms.nets;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.nets.LevelEpsilonSplit.Level;
import io.privacygateway.mechanisms.param.Epsilon;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The per-level budgets of local chaining never add up to more than the declared ε, checked in exact
 * decimal arithmetic for many (ε, level count, level weights): both the exact binary values of the
 * doubles (what the levels compute with) and the decimals that {@code Epsilon.of(ε_j)} declares for them
 * (what a level's {@link Epsilon} states and a protocol sums) are compared with {@link Epsilon#exact()}.
 * Also: the split spends the budget (within a relative {@code 1e-12}), so the check is not met by giving
 * levels nothing.
 */
class LevelEpsilonSplitBudgetTest {
    private static final int M = 16;

    static List<Epsilon> totals() {
        List<Epsilon> out = new ArrayList<>();
        for (double e : new double[] {1e-5, 0.001, 0.1, 0.2, 0.3, 1.0 / 3, 0.7, 1, 1.1, 2.2, 3.3, Math.log(3), 7.77,
                12.345678901234567, 39.99, 40}) {
            out.add(Epsilon.of(e));
        }
        // declared decimals that are not doubles: the split must fit the decimal, not the nearest double
        for (String s : new String[] {"0.30000000000000001", "0.1000000000000000055511151231257828",
                "1.00000000000000001", "2.9999999999999999999"}) {
            out.add(Epsilon.exactly(new BigDecimal(s)));
        }
        return out;
    }

    static void assertFits(double[] eps, Epsilon total, String tag) {
        assertFits(eps, total, tag, true);
    }

    static void assertFits(double[] eps, Epsilon total, String tag, boolean spends) {
        BigDecimal binary = BigDecimal.ZERO;
        BigDecimal declared = BigDecimal.ZERO;
        for (double v : eps) {
            assertThat(v).as(tag).isFinite().isGreaterThanOrEqualTo(0);
            binary = binary.add(new BigDecimal(v));
            if (v > 0) {
                declared = declared.add(Epsilon.of(v).exact());
            }
        }
        assertThat(binary).as("%s: Σ ε_j as computed with", tag).isLessThanOrEqualTo(total.exact());
        assertThat(declared).as("%s: Σ Epsilon.of(ε_j)", tag).isLessThanOrEqualTo(total.exact());
        if (spends) {
            assertThat(binary.doubleValue()).as("%s: the budget is spent", tag)
                    .isGreaterThanOrEqualTo(total.value() * (1 - 1e-12));
        }
    }

    @Test
    void equalSplitsFit() {
        for (Epsilon total : totals()) {
            for (int k = 1; k <= 40; k++) {
                assertFits(LevelEpsilonSplit.equal(k, total), total, total + " k=" + k);
            }
        }
    }

    /** The fit check itself: a split one ulp over, in either reading, does not fit. */
    @Test
    void theFitCheckHasTeeth() {
        BigDecimal one = BigDecimal.ONE;
        assertThat(LevelEpsilonSplit.fits(new double[] {0.5, 0.5}, one)).isTrue();
        assertThat(LevelEpsilonSplit.fits(new double[] {0.5, Math.nextUp(0.5)}, one)).isFalse();
        // 0.1 + 0.9 in binary is 1.0000000000000000277...: over 1 though the decimals add to 1
        assertThat(LevelEpsilonSplit.fits(new double[] {0.1, 0.9}, one)).isFalse();
        double[] fifteen = new double[15];
        java.util.Arrays.fill(fifteen, 1.0 / 15);
        // binary sum below 1, declared decimals 15 × 0.06666666666666667 above it
        assertThat(new BigDecimal(1.0 / 15).multiply(BigDecimal.valueOf(15))).isLessThan(one);
        assertThat(LevelEpsilonSplit.fits(fifteen, one)).isFalse();
        assertThat(LevelEpsilonSplit.fits(new double[] {41}, BigDecimal.valueOf(100))).isFalse();
        assertThat(LevelEpsilonSplit.fits(new double[] {0, 0}, BigDecimal.ZERO)).isTrue();
    }

    @Test
    void optimalSplitsFit() {
        SplittableRandom r = new SplittableRandom(2024);
        for (Epsilon total : totals()) {
            for (int k = 1; k <= 9; k++) {
                for (int rep = 0; rep < 2; rep++) {
                    List<Level> levels = new ArrayList<>();
                    for (int j = 0; j < k; j++) {
                        double radius = Math.scalb(1.0, -j) * (0.2 + r.nextDouble());
                        double width = r.nextInt(10) == 0 ? 0 : radius * (0.1 + 5 * r.nextDouble());
                        levels.add(new Level(radius, width));
                    }
                    long n = (long) Math.pow(10, 2 + 5 * r.nextDouble());
                    String tag = total + " k=" + k + " n=" + n;
                    boolean informative = levels.stream().anyMatch(l -> !l.trivial());
                    assertFits(LevelEpsilonSplit.optimal(levels, M, n, total).epsilons(), total, tag + " optimal",
                            informative); // all-trivial levels get nothing

                    assertFits(LevelEpsilonSplit.equalSplit(levels, M, n, total).epsilons(), total, tag + " equal");
                }
            }
        }
    }
}
