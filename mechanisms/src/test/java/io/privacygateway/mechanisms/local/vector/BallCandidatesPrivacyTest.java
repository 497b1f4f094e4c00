package io.privacygateway.mechanisms.local.vector;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.ExpBounds;
import io.privacygateway.mechanisms.random.DrawTree;
import io.privacygateway.mechanisms.random.DyadicProbability;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.random.RecordingDraws;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Exact ε-LDP of the ℓ2-ball protocol for fixed public coins: the law of the payload is enumerated over the whole
 * secret draw tree ({@link DrawTree}, exact rationals) for adversarial pairs of values (antipodes, zero, a value on
 * a candidate, values on the sphere and inside), and {@code P(J|x) <= L·P(J|x')} is checked with
 * {@code L = ExpBounds.lowerBoundExact(ε, 40) <= e^ε}.
 */
class BallCandidatesPrivacyTest {
    private static final double[] EPSILONS = {0.05, 0.5, 1, 2.5, 5, 12, 40};

    static Map<Byte, Rational> law(BallCandidates p, double[] x, long base) {
        return DrawTree.law(d -> p.randomize(x, base, d)[0]);
    }

    /** Values to compare: zero, ± a value on the sphere, ± one inside, one on candidate 0, a tiny one. */
    static List<double[]> values(BallCandidates p, long base) {
        int d = p.dimension();
        double r = p.radius();
        List<double[]> out = new ArrayList<>();
        out.add(new double[d]);
        double[] c = p.candidate(base, 0);
        double n = BallCandidates.norm(c);
        double[] onCandidate = new double[d];
        double[] sphere = new double[d];
        double[] inside = new double[d];
        double[] tiny = new double[d];
        for (int k = 0; k < d; k++) {
            onCandidate[k] = r * c[k] / n;
            sphere[k] = r * (k % 2 == 0 ? 1 : -1) / Math.sqrt(d);
            inside[k] = 0.3 * r * (k + 1) / d;
            tiny[k] = 1e-200;
        }
        out.add(onCandidate);
        out.add(negate(onCandidate));
        out.add(sphere);
        out.add(negate(sphere));
        out.add(inside);
        out.add(negate(inside));
        out.add(tiny);
        return out;
    }

    static double[] negate(double[] x) {
        double[] y = x.clone();
        for (int k = 0; k < y.length; k++) {
            y[k] = -y[k];
        }
        return y;
    }

    @Test
    void everyPairOfValuesRespectsTheRatioExactlyAndTheWorstRatioIsReached() {
        int[][] shapes = {{1, 1, 1}, {2, 2, 1}, {2, 2, 2}, {3, 3, 1}, {3, 3, 3}, {5, 4, 2}, {4, 4, 8}};
        for (double eps : EPSILONS) {
            for (int[] shape : shapes) {
                BallCandidates p = BallCandidates.of(shape[0], 2.5, Epsilon.of(eps), VectorFixtures.HASH, shape[1],
                        shape[2]);
                int n = p.candidateCount();
                BigDecimal l = ExpBounds.lowerBoundExact(p.epsilon().value(), 40);
                Rational in = p.candidateProbability(true);
                Rational out = p.candidateProbability(false);
                assertThat(in.ratioAtMost(out, l)).isTrue();
                assertThat(out.ratioAtMost(in, l)).isTrue();
                for (int i = 0; i < 3; i++) {
                    long base = VectorFixtures.base(i);
                    List<double[]> xs = values(p, base);
                    List<Map<Byte, Rational>> laws = new ArrayList<>();
                    for (double[] x : xs) {
                        Map<Byte, Rational> m = law(p, x, base);
                        assertThat(m.keySet()).allMatch(y -> (y & 0xFF) < n);
                        assertThat(m.values().stream().reduce(Rational.ZERO, Rational::add)).isEqualTo(Rational.ONE);
                        laws.add(m);
                    }
                    for (Map<Byte, Rational> a : laws) {
                        for (Map<Byte, Rational> b : laws) {
                            for (int y = 0; y < n; y++) {
                                Rational pa = a.getOrDefault((byte) y, Rational.ZERO);
                                Rational pb = b.getOrDefault((byte) y, Rational.ZERO);
                                assertThat(pa.ratioAtMost(pb, l)).as("eps=%s %s y=%d", eps, p, y).isTrue();
                            }
                        }
                    }
                    // on the sphere, x and −x: the law takes only the two values, and the worst ratio is reached
                    Map<Byte, Rational> plus = laws.get(1);
                    Map<Byte, Rational> minus = laws.get(2);
                    assertThat(plus.values()).allMatch(q -> q.equals(in) || q.equals(out));
                    assertThat(plus.values().stream().filter(in::equals).count()).isEqualTo(p.topSize());
                    boolean worst = false;
                    for (int y = 0; y < n; y++) {
                        worst |= plus.get((byte) y).equals(in) && minus.get((byte) y).equals(out);
                    }
                    assertThat(worst).as("antipodes have disjoint top sets").isTrue();
                }
            }
        }
    }

    /** The probability π is the largest certified grid value: one more grid step would exceed L. */
    @Test
    void thePiIsTheLargestCertifiedGridValue() {
        for (double eps : EPSILONS) {
            for (int[] ts : new int[][] {{1, 1}, {3, 2}, {5, 16}, {8, 1}, {8, 128}}) {
                BallCandidates p = BallCandidates.of(4, 1, Epsilon.of(eps), VectorFixtures.HASH, ts[0], ts[1]);
                BigDecimal l = ExpBounds.lowerBoundExact(p.epsilon().value(), 40);
                long num = p.topProbability().numerator();
                int n = p.candidateCount();
                int s = p.topSize();
                Rational upIn = Rational.dyadic(num + 1).divide(s);
                Rational upOut = Rational.dyadic(DyadicProbability.ONE - num - 1).divide(n - s);
                if (num + 1 < DyadicProbability.ONE) {
                    assertThat(upIn.ratioAtMost(upOut, l)).as("eps=%s t=%d s=%d", eps, ts[0], ts[1]).isFalse();
                }
                assertThat(p.candidateProbability(true).ratioAtMost(p.candidateProbability(false), l)).isTrue();
            }
        }
    }

    /** Ties rank by the smaller index, 0.0 and −0.0 tie, and the ranking is a permutation. */
    @Test
    void tiesRankBySmallerIndex() {
        assertThat(BallCandidates.rank(new double[] {0.0, 1.5, -0.0, 1.5, -2, 0.0})).containsExactly(1, 3, 0, 2, 5, 4);
        assertThat(BallCandidates.rank(new double[] {-0.0, 0.0})).containsExactly(0, 1);
        assertThat(BallCandidates.rank(new double[] {-1, 1})).containsExactly(1, 0);
        // against a reference sort, on every length up to 256 with many ties (values from a small set)
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(5);
        double[] pool = {-2, -0.5, -0.0, 0.0, 0.5, 1, 3};
        for (int n = 1; n <= 256; n++) {
            double[] score = new double[n];
            for (int j = 0; j < n; j++) {
                score[j] = pool[rnd.nextInt(pool.length)];
            }
            Integer[] expected = new Integer[n];
            for (int j = 0; j < n; j++) {
                expected[j] = j;
            }
            java.util.Arrays.sort(expected, (p, q) -> score[p] != score[q] ? (score[p] > score[q] ? -1 : 1) : p - q);
            assertThat(BallCandidates.rank(score)).as("n=%d", n)
                    .containsExactly(java.util.Arrays.stream(expected).mapToInt(Integer::intValue).toArray());
        }
    }

    /**
     * The secret draws (kinds, grids, n) are the same for every value, every seed and every coordinate: two
     * Bernoulli on the 2^-53 grid, uniformInt(s), uniformInt(N − s); both Bernoulli outcomes occur.
     */
    @Test
    void theDrawsDoNotDependOnTheValue() {
        BallCandidates p = BallCandidates.of(5, 3, Epsilon.of(1.5), VectorFixtures.HASH, 4, 3);
        Set<Object> outcomes = new HashSet<>();
        for (int i = 0; i < 6; i++) {
            long base = VectorFixtures.base(i);
            Set<List<Object>> traces = new LinkedHashSet<>();
            for (double[] x : values(p, base)) {
                for (int seed = 0; seed < 30; seed++) {
                    RecordingDraws r = RecordingDraws.seeded(seed * 131L + i);
                    p.randomize(x, base, r);
                    traces.add(r.costTrace());
                    outcomes.addAll(r.outcomes());
                }
            }
            assertThat(traces).hasSize(1);
            assertThat(traces.iterator().next()).containsExactly(
                    new RecordingDraws.Draw("bernoulli", -1, 53), new RecordingDraws.Draw("bernoulli", -1, 53),
                    new RecordingDraws.Draw("uniformInt", 3, 0), new RecordingDraws.Draw("uniformInt", 13, 0));
        }
        assertThat(outcomes).contains(true, false);
    }

    /** The norm step's numerator: 2^52 + round(ρ·2^52), from 1/2 at ρ = 0 to 1 on the sphere. */
    @Test
    void theNormStepProbability() {
        assertThat(BallCandidates.normNumerator(0)).isEqualTo(1L << 52);
        assertThat(BallCandidates.normNumerator(1)).isEqualTo(1L << 53);
        assertThat(BallCandidates.normNumerator(0.5)).isEqualTo(3L << 51);
        assertThat(BallCandidates.normNumerator(0x1.0p-53)).isEqualTo((1L << 52) + 1); // round half up
    }
}
