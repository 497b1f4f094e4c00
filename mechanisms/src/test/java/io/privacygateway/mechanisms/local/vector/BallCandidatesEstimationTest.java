package io.privacygateway.mechanisms.local.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The ℓ2-ball protocol's estimator, error bars, parameter choice, payload checks and projection. */
class BallCandidatesEstimationTest {

    /** Runs {@code n} reports of values from {@code data} and returns the estimate; {@code truth} gets the mean. */
    static VectorMeanEstimate run(BallCandidates p, int n, java.util.function.IntFunction<double[]> data,
            double[] truth, long seed) {
        long[] state = new long[p.stateLength()];
        SecretDraws draws = ExactSampler.draws(new SeededRandomBits(seed));
        for (int i = 0; i < n; i++) {
            double[] x = data.apply(i);
            for (int k = 0; k < x.length; k++) {
                truth[k] += x[k] / n;
            }
            ReportCoordinates c = VectorFixtures.coordinates(i);
            byte[] y = p.randomize(x, c, draws);
            assertThat(y).hasSize(1);
            assertThat(p.accumulate(y, c.deviceId(), c.period(), c.sequence(), state)).isTrue();
        }
        return VectorMeanEstimator.of(p).estimate(state, n);
    }

    /**
     * Unbiased, within its error bar, for values on the sphere (skewed: all near one direction), at 0 and inside:
     * 20,000 reports per case, every coordinate within 5.5 worst-case standard errors (the bar bounds the true
     * standard deviation, so the false-failure probability is below 4e-8 per coordinate under the normal
     * approximation, below 1e-6 over the 22 checked coordinates). Power: a relative error of 10% in κ, or a missing
     * norm step (which inflates the mean of a value of norm 0.5 r to the sphere), moves some coordinate by more
     * than 12 standard errors here, so either fails with probability above 1 − 1e-9.
     */
    @Test
    void estimatesTheMeanWithinItsErrorBar() {
        double r = 2;
        int n = 20_000;
        BallCandidates p = BallCandidates.of(4, r, Epsilon.of(4), VectorFixtures.HASH);
        double[][] cases = {{r, 0, 0, 0}, {0, 0, 0, 0}, {0.5, -0.5, 0.5, 0.5}, {0.6, 0, -0.8, 0}};
        int seed = 1;
        for (double[] x : cases) {
            double[] truth = new double[4];
            VectorMeanEstimate e = run(p, n, i -> x, truth, seed++);
            double se = VectorMeanEstimator.of(p).worstStandardError(n);
            assertThat(e.standardError()).containsOnly(se);
            assertThat(e.n()).isEqualTo(n);
            for (int k = 0; k < 4; k++) {
                assertThat(e.mean()[k]).as("case %s coordinate %d", java.util.Arrays.toString(x), k)
                        .isCloseTo(truth[k], within(5.5 * se));
            }
            assertThat(0.5 * r).as("power: half the radius is many standard errors").isGreaterThan(12 * se);
        }
        // skewed data: a cloud around one direction, in dimension 3 with the chosen parameters
        BallCandidates q = BallCandidates.of(3, 1, Epsilon.of(1), VectorFixtures.HASH);
        SplittableRandom rnd = new SplittableRandom(3);
        double[][] data = new double[n][];
        for (int i = 0; i < n; i++) {
            double[] v = {0.9, 0.1 * (rnd.nextDouble() - 0.5), 0.1 * (rnd.nextDouble() - 0.5)};
            double norm = BallCandidates.norm(v);
            double s = Math.min(1, rnd.nextDouble() + 0.5) / norm;
            data[i] = new double[] {v[0] * s, v[1] * s, v[2] * s};
        }
        double[] truth = new double[3];
        VectorMeanEstimate e = run(q, n, i -> data[i], truth, 99);
        for (int k = 0; k < 3; k++) {
            assertThat(e.mean()[k]).isCloseTo(truth[k], within(5.5 * VectorMeanEstimator.of(q).worstStandardError(n)));
        }
    }

    /**
     * The closed forms against the empirical law of {@code c_J} for a unit {@code x̃ = e₀}: the mean of
     * {@code c_{J,0}} is κ and of {@code c_{J,1}} is 0, the mean of {@code c_{J,0}²} is G and of {@code c_{J,1}²} is 1,
     * each within 5.5 standard errors of the sample mean (60,000 reports; false failure below 2e-7); and the
     * worst-case standard error bounds the empirical one.
     */
    @Test
    void kappaAndTheSecondMomentsMatchTheirClosedForms() {
        for (int[] ts : new int[][] {{1, 1}, {4, 2}, {6, 5}}) {
            BallCandidates p = BallCandidates.of(3, 1, Epsilon.of(2), VectorFixtures.HASH, ts[0], ts[1]);
            SecretDraws draws = ExactSampler.draws(new SeededRandomBits(ts[0]));
            int n = 60_000;
            double[] sum = new double[2];
            double[] sumSq = new double[2];
            double[] sumQuad = new double[2];
            double[] e0 = {1, 0, 0};
            for (int i = 0; i < n; i++) {
                long base = VectorFixtures.base(i);
                int j = p.randomize(e0, base, draws)[0] & 0xFF;
                double[] c = p.candidate(base, j % (p.candidateCount() / 2));
                double sign = j >= p.candidateCount() / 2 ? -1 : 1;
                for (int k = 0; k < 2; k++) {
                    double v = sign * c[k];
                    sum[k] += v;
                    sumSq[k] += v * v;
                    sumQuad[k] += v * v * v * v;
                }
            }
            double[] expectMean = {p.kappa(), 0};
            double[] expectSq = {p.scoreSquare(), 1};
            for (int k = 0; k < 2; k++) {
                double mean = sum[k] / n;
                double sq = sumSq[k] / n;
                double sdMean = Math.sqrt((sq - mean * mean) / n);
                double sdSq = Math.sqrt((sumQuad[k] / n - sq * sq) / n);
                assertThat(mean).as("t=%d s=%d mean of coordinate %d", ts[0], ts[1], k)
                        .isCloseTo(expectMean[k], within(5.5 * sdMean));
                assertThat(sq).as("t=%d s=%d second moment of coordinate %d", ts[0], ts[1], k)
                        .isCloseTo(expectSq[k], within(5.5 * sdSq));
                double empiricalSe = Math.sqrt(sq - mean * mean) / p.kappa();
                assertThat(empiricalSe).isLessThanOrEqualTo(VectorMeanEstimator.of(p).worstStandardError(1) * 1.02);
            }
        }
    }

    /** κ and G from their formulas; the one-bit case N = 2 is Duchi et al.'s: κ = √(2/π)(2π − 1). */
    @Test
    void closedFormsOfTheOneBitCase() {
        BallCandidates p = BallCandidates.of(6, 3, Epsilon.of(1), VectorFixtures.HASH, 1, 1);
        double pi = p.topProbability().value();
        assertThat(p.kappa()).isCloseTo(Math.sqrt(2 / Math.PI) * (2 * pi - 1), within(1e-12));
        assertThat(p.scoreSquare()).isCloseTo(1, within(1e-12));
        assertThat(VectorMeanEstimator.of(p).worstStandardError(100)).isCloseTo(3 / p.kappa() / 10, within(1e-12));
        assertThat(p.worstTotalVariance()).isCloseTo(9 * 6 / (p.kappa() * p.kappa()), within(1e-9));
        assertThat(p.worstCoordinateVariance()).isCloseTo(9 / (p.kappa() * p.kappa()), within(1e-9));
        assertThat(pi).isCloseTo(Math.E / (Math.E + 1), within(1e-15));
    }

    /**
     * The parameter scan: the chosen (t, s) has the smallest ideal total variance among all feasible pairs, N = 2
     * at small ε, more candidates at large ε, and construction is fast.
     */
    @Test
    void choosesTheParametersOfSmallestVariance() {
        for (double eps : new double[] {0.1, 0.5, 1, 2, 4, 8}) {
            for (int d : new int[] {1, 2, 8, 32, 256}) {
                int[] ts = BallCandidates.optimalParameters(d, Epsilon.of(eps));
                BallCandidates chosen = BallCandidates.of(d, 1, Epsilon.of(eps), VectorFixtures.HASH);
                assertThat(new int[] {chosen.candidateBits(), chosen.topSize()}).containsExactly(ts);
                for (int t = 1; t <= 8; t++) {
                    for (int s = 1; s <= (1 << t) / 2; s += Math.max(1, s / 3)) {
                        BallCandidates other = BallCandidates.of(d, 1, Epsilon.of(eps), VectorFixtures.HASH, t, s);
                        assertThat(chosen.worstTotalVariance())
                                .as("eps=%s d=%d chosen %s vs t=%d s=%d", eps, d, chosen, t, s)
                                .isLessThanOrEqualTo(other.worstTotalVariance() * (1 + 1e-9));
                    }
                }
            }
        }
        // small ε: about the one-bit mechanism's variance (within 1%); large ε: PrivUnitG's gain (8-fold at d = 32)
        BallCandidates small = BallCandidates.of(16, 1, Epsilon.of(0.1), VectorFixtures.HASH);
        BallCandidates smallOneBit = BallCandidates.of(16, 1, Epsilon.of(0.1), VectorFixtures.HASH, 1, 1);
        assertThat(small.worstTotalVariance()).isBetween(0.99 * smallOneBit.worstTotalVariance(),
                smallOneBit.worstTotalVariance());
        BallCandidates large = BallCandidates.of(32, 1, Epsilon.of(8), VectorFixtures.HASH);
        BallCandidates largeOneBit = BallCandidates.of(32, 1, Epsilon.of(8), VectorFixtures.HASH, 1, 1);
        assertThat(large.worstTotalVariance()).isLessThan(largeOneBit.worstTotalVariance() / 8);
        assertThat(large.topSize()).isLessThan(large.candidateCount() / 16);
        long start = System.nanoTime();
        BallCandidates.of(200, 1, Epsilon.of(3), VectorFixtures.HASH);
        assertThat((System.nanoTime() - start) / 1e6).as("ms, with the order statistics cached").isLessThan(50);
    }

    @Test
    void refusesMalformedPayloadsLeavingTheStateUntouched() {
        BallCandidates p = BallCandidates.of(3, 1, Epsilon.of(1), VectorFixtures.HASH, 3, 2);
        long[] state = new long[3];
        ReportCoordinates c = VectorFixtures.coordinates(1);
        assertThat(p.accumulate(null, c, state)).isFalse();
        assertThat(p.accumulate(new byte[0], c, state)).isFalse();
        assertThat(p.accumulate(new byte[] {1, 0}, c, state)).isFalse();
        assertThat(p.accumulate(new byte[] {8}, c, state)).isFalse();
        assertThat(p.accumulate(new byte[] {(byte) 0xFF}, "d", 0, 0, state)).isFalse();
        assertThat(state).containsOnly(0);
        assertThat(p.accumulate(new byte[] {7}, c, state)).isTrue();
        assertThat(state).isNotEqualTo(new long[3]);
        assertThatThrownBy(() -> p.accumulate(new byte[] {0}, c, new long[4])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> p.accumulate(new byte[] {0}, null, state)).isInstanceOf(IllegalArgumentException.class);
    }

    /** J and J + N/2 add opposite vectors, and both accumulate overloads agree. */
    @Test
    void antipodalIndicesAddOppositeCandidates() {
        BallCandidates p = BallCandidates.of(5, 1, Epsilon.of(1), VectorFixtures.HASH, 3, 1);
        ReportCoordinates c = VectorFixtures.coordinates(4);
        long[] a = new long[5];
        long[] b = new long[5];
        p.accumulate(new byte[] {2}, c, a);
        p.accumulate(new byte[] {6}, c.deviceId(), c.period(), c.sequence(), b);
        for (int k = 0; k < 5; k++) {
            assertThat(a[k]).isEqualTo(-b[k]).isNotZero();
        }
        double[] cand = p.candidate(VectorFixtures.base(4), 2);
        for (int k = 0; k < 5; k++) {
            assertThat(a[k] * 0x1.0p-32).isCloseTo(cand[k], within(0x1.0p-32));
        }
    }

    /** The state cannot overflow: 2^27 reports of at most 14·2^32 per coordinate stay below 2^63. */
    @Test
    void theWindowBoundKeepsTheSumsExact() {
        BallCandidates p = BallCandidates.of(3, 1, Epsilon.of(1), VectorFixtures.HASH);
        assertThat(p.maxReportsPerWindow()).isEqualTo(1L << 27);
        assertThat(Math.log(p.maxReportsPerWindow()) / Math.log(2) + Math.log(14 * 0x1.0p32) / Math.log(2))
                .isLessThan(63);
        assertThatThrownBy(() -> VectorMeanEstimator.of(p).estimate(new long[3], (1L << 27) + 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> VectorMeanEstimator.of(p).estimate(new long[3], 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> VectorMeanEstimator.of(p).estimate(new long[2], 1)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Refusals name the problem but never a coordinate's value. */
    @Test
    void checkValueRefusesWithoutEchoingTheValue() {
        BallCandidates p = BallCandidates.of(3, 2, Epsilon.of(1), VectorFixtures.HASH);
        assertThatThrownBy(() -> p.checkValue(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> p.checkValue(new double[2])).hasMessageContaining("3 coordinates");
        assertThatThrownBy(() -> p.checkValue(new double[] {0.25, Double.NaN, 0})).hasMessageContaining("coordinate 1")
                .hasMessageNotContaining("0.25");
        assertThatThrownBy(() -> p.checkValue(new double[] {1.7321, 1.4142, 0.1234}))
                .hasMessageContaining("norm").hasMessageNotContaining("1.7321").hasMessageNotContaining("1.4142")
                .hasMessageNotContaining("0.1234");
        assertThatThrownBy(() -> p.checkValue(new double[] {1e308, 1e308, 0})).isInstanceOf(IllegalArgumentException.class);
        p.checkValue(new double[] {2 * (1 + 1e-13), 0, 0}); // within the rounding slack
        p.checkValue(new double[] {Math.sqrt(2), Math.sqrt(2), 0});
        assertThatThrownBy(() -> p.checkValue(new double[] {2 * (1 + 1e-11), 0, 0}))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void projectsOntoTheBall() {
        BallCandidates p = BallCandidates.of(2, 5, Epsilon.of(1), VectorFixtures.HASH);
        assertThat(VectorMeanEstimator.of(p).project(new double[] {6, 8})).containsExactly(new double[] {3, 4}, within(1e-12));
        double[] inside = {1, -2};
        assertThat(VectorMeanEstimator.of(p).project(inside)).containsExactly(1, -2).isNotSameAs(inside);
        assertThat(VectorMeanEstimator.of(p).project(new double[] {3, 4})).containsExactly(3, 4);
        assertThatThrownBy(() -> VectorMeanEstimator.of(p).project(new double[3])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void describesItself() {
        BallCandidates p = BallCandidates.of(7, 1.5, Epsilon.of(2), VectorFixtures.HASH, 3, 2);
        assertThat(p.id()).isEqualTo(MechanismId.PRIVUNIT_G);
        assertThat(p.epsilon()).isEqualTo(Epsilon.of(2));
        assertThat(p.payloadBytes()).isEqualTo(1);
        assertThat(p.stateLength()).isEqualTo(7);
        assertThat(p.dimension()).isEqualTo(7);
        assertThat(p.radius()).isEqualTo(1.5);
        assertThat(p.candidateCount()).isEqualTo(8);
        assertThat(p.toString()).contains("N=8", "s=2");
        assertThatThrownBy(() -> BallCandidates.of(0, 1, Epsilon.of(1), VectorFixtures.HASH)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BallCandidates.of(257, 1, Epsilon.of(1), VectorFixtures.HASH)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BallCandidates.of(2, 0, Epsilon.of(1), VectorFixtures.HASH)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BallCandidates.of(2, Double.POSITIVE_INFINITY, Epsilon.of(1), VectorFixtures.HASH)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BallCandidates.of(2, 1, Epsilon.of(1), VectorFixtures.HASH, 3, 5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BallCandidates.of(2, 1, Epsilon.of(1), VectorFixtures.HASH, 9, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BallCandidates.of(2, 1, Epsilon.of(1), "abc")).isInstanceOf(IllegalArgumentException.class);
    }
}
