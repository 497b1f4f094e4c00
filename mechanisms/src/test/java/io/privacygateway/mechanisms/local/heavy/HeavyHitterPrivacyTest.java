package io.privacygateway.mechanisms.local.heavy;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.param.ExpBounds;
import io.privacygateway.mechanisms.random.DrawTree;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.random.RecordingDraws;
import io.privacygateway.mechanisms.workload.InvalidValueException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Exact ε-LDP of the heavy-hitter randomizer for fixed public coins, and its secret-independent work.
 *
 * <p>The law of {@code randomize} is obtained by enumerating its whole secret draw tree ({@link DrawTree}) with
 * exact rationals; for every pair of items and every payload byte {@code y} the test checks
 * {@code P(y|x) <= L · P(y|x')} with {@code L = ExpBounds.lowerBoundExact(ε, 40) <= e^ε}. Pairs are chosen both
 * colliding (same bucket in the report's row: identical laws) and not colliding with opposite Hadamard signs (the
 * worst case: ratio exactly {@code π/(1−π)}), so the worst case is exercised, not assumed.
 */
class HeavyHitterPrivacyTest {
    private static final double[] EPSILONS = {0.05, 0.5, 1, Math.log(3), 2.5, 5, 10, 40};

    static Map<Byte, Rational> law(HeavyHitterProtocol p, String item, ReportCoordinates c) {
        return DrawTree.law(d -> {
            try {
                return p.randomize(item, c, d)[0];
            } catch (InvalidValueException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    static int symbol(HeavyHitterProtocol p, String item, ReportCoordinates c) throws InvalidValueException {
        HeavyHitterProtocol.Coins k = p.coins(c);
        return HeavyHitterProtocol.symbol(k.indices(), p.bucket(k.level(), k.row(), p.paddedItem(item)));
    }

    @Test
    void everyPairOfItemsRespectsTheRatioExactlyAndTheWorstPairIsReached() throws Exception {
        for (double eps : EPSILONS) {
          for (int t : new int[] {1, 2, HeavyHitterParameters.optimalPayloadBits(
                  io.privacygateway.mechanisms.param.Epsilon.of(eps))}) {
            HeavyHitterProtocol p = HeavyHitterFixtures.protocol(eps, 6, 2, 2, 8, 4, t);
            int symbols = 1 << t;
            BigDecimal l = ExpBounds.lowerBoundExact(p.epsilon().value(), 40);
            Rational keep = Rational.dyadic(p.keepProbability().numerator());
            Rational flip = Rational.dyadic(io.privacygateway.mechanisms.random.DyadicProbability.ONE
                    - p.keepProbability().numerator()).divide(symbols - 1);
            List<String> items = new ArrayList<>();
            for (int i = 0; i < 24; i++) {
                items.add(HeavyHitterFixtures.item(i, 6));
            }
            items.add("é");
            items.add("\uD83D\uDE00"); // four UTF-8 bytes
            int collidingPairs = 0;
            int worstPairs = 0;
            for (int s = 0; s < 6; s++) {
                ReportCoordinates c = new ReportCoordinates("device-" + s, 3, s);
                HeavyHitterProtocol.Coins k = p.coins(c);
                List<Map<Byte, Rational>> laws = new ArrayList<>();
                for (String x : items) {
                    Map<Byte, Rational> m = law(p, x, c);
                    assertThat(m.keySet()).hasSize(symbols).allMatch(y -> (y & 0xFF) < symbols);
                    assertThat(m.values().stream().reduce(Rational.ZERO, Rational::add)).isEqualTo(Rational.ONE);
                    assertThat(m.values()).allMatch(q -> q.equals(keep) || q.equals(flip));
                    laws.add(m);
                }
                for (int i = 0; i < items.size(); i++) {
                    for (int j = 0; j < items.size(); j++) {
                        for (int y = 0; y < symbols; y++) {
                            assertThat(laws.get(i).get((byte) y).ratioAtMost(laws.get(j).get((byte) y), l))
                                    .as("eps=%s t=%d coins=%s y=%d", eps, t, k, y).isTrue();
                        }
                        if (i < j) {
                            byte[] xi = p.paddedItem(items.get(i));
                            byte[] xj = p.paddedItem(items.get(j));
                            if (p.bucket(k.level(), k.row(), xi) == p.bucket(k.level(), k.row(), xj)) {
                                collidingPairs++;
                                assertThat(laws.get(i)).isEqualTo(laws.get(j));
                            } else if (symbol(p, items.get(i), c) != symbol(p, items.get(j), c)) {
                                worstPairs++;
                                assertThat(laws.get(i)).isNotEqualTo(laws.get(j));
                            }
                        }
                    }
                }
            }
            assertThat(collidingPairs).as("eps=%s: some pairs collide (W = 8)", eps).isPositive();
            assertThat(worstPairs).as("eps=%s: some pairs have different symbols", eps).isPositive();
            // the realised ratio is the largest the grid allows: one more grid step would exceed L
            Rational keepUp = Rational.dyadic(p.keepProbability().numerator() + 1);
            Rational flipDown = Rational.dyadic(io.privacygateway.mechanisms.random.DyadicProbability.ONE
                    - p.keepProbability().numerator() - 1).divide(symbols - 1);
            if (p.keepProbability().numerator() + 1 < io.privacygateway.mechanisms.random.DyadicProbability.ONE) {
                assertThat(keepUp.ratioAtMost(flipDown, l)).as("eps=%s: π is the largest certified grid value", eps)
                        .isFalse();
            }
          }
        }
    }

    /** Control: the same exact check fails for a keep probability one grid step above the certified one. */
    @Test
    void controlOneGridStepMoreFailsTheCheck() {
        HeavyHitterProtocol p = HeavyHitterFixtures.protocol(1, 6, 1, 1, 4, 1, 1);
        BigDecimal l = ExpBounds.lowerBoundExact(1, 40);
        long n = p.keepProbability().numerator();
        assertThat(Rational.dyadic(n).ratioAtMost(Rational.dyadic(
                io.privacygateway.mechanisms.random.DyadicProbability.ONE - n), l)).isTrue();
        assertThat(Rational.dyadic(n + 1).ratioAtMost(Rational.dyadic(
                io.privacygateway.mechanisms.random.DyadicProbability.ONE - n - 1), l)).isFalse();
    }

    /**
     * The device's secret draws (one Bernoulli with the same numerator, one uniform draw) and its public work (the coins and the
     * bucket hash, recorded as events) are the same for every item, every seed and every coordinate tried, and
     * the draw comes out both ways.
     */
    @Test
    void theDrawsAndThePublicWorkDoNotDependOnTheItem() throws Exception {
        for (int t = 1; t <= 4; t++) {
        HeavyHitterProtocol p = HeavyHitterFixtures.protocol(1.5, 12, 2, 3, 64, 4, t);
        List<String> items = List.of("a", "ab", "abcdefghijkl", "zzzzzz", "é", "\uD83D\uDE00x", "0123456789");
        Set<Object> outcomes = new HashSet<>();
        for (int s = 0; s < 20; s++) {
            ReportCoordinates c = new ReportCoordinates("d" + s, s, s % 3);
            Set<List<Object>> traces = new LinkedHashSet<>();
            for (String x : items) {
                for (int seed = 0; seed < 20; seed++) {
                    RecordingDraws r = RecordingDraws.seeded(seed * 31L + s);
                    HeavyHitterProtocol.Coins k = p.coins(c);
                    r.note(k);
                    r.note("hashed " + (8 + (k.level() + 1) * p.parameters().segmentBytes()) + " bytes");
                    byte[] y = p.randomize(x, c, r);
                    assertThat(y).hasSize(1);
                    assertThat(y[0] & 0xFF).isLessThan(1 << t);
                    traces.add(r.trace());
                    outcomes.addAll(r.outcomes());
                }
            }
            assertThat(traces).as("coordinates %s", c).hasSize(1);
            assertThat(traces.iterator().next()).hasSize(4); // coins, hash length, one Bernoulli, one uniform
        }
        assertThat(outcomes).contains(true, false);
        }
    }
}
