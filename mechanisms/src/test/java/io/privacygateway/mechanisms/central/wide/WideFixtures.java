package io.privacygateway.mechanisms.central.wide;

import io.privacygateway.mechanisms.param.ConfidenceLevel;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Small wide workloads, settings and data for tests. */
public final class WideFixtures {
    private WideFixtures() {}

    public static WideSettings settings(double epsilon, NeighbourRelation relation, int contributions, long planned) {
        return new WideSettings(Epsilon.of(epsilon), relation, contributions, ConfidenceLevel.of(0.95), planned,
                "test-hash");
    }

    /**
     * A dataset from a mixture of product distributions (profiles with attribute probabilities in [0.05, 0.95]),
     * seeded.
     */
    public static MarginalCounts mixture(MarginalWorkload w, long n, long seed) {
        if (n > 20_000 && n % 20_000 == 0) {
            // a large window: 20,000 drawn values, each repeated n/20,000 times (still a dataset of n reports)
            MarginalCounts small = mixture(w, 20_000, seed);
            long factor = n / 20_000;
            long[] cells = small.cells();
            for (int q = 0; q < cells.length; q++) {
                cells[q] *= factor;
            }
            return MarginalCounts.of(w, n, cells);
        }
        int d = w.attributeCount();
        Random r = new Random(seed);
        double[][] pr = new double[3][d];
        for (double[] p : pr) {
            for (int j = 0; j < d; j++) {
                p[j] = 0.05 + 0.9 * r.nextDouble();
            }
        }
        MarginalCounts c = MarginalCounts.empty(w);
        for (long i = 0; i < n; i++) {
            double[] p = pr[r.nextInt(pr.length)];
            long v = 0;
            for (int j = 0; j < d; j++) {
                if (r.nextDouble() < p[j]) {
                    v |= 1L << j;
                }
            }
            c.add(v);
        }
        return c;
    }

    /** A resolved central marginals workload over attributes a0..a(d−1) (for the auditor and baselines). */
    public static Workload centralMarginals(int d, int way, String mechanism, double epsilon, String neighbour,
            int contributions, long planned) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "wide-" + d);
        t.put("version", 1);
        t.put("family", "marginals");
        t.put("domain", Map.of("attributes", MarginalWorkload.anonymous(d, way).attributes()));
        t.put("queries", Map.of("way", way));
        t.put("mechanism", mechanism);
        t.put("mode", "central");
        t.put("central", Map.of("epsilonPerRelease", epsilon, "neighbour", neighbour, "contributionsPerWindow",
                contributions));
        t.put("budget", Map.of("epsilonPerPeriod", 10.0, "period", "1d"));
        t.put("window", Map.of("size", "1m"));
        t.put("confidence", 0.95);
        t.put("expectedReportsPerWindow", planned);
        return Workload.of(WorkloadSpecParser.parse(t));
    }

    /** Counts per universe value → the marginal aggregate (universe index = bit vector). */
    public static MarginalCounts fromUniverseCounts(MarginalWorkload w, long[] counts) {
        MarginalCounts c = MarginalCounts.empty(w);
        for (int x = 0; x < counts.length; x++) {
            for (long i = 0; i < counts[x]; i++) {
                c.add(x);
            }
        }
        return c;
    }

    static List<String> names(int d) {
        return MarginalWorkload.anonymous(d, 1).attributes();
    }
}
