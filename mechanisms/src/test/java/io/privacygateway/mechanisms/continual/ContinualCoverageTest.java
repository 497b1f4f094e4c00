package io.privacygateway.mechanisms.continual;

import io.privacygateway.mechanisms.workload.Horizon;
import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.Workload;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Statistical coverage of the published bars of running totals.
 *
 * <p>Three workloads: CDF over 8 buckets under both neighbour relations and a histogram over 8 labels (add/remove).
 * Each trial runs an independent stream (its own seed) of 45 windows and checks one coordinate (trial mod m) of the
 * since-activation and the 16-minute horizon answers against the true mean over the horizon. The bars claim coverage
 * at least 0.9 per coordinate, so the misses of each horizon over 300 trials are dominated by Binomial(300, 0.1):
 * {@link #MAX_MISSES} is the smallest c with P(Binomial(300, 0.1) > c) below 10⁻⁶, so a correct implementation fails
 * this test with probability below 6·10⁻⁶ (two horizons, three workloads). Power: bars shrunk to 15% of their width (a control that under-covers)
 * must miss more than that (about 60% do). The full bars are conservative (Chernoff bounds, the projection's
 * move added): they miss far less than 10%.
 */
class ContinualCoverageTest {
    static final int TRIALS = 300;
    static final int MAX_MISSES = maxMisses(TRIALS, 0.1, 1e-6);

    static int maxMisses(int n, double p, double falseFailure) {
        double[] pmf = new double[n + 1];
        pmf[0] = Math.pow(1 - p, n);
        for (int k = 1; k <= n; k++) {
            pmf[k] = pmf[k - 1] * (n - k + 1) / k * p / (1 - p);
        }
        double tail = 0;
        for (int c = n; c >= 0; c--) {
            if (tail + pmf[c] > falseFailure) {
                return c;
            }
            tail += pmf[c];
        }
        return 0;
    }

    @Test
    void barsCoverTheTrueRunningMeans() {
        for (String relation : List.of("add-remove", "replace-one", "histogram add-remove")) {
            Workload w = relation.startsWith("histogram") ? ContinualFixtures.histogram(8, "add-remove", 1.0, 1, 0.9)
                    : ContinualFixtures.cdf(8, relation, 1.0, 0.9);
            int[][] misses = run(w, 1.0);
            System.out.printf("continual coverage %s: misses %d and %d of %d (limit %d)%n", relation, misses[0][0],
                    misses[1][0], TRIALS, MAX_MISSES);
            for (int[] horizon : misses) {
                assertThat(horizon[0]).as("%s misses of %d (limit %d)", relation, TRIALS, MAX_MISSES)
                        .isLessThanOrEqualTo(MAX_MISSES);
            }
            int[][] control = run(w, 0.15);
            System.out.printf("continual coverage %s, bars at 15%%: misses %d and %d%n", relation, control[0][0],
                    control[1][0]);
            assertThat(control[0][0]).as("%s: shrunk bars must under-cover", relation).isGreaterThan(MAX_MISSES);
        }
    }

    /** Misses per horizon over the trials, with bars scaled by {@code shrink} around the estimate. */
    static int[][] run(Workload w, double shrink) {
        int m = w.queryCount();
        int n = w.universeSize();
        ContinualCounter c = ContinualCounter.of(w, new ContinualSettings(Epsilon.of(1), 6,
                List.of(new Horizon.SinceActivation(), new Horizon.Span(Duration.ofMinutes(16)))));
        int[][] misses = new int[2][1];
        for (int trial = 0; trial < TRIALS; trial++) {
            Random data = new Random(trial);
            ContinualState s = c.start(ContinualCounterTest.T0);
            long[][] windows = new long[45][n];
            for (int t = 0; t < 45; t++) {
                for (int r = 0; r < 40; r++) {
                    windows[t][Math.min(n - 1, (int) Math.abs(data.nextGaussian() * 2.5))]++;
                }
                s = c.update(s, ContinualCounterTest.T0 + t * ContinualCounterTest.MINUTE, windows[t],
                        new SeededRandomBits(1_000_003L * trial + t));
            }
            List<HorizonAnswer> answers = c.answers(s);
            int q = trial % m;
            for (int i = 0; i < 2; i++) {
                HorizonAnswer h = answers.get(i);
                long first = 45 - h.windows();
                long[] total = new long[n];
                for (int t = (int) first; t < 45; t++) {
                    for (int x = 0; x < n; x++) {
                        total[x] += windows[t][x];
                    }
                }
                double truth = w.meanAnswer(total)[q];
                Answer a = h.answer();
                double e = a.estimates()[q];
                double lo = e - shrink * (e - a.lower()[q]);
                double hi = e + shrink * (a.upper()[q] - e);
                if (truth < lo || truth > hi) {
                    misses[i][0]++;
                }
            }
        }
        return misses;
    }
}
