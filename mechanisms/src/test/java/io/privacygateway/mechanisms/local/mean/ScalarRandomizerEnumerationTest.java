package io.privacygateway.mechanisms.local.mean;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.ExpBounds;
import io.privacygateway.mechanisms.random.DrawTree;
import io.privacygateway.mechanisms.random.Rational;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Exact tests of the mean family's randomizers by enumeration of their whole draw tree ({@link DrawTree}): the
 * enumerated law equals the stated law ({@link ScalarRandomizer#probability}) for every level and output; for
 * every output and every pair of levels the probability ratio is at most {@code e^ε} (certified lower bound of
 * {@code e^ε}, exact rationals); the estimate is unbiased and the closed-form variance is the law's variance.
 * Deterministic; no statistics.
 */
class ScalarRandomizerEnumerationTest {
    private static final double[] EPSILONS = {0.25, 0.5, 1.0, 2.0, 4.0};

    static List<ScalarRandomizer> small(int levels, Epsilon e) {
        List<ScalarRandomizer> out = new ArrayList<>();
        out.add(new DuchiScalar(levels, e));
        for (int cells : new int[] {4, 8, 16}) {
            out.add(new PiecewiseScalar(levels, e, cells));
            out.add(new HybridScalar(levels, e, cells));
        }
        return out;
    }

    @Test
    void enumeratedLawIsTheStatedLawAndEveryRatioIsAtMostExpEpsilon() {
        for (int levels : new int[] {2, 5, 9}) {
            for (double eps : EPSILONS) {
                Epsilon e = Epsilon.of(eps);
                BigDecimal bound = ExpBounds.lowerBoundExact(e.value(), 40);
                for (ScalarRandomizer r : small(levels, e)) {
                    List<Map<Integer, Rational>> laws = new ArrayList<>();
                    for (int x = 0; x < levels; x++) {
                        int level = x;
                        Map<Integer, Rational> law = DrawTree.law(d -> r.randomize(level, d));
                        for (int y = 0; y < r.outputCount(); y++) {
                            assertThat(law.getOrDefault(y, Rational.ZERO)).as("%s x=%d y=%d", r.id(), x, y)
                                    .isEqualTo(r.probability(x, y));
                        }
                        assertThat(law.keySet()).allMatch(y -> y >= 0 && y < r.outputCount());
                        laws.add(law);
                    }
                    for (int y = 0; y < r.outputCount(); y++) {
                        for (int x = 0; x < levels; x++) {
                            for (int x2 = 0; x2 < levels; x2++) {
                                Rational p = laws.get(x).getOrDefault(y, Rational.ZERO);
                                Rational q = laws.get(x2).getOrDefault(y, Rational.ZERO);
                                assertThat(p.ratioAtMost(q, bound)).as("%s ε=%s y=%d x=%d x'=%d: %s vs %s", r.id(), eps,
                                        y, x, x2, p, q).isTrue();
                            }
                        }
                    }
                }
            }
        }
    }

    /** The ratio test is not vacuous: the realised worst ratio is close to e^ε, so a 10% larger ratio would fail. */
    @Test
    void theRatioIsTightEnoughForTheTestToBite() {
        Epsilon e = Epsilon.of(1.0);
        for (ScalarRandomizer r : List.of(new DuchiScalar(5, e), new PiecewiseScalar(5, e, 16))) {
            double worst = 0;
            for (int y = 0; y < r.outputCount(); y++) {
                for (int x = 0; x < 5; x++) {
                    for (int x2 = 0; x2 < 5; x2++) {
                        worst = Math.max(worst, r.probability(x, y).doubleValue() / r.probability(x2, y).doubleValue());
                    }
                }
            }
            assertThat(worst).as("%s", r.id()).isGreaterThan(Math.exp(0.9)).isLessThanOrEqualTo(Math.exp(1.0));
        }
    }

    @Test
    void unbiasedWithTheClosedFormVariance() {
        for (int levels : new int[] {2, 5, 9, 1025}) {
            for (double eps : EPSILONS) {
                Epsilon e = Epsilon.of(eps);
                List<ScalarRandomizer> rs = new ArrayList<>(levels <= 9 ? small(levels, e) : List.of());
                rs.add(new DuchiScalar(levels, e));
                rs.add(new PiecewiseScalar(levels, e));
                rs.add(new HybridScalar(levels, e));
                for (ScalarRandomizer r : rs) {
                    for (int x = 0; x < levels; x += Math.max(1, levels / 16)) {
                        double m1 = 0;
                        double m2 = 0;
                        for (int y = 0; y < r.outputCount(); y++) {
                            double p = r.probability(x, y).doubleValue();
                            m1 += p * r.estimateOf(y);
                            m2 += p * r.estimateOf(y) * r.estimateOf(y);
                        }
                        assertThat(m1).as("%s levels=%d ε=%s x=%d mean", r.id(), levels, eps, x)
                                .isCloseTo(r.t(x), org.assertj.core.data.Offset.offset(1e-9 * (1 + Math.sqrt(m2))));
                        double v = m2 - m1 * m1;
                        assertThat(r.variance(x)).as("%s levels=%d ε=%s x=%d variance", r.id(), levels, eps, x)
                                .isCloseTo(v, org.assertj.core.data.Offset.offset(1e-7 * (1 + v)));
                    }
                }
            }
        }
    }

    /** Production sizes (1025 levels, 1024 cells): the sampler's law at the extreme levels, enumerated. */
    @Test
    void productionPiecewiseAtTheExtremeLevels() {
        Epsilon e = Epsilon.of(4.0);
        PiecewiseScalar r = new PiecewiseScalar(1025, e);
        for (int x : new int[] {0, 513}) {
            Map<Integer, Rational> law = DrawTree.law(d -> r.randomize(x, d), 1 << 21);
            for (int y = 0; y < r.outputCount(); y++) {
                assertThat(law.getOrDefault(y, Rational.ZERO)).as("x=%d y=%d", x, y).isEqualTo(r.probability(x, y));
            }
        }
    }

    /** Production sizes: the stated law's ratio over every level pair, per output (min and max over levels). */
    @Test
    void productionRatiosOverEveryLevel() {
        for (double eps : new double[] {0.5, 4.0}) {
            Epsilon e = Epsilon.of(eps);
            BigDecimal bound = ExpBounds.lowerBoundExact(e.value(), 40);
            for (ScalarRandomizer r : List.of(new DuchiScalar(1025, e), new PiecewiseScalar(1025, e),
                    new HybridScalar(1025, e))) {
                for (int y = 0; y < r.outputCount(); y += (y < 2 || y >= r.outputCount() - 3 ? 1 : 37)) {
                    Rational min = null;
                    Rational max = null;
                    for (int x = 0; x < 1025; x++) {
                        Rational p = r.probability(x, y);
                        min = min == null || p.compareTo(min) < 0 ? p : min;
                        max = max == null || p.compareTo(max) > 0 ? p : max;
                    }
                    assertThat(max.ratioAtMost(min, bound)).as("%s ε=%s y=%d", r.id(), eps, y).isTrue();
                }
            }
        }
    }

    @Test
    void discretePiecewiseVarianceIsCloseToTheContinuousOne() {
        for (double eps : new double[] {0.5, 1, 2, 4}) {
            Epsilon e = Epsilon.of(eps);
            PiecewiseScalar r = new PiecewiseScalar(1025, e);
            for (int x : new int[] {0, 256, 512, 1024}) {
                double c = PiecewiseScalar.continuousVariance(e, r.t(x));
                assertThat(r.variance(x) / c).as("ε=%s x=%d", eps, x).isBetween(0.97, 1.03);
            }
        }
    }
}
