package io.privacygateway.mechanisms.continual;

import io.privacygateway.mechanisms.workload.Horizon;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.Workload;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Exact checks of the continual counter: node sums, the noise scale, the state and its codec. */
class ContinualCounterTest {
    static final long MINUTE = 60_000;
    /** Midnight UTC, so periods of whole minutes start at window 0. */
    static final long T0 = 1_699_920_000_000L;

    static ContinualSettings settings(double eps, int depth, Horizon... horizons) {
        return new ContinualSettings(Epsilon.of(eps), depth, List.of(horizons));
    }

    /** With zero noise every horizon's total is the exact sum of its windows' counts, across resets and trees. */
    @Test
    void totalsAreExactSumsWhenTheNoiseIsZero() {
        Workload w = ContinualFixtures.histogram(5, "add-remove", 1.0, 1, 0.9);
        List<Horizon> horizons = List.of(new Horizon.SinceActivation(), new Horizon.Span(Duration.ofMinutes(5)),
                new Horizon.Span(Duration.ofMinutes(16)), new Horizon.Span(Duration.ofMinutes(7)));
        for (int depth : new int[] {0, 1, 3, 5}) {
            ContinualCounter c = new ContinualCounter(w, new ContinualSettings(Epsilon.of(1), depth, horizons),
                    bits -> 0);
            Random rnd = new Random(depth);
            List<long[]> history = new ArrayList<>();
            ContinualState s = c.start(T0);
            for (int t = 0; t < 100; t++) {
                long[] counts = new long[5];
                for (int x = 0; x < 5; x++) {
                    counts[x] = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(50);
                }
                history.add(counts);
                long start = T0 + t * MINUTE;
                s = c.update(s, start, counts, new SeededRandomBits(t));
                List<HorizonAnswer> answers = c.answers(s);
                for (int i = 0; i < horizons.size(); i++) {
                    Horizon h = horizons.get(i);
                    long[] expected = new long[5];
                    long first = -1;
                    for (int j = 0; j <= t; j++) {
                        if (ContinualSettings.periodOf(h, T0 + j * MINUTE) == ContinualSettings.periodOf(h, start)) {
                            first = first < 0 ? j : first;
                            for (int x = 0; x < 5; x++) {
                                expected[x] += history.get(j)[x];
                            }
                        }
                    }
                    HorizonAnswer a = answers.get(i);
                    assertThat(a.noisyTotals()).as("depth %d window %d horizon %s", depth, t, h.wireName())
                            .containsExactly(expected);
                    assertThat(a.start()).isEqualTo(T0 + first * MINUTE);
                    assertThat(a.end()).isEqualTo(start + MINUTE);
                    assertThat(a.windows()).isEqualTo(t - first + 1);
                    assertThat(a.nodes()).isEqualTo(DyadicNode.cover(first, t, depth).size());
                }
            }
        }
    }

    /**
     * With every noise draw equal to 1 and no reports, a total's coordinates count the noisy nodes it adds up: exactly
     * the canonical cover of its range, never more (each node's noise is added once).
     */
    @Test
    void totalsAddUpExactlyTheCoverNodes() {
        Workload w = ContinualFixtures.histogram(3, "add-remove", 1.0, 1, 0.9);
        int depth = 4;
        ContinualCounter c = new ContinualCounter(w, settings(1, depth, new Horizon.SinceActivation(),
                new Horizon.Span(Duration.ofMinutes(6))), bits -> 1);
        ContinualState s = c.start(T0);
        for (int t = 0; t < 70; t++) {
            s = c.update(s, T0 + t * MINUTE, new long[3], new SeededRandomBits(1));
            for (HorizonAnswer a : c.answers(s)) {
                long first = (a.start() - T0) / MINUTE;
                assertThat(a.noisyTotals()).containsOnly(DyadicNode.cover(first, t, depth).size());
            }
        }
    }

    /**
     * Privacy structure: one window's counts reach exactly depth + 1 released nodes (one per level), and every
     * released node holds exactly the counts of its own windows.
     */
    @Test
    void aWindowReachesExactlyOneReleasedNodePerLevel() {
        Workload w = ContinualFixtures.histogram(2, "add-remove", 1.0, 1, 0.9);
        for (int depth = 0; depth <= 5; depth++) {
            int windows = 2 << depth;
            for (int marked = 0; marked < windows; marked++) {
                ContinualCounter c = new ContinualCounter(w, settings(1, depth, new Horizon.SinceActivation()), bits -> 0);
                ContinualState s = c.start(T0);
                List<DyadicNode> holding = new ArrayList<>();
                int released = 0;
                for (int t = 0; t < windows; t++) {
                    long[] counts = t == marked ? new long[] {0, 1} : new long[2];
                    int mk = marked;
                    List<DyadicNode> done = new ArrayList<>();
                    s = c.update(s, T0 + t * MINUTE, counts, new SeededRandomBits(t), (node, value) -> {
                        done.add(node);
                        boolean inside = node.start() <= mk && mk <= node.end();
                        assertThat(value).containsExactly(0, inside ? 1 : 0);
                        if (inside) {
                            holding.add(node);
                        }
                    });
                    released += done.size();
                }
                assertThat(released).isEqualTo(2 * windows - (windows >> depth));
                assertThat(holding).containsExactlyInAnyOrderElementsOf(DyadicNode.containing(marked, depth));
            }
        }
    }

    /**
     * The node noise scale is (h + 1)·Δ₁/ε for the exact declared ε: scale × ε equals (h + 1)·Δ₁ exactly, with
     * Δ₁ = L under add/remove and 2L under replace-one.
     */
    @Test
    void noiseScaleIsExactForTheDeclaredEpsilon() {
        for (double eps : new double[] {0.1, 0.3, 1, 2.5, 0.7, 3.3333333}) {
            for (String rel : List.of("add-remove", "replace-one")) {
                for (int contributions : new int[] {1, 3}) {
                    Workload w = ContinualFixtures.histogram(4, rel, 1.0, contributions, 0.9);
                    for (int depth : new int[] {0, 7, 20}) {
                        ContinualCounter c = ContinualCounter.of(w, settings(eps, depth, new Horizon.SinceActivation()));
                        long delta = (rel.equals("add-remove") ? 1 : 2) * contributions;
                        assertThat(c.l1Sensitivity()).isEqualTo(delta);
                        Rational t = c.noiseScale();
                        BigDecimal lhs = new BigDecimal(t.numerator()).multiply(Epsilon.of(eps).exact());
                        BigDecimal rhs = new BigDecimal(t.denominator()
                                .multiply(BigInteger.valueOf((long) (depth + 1) * delta)));
                        assertThat(lhs.compareTo(rhs)).as("ε=%s %s L=%d h=%d", eps, rel, contributions, depth)
                                .isZero();
                    }
                }
            }
        }
    }

    /** The secret draws are N per opening node, in a fixed order: their number does not depend on the counts. */
    @Test
    void secretDrawsDoNotDependOnTheData() {
        Workload w = ContinualFixtures.histogram(4, "add-remove", 1.0, 1, 0.9);
        int[] draws = new int[2];
        for (int run = 0; run < 2; run++) {
            int r = run;
            ContinualCounter c = new ContinualCounter(w, settings(1, 3, new Horizon.SinceActivation()), bits -> {
                draws[r]++;
                return 0;
            });
            ContinualState s = c.start(T0);
            for (int t = 0; t < 37; t++) {
                long[] counts = run == 0 ? new long[4] : new long[] {t, 3 * t, 0, 1000};
                s = c.update(s, T0 + t * MINUTE, counts, new SeededRandomBits(0));
            }
        }
        assertThat(draws[0]).isEqualTo(draws[1]).isPositive();
    }

    @Test
    void windowsMustComeInOrderWithValidCounts() {
        Workload w = ContinualFixtures.histogram(3, "add-remove", 1.0, 1, 0.9);
        ContinualCounter c = ContinualCounter.of(w, settings(1, 3, new Horizon.SinceActivation()));
        ContinualState s = c.update(c.start(T0), T0, new long[3], new SeededRandomBits(1));
        ContinualState after = s;
        assertThatThrownBy(() -> c.update(after, T0 + 2 * MINUTE, new long[3], new SeededRandomBits(1)))
                .hasMessageContaining("in order");
        assertThatThrownBy(() -> c.update(after, T0 + MINUTE, new long[] {1, -1, 0}, new SeededRandomBits(1)))
                .hasMessageContaining(">= 0");
        assertThatThrownBy(() -> c.update(after, T0 + MINUTE, new long[2], new SeededRandomBits(1)))
                .hasMessageContaining("3 entries");
        assertThatThrownBy(() -> c.start(T0 + 1)).hasMessageContaining("window boundary");
        assertThatThrownBy(() -> c.answers(c.start(T0))).hasMessageContaining("no window");
        assertThatThrownBy(() -> ContinualCounter.of(w, settings(1, 3, new Horizon.Span(Duration.ofSeconds(90)))))
                .hasMessageContaining("whole number of windows");
    }

    /** The settings follow the workload's declared horizons, with a depth covering the longest span. */
    @Test
    void settingsFollowTheDeclaredHorizons() {
        Map<String, Object> t = io.privacygateway.mechanisms.workload.WorkloadSpecParser.tree();
        t.put("id", "declared");
        t.put("version", 1);
        t.put("family", "histogram");
        t.put("domain", Map.of("labels", List.of("a", "b")));
        t.put("mode", "central");
        t.put("mechanism", "laplace");
        t.put("central", Map.of("epsilonPerRelease", 1.0, "neighbour", "add-remove", "contributionsPerWindow", 1,
                "epsilonPerRunningTotal", 0.5));
        t.put("budget", Map.of("epsilonPerPeriod", 40.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "horizons", List.of("1h", "1d", "since-activation")));
        Workload w = Workload.of(io.privacygateway.mechanisms.workload.WorkloadSpecParser.parse(t));
        ContinualSettings s = ContinualSettings.forWorkload(w, Epsilon.of(0.5));
        assertThat(s.depth()).isEqualTo(11); // 1,440 windows a day -> 2^11
        assertThat(s.horizons()).extracting(Horizon::wireName).containsExactly("PT1H", "PT24H", "since-activation");
        Map<String, Object> onlyTotal = new HashMap<>(t);
        onlyTotal.put("window", Map.of("size", "1m", "horizons", List.of("since-activation")));
        assertThat(ContinualSettings.forWorkload(Workload.of(io.privacygateway.mechanisms.workload.WorkloadSpecParser
                .parse(onlyTotal)), Epsilon.of(1)).depth()).isEqualTo(20); // a year of minutes
        assertThatThrownBy(() -> ContinualSettings.forWorkload(ContinualFixtures.histogram(2, "add-remove", 1, 1, 0.9),
                Epsilon.of(1))).hasMessageContaining("window.horizons");
    }

    /** Encode/decode is the identity, and a decoded state continues exactly like the original. */
    @Test
    void codecRoundTripsAndTheDecodedStateContinues() {
        Workload w = ContinualFixtures.histogram(6, "replace-one", 1.0, 2, 0.9);
        ContinualCounter c = ContinualCounter.of(w, settings(0.5, 5, new Horizon.SinceActivation(),
                new Horizon.Span(Duration.ofMinutes(10))));
        ContinualStateCodec codec = c.codec();
        ContinualState s = c.start(T0);
        Random rnd = new Random(3);
        for (int t = 0; t < 45; t++) {
            long[] counts = new long[6];
            counts[rnd.nextInt(6)] = rnd.nextInt(100);
            s = c.update(s, T0 + t * MINUTE, counts, new SeededRandomBits(t));
            byte[] bytes = codec.encode(s);
            assertThat(bytes.length).isLessThanOrEqualTo(codec.maxBytes());
            ContinualState back = codec.decode(bytes);
            assertThat(back).isEqualTo(s);
            long[] next = {1, 2, 3, 4, 5, 6};
            ContinualState a = c.update(s, T0 + (t + 1) * MINUTE, next, new SeededRandomBits(99));
            ContinualState b = c.update(back, T0 + (t + 1) * MINUTE, next, new SeededRandomBits(99));
            assertThat(b).isEqualTo(a);
            assertThat(c.answers(b).get(1).answer().estimates()).containsExactly(c.answers(a).get(1).answer().estimates());
        }
    }

    /** Bounded decoding: truncated, padded, corrupted or foreign states are refused with a message. */
    @Test
    void codecRefusesMalformedInput() {
        Workload w = ContinualFixtures.histogram(4, "add-remove", 1.0, 1, 0.9);
        ContinualCounter c = ContinualCounter.of(w, settings(1, 3, new Horizon.SinceActivation()));
        ContinualState s = c.start(T0);
        for (int t = 0; t < 11; t++) {
            s = c.update(s, T0 + t * MINUTE, new long[] {1, 2, 3, 4}, new SeededRandomBits(t));
        }
        ContinualStateCodec codec = c.codec();
        byte[] ok = codec.encode(s);
        for (int cut = 0; cut < ok.length; cut++) {
            byte[] part = java.util.Arrays.copyOf(ok, cut);
            assertThatThrownBy(() -> codec.decode(part)).isInstanceOf(IllegalArgumentException.class);
        }
        byte[] longer = java.util.Arrays.copyOf(ok, ok.length + 1);
        assertThatThrownBy(() -> codec.decode(longer)).hasMessageContaining("trailing");
        byte[] version = ok.clone();
        version[0] = 7;
        assertThatThrownBy(() -> codec.decode(version)).hasMessageContaining("version");
        byte[] huge = new byte[codec.maxBytes() + 1];
        assertThatThrownBy(() -> codec.decode(huge)).hasMessageContaining("more than");
        byte[] tenFF = new byte[40];
        java.util.Arrays.fill(tenFF, (byte) 0xFF);
        tenFF[0] = 1;
        assertThatThrownBy(() -> codec.decode(tenFF)).isInstanceOf(IllegalArgumentException.class);
        ContinualCounter other = ContinualCounter.of(w, settings(1, 4, new Horizon.SinceActivation()));
        assertThatThrownBy(() -> other.codec().decode(ok)).hasMessageContaining("shape");
    }

    /** Replace-one: the horizon's count is public; a horizon without reports says so (no estimate, cost 0). */
    @Test
    void replaceOneUsesThePublicCount() {
        Workload w = ContinualFixtures.histogram(3, "replace-one", 1.0, 1, 0.9);
        ContinualCounter c = ContinualCounter.of(w, settings(1, 4, new Horizon.SinceActivation(),
                new Horizon.Span(Duration.ofMinutes(3))));
        ContinualState s = c.start(T0);
        s = c.update(s, T0, new long[] {5, 0, 5}, new SeededRandomBits(1));
        s = c.update(s, T0 + MINUTE, new long[] {0, 10, 0}, new SeededRandomBits(2));
        s = c.update(s, T0 + 2 * MINUTE, new long[3], new SeededRandomBits(3));
        assertThat(c.answers(s).get(0).answer().n()).isEqualTo(20);
        s = c.update(s, T0 + 3 * MINUTE, new long[3], new SeededRandomBits(4));
        List<HorizonAnswer> a = c.answers(s);
        assertThat(a.get(0).answer().n()).isEqualTo(20);
        assertThat(a.get(1).answer().n()).isZero();
        assertThat(a.get(1).answer().epsilon()).isZero();
        assertThat(a.get(1).answer().unprojected()).isEmpty();
    }

    /** Every published number is finite and the bars are ordered, for empty and busy horizons alike. */
    @Test
    void answersAreWellFormed() {
        Map<String, Workload> ws = new HashMap<>();
        ws.put("hist", ContinualFixtures.histogram(8, "add-remove", 1.0, 1, 0.95));
        ws.put("cdf", ContinualFixtures.cdf(16, "add-remove", 1.0, 0.95));
        for (Workload w : ws.values()) {
            ContinualCounter c = ContinualCounter.of(w, settings(1, 6, new Horizon.SinceActivation(),
                    new Horizon.Span(Duration.ofMinutes(10))));
            ContinualState s = c.start(T0);
            for (int t = 0; t < 25; t++) {
                long[] counts = new long[w.universeSize()];
                if (t > 3) {
                    counts[t % counts.length] = 200;
                }
                s = c.update(s, T0 + t * MINUTE, counts, new SeededRandomBits(t));
                for (HorizonAnswer h : c.answers(s)) {
                    Answer a = h.answer();
                    for (int q = 0; q < a.estimates().length; q++) {
                        assertThat(a.estimates()[q]).isBetween(a.lower()[q] - 1e-12, a.upper()[q] + 1e-12);
                    }
                    assertThat(a.extras().scalars()).containsEntry("treeNodes", (double) h.nodes())
                            .containsEntry("horizonWindows", (double) h.windows());
                }
            }
        }
    }
}
