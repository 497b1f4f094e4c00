package io.privacygateway.mechanisms.local.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.mean.ScalarRandomizer;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The box protocol's sampling, estimator, error bars, parameter choice, payload checks and projection. */
class BoxCoordinatesEstimationTest {

    /**
     * Unbiased within the error bar for a box corner, the centre and skewed data, with each scalar: 30,000 reports,
     * every coordinate within 5.5 worst-case standard errors (the bar bounds the true deviation: false failure below
     * 4e-8 per coordinate, below 1e-6 over the 6 × 3 × 3 = 54 checks). Power: a bias of 0.15·(hi − lo) in any
     * coordinate (e.g. a missing d/k factor, or a wrong level rule at the corner) is more than 12 standard errors
     * here (asserted), failing with probability above 1 − 1e-9.
     */
    @Test
    void estimatesTheMeanWithinItsErrorBar() {
        int d = 6;
        double lo = -3;
        double hi = 5;
        int n = 30_000;
        for (MechanismId id : MechanismId.MEAN_MECHANISMS) {
            BoxCoordinates p = BoxCoordinates.of(d, lo, hi, 33, id, Epsilon.of(3), VectorFixtures.HASH);
            double se = VectorMeanEstimator.of(p).worstStandardError(n);
            assertThat(0.15 * (hi - lo)).isGreaterThan(12 * se);
            SplittableRandom rnd = new SplittableRandom(11);
            double[] corner = {lo, hi, lo, hi, hi, lo};
            double[] centre = {1, 1, 1, 1, 1, 1};
            for (int which = 0; which < 3; which++) {
                long[] state = new long[p.stateLength()];
                double[] truth = new double[d];
                SecretDraws draws = ExactSampler.draws(new SeededRandomBits(which * 7L + id.ordinal()));
                Domain.Range range = p.range();
                for (int i = 0; i < n; i++) {
                    double[] x = switch (which) {
                        case 0 -> corner;
                        case 1 -> centre;
                        default -> skewed(rnd, d, lo, hi);
                    };
                    for (int c = 0; c < d; c++) {
                        truth[c] += range.valueOf(range.levelOf(x[c])) / n; // the represented value
                    }
                    ReportCoordinates rc = VectorFixtures.coordinates(i);
                    byte[] y = p.randomize(x, rc, draws);
                    assertThat(p.accumulate(y, rc.deviceId(), rc.period(), rc.sequence(), state)).isTrue();
                }
                VectorMeanEstimate e = VectorMeanEstimator.of(p).estimate(state, n);
                assertThat(e.standardError()).containsOnly(se);
                for (int c = 0; c < d; c++) {
                    assertThat(e.mean()[c]).as("%s case %d coordinate %d", id, which, c)
                            .isCloseTo(truth[c], within(5.5 * se));
                }
            }
        }
    }

    static double[] skewed(SplittableRandom rnd, int d, double lo, double hi) {
        double[] x = new double[d];
        for (int c = 0; c < d; c++) {
            double u = rnd.nextDouble();
            x[c] = lo + (hi - lo) * u * u * u * (c + 1) / d;
        }
        return x;
    }

    /**
     * The per-report variance of coordinate c's term {@code (d/k)·1[c sampled]·t̂} is {@code (d/k)(V(x) + t²) − t²}
     * exactly (V from the scalar's closed form): the empirical variance over 40,000 reports is within 5.5 of its
     * standard errors (from the fourth moment), and at most the worst-case bound.
     */
    @Test
    void thePerReportVarianceMatchesItsClosedForm() {
        int d = 5;
        BoxCoordinates p = BoxCoordinates.of(d, 0, 1, 3, MechanismId.DUCHI, Epsilon.of(2), VectorFixtures.HASH, 2);
        ScalarRandomizer s = p.scalar();
        double[] x = {0, 0.5, 1, 1, 0};
        SecretDraws draws = ExactSampler.draws(new SeededRandomBits(4));
        int n = 40_000;
        double[] m1 = new double[d];
        double[] m2 = new double[d];
        double[] m4 = new double[d];
        for (int i = 0; i < n; i++) {
            long base = VectorFixtures.base(i);
            byte[] y = p.randomize(x, base, draws);
            int[] sampled = new int[2];
            p.sample(base, sampled);
            double[] term = new double[d];
            for (int j = 0; j < 2; j++) {
                int sym = ((y[2 * j] & 0xFF) << 8) | (y[2 * j + 1] & 0xFF);
                term[sampled[j]] = (double) d / 2 * s.estimateOf(sym);
            }
            for (int c = 0; c < d; c++) {
                m1[c] += term[c] / n;
                m2[c] += term[c] * term[c] / n;
                m4[c] += Math.pow(term[c], 4) / n;
            }
        }
        for (int c = 0; c < d; c++) {
            int level = p.range().levelOf(x[c]);
            double t = s.t(level);
            double expected = (double) d / 2 * (s.variance(level) + t * t) - t * t;
            double variance = m2[c] - m1[c] * m1[c];
            double sdOfSecondMoment = Math.sqrt((m4[c] - m2[c] * m2[c]) / n);
            assertThat(m1[c]).isCloseTo(t, within(5.5 * Math.sqrt(variance / n)));
            assertThat(variance).as("coordinate %d", c).isCloseTo(expected, within(5.5 * sdOfSecondMoment + 1e-3));
            assertThat(expected).isLessThanOrEqualTo(p.worstVariance() + 1e-12);
        }
    }

    /**
     * Floyd's sampling: k distinct coordinates in increasing order; every coordinate, and every pair, about equally
     * often (chi-square-like bounds at 6 standard deviations over 60,000 reports).
     */
    @Test
    void samplesUniformSubsets() {
        int d = 7;
        int k = 3;
        BoxCoordinates p = BoxCoordinates.of(d, 0, 1, 2, MechanismId.DUCHI, Epsilon.of(1), VectorFixtures.HASH, k);
        int n = 60_000;
        long[] single = new long[d];
        long[][] pair = new long[d][d];
        for (int i = 0; i < n; i++) {
            int[] s = p.sampledCoordinates(VectorFixtures.coordinates(i));
            assertThat(s).hasSize(k).isSorted().doesNotHaveDuplicates();
            for (int a = 0; a < k; a++) {
                single[s[a]]++;
                for (int b = a + 1; b < k; b++) {
                    pair[s[a]][s[b]]++;
                }
            }
        }
        double ps = (double) k / d;
        for (int c = 0; c < d; c++) {
            assertThat((double) single[c]).isCloseTo(n * ps, within(6 * Math.sqrt(n * ps * (1 - ps))));
        }
        double pp = (double) k * (k - 1) / (d * (d - 1.0));
        for (int a = 0; a < d; a++) {
            for (int b = a + 1; b < d; b++) {
                assertThat((double) pair[a][b]).isCloseTo(n * pp, within(6 * Math.sqrt(n * pp * (1 - pp))));
            }
        }
        // k = d: every coordinate
        BoxCoordinates all = BoxCoordinates.of(4, 0, 1, 2, MechanismId.DUCHI, Epsilon.of(1), VectorFixtures.HASH, 4);
        assertThat(all.sampledCoordinates(VectorFixtures.coordinates(3))).containsExactly(0, 1, 2, 3);
    }

    @Test
    void choosesTheSampleSizeOfSmallestWorstVariance() {
        for (MechanismId id : MechanismId.MEAN_MECHANISMS) {
            for (double eps : new double[] {0.5, 2, 8}) {
                for (int d : new int[] {1, 4, 32}) {
                    BoxCoordinates p = BoxCoordinates.of(d, 0, 1, 1025, id, Epsilon.of(eps), VectorFixtures.HASH);
                    for (int k = 1; k <= Math.min(d, 16); k++) {
                        assertThat(p.worstVariance()).isLessThanOrEqualTo(
                                BoxCoordinates.worstVariance(d, k, 1025, id, Epsilon.of(eps)));
                    }
                    assertThat(VectorMeanEstimator.of(p).worstStandardError(100)).isCloseTo(0.5 * Math.sqrt(p.worstVariance() / 100),
                            within(1e-12));
                }
            }
        }
        // Wang et al.: k = max(1, min(d, ⌊ε/2.5⌋)) for the piecewise/hybrid family; small ε samples one coordinate
        assertThat(BoxCoordinates.bestSampled(32, 1025, MechanismId.DUCHI, Epsilon.of(0.5)).sampled()).isEqualTo(1);
        assertThat(BoxCoordinates.bestSampled(32, 1025, MechanismId.HYBRID, Epsilon.of(8)).sampled()).isGreaterThan(1);
        BoxCoordinates.Choice best = BoxCoordinates.best(32, 1025, Epsilon.of(4));
        for (MechanismId id : MechanismId.MEAN_MECHANISMS) {
            assertThat(best.worstVariance()).isLessThanOrEqualTo(
                    BoxCoordinates.bestSampled(32, 1025, id, Epsilon.of(4)).worstVariance());
        }
        // closed form at k = d = 1 for Duchi with a middle level (t = 0): V_max = C², the bound (d/k)V + d/k − 1 = C²
        double v = BoxCoordinates.worstVariance(1, 1, 3, MechanismId.DUCHI, Epsilon.of(1));
        double c = (Math.E + 1) / (Math.E - 1);
        assertThat(v).isCloseTo(c * c, within(1e-9));
    }

    @Test
    void refusesMalformedPayloadsLeavingTheStateUntouched() {
        BoxCoordinates p = BoxCoordinates.of(4, 0, 1, 5, MechanismId.HYBRID, Epsilon.of(2), VectorFixtures.HASH, 2);
        long[] state = new long[p.stateLength()];
        ReportCoordinates c = VectorFixtures.coordinates(2);
        int m = p.scalar().outputCount();
        assertThat(p.accumulate(null, c, state)).isFalse();
        assertThat(p.accumulate(new byte[2], c, state)).isFalse();
        assertThat(p.accumulate(new byte[5], c, state)).isFalse();
        assertThat(p.accumulate(new byte[] {0, 1, (byte) (m >>> 8), (byte) m}, c, state)).isFalse();
        assertThat(p.accumulate(new byte[] {(byte) 0xFF, (byte) 0xFF, 0, 0}, "d", 1, 1, state)).isFalse();
        assertThat(state).containsOnly(0);
        assertThat(p.accumulate(new byte[] {0, 1, (byte) ((m - 1) >>> 8), (byte) (m - 1)}, c, state)).isTrue();
        int[] s = p.sampledCoordinates(c);
        assertThat(state[s[0] * m + 1]).isEqualTo(1);
        assertThat(state[s[1] * m + m - 1]).isEqualTo(1);
        assertThat(java.util.Arrays.stream(state).sum()).isEqualTo(2);
        assertThatThrownBy(() -> p.accumulate(new byte[4], c, new long[3])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> p.accumulate(new byte[4], null, state)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> VectorMeanEstimator.of(p).estimate(state, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> VectorMeanEstimator.of(p).estimate(new long[2], 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void checkValueRefusesWithoutEchoingTheValue() {
        BoxCoordinates p = BoxCoordinates.of(3, -1, 1, 5, MechanismId.PIECEWISE, Epsilon.of(1), VectorFixtures.HASH);
        assertThatThrownBy(() -> p.checkValue(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> p.checkValue(new double[4])).hasMessageContaining("3 coordinates");
        assertThatThrownBy(() -> p.checkValue(new double[] {0.123, 1.4567, 0})).hasMessageContaining("coordinate 1")
                .hasMessageNotContaining("1.4567").hasMessageNotContaining("0.123");
        assertThatThrownBy(() -> p.checkValue(new double[] {0, Double.NaN, 0})).hasMessageContaining("coordinate 1");
        assertThatThrownBy(() -> p.checkValue(new double[] {0, 0, Double.NEGATIVE_INFINITY}))
                .hasMessageContaining("coordinate 2");
        p.checkValue(new double[] {-1, 1, 0.3});
    }

    @Test
    void projectsByClipping() {
        BoxCoordinates p = BoxCoordinates.of(3, -1, 2, 5, MechanismId.DUCHI, Epsilon.of(1), VectorFixtures.HASH);
        assertThat(VectorMeanEstimator.of(p).project(new double[] {-5, 0.5, 9})).containsExactly(-1, 0.5, 2);
        assertThatThrownBy(() -> VectorMeanEstimator.of(p).project(new double[2])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void describesItself() {
        BoxCoordinates p = BoxCoordinates.of(10, 0, 4, 9, MechanismId.PIECEWISE, Epsilon.of(6), VectorFixtures.HASH, 3);
        assertThat(p.id()).isEqualTo(MechanismId.PIECEWISE);
        assertThat(p.payloadBytes()).isEqualTo(6);
        assertThat(p.stateLength()).isEqualTo(10 * p.scalar().outputCount());
        assertThat(p.dimension()).isEqualTo(10);
        assertThat(p.sampledCoordinates()).isEqualTo(3);
        assertThat(p.range()).isEqualTo(new Domain.Range(0, 4, 9));
        assertThat(p.toString()).contains("k=3", "piecewise");
        assertThatThrownBy(() -> BoxCoordinates.of(4, 1, 1, 5, MechanismId.DUCHI, Epsilon.of(1), VectorFixtures.HASH))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BoxCoordinates.of(4, 0, 1, 5, MechanismId.DUCHI, Epsilon.of(1), VectorFixtures.HASH, 5))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BoxCoordinates.of(40, 0, 1, 5, MechanismId.DUCHI, Epsilon.of(1), VectorFixtures.HASH, 17))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BoxCoordinates.of(4, 0, 1, 5, MechanismId.PRIVUNIT_G, Epsilon.of(1), VectorFixtures.HASH))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BoxCoordinates.of(0, 0, 1, 5, MechanismId.DUCHI, Epsilon.of(1), VectorFixtures.HASH))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BoxCoordinates.worstVariance(4, 2, 1, MechanismId.DUCHI, Epsilon.of(1)))
                .hasMessageContaining("levels");
        assertThatThrownBy(() -> BoxCoordinates.worstVariance(4, 2, 5, MechanismId.PRIVUNIT_G, Epsilon.of(1)))
                .hasMessageContaining("not a mean mechanism");
        // a share too small for the grid is an infinite variance, and no k at all is refused
        assertThat(BoxCoordinates.worstVariance(4, 4, 65536, MechanismId.DUCHI, Epsilon.of(1e-12)))
                .isEqualTo(Double.POSITIVE_INFINITY);
        assertThatThrownBy(() -> BoxCoordinates.bestSampled(4, 65536, MechanismId.DUCHI, Epsilon.of(1e-12)))
                .hasMessageContaining("too small");
    }
}
