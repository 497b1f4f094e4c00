package io.privacygateway.mechanisms.local.vector;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.local.mean.ScalarRandomizer;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.ExpBounds;
import io.privacygateway.mechanisms.random.DrawTree;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.random.RecordingDraws;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Exact ε-LDP of the box protocol for fixed public coins: the payload's law enumerated over the whole secret draw
 * tree (Duchi's scalar, where the tree is small), the composition bound {@code Π L(ε_k) } over the k coordinates
 * checked exactly, the split {@code k·ε_k <= ε} exactly, and every scalar's per-coordinate ratio exactly.
 */
class BoxCoordinatesPrivacyTest {
    private static final double[] EPSILONS = {0.3, 1, 2.5, 7, 40};

    static Map<ByteBuffer, Rational> law(BoxCoordinates p, double[] x, long base) {
        return DrawTree.law(d -> ByteBuffer.wrap(p.randomize(x, base, d)));
    }

    static List<double[]> values(int d, double lo, double hi) {
        List<double[]> out = new ArrayList<>();
        double[] low = new double[d];
        double[] high = new double[d];
        double[] mixed = new double[d];
        double[] middle = new double[d];
        for (int c = 0; c < d; c++) {
            low[c] = lo;
            high[c] = hi;
            mixed[c] = c % 2 == 0 ? lo : hi;
            middle[c] = lo + (hi - lo) * (c + 1) / (d + 2);
        }
        out.add(low);
        out.add(high);
        out.add(mixed);
        out.add(middle);
        return out;
    }

    /** The product of the per-coordinate bounds: {@code L(ε_k)^k}. */
    static BigDecimal composed(BoxCoordinates p) {
        BigDecimal l = ExpBounds.lowerBoundExact(p.scalar().epsilon().value(), 40);
        return l.pow(p.sampledCoordinates(), new MathContext(60, RoundingMode.DOWN));
    }

    @Test
    void theWholePayloadLawRespectsTheComposedRatioExactly() {
        for (double eps : EPSILONS) {
            for (int k = 1; k <= 3; k++) {
                BoxCoordinates p = BoxCoordinates.of(4, -1, 3, 5, MechanismId.DUCHI, Epsilon.of(eps),
                        VectorFixtures.HASH, k);
                BigDecimal bound = composed(p);
                for (int i = 0; i < 4; i++) {
                    long base = VectorFixtures.base(i);
                    List<Map<ByteBuffer, Rational>> laws = new ArrayList<>();
                    for (double[] x : values(4, -1, 3)) {
                        Map<ByteBuffer, Rational> m = law(p, x, base);
                        assertThat(m).hasSize(1 << k);
                        assertThat(m.values().stream().reduce(Rational.ZERO, Rational::add)).isEqualTo(Rational.ONE);
                        laws.add(m);
                    }
                    for (Map<ByteBuffer, Rational> a : laws) {
                        for (Map<ByteBuffer, Rational> b : laws) {
                            for (ByteBuffer y : a.keySet()) {
                                assertThat(a.get(y).ratioAtMost(b.get(y), bound)).as("eps=%s k=%d", eps, k).isTrue();
                            }
                        }
                    }
                    // the corners lo^d and hi^d reach the composed worst case: the ratio is the product of k ratios
                    Rational worst = Rational.ZERO;
                    for (ByteBuffer y : laws.get(0).keySet()) {
                        Rational q = laws.get(1).get(y).multiply(inverse(laws.get(0).get(y)));
                        worst = q.compareTo(worst) > 0 ? q : worst;
                    }
                    BigDecimal perCoordinate = ExpBounds.lowerBoundExact(p.scalar().epsilon().value(), 40);
                    if (k > 1 && eps < 10) {
                        assertThat(new BigDecimal(worst.numerator()).compareTo(
                                perCoordinate.multiply(new BigDecimal(worst.denominator())))).as("k=%d composes", k)
                                .isPositive();
                    }
                }
            }
        }
    }

    private static Rational inverse(Rational q) {
        return Rational.of(q.denominator(), q.numerator());
    }

    /**
     * Piecewise and hybrid: given the coins, the payload's law is the product of the scalar laws of the sampled
     * coordinates (checked on the draw trace: k runs of the scalar's draws, in coordinate order), and every scalar
     * law's ratio is at most L(ε_k) exactly, over every pair of levels and every symbol.
     */
    @Test
    void everyScalarRatioIsBoundedAtTheShare() {
        for (MechanismId id : MechanismId.MEAN_MECHANISMS) {
            for (double eps : new double[] {1, 4, 40}) {
                BoxCoordinates p = BoxCoordinates.of(5, 0, 1, 5, id, Epsilon.of(eps), VectorFixtures.HASH, 3);
                ScalarRandomizer s = p.scalar();
                BigDecimal l = ExpBounds.lowerBoundExact(s.epsilon().value(), 40);
                for (int y = 0; y < s.outputCount(); y++) {
                    for (int x = 0; x < 5; x++) {
                        for (int x2 = 0; x2 < 5; x2++) {
                            assertThat(s.probability(x, y).ratioAtMost(s.probability(x2, y), l)).isTrue();
                        }
                    }
                }
                // the device's draws are k copies of the scalar's sequence
                RecordingDraws one = RecordingDraws.seeded(5);
                s.randomize(2, one);
                RecordingDraws all = RecordingDraws.seeded(5);
                p.randomize(new double[] {0, 0.25, 0.5, 0.75, 1}, VectorFixtures.base(1), all);
                List<Object> expected = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    expected.addAll(one.costTrace());
                }
                assertThat(all.costTrace()).isEqualTo(expected);
            }
        }
    }

    /** {@code ε_k = ε/k} rounded down: {@code k·ε_k <= ε} exactly, and within 1e-25 of ε. */
    @Test
    void theSplitIsExactInTheSafeDirection() {
        for (double eps : new double[] {0.1, 1, Math.PI, 7.3, 40}) {
            for (int k = 1; k <= 16; k++) {
                Epsilon share = BoxCoordinates.share(Epsilon.of(eps), k);
                BigDecimal total = share.exact().multiply(BigDecimal.valueOf(k));
                assertThat(total).isLessThanOrEqualTo(Epsilon.of(eps).exact());
                assertThat(Epsilon.of(eps).exact().subtract(total).doubleValue()).isLessThan(1e-25);
                assertThat(new BigDecimal(share.value())).isLessThanOrEqualTo(share.exact());
            }
        }
        BoxCoordinates p = BoxCoordinates.of(8, 0, 1, 9, MechanismId.PIECEWISE, Epsilon.of(2), VectorFixtures.HASH, 3);
        assertThat(p.scalar().epsilon()).isEqualTo(BoxCoordinates.share(Epsilon.of(2), 3));
        assertThat(p.epsilon()).isEqualTo(Epsilon.of(2));
    }

    /** The draws do not depend on the value: the same cost trace for every value, seed and coordinate. */
    @Test
    void theDrawsDoNotDependOnTheValue() {
        for (MechanismId id : MechanismId.MEAN_MECHANISMS) {
            BoxCoordinates p = BoxCoordinates.of(6, -2, 2, 17, id, Epsilon.of(2), VectorFixtures.HASH, 2);
            Set<Object> outcomes = new HashSet<>();
            for (int i = 0; i < 5; i++) {
                Set<List<Object>> traces = new LinkedHashSet<>();
                for (double[] x : values(6, -2, 2)) {
                    for (int seed = 0; seed < 20; seed++) {
                        RecordingDraws r = RecordingDraws.seeded(seed + 100L * i);
                        p.randomize(x, VectorFixtures.base(i), r);
                        traces.add(r.costTrace());
                        outcomes.addAll(r.outcomes());
                    }
                }
                assertThat(traces).as("%s coordinates %d", id, i).hasSize(1);
            }
            assertThat(outcomes).contains(true, false);
        }
    }
}
