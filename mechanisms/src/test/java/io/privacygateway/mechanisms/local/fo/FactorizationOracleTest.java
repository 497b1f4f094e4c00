package io.privacygateway.mechanisms.local.fo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.ExpBounds;
import io.privacygateway.mechanisms.random.DrawTree;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.random.RecordingDraws;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The workload-factorization oracle: its exact law through the real sampler path (the draw tree enumerated on a
 * {@code 2^10} grid) with every ratio at most {@code e^ε}, the certified ratio at the production grid, the 2-byte
 * payload and the refusal of malformed ones, identical strategies from independent builds (device and gateway) and
 * the cache, and the closed-form covariance against the exact per-report law.
 */
class FactorizationOracleTest {
    static final long BASE = 0x1234_5678_9ABCL;

    /** The answer vectors of the CDF over k buckets: {@code Q(x)_t = [x <= t]}, {@code t = 0..k−2}. */
    static PointSet cdf(int k) {
        double[][] rows = new double[k][k - 1];
        for (int x = 0; x < k; x++) {
            for (int t = x; t < k - 1; t++) {
                rows[x][t] = 1;
            }
        }
        return PointSet.of(k - 1, rows);
    }

    static byte[] index(int o) {
        return new byte[] {(byte) (o >>> 8), (byte) o};
    }

    @Test
    void enumeratedLawThroughTheOracleIsTheStatedOneAndEveryRatioIsAtMostExpEpsilon() {
        for (double eps : new double[] {0.5, 1, 2}) {
            Epsilon e = Epsilon.of(eps);
            BigDecimal bound = ExpBounds.lowerBoundExact(e.value(), 40);
            FactorizationOracle o = new FactorizationOracle(cdf(4), e, 50, 10);
            assertThat(o.outputs()).isEqualTo(16);
            List<Map<String, Rational>> laws = new ArrayList<>();
            for (int x = 0; x < 4; x++) {
                int v = x;
                Map<String, Rational> law = DrawTree.law(d -> HexFormat.of().formatHex(o.randomize(v, BASE, d)));
                Rational total = Rational.ZERO;
                for (int y = 0; y < 16; y++) {
                    Rational p = law.getOrDefault(HexFormat.of().formatHex(index(y)), Rational.ZERO);
                    assertThat(p).as("ε=%s x=%d y=%d", eps, x, y).isEqualTo(o.outputProbability(x, index(y), BASE));
                    assertThat(p).as("every output possible").isNotEqualTo(Rational.ZERO);
                    total = total.add(p);
                }
                assertThat(total).isEqualTo(Rational.ONE); // nothing outside the 16 two-byte indices
                laws.add(law);
            }
            for (int y = 0; y < 16; y++) {
                String key = HexFormat.of().formatHex(index(y));
                for (int a = 0; a < 4; a++) {
                    for (int b = 0; b < 4; b++) {
                        assertThat(laws.get(a).get(key).ratioAtMost(laws.get(b).get(key), bound))
                                .as("ε=%s y=%d %d vs %d", eps, y, a, b).isTrue();
                    }
                }
            }
        }
    }

    /** At the production grid (2^30, not enumerable) the stated law is checked exactly against the certified bound. */
    @Test
    void productionStrategyIsCertifiedExactlyAndDrawsOnceWhateverTheValue() {
        Epsilon e = Epsilon.of(1);
        BigDecimal bound = ExpBounds.lowerBoundExact(e.value(), 40);
        FactorizationOracle o = new FactorizationOracle(cdf(8), e);
        assertThat(o.mechanism().gridBits()).isEqualTo(FactorizationOracle.GRID_BITS);
        for (int y = 0; y < o.outputs(); y++) {
            for (int a = 0; a < 8; a++) {
                for (int b = 0; b < 8; b++) {
                    assertThat(o.outputProbability(a, index(y), BASE).ratioAtMost(o.outputProbability(b, index(y), BASE),
                            bound)).as("y=%d %d vs %d", y, a, b).isTrue();
                }
            }
        }
        Set<List<Object>> traces = new LinkedHashSet<>();
        for (int seed = 0; seed < 50; seed++) {
            for (int x = 0; x < 8; x++) {
                RecordingDraws d = RecordingDraws.seeded(seed * 31L + x);
                o.randomize(x, BASE + seed, d);
                traces.add(d.trace());
            }
        }
        assertThat(traces).hasSize(1);
        assertThat(traces.iterator().next()).hasSize(1);
    }

    /** Draws answering uniformInt from a script. */
    record Scripted(int u) implements SecretDraws {
        @Override
        public boolean bernoulli(long numerator, int gridBits) {
            throw new AssertionError("factorization draws no Bernoulli");
        }

        @Override
        public int uniformInt(int n) {
            assertThat(n).isEqualTo(1 << FactorizationOracle.GRID_BITS);
            return u;
        }
    }

    @Test
    void payloadIsTheOutputIndexInTwoBytesAndRoundTrips() {
        FactorizationOracle o = new FactorizationOracle(cdf(8), Epsilon.of(1));
        assertThat(o.id()).isEqualTo(MechanismId.FACTORIZATION);
        assertThat(o.payloadBytes()).isEqualTo(2);
        assertThat(o.stateLength()).isEqualTo(32);
        for (int x = 0; x < 8; x++) {
            // u = 0 is the first output with positive weight (all weights are positive: output 0); u = 2^30 − 1 the last
            assertThat(o.randomize(x, BASE, new Scripted(0))).containsExactly(0, 0);
            assertThat(o.randomize(x, BASE, new Scripted((1 << 30) - 1))).containsExactly(0, 31);
            long cumulative = 0;
            for (int y = 0; y < 32; y++) { // the first unit of each output's interval maps to it
                assertThat(o.randomize(x, BASE, new Scripted((int) cumulative))).containsExactly(index(y));
                cumulative += o.mechanism().weight(x, y);
            }
            assertThat(cumulative).isEqualTo(1L << 30);
        }
        long[] state = new long[o.stateLength()];
        long[] expected = new long[o.stateLength()];
        io.privacygateway.mechanisms.random.SeededRandomBits bits = new io.privacygateway.mechanisms.random.SeededRandomBits(5);
        for (int i = 0; i < 500; i++) {
            byte[] p = o.randomize(i % 8, BASE, bits);
            assertThat(p).hasSize(2);
            int y = ((p[0] & 0xFF) << 8) | (p[1] & 0xFF);
            assertThat(y).isLessThan(32);
            expected[y]++;
            assertThat(o.accumulate(p, BASE, state)).isTrue();
        }
        assertThat(state).containsExactly(expected);
    }

    @Test
    void malformedPayloadsAreRejectedLeavingTheStateUntouched() {
        FactorizationOracle o = new FactorizationOracle(cdf(8), Epsilon.of(1));
        long[] state = new long[o.stateLength()];
        state[3] = 7;
        long[] before = state.clone();
        for (byte[] bad : new byte[][] {null, {}, {0}, {0, 0, 0}, index(32), index(33), {(byte) 0xFF, (byte) 0xFF},
                {1, 0}}) {
            assertThat(o.accumulate(bad, BASE, state)).as(Arrays.toString(bad)).isFalse();
            assertThat(state).containsExactly(before);
            assertThat(o.outputProbability(0, bad, BASE)).isEqualTo(Rational.ZERO);
        }
        assertThat(o.accumulate(index(31), BASE, state)).isTrue();
        assertThatThrownBy(() -> o.accumulate(index(0), BASE, new long[31])).hasMessageContaining("state");
        assertThatThrownBy(() -> o.randomize(8, BASE, new Scripted(0))).hasMessageContaining("value");
        assertThatThrownBy(() -> FrequencyOracleEstimator.of(o).estimate(new long[32], 1)).hasMessageContaining("accumulated");
    }

    @Test
    void independentBuildsGiveIdenticalWeightsAndTheCacheBuildsOnce() {
        Epsilon e = Epsilon.of(1.5);
        FactorizationOracle device = new FactorizationOracle(cdf(16), e);
        FactorizationOracle gateway = new FactorizationOracle(cdf(16), Epsilon.of(1.5));
        for (int x = 0; x < 16; x++) {
            for (int y = 0; y < device.outputs(); y++) {
                assertThat(device.mechanism().weight(x, y)).isEqualTo(gateway.mechanism().weight(x, y));
                assertThat(device.mechanism().reconstruction(x, y)).isEqualTo(gateway.mechanism().reconstruction(x, y));
            }
        }
        // the same strategy as the prototype built from the workload matrix W (rows: queries), as the benchmark does
        double[][] w = new double[15][16];
        for (int x = 0; x < 16; x++) {
            for (int q = 0; q < 15; q++) {
                w[q][x] = cdf(16).get(x, q);
            }
        }
        io.privacygateway.mechanisms.local.factorization.FactorizationMechanism prototype =
                new io.privacygateway.mechanisms.local.factorization.FactorizationMechanism(w, e, 64, 300, 30, 7);
        for (int x = 0; x < 16; x++) {
            for (int y = 0; y < 64; y++) {
                assertThat(prototype.weight(x, y)).isEqualTo(device.mechanism().weight(x, y));
            }
        }
        FactorizationOracle a = FactorizationOracle.of(cdf(16), e);
        assertThat(FactorizationOracle.of(cdf(16), Epsilon.of(1.5))).isSameAs(a);
        assertThat(a.mechanism().weight(3, 5)).isEqualTo(device.mechanism().weight(3, 5));
        assertThat(FactorizationOracle.of(cdf(16), Epsilon.of(1))).isNotSameAs(a);
        assertThat(FactorizationOracle.of(cdf(15), e)).isNotSameAs(a);
    }

    @Test
    void parametersAreValidated() {
        assertThatThrownBy(() -> new FactorizationOracle(PointSet.of(1, new double[][] {{1}}), Epsilon.of(1)))
                .hasMessageContaining("domainSize");
        assertThatThrownBy(() -> new FactorizationOracle(cdf(129), Epsilon.of(1))).hasMessageContaining("domainSize")
                .hasMessageContaining("128");
        assertThatThrownBy(() -> new FactorizationOracle(null, Epsilon.of(1))).hasMessageContaining("answers");
        assertThatThrownBy(() -> new FactorizationOracle(cdf(4), null)).hasMessageContaining("epsilon");
        assertThatThrownBy(() -> FactorizationOracle.of(cdf(4), null)).hasMessageContaining("epsilon");
    }

    /**
     * The closed form {@code Cov(p̂) = (V diag(Qf) Vᵀ − diag(f))/n} against the exact per-report law: a report of
     * value x contributes {@code c·V[·][y]} with probability {@code P(y | x)} (the contribution read back through
     * {@code estimate} of one report), so {@code Var = Σ_x f_x Var_x / n} exactly.
     */
    @Test
    void varianceIsTheExactVarianceOfTheLeastSquaresEstimate() {
        int k = 6;
        FactorizationOracle o = new FactorizationOracle(cdf(k), Epsilon.of(1));
        double[][] contribution = new double[o.outputs()][];
        for (int y = 0; y < o.outputs(); y++) {
            long[] one = new long[o.stateLength()];
            one[y] = 1;
            contribution[y] = FrequencyOracleEstimator.of(o).estimate(one, 1);
        }
        double[] f = {0.4, 0.1, 0, 0.2, 0.25, 0.05};
        double[][] coefficients = {{1, 0, 0, 0, 0, 0}, {1, 1, 1, 0, 0, 0}, {0.5, -2, 0, 3, 0, 1}};
        long n = 1000;
        for (double[] c : coefficients) {
            double expected = 0;
            for (int x = 0; x < k; x++) {
                double mean = 0;
                double second = 0;
                for (int y = 0; y < o.outputs(); y++) {
                    double p = o.outputProbability(x, index(y), BASE).doubleValue();
                    double s = 0;
                    for (int z = 0; z < k; z++) {
                        s += c[z] * contribution[y][z];
                    }
                    mean += p * s;
                    second += p * s * s;
                }
                assertThat(mean).as("unbiased per report").isCloseTo(c[x], within(1e-9));
                expected += f[x] * (second - mean * mean);
            }
            expected /= n;
            assertThat(FrequencyOracleEstimator.of(o).queryVariance(n, f, c)).isCloseTo(expected, within(1e-9 * expected));
            double[] cov = FrequencyOracleEstimator.of(o).covarianceTimes(n, f, c);
            double quad = 0;
            for (int x = 0; x < k; x++) {
                quad += c[x] * cov[x];
            }
            assertThat(quad).isCloseTo(expected, within(1e-9 * expected));
        }
        double[] v = FrequencyOracleEstimator.of(o).variances(n, f);
        double[] unit = new double[k];
        for (int x = 0; x < k; x++) {
            unit[x] = 1;
            assertThat(v[x]).isCloseTo(FrequencyOracleEstimator.of(o).queryVariance(n, f, unit), within(1e-12));
            unit[x] = 0;
        }
        PointSet answers = cdf(k);
        double[] batch = FrequencyOracleEstimator.of(o).queryVariances(n, f, answers);
        for (int q = 0; q < answers.dim(); q++) {
            double[] c = new double[k];
            for (int x = 0; x < k; x++) {
                c[x] = answers.get(x, q);
            }
            assertThat(batch[q]).isCloseTo(FrequencyOracleEstimator.of(o).queryVariance(n, f, c), within(1e-12));
        }
    }
}
