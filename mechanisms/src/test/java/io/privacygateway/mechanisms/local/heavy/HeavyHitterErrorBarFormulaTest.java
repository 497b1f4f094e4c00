package io.privacygateway.mechanisms.local.heavy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.random.DyadicProbability;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import org.junit.jupiter.api.Test;
import io.privacygateway.mechanisms.linalg.WalshHadamard;

/**
 * The error bar of a known item, recomputed here from the documented formulas ({@code docs/heavy-hitters.md}
 * "Error bars") on a small window, term by term: the randomizer's {@code κ²((1 − f)V₀ + f V₁)/M}, the sampling
 * {@code f(1 − f)(1/M − 1/n)} and the collision term with the sketch's estimate of {@code Σf²} plus 3 of its
 * standard deviations. The statistical tests cannot see a second-order term change; this one pins them.
 */
class HeavyHitterErrorBarFormulaTest {
    @Test
    void theStandardErrorIsTheDocumentedFormula() throws Exception {
        for (int t : new int[] {1, 3}) {
            HeavyHitterProtocol p = HeavyHitterFixtures.protocol(2, 2, 1, 2, 16, 4, t);
            int n = 3000;
            long[] state = new long[p.stateLength()];
            var draws = ExactSampler.draws(new SeededRandomBits(5));
            for (int i = 0; i < n; i++) {
                String item = i % 3 == 0 ? "a" : i % 3 == 1 ? "bc" : "d" + (char) ('a' + i % 20);
                ReportCoordinates c = new ReportCoordinates("u" + i, 0, 0);
                p.accumulate(p.randomize(item, c, draws), c, state);
            }
            int levels = 2;
            int rows = 2;
            int w = 16;
            int d = 1 << t;
            double pi = p.keepProbability().numerator() / (double) DyadicProbability.ONE;
            double a = d * pi - 1;
            double v0 = (d - 1) / (a * a);
            double v1 = (double) d * d * pi * (1 - pi) / (a * a);
            double kappa = w / (w - 1.0);
            long[][] tr = new long[levels * rows][];
            long[] count = new long[levels * rows];
            double[] mass = new double[levels];
            for (int g = 0; g < levels; g++) {
                double num = 0;
                double den = 0;
                double var = 0;
                for (int r = 0; r < rows; r++) {
                    int cell = g * rows + r;
                    tr[cell] = java.util.Arrays.copyOfRange(state, cell * w, cell * w + w);
                    WalshHadamard.transform(tr[cell]);
                    count[cell] = state[levels * rows * w + cell];
                    double nr = count[cell];
                    double sumSq = 0;
                    for (long x : tr[cell]) {
                        sumSq += (double) x * x;
                    }
                    double bucketSq = sumSq / (a * a) - nr * ((w - 1) * v0 + v1);
                    num += (bucketSq - nr * nr / w) * kappa - nr;
                    den += nr * nr - nr;
                    double v = nr * v0;
                    var += kappa * kappa * (2.0 * w * v * v + 4 * v * Math.max(0, bucketSq));
                }
                mass[g] = Math.min(1, Math.max(0, num / den + 3 * Math.sqrt(var) / den));
            }
            // "a" is whole from level min(⌊1/1⌋, 1) = 1: one level, both rows
            byte[] padded = p.paddedItem("a");
            double sum = 0;
            double m = 0;
            double coll = 0;
            for (int r = 0; r < rows; r++) {
                int cell = rows + r;
                int c = p.bucket(1, r, padded);
                sum += tr[cell][c] / a - count[cell] / (double) w;
                m += count[cell];
                coll += (double) count[cell] * count[cell] * mass[1];
            }
            double f = kappa * sum / m;
            double fc = Math.min(1, Math.max(0, f));
            double variance = kappa * kappa * ((1 - fc) * v0 + fc * v1) / m + fc * (1 - fc) * (1 / m - 1.0 / n)
                    + coll / ((w - 1.0) * m * m);
            HeavyHitterEstimate.Item e = new HeavyHitterEstimator(p).estimateItem(state, n, "a");
            assertThat(e.share()).as("t=%d", t).isCloseTo(f, within(1e-12));
            assertThat(e.standardError()).as("t=%d", t).isCloseTo(Math.sqrt(variance), within(1e-12));
            assertThat(mass[1]).as("t=%d: the mass estimate is informative", t).isBetween(1e-3, 0.99);
            assertThat(Math.abs(f - 1 / 3.0)).isLessThan(5 * e.standardError());
        }
    }
}
