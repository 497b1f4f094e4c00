package io.privacygateway.mechanisms.local.heavy;

import static io.privacygateway.mechanisms.local.heavy.HeavyHitterEstimationTest.window;
import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.workload.InvalidValueException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The decoder's choice of candidates when one string dominates the window: the collision term of a lighter
 * candidate counts only the prefixes not already accepted (the residual mass), and a candidate whose first score
 * was inflated by collisions waits until the candidates it collides with have claimed their cells.
 */
class HeavyHitterSelectionTest {
    private static final Epsilon EPS = Epsilon.of(4);

    /** Named shares in the order given (so that the users, and with them the seeded draws, are deterministic). */
    static Map<String, Double> shares(Object... pairs) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            out.put((String) pairs[i], (Double) pairs[i + 1]);
        }
        return out;
    }

    /**
     * A population of {@code n} users: each named string with its share, the rest spread over filler strings of 1
     * to {@code maxBytes} bytes that neither equal a named string nor start with {@code avoidPrefix}.
     */
    static String[] population(int n, int maxBytes, String avoidPrefix, Map<String, Double> named) {
        String[] users = new String[n];
        int u = 0;
        for (Map.Entry<String, Double> e : named.entrySet()) {
            for (int c = 0; c < Math.round(e.getValue() * n); c++) {
                users[u++] = e.getKey();
            }
        }
        for (int i = 0; u < n; i++) {
            String filler = HeavyHitterFixtures.item(1000 + i % 3000, maxBytes);
            if (!named.containsKey(filler) && !filler.startsWith(avoidPrefix)) {
                users[u++] = filler;
            }
        }
        return users;
    }

    /**
     * A string holding 6% of the reports next to one holding 70%: the dominant string's collision mass
     * ({@code Σf² ≈ 0.49}) would put the threshold near 0.1 on this small sketch (W = 256, R = 3), but once the
     * dominant string is accepted and its cells left out only the randomizer's noise and the residual mass count
     * (threshold about 0.02). Before the residual mass, the light string was not found (this test failed).
     * Deterministic (fixed seeds and hash key).
     */
    @Test
    void aLightStringBesideADominantOneIsFound() throws InvalidValueException {
        int n = 20_000;
        String[] users = population(n, 4, "zq", shares("dom", 0.7, "zq", 0.06));
        HeavyHitterProtocol p = new HeavyHitterProtocol(new HeavyHitterParameters(EPS, 4, 1, 3, 256, 16),
                HeavyHitterFixtures.contentHash("dominant"));
        HeavyHitterEstimate e = new HeavyHitterEstimator(p).estimate(window(p, users, "d", 5), n);
        Map<String, Double> found = new HashMap<>();
        e.items().forEach(it -> found.put(it.value(), it.share()));
        assertThat(found).as("threshold %s", e.thresholdShare()).containsKeys("dom", "zq");
        assertThat(e.thresholdShare()).isLessThan(0.05);
    }

    /**
     * The published bars of a light string reported beside a dominant one, where the residual mass sets the
     * collision term: 150 independent windows (fresh hash key and device ids each), "zq" at 0.06 and "dom" at 0.7.
     * "zq" must be found in every window (its share is about 3 thresholds), and its bars must cover the truth
     * ({@code |f̂ − 0.06| <= 2σ̂}) in at least 127 of 150 (if the true coverage were 95%, fewer has probability
     * below 1e-6); the mean estimate must be within 5.33 empirical standard errors of 0.06 (two-sided normal tail
     * 1e-7).
     */
    @Test
    void aLightStringsBarsCoverBesideADominantOne() throws InvalidValueException {
        int n = 20_000;
        String[] users = population(n, 4, "zq", shares("dom", 0.7, "zq", 0.06));
        int trials = 150;
        int covered = 0;
        double sum = 0;
        double sumSq = 0;
        for (int t = 0; t < trials; t++) {
            HeavyHitterProtocol p = new HeavyHitterProtocol(new HeavyHitterParameters(EPS, 4, 1, 3, 256, 16),
                    HeavyHitterFixtures.contentHash("dominant-" + t));
            HeavyHitterEstimate e = new HeavyHitterEstimator(p).estimate(window(p, users, "w" + t + "-", 7000 + t), n);
            HeavyHitterEstimate.Item zq = e.items().stream().filter(it -> it.value().equals("zq")).findFirst()
                    .orElseThrow(() -> new AssertionError("zq not found; threshold " + e.thresholdShare()));
            sum += zq.share();
            sumSq += zq.share() * zq.share();
            if (Math.abs(zq.share() - 0.06) <= 2 * zq.standardError()) {
                covered++;
            }
        }
        double mean = sum / trials;
        double sd = Math.sqrt((sumSq - trials * mean * mean) / (trials - 1));
        assertThat(covered).as("windows covered by ±2σ").isGreaterThanOrEqualTo(127);
        assertThat(Math.abs(mean - 0.06)).as("mean %s, sd %s", mean, sd)
                .isLessThanOrEqualTo(5.33 * sd / Math.sqrt(trials));
    }

    /**
     * An impostor: a string nobody holds, a sibling of a true string (so its parent prefix is frequent), whose
     * buckets collide with the dominant string's (0.55) in row 0 and with a lighter true string's (0.15) in row 1.
     * Its first score (about 0.23) puts it ahead of its true sibling (0.2); once the dominant string has claimed
     * row 0 its score on rows 1 and 2 is still about 0.075, more than twice the threshold, because the lighter
     * string has not been accepted yet. It must wait until that string claims row 1, and then fail on row 2 alone. (Taking
     * candidates in their first order and re-scoring once reported it; the search for the colliding hash key and
     * suffix is deterministic.)
     */
    @Test
    void aStringThatOnlyCollidesWithTrueOnesIsNotReported() throws InvalidValueException {
        String a = "ab";
        String b = "cd";
        String c = "efgh";
        HeavyHitterProtocol p = null;
        String impostor = null;
        search:
        for (int k = 0; k < 50_000; k++) {
            HeavyHitterProtocol q = new HeavyHitterProtocol(new HeavyHitterParameters(EPS, 4, 2, 3, 1024, 16),
                    HeavyHitterFixtures.contentHash("impostor-" + k));
            int[][] named = {buckets(q, a), buckets(q, b), buckets(q, c)};
            for (char x = 'a'; x <= 'z'; x++) {
                for (char y = 'a'; y <= 'z'; y++) {
                    String s = "ef" + x + y;
                    if (s.equals(c)) {
                        continue;
                    }
                    int[] h = buckets(q, s);
                    if (h[0] == named[0][0] && h[1] == named[1][1] && h[2] != named[0][2] && h[2] != named[1][2]
                            && h[0] != named[2][0] && h[1] != named[2][1] && h[2] != named[2][2]) {
                        p = q;
                        impostor = s;
                        break search;
                    }
                }
            }
        }
        assertThat(impostor).as("a colliding suffix exists").isNotNull();
        int n = 60_000;
        String[] users = population(n, 4, "ef", shares(a, 0.55, c, 0.2, b, 0.15));
        HeavyHitterEstimate e = new HeavyHitterEstimator(p).estimate(window(p, users, "i", 11), n);
        Map<String, Double> found = new HashMap<>();
        e.items().forEach(it -> found.put(it.value(), it.share()));
        assertThat(found).as("threshold %s", e.thresholdShare()).containsKeys(a, b, c).doesNotContainKey(impostor);
        assertThat(new HeavyHitterEstimator(p).estimateItem(window(p, users, "i", 11), n, impostor).share())
                .as("the impostor's score on all its cells").isGreaterThan(0.15);
    }

    /**
     * The cap {@code T}: with {@code T = 2}, of four strings holding 30%, 25%, 20% and 15% (and two-byte prefixes of
     * their own, so every level has four true prefixes) the two heaviest are reported and nothing else; with
     * {@code T = 8} all four. The cap counts prefixes and whole items separately: with one shared count, the two
     * heaviest prefixes of a level would leave no room for the whole items judged again beside them.
     */
    @Test
    void atMostTStringsAreReported() throws InvalidValueException {
        int n = 40_000;
        String[] users = population(n, 6, "zz", shares("aaaaaa", 0.3, "bbbbbb", 0.25, "cccc", 0.2, "dd", 0.15));
        for (int cap : new int[] {2, 8}) {
            HeavyHitterProtocol p = new HeavyHitterProtocol(new HeavyHitterParameters(EPS, 6, 2, 3, 1024, cap),
                    HeavyHitterFixtures.contentHash("cap"));
            HeavyHitterEstimate e = new HeavyHitterEstimator(p).estimate(window(p, users, "c", 3), n);
            java.util.List<String> found = e.items().stream().map(HeavyHitterEstimate.Item::value).toList();
            if (cap == 2) {
                assertThat(found).as("T = 2").containsExactly("aaaaaa", "bbbbbb");
            } else {
                assertThat(found).as("T = 8").containsExactly("aaaaaa", "bbbbbb", "cccc", "dd");
            }
        }
    }

    /**
     * Error bars where collisions, not the randomizer, dominate: twelve two-byte strings holding 5% each on a
     * sketch of width 256 with three rows (the collision term's standard deviation, about 0.006, is two to three
     * times the randomizer's), 60 windows with a fresh hash key each. No reported string is made up, and the
     * published bars ({@code ±2σ̂}) cover the truth for at least 80% of the (window, string) pairs reported (95%
     * expected; the pairs of one window share a hash key, so the bound is loose). Without the last check of the
     * listed strings against each other a made-up string was listed (a string whose every cell holds one of the
     * twelve); with the proven share taken on the wrong side ({@code f̂ + z·σ̂}, so that the residual mass and the
     * bars shrink to the randomizer's) several were.
     */
    @Test
    void barsStayHonestWhenCollisionsDominate() throws InvalidValueException {
        int n = 30_000;
        Object[] pairs = new Object[24];
        for (int k = 0; k < 12; k++) {
            pairs[2 * k] = "" + (char) ('a' + k) + (char) ('a' + k);
            pairs[2 * k + 1] = 0.05;
        }
        Map<String, Double> named = shares(pairs);
        String[] users = population(n, 2, "~", named);
        Map<String, Integer> counts = new HashMap<>();
        for (String u : users) {
            counts.merge(u, 1, Integer::sum);
        }
        int pairsReported = 0;
        int covered = 0;
        for (int t = 0; t < 60; t++) {
            HeavyHitterProtocol p = new HeavyHitterProtocol(new HeavyHitterParameters(EPS, 2, 1, 3, 256, 16),
                    HeavyHitterFixtures.contentHash("collisions-" + t));
            HeavyHitterEstimate e = new HeavyHitterEstimator(p).estimate(window(p, users, "k" + t + "-", 300 + t), n);
            for (HeavyHitterEstimate.Item it : e.items()) {
                assertThat(counts).as("window %d: %s is held by someone", t, it.value()).containsKey(it.value());
                double truth = counts.get(it.value()) / (double) n;
                if (named.containsKey(it.value())) {
                    pairsReported++;
                    if (Math.abs(it.share() - truth) <= 2 * it.standardError()) {
                        covered++;
                    }
                }
            }
        }
        assertThat(pairsReported).as("most of the twelve found in most windows").isGreaterThan(60 * 12 / 2);
        assertThat((double) covered / pairsReported).as("coverage of %d pairs", pairsReported).isGreaterThanOrEqualTo(0.8);
    }

    /**
     * The default parameters (ε = 4, 16 bytes: 8 levels of two bytes, 3 rows, width 1024) on a seeded Zipf(1.1)
     * population of 20 000 strings of 1 to 16 bytes, n = 400 000: at least 13 strings are listed and every one is
     * held by someone. A deterministic regression check (fixed seeds and hash key) of the decoder's ordering:
     * scoring each candidate once in its first order listed 11 (the strings that only looked heavy by colliding
     * with a frequent one took the cells of lighter true strings), and in the benchmark it listed 2 to 5 made-up
     * strings per window at n = 10⁶.
     */
    @Test
    void aZipfWindowWithTheDefaultParameters() throws InvalidValueException {
        int n = 400_000;
        String[] users = HeavyHitterEstimationTest.zipf(n, 20_000, 1.1, 16);
        java.util.Set<String> population = new java.util.HashSet<>(java.util.Arrays.asList(users));
        HeavyHitterProtocol p = new HeavyHitterProtocol(HeavyHitterParameters.defaults(EPS, 16, n),
                HeavyHitterFixtures.contentHash("zipf-big-0"));
        HeavyHitterEstimate e = new HeavyHitterEstimator(p).estimate(window(p, users, "z0-", 40), n);
        assertThat(e.items()).hasSizeGreaterThanOrEqualTo(13)
                .allMatch(it -> population.contains(it.value()), "held by someone");
    }

    private static int[] buckets(HeavyHitterProtocol p, String item) throws InvalidValueException {
        byte[] padded = p.paddedItem(item);
        return new int[] {p.bucket(1, 0, padded), p.bucket(1, 1, padded), p.bucket(1, 2, padded)};
    }
}
