package io.privacygateway.mechanisms.local.heavy;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.InvalidValueException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The estimator and the decoder on simulated windows that run the real randomizer and accumulator.
 */
class HeavyHitterEstimationTest {
    /** Randomizes and accumulates one report per user; user {@code i} has coordinates {@code (tag + i, 0, 0)}. */
    static long[] window(HeavyHitterProtocol p, String[] users, String tag, long seed) throws InvalidValueException {
        long[] state = new long[p.stateLength()];
        SecretDraws draws = ExactSampler.draws(new SeededRandomBits(seed));
        for (int i = 0; i < users.length; i++) {
            ReportCoordinates c = new ReportCoordinates(tag + i, 0, 0);
            assertThat(p.accumulate(p.randomize(users[i], c, draws), c, state)).isTrue();
        }
        return state;
    }

    /**
     * Unbiasedness and error bars of a known item's share. 150 independent windows of n = 10 000 users, each with
     * its own hash key (content hash) and device ids, so the collision term is random as the estimator assumes;
     * the known item "target" has share 0.2, "targetxy" (which shares its first 6 bytes) 0.05, the others are 500
     * strings of 1 to 8 bytes (so an estimate that read the share of the prefix "target" instead of the item would be
     * 0.05 too high). A small width (W = 64)
     * makes the collision correction matter: without it the bias would be about 0.8/64 = 0.0125.
     *
     * <p>Run for {@code t = 1} and {@code t = 3} payload bits (the sd is about 0.019 and 0.009). Checks (each with
     * false-failure probability at most 1e-6 under the normal approximation, so at most 6e-6 for the six):
     * <ul>
     *   <li>mean: {@code |mean(f̂) − 0.2| <= 5.33 · sd/√150} (two-sided normal tail 1e-7; with sd ≈ 0.019 the bound
     *       is ≈ 0.008, so a bias of the size of the missing collision correction (0.0125) or of a wrong scale
     *       fails: power close to 1 for biases ≥ 0.012);</li>
     *   <li>coverage: at least 127 of 150 windows have {@code |f̂ − 0.2| <= 2σ̂} (if the true coverage is 95%,
     *       fewer than 127 has probability below 1e-6);</li>
     *   <li>the bars are not inflated: the mean σ̂ is at most 1.5 times the empirical standard deviation (the
     *       empirical sd of 150 draws is within 30% of the truth with overwhelming probability).</li>
     * </ul>
     */
    @Test
    void aKnownItemsShareIsUnbiasedAndItsBarsCover() throws InvalidValueException {
        int n = 10_000;
        String[] users = new String[n];
        for (int i = 0; i < n; i++) {
            users[i] = i < n / 5 ? "target" : i < n / 4 ? "targetxy" : HeavyHitterFixtures.item(i % 500, 8);
        }
        for (int bits : new int[] {1, 3}) { // the one-bit sketch, and the optimum at ε = 2
        int trials = 150;
        double sum = 0;
        double sumSq = 0;
        double sigmaSum = 0;
        int covered = 0;
        for (int t = 0; t < trials; t++) {
            HeavyHitterProtocol p = new HeavyHitterProtocol(new HeavyHitterParameters(Epsilon.of(2), 8, 2, 2, 64, 8,
                    bits), HeavyHitterFixtures.contentHash("trial-" + t));
            long[] state = window(p, users, "t" + t + "-", 1000 + t);
            HeavyHitterEstimate.Item e = new HeavyHitterEstimator(p).estimateItem(state, n, "target");
            sum += e.share();
            sumSq += e.share() * e.share();
            sigmaSum += e.standardError();
            if (Math.abs(e.share() - 0.2) <= 2 * e.standardError()) {
                covered++;
            }
        }
        double mean = sum / trials;
        double sd = Math.sqrt((sumSq - trials * mean * mean) / (trials - 1));
        assertThat(Math.abs(mean - 0.2)).as("mean %s, sd %s", mean, sd).isLessThanOrEqualTo(5.33 * sd / Math.sqrt(trials));
        assertThat(covered).as("windows covered by ±2σ").isGreaterThanOrEqualTo(127);
        assertThat(sigmaSum / trials).as("mean σ̂ vs empirical sd %s", sd).isLessThanOrEqualTo(1.5 * sd);
        }
    }

    static String[] zipf(int n, int distinct, double s, int maxBytes) {
        double[] w = new double[distinct];
        double total = 0;
        for (int k = 0; k < distinct; k++) {
            w[k] = Math.pow(k + 1, -s);
            total += w[k];
        }
        String[] users = new String[n];
        int u = 0;
        double acc = 0;
        for (int k = 0; k < distinct && u < n; k++) {
            acc += w[k] / total;
            int upto = (int) Math.round(acc * n);
            String item = HeavyHitterFixtures.item(k, maxBytes);
            while (u < upto && u < n) {
                users[u++] = item;
            }
        }
        while (u < n) {
            users[u++] = HeavyHitterFixtures.item(distinct - 1, maxBytes);
        }
        return users;
    }

    /**
     * Recovery on a seeded Zipf(1.1) population of 2000 strings of 1 to 10 bytes, n = 100 000, ε = 4: the true
     * top 3 (shares 0.17, 0.08, 0.05; the level threshold is about 0.03) are found, nothing that is not in the
     * population is reported, and every reported share is within 4 of its bars of the truth. Deterministic
     * (fixed seeds), for both segment sizes.
     */
    @Test
    void theTopItemsOfAZipfPopulationAreFound() throws InvalidValueException {
        int n = 200_000;
        String[] users = zipf(n, 2000, 1.1, 8);
        java.util.Map<String, Integer> counts = new java.util.HashMap<>();
        for (String x : users) {
            counts.merge(x, 1, Integer::sum);
        }
        for (int b = 1; b <= 2; b++) {
            HeavyHitterProtocol p = new HeavyHitterProtocol(
                    new HeavyHitterParameters(Epsilon.of(4), 8, b, 4, 1024, b == 1 ? 32 : 16),
                    HeavyHitterFixtures.contentHash("zipf"));
            long[] state = window(p, users, "z", 77);
            HeavyHitterEstimate e = new HeavyHitterEstimator(p).estimate(state, n);
            Set<String> found = new HashSet<>();
            for (HeavyHitterEstimate.Item it : e.items()) {
                found.add(it.value());
                assertThat(counts).as("b=%d: reported %s is in the population", b, it.value()).containsKey(it.value());
                double truth = counts.get(it.value()) / (double) n;
                assertThat(Math.abs(it.share() - truth)).as("b=%d %s", b, it.value())
                        .isLessThanOrEqualTo(4 * it.standardError());
            }
            for (int k = 0; k < 3; k++) {
                assertThat(found).as("b=%d: top %d found; threshold %s", b, k + 1, e.thresholdShare())
                        .contains(HeavyHitterFixtures.item(k, 8));
            }
            List<Double> shares = new ArrayList<>();
            e.items().forEach(it -> shares.add(it.share()));
            assertThat(shares).isSortedAccordingTo((x, y) -> Double.compare(y, x));
            assertThat(e.thresholdShare()).isBetween(0.005, 0.1);
            assertThat(e.n()).isEqualTo(n);
        }
    }
    /**
     * Strings of exactly the maximum length hold no padding byte, so only the last level can call them whole: three
     * frequent full-length strings (and one short one) are found with their shares, for both segment sizes.
     */
    @Test
    void fullLengthStringsAreFoundOnTheLastLevel() throws InvalidValueException {
        int n = 60_000;
        String[] top = {"abcdefgh", "zyxwvuts", "mnopqrst", "ab"};
        double[] shares = {0.3, 0.2, 0.15, 0.15};
        String[] users = new String[n];
        int u = 0;
        for (int k = 0; k < top.length; k++) {
            for (int c = 0; c < shares[k] * n; c++) {
                users[u++] = top[k];
            }
        }
        for (int k = 0; u < n; k++) {
            users[u++] = HeavyHitterFixtures.item(1000 + k % 5000, 8);
        }
        for (int b = 1; b <= 2; b++) {
            HeavyHitterProtocol p = new HeavyHitterProtocol(
                    new HeavyHitterParameters(Epsilon.of(4), 8, b, 4, 1024, 16), HeavyHitterFixtures.contentHash("full"));
            HeavyHitterEstimate e = new HeavyHitterEstimator(p).estimate(window(p, users, "f", 91), n);
            java.util.Map<String, Double> found = new java.util.HashMap<>();
            e.items().forEach(it -> found.put(it.value(), it.share()));
            for (int k = 0; k < top.length; k++) {
                assertThat(found).as("b=%d: %s found; threshold %s", b, top[k], e.thresholdShare()).containsKey(top[k]);
                assertThat(found.get(top[k])).as("b=%d %s", b, top[k]).isCloseTo(shares[k], org.assertj.core.data.Offset.offset(0.05));
            }
        }
    }
}
