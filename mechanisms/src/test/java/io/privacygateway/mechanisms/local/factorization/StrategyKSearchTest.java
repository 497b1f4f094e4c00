package io.privacygateway.mechanisms.local.factorization;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The K search of the factorization strategy (docs/wire-format.md §8.1): it keeps subset selection's proportion
 * where that is best and moves to more high-probability outputs per value where the workload and ε reward it,
 * with a lower optimised loss than the default K, and never leaves (0, p).
 */
class StrategyKSearchTest {
    static double[][] allRanges(int k) {
        int m = k * (k + 1) / 2;
        double[][] w = new double[m][k];
        int q = 0;
        for (int a = 0; a < k; a++) {
            for (int b = a; b < k; b++) {
                for (int x = a; x <= b; x++) {
                    w[q][x] = 1;
                }
                q++;
            }
        }
        return w;
    }

    static double fullLoss(double[][] workload, double eps, int p, double k) {
        StrategyOptimizer o = new StrategyOptimizer(workload, eps, p, k);
        return o.loss(o.optimise(300, 7), null);
    }

    @Test
    void atLargeEpsilonRangesGetALargerKAndALowerLoss() {
        double[][] w = allRanges(12);
        int p = 48;
        StrategyOptimizer chosen = StrategyOptimizer.withSearchedKFor(w, 4.0, p, 7);
        double base = StrategyOptimizer.defaultK(4.0, p);
        assertThat(chosen.k()).isGreaterThan(base);
        assertThat(fullLoss(w, 4.0, p, chosen.k())).isLessThan(0.95 * fullLoss(w, 4.0, p, base));
        assertThat(chosen.k()).isEqualTo(FactorizationOptimiserAgainstReferenceComputationsTest.referenceK(w, 4.0, p, 7));
    }

    @Test
    void atSmallEpsilonTheDefaultStays() {
        double[][] w = FactorizationMechanismTest.prefix(16);
        int p = 64;
        StrategyOptimizer chosen = StrategyOptimizer.withSearchedKFor(w, 0.5, p, 7);
        assertThat(chosen.k()).isEqualTo(StrategyOptimizer.defaultK(0.5, p));
    }

    @Test
    void theSearchNeverReachesP() {
        for (double eps : new double[] {0.01, 0.1, 0.5}) {
            for (int p : new int[] {4, 6, 8}) {
                StrategyOptimizer chosen = StrategyOptimizer.withSearchedKFor(FactorizationMechanismTest.prefix(3), eps, p, 3);
                assertThat(chosen.k()).isGreaterThan(0).isLessThan(p);
                assertThat(chosen.k()).isEqualTo(FactorizationOptimiserAgainstReferenceComputationsTest.referenceK(
                        FactorizationMechanismTest.prefix(3), eps, p, 3));
            }
        }
    }

    @Test
    void theGramAndWorkloadFormsAgree() {
        double[][] w = allRanges(6);
        double[][] gram = new double[6][6];
        for (double[] r : w) {
            for (int i = 0; i < 6; i++) {
                for (int j = 0; j < 6; j++) {
                    gram[i][j] += r[i] * r[j];
                }
            }
        }
        assertThat(StrategyOptimizer.withSearchedK(gram, 3.0, 24, 7).k())
                .isEqualTo(StrategyOptimizer.withSearchedKFor(w, 3.0, 24, 7).k());
    }
}
