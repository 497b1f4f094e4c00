package io.privacygateway.mechanisms.local.factorization;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.ExpBounds;
import io.privacygateway.mechanisms.random.DrawTree;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.random.RecordingDraws;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The workload-factorization randomizer: exact law by enumeration of its draw tree and exact ratios, the same draws
 * for every value, an unbiased reconstruction, a deterministic strategy, and a variance well below randomized
 * response's on the prefix (CDF) workload.
 */
class FactorizationMechanismTest {
    static double[][] prefix(int n) {
        double[][] w = new double[n - 1][n];
        for (int t = 1; t < n; t++) {
            for (int x = 0; x < t; x++) {
                w[t - 1][x] = 1;
            }
        }
        return w;
    }

    @Test
    void enumeratedLawIsTheStatedOneAndEveryRatioIsAtMostExpEpsilon() {
        for (double eps : new double[] {0.5, 1, 2}) {
            Epsilon e = Epsilon.of(eps);
            BigDecimal bound = ExpBounds.lowerBoundExact(e.value(), 40);
            FactorizationMechanism m = new FactorizationMechanism(prefix(4), e, 16, 50, 10, 7);
            List<Map<Integer, Rational>> laws = new ArrayList<>();
            for (int x = 0; x < 4; x++) {
                int v = x;
                Map<Integer, Rational> law = DrawTree.law(d -> m.randomize(v, d));
                for (int o = 0; o < 16; o++) {
                    assertThat(law.getOrDefault(o, Rational.ZERO)).as("ε=%s x=%d o=%d", eps, x, o)
                            .isEqualTo(m.probability(x, o));
                }
                laws.add(law);
            }
            for (int o = 0; o < 16; o++) {
                for (int x = 0; x < 4; x++) {
                    for (int y = 0; y < 4; y++) {
                        Rational a = laws.get(x).getOrDefault(o, Rational.ZERO);
                        Rational b = laws.get(y).getOrDefault(o, Rational.ZERO);
                        assertThat(a.ratioAtMost(b, bound)).as("ε=%s o=%d %d vs %d", eps, o, x, y).isTrue();
                    }
                }
            }
            // the optimiser uses the budget: some row is close to the bound (the check can fail)
            assertThat(m.worstRatio()).isGreaterThan(Math.exp(0.8 * eps));
        }
    }

    @Test
    void oneUniformDrawWhateverTheValue() {
        FactorizationMechanism m = new FactorizationMechanism(prefix(8), Epsilon.of(1), 32, 30, 30, 7);
        Set<List<Object>> traces = new LinkedHashSet<>();
        for (int seed = 0; seed < 100; seed++) {
            for (int x = 0; x < 8; x++) {
                RecordingDraws d = RecordingDraws.seeded(seed * 31L + x);
                m.randomize(x, d);
                traces.add(d.trace());
            }
        }
        assertThat(traces).hasSize(1);
        assertThat(traces.iterator().next()).hasSize(1);
    }

    /** Σ_o P(o | x) · V[·][o] = e_x: the reconstruction is an exact left inverse of the rounded strategy. */
    @Test
    void theReconstructionIsUnbiased() {
        FactorizationMechanism m = new FactorizationMechanism(prefix(16), Epsilon.of(1), 64, 100, 30, 7);
        for (int x = 0; x < 16; x++) {
            long[] expected = new long[64];
            long scale = 1L << 40;
            for (int o = 0; o < 64; o++) {
                expected[o] = (long) (m.probability(x, o).doubleValue() * scale);
            }
            double[] est = FactorizationEstimates.frequencies(m, expected, scale);
            for (int y = 0; y < 16; y++) {
                assertThat(est[y]).as("x=%d y=%d", x, y).isCloseTo(x == y ? 1 : 0,
                        org.assertj.core.data.Offset.offset(1e-6));
            }
        }
    }

    @Test
    void deterministicAndFarBetterThanRandomizedResponseOnPrefixes() {
        Epsilon e = Epsilon.of(1);
        FactorizationMechanism a = new FactorizationMechanism(prefix(32), e, 128, 200, 30, 7);
        FactorizationMechanism b = new FactorizationMechanism(prefix(32), e, 128, 200, 30, 7);
        for (int x = 0; x < 32; x++) {
            for (int o = 0; o < 128; o++) {
                assertThat(a.probability(x, o)).isEqualTo(b.probability(x, o));
            }
        }
        // randomized response: p = n, K = 1, s = I
        StrategyOptimizer opt = new StrategyOptimizer(prefix(32), 1, 32, 1);
        double[][] id = new double[32][32];
        for (int i = 0; i < 32; i++) {
            id[i][i] = 1;
        }
        double rr = opt.loss(id, null) / 32;
        assertThat(a.perUserTotalVariance()).isLessThan(rr / 3);
    }
}
