package io.privacygateway.mechanisms.local.fo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.param.Epsilon;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The support-count oracles' variances and covariance products against the exact law of one report: for
 * every value {@code v} the output law {@code outputProbability(v, y)} over every payload {@code y} and the
 * support vector {@code S(y)} (what {@code accumulate} adds) give {@code E_v S} and {@code E_v SSᵀ}; the
 * estimate's covariance is {@code Σ_v f_v Cov_v(S) / (n (p* − q*)²)} with {@code p*, q*} read off the same
 * law. Frequencies that do not sum to 1 are used on purpose (the oracles' variances are defined for any
 * dataset sub-population); the per-value variances are checked on whole datasets (frequencies summing to 1).
 */
class SupportCountVariancesMatchTheirLawsTest {
    private static final Epsilon EPS = Epsilon.of(1.0);

    /** The exact covariance {@code Σ_v f_v Cov_v(S)} and {@code (p* − q*)}, from the law. */
    private record Law(double[][] cov, double gap) {}

    private static Law law(SupportCountOracle o, double[] f) {
        int k = o.domainSize();
        double[][] cov = new double[k][k];
        double pStar = 0;
        double qStar = 0;
        for (int v = 0; v < k; v++) {
            double[] mean = new double[k];
            double[][] second = new double[k][k];
            for (byte[] y : PrivacyCheck.allPayloads(o)) {
                double pr = o.outputProbability(v, y, 0).doubleValue();
                if (pr == 0) {
                    continue;
                }
                long[] s = new long[k];
                assertThat(o.accumulate(y, 0, s)).isTrue();
                for (int x = 0; x < k; x++) {
                    mean[x] += pr * s[x];
                    for (int z = 0; z < k; z++) {
                        second[x][z] += pr * s[x] * s[z];
                    }
                }
            }
            if (v == 0) {
                pStar = mean[0];
                qStar = mean[1];
            }
            for (int x = 0; x < k; x++) {
                for (int z = 0; z < k; z++) {
                    cov[x][z] += f[v] * (second[x][z] - mean[x] * mean[z]);
                }
            }
        }
        return new Law(cov, pStar - qStar);
    }

    private static void check(SupportCountOracle o, double[] f, double[] c) {
        int k = o.domainSize();
        long n = 40;
        Law law = law(o, f);
        double scale = n * law.gap() * law.gap();
        double var = 0;
        double[] cu = new double[k];
        for (int x = 0; x < k; x++) {
            for (int z = 0; z < k; z++) {
                var += c[x] * c[z] * law.cov()[x][z];
                cu[x] += law.cov()[x][z] * c[z] / scale;
            }
        }
        var /= scale;
        String what = o.id() + " k=" + k;
        assertThat(FrequencyOracleEstimator.of(o).queryVariance(n, f, c)).as(what).isCloseTo(var, within(1e-9 * var));
        double[] got = FrequencyOracleEstimator.of(o).covarianceTimes(n, f, c);
        for (int x = 0; x < k; x++) {
            assertThat(got[x]).as("%s x=%d", what, x).isCloseTo(cu[x], within(1e-9 * var));
        }
        double total = 0;
        for (double fv : f) {
            total += fv;
        }
        if (total != 1) {
            return; // the per-value closed form counts the other reports as 1 − f_x: a whole dataset only
        }
        double[] vars = FrequencyOracleEstimator.of(o).variances(n, f);
        for (int x = 0; x < k; x++) {
            assertThat(vars[x]).as("%s Var x=%d", what, x).isCloseTo(law.cov()[x][x] / scale, within(1e-9 * var));
        }
    }

    /** Subset selection with d = 2 and 3 over 5 values (pairs of other values and pairs with the true value). */
    @Test
    void subsetSelectionMatchesItsLaw() {
        double[] f = {0.1, 0.3, 0, 0.05, 0.2}; // sums to 0.65
        double[] c = {1, -2, 0.5, 3, 0};
        check(new SubsetSelection(5, EPS, 2), f, c);
        check(new SubsetSelection(5, EPS, 3), f, c);
        check(new SubsetSelection(5, Epsilon.of(2.5), 1), f, c);
        check(new SubsetSelection(5, EPS, 2), new double[] {0.5, 0.25, 0, 0.125, 0.125}, c);
    }

    /** OUE over 4 values (independent bits) and GRR over 4 values (one-hot). */
    @Test
    void oueAndGrrMatchTheirLaws() {
        double[] f = {0.5, 0, 0.25, 0.125}; // sums to 0.875
        double[] c = {2, 1, -1, 0.25};
        check(new OptimizedUnaryEncoding(4, EPS), f, c);
        check(new GeneralizedRandomizedResponse(4, EPS), f, c);
        check(new OptimizedUnaryEncoding(4, EPS), new double[] {0.5, 0, 0.25, 0.25}, c);
        check(new GeneralizedRandomizedResponse(4, EPS), new double[] {0.5, 0, 0.25, 0.25}, c);
        check(new OptimizedUnaryEncoding(5, Epsilon.of(0.4)), new double[] {1, 1, 0, 0.5, 0}, new double[] {1, 0, 0, 1, 2});
    }

    /**
     * The variance-optimal subset size is the argmin of the total variance at uniform frequencies: here
     * computed by building the oracle for every d and summing its (grid-rounded) variances, on cases
     * whose minimum is clear.
     */
    @Test
    void optimalSubsetSizeIsTheArgminOfTheTotalVariance() {
        int checked = 0;
        for (int k : new int[] {4, 5, 12, 13, 20, 30}) {
            for (double eps : new double[] {0.5, 1, 2, 3}) {
                Epsilon e = Epsilon.of(eps);
                double best = Double.POSITIVE_INFINITY;
                double second = Double.POSITIVE_INFINITY;
                int arg = -1;
                for (int d = 1; d < k; d++) {
                    double total = 0;
                    for (double v : FrequencyOracleEstimator.of(new SubsetSelection(k, e, d)).variances(1, FrequencyOracles.uniform(k))) {
                        total += v;
                    }
                    if (total < best) {
                        second = best;
                        best = total;
                        arg = d;
                    } else if (total < second) {
                        second = total;
                    }
                }
                if (second - best > 1e-9 * best) {
                    assertThat(SubsetSelection.optimalSubsetSize(k, e)).as("k=%d eps=%s", k, eps).isEqualTo(arg);
                    checked++;
                }
            }
        }
        assertThat(checked).isGreaterThan(15);
    }

    /**
     * Ties go to the smallest size: at ε = 10⁻¹⁷ (e^ε = 1 in double) the sizes of a 4- or 8-value domain all
     * give p* = q*, an infinite variance, and the answer is 1.
     */
    @Test
    void tiesGoToTheSmallestSize() {
        assertThat(SubsetSelection.optimalSubsetSize(4, Epsilon.of(1e-17))).isEqualTo(1);
        assertThat(SubsetSelection.optimalSubsetSize(8, Epsilon.of(1e-17))).isEqualTo(1);
        assertThat(SubsetSelection.optimalSubsetSize(2, Epsilon.of(3))).isEqualTo(1);
    }

    /** C(n, r) by the product formula, both sides of the symmetry. */
    @Test
    void binomialIsTheProductFormulaOnBothSidesOfTheSymmetry() {
        assertThat(SubsetSelection.binomial(10, 3)).hasToString("120");
        assertThat(SubsetSelection.binomial(10, 7)).hasToString("120");
        assertThat(SubsetSelection.binomial(52, 5)).hasToString("2598960");
        assertThat(SubsetSelection.binomial(7, 0)).hasToString("1");
    }

    /**
     * Explicit numerators at the ends: a keep or flip numerator of 0 is refused (not replaced by the certified
     * one), and OUE with q exactly 1/2 passes the ratio checks but carries no signal.
     */
    @Test
    void explicitNumeratorsOfZeroOrBeyondTheRatioAreRefused() {
        assertThatThrownBy(() -> new GeneralizedRandomizedResponse(4, EPS, 0, true)).hasMessageContaining("cannot be realised");
        assertThatThrownBy(() -> new OptimizedUnaryEncoding(4, EPS, 0, true)).hasMessageContaining("q numerator 0");
        assertThatThrownBy(() -> new OptimizedUnaryEncoding(4, EPS, 1L << 52, true))
                .hasMessageContaining("too small to be realised");
        assertThatThrownBy(() -> new OptimizedUnaryEncoding(4, EPS, (1L << 52) + 1, true))
                .hasMessageContaining("cannot be realised");
        OptimizedUnaryEncoding low = new OptimizedUnaryEncoding(4, EPS, 1L << 50, false);
        assertThat(low.flipProbability().numerator()).isEqualTo(1L << 50);
    }

    /** Hadamard response refuses n = 0 even for an empty state (whose total, 0, would match it). */
    @Test
    void hadamardRefusesZeroReports() {
        HadamardResponse hr = new HadamardResponse(3, EPS);
        assertThatThrownBy(() -> FrequencyOracleEstimator.of(hr).estimate(new long[4], 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("n must be").hasMessageContaining("got 0");
        assertThat(List.of(FrequencyOracleEstimator.of(hr).estimate(new long[] {1, 0, 0, 0}, 1)[0])).containsExactly(1 / (2 * hr.inSetProbability().value() - 1));
    }
}
