package io.privacygateway.mechanisms.analytics.regression;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.central.CentralRelease;
import io.privacygateway.mechanisms.runtime.CountsReleases;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 27 item 4: {@code ssp-laplace} with features in natural units. With one integer scale for all features and
 * a ridge in those units, a feature in [0, 1] next to one up to 10⁴ rounded to 0 on the grid and its coefficient
 * collapsed to 0, while the bars stayed narrow around it: they covered the non-private (OLS) coefficients in about a
 * third of the cases. Now each axis is scaled from its public bound, the ridge acts in unit scale, and the bars add
 * the ridge's pull and the grid rounding's bound to the noise: over seeded releases on a window drawn from a fixed
 * linear model, every coefficient's bar covers the OLS coefficient about as often as its confidence says.
 */
class LaplaceSspNaturalUnitsTest {
    private static final int RELEASES = 200;

    @ParameterizedTest(name = "{0}: ε={1}, n={2}")
    @CsvSource({
            "bounds 1/100/1e4, 1, 10000", "bounds 1/100/1e4, 4, 10000", "bounds 1/100/1e4, 4, 1000000",
            "miles and minutes, 1, 10000", "miles and minutes, 4, 1000000"})
    void barsCoverTheLeastSquaresCoefficients(String grid, double epsilon, long n) {
        Case c = grid.startsWith("bounds") ? boundsCase(epsilon, n) : milesCase(epsilon, n);
        CentralRelease p = CountsReleases.of(c.workload());
        long[] counts = c.counts();
        double[] truth = io.privacygateway.mechanisms.analytics.WindowStatistics.trueAnswer(c.workload(), counts);
        int d = truth.length;
        int[] covered = new int[d];
        double[] meanEstimate = new double[d];
        for (int t = 0; t < RELEASES; t++) {
            Answer a = p.release(counts, new SeededRandomBits(7_000 + t));
            for (int j = 0; j < d; j++) {
                assertThat(a.lower()[j]).isLessThanOrEqualTo(a.estimates()[j]);
                assertThat(a.upper()[j]).isGreaterThanOrEqualTo(a.estimates()[j]);
                if (a.lower()[j] <= truth[j] && truth[j] <= a.upper()[j]) {
                    covered[j]++;
                }
                meanEstimate[j] += a.estimates()[j] / RELEASES;
            }
        }
        int all = 0;
        for (int j = 0; j < d; j++) {
            all += covered[j];
            // 95% bars: at least 88% per coefficient (a binomial(200, 0.95) falls below 176 with probability < 10⁻³)
            assertThat(covered[j]).as("coefficient %d (OLS %s): covered in %d of %d releases", j, truth[j], covered[j],
                    RELEASES).isGreaterThanOrEqualTo(176);
        }
        assertThat(all).as("all coefficients").isGreaterThanOrEqualTo((int) (0.92 * d * RELEASES));
        // no collapse: the coefficients of the small axes are estimated, not shrunk to 0
        for (int j = 0; j < d; j++) {
            if (c.checkNoCollapse()[j]) {
                assertThat(meanEstimate[j]).as("mean estimate of coefficient %d", j)
                        .isCloseTo(truth[j], org.assertj.core.data.Offset.offset(0.25 * Math.abs(truth[j])));
            }
        }
    }

    private record Case(Workload workload, long[] counts, boolean[] checkNoCollapse) {}

    /** Three features with bounds 1, 100 and 10⁴ (the last off the power-of-two grid), y = 3a + 0.04b + 0.0004c + N(0, 1). */
    private static Case boundsCase(double epsilon, long n) {
        Workload w = workload(epsilon, n, List.of(
                Map.of("name", "a", "values", List.of(0, 0.25, 0.5, 0.75, 1)),
                Map.of("name", "b", "values", List.of(0, 25, 50, 75, 100)),
                Map.of("name", "c", "values", List.of(0, 2500, 5000, 7500, 10000))),
                Map.of("name", "y", "values", List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)));
        return new Case(w, counts(w, n, new double[] {3, 0.04, 0.0004}, 1), new boolean[] {true, true, true});
    }

    /**
     * An intercept, a distance in miles up to 3,000 and a time in minutes up to 120 (bucket midpoints), a delay
     * response: delay = 5 + 0.004·miles + 0.1·minutes + N(0, 3).
     */
    private static Case milesCase(double epsilon, long n) {
        List<Integer> miles = new ArrayList<>();
        for (int m = 0; m <= 3000; m += 250) {
            miles.add(m);
        }
        List<Integer> minutes = new ArrayList<>();
        for (int m = 0; m <= 120; m += 15) {
            minutes.add(m);
        }
        List<Integer> delay = new ArrayList<>();
        for (int m = 0; m <= 40; m += 2) {
            delay.add(m);
        }
        Workload w = workload(epsilon, n, List.of(
                Map.of("name", "intercept", "values", List.of(1)),
                Map.of("name", "miles", "buckets", miles),
                Map.of("name", "minutes", "buckets", minutes)),
                Map.of("name", "delay", "buckets", delay));
        return new Case(w, counts(w, n, new double[] {5, 0.004, 0.1}, 3), new boolean[] {true, true, true});
    }

    private static Workload workload(double epsilon, long n, List<Map<String, Object>> features,
            Map<String, Object> response) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "natural-units");
        t.put("version", 1);
        t.put("family", "regression");
        t.put("mode", "central");
        t.put("mechanism", "ssp-laplace");
        t.put("central", Map.of("epsilonPerRelease", epsilon, "neighbour", "add-remove", "contributionsPerWindow", 1));
        t.put("budget", Map.of("epsilonPerPeriod", 40.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        t.put("expectedReportsPerWindow", n);
        t.put("domain", Map.of("features", features, "response", response));
        return Workload.of(WorkloadSpecParser.parse(t));
    }

    /**
     * A window of about n reports: the feature cells equally likely, the response the model's value plus normal noise
     * of this standard deviation, put in the response's cells (the extreme cells take the tails). Deterministic.
     */
    private static long[] counts(Workload w, long n, double[] theta, double sd) {
        Domain.Grid g = (Domain.Grid) w.spec().domain();
        int cells = (int) g.cellCount();
        // the response's cells: their representative values, sorted, with midpoints between neighbours as edges
        java.util.TreeSet<Double> ys = new java.util.TreeSet<>();
        java.util.Set<String> featureCells = new java.util.HashSet<>();
        for (int x = 0; x < cells; x++) {
            ys.add(g.responseOf(x));
            featureCells.add(java.util.Arrays.toString(g.featuresOf(x)));
        }
        double perFeatureCell = (double) n / featureCells.size();
        long[] counts = new long[cells];
        for (int x = 0; x < cells; x++) {
            double[] f = g.featuresOf(x);
            double mean = 0;
            for (int j = 0; j < f.length; j++) {
                mean += theta[j] * f[j];
            }
            double y = g.responseOf(x);
            Double below = ys.lower(y);
            Double above = ys.higher(y);
            NormalDistribution noise = NormalDistribution.of(mean, sd);
            double lo = below == null ? 0 : noise.cumulativeProbability((below + y) / 2);
            double hi = above == null ? 1 : noise.cumulativeProbability((above + y) / 2);
            counts[x] = Math.round(perFeatureCell * (hi - lo));
        }
        return counts;
    }
}
