package io.privacygateway.benchmarks.commands;

import io.privacygateway.benchmarks.wide.LaplaceMarginalsRelease;
import io.privacygateway.benchmarks.wide.MarginalCountsCodec;
import io.privacygateway.mechanisms.central.CentralRelease;
import io.privacygateway.mechanisms.runtime.CountsReleases;
import io.privacygateway.mechanisms.central.wide.Hypercube;
import io.privacygateway.mechanisms.central.wide.MarginalCounts;
import io.privacygateway.mechanisms.central.wide.MarginalWorkload;
import io.privacygateway.mechanisms.central.wide.PurifiedMwemRelease;
import io.privacygateway.mechanisms.central.wide.WideAnswer;
import io.privacygateway.mechanisms.central.wide.WideSettings;
import io.privacygateway.mechanisms.central.worstcase.WorstCaseChainingRelease;
import io.privacygateway.mechanisms.param.ConfidenceLevel;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * {@code bench wide}: all 3-way marginals over d binary attributes, central mode (add/remove, L = 1, confidence 0.95),
 * at total pure ε per release and n reports: MWEM + purification (synthetic records), worst-case chaining, the
 * Laplace baseline clipped to [0, 1] and projected onto K ({@code d <= 16}), and the existing central projection
 * ({@code d <= 12}, where its materialised workload fits). Every mechanism runs the real release with exact samplers
 * (seeded for reproducibility) on the same window; parameters are planned for the n of the cell.
 *
 * <p>Data: a public synthetic population (seeded per d): a mixture of 8 product distributions with weights
 * {@code ∝ 1/(i+1)} and attribute probabilities in {@code [0.02, 0.98]}, drawn i.i.d.; the window's marginal counts are
 * formed from the {@code 2^d} value counts by one transform. Reported: mean and max absolute error over the
 * {@code C(d,3)·8} answers (averaged over trials), the published l∞ bound and in how many trials it held, the ratio of
 * the max error to the best baseline's (projected Laplace where it runs, else clipped Laplace), the median release
 * time (planning excluded; it runs once per workload version), and the release's working memory (its dense arrays,
 * counted) next to the aggregate's encoded size.
 */
public final class WideBenchmark {
    /** One mechanism on one (d, n, ε). */
    public record Cell(int d, long n, double epsilon, String mechanism, double meanError, double maxError,
            double bound, int held, int trials, double medianMillis, long workBytes, double planMillis) {}

    static final int WAY = 3;
    static final String MWEM = "mwem+purification";
    static final String CHAINING = "worst-case chaining";
    static final String LAPLACE = "laplace (clipped)";
    static final String LAPLACE_PROJECTED = "laplace + projection";
    static final String CENTRAL_PROJECTION = "central projection";

    private final int trials;
    private final Consumer<String> log;

    public WideBenchmark(int trials, Consumer<String> log) {
        if (trials < 1) {
            throw new IllegalArgumentException("--trials must be >= 1, got " + trials);
        }
        this.trials = trials;
        this.log = log;
    }

    /** Every cell of the grid. */
    public List<Cell> run(int[] ds, long[] ns, double[] epsilons) {
        List<Cell> out = new ArrayList<>();
        for (int d : ds) {
            if (d < WAY || d > 24) {
                throw new IllegalArgumentException("--ds: d must be in [3, 24], got " + d);
            }
            MarginalWorkload w = MarginalWorkload.anonymous(d, WAY);
            for (long n : ns) {
                long[][] histograms = new long[trials][];
                MarginalCounts[] windows = new MarginalCounts[trials];
                for (int t = 0; t < trials; t++) {
                    histograms[t] = population(d, n, 1000L * d + 31L * t + n);
                    windows[t] = marginals(w, histograms[t]);
                }
                for (double e : epsilons) {
                    out.addAll(cells(w, n, e, histograms, windows));
                }
            }
        }
        return out;
    }

    private List<Cell> cells(MarginalWorkload w, long n, double epsilon, long[][] histograms, MarginalCounts[] windows) {
        int d = w.attributeCount();
        WideSettings s = new WideSettings(Epsilon.of(epsilon), NeighbourRelation.ADD_REMOVE, 1, ConfidenceLevel.of(0.95),
                n, "bench-wide-" + d);
        List<Cell> out = new ArrayList<>();
        Map<String, Runner> runners = new LinkedHashMap<>();
        long t0 = System.nanoTime();
        PurifiedMwemRelease mwem = PurifiedMwemRelease.of(w, s, MechanismId.CENTRAL_PROJECTION);
        double mwemPlan = (System.nanoTime() - t0) / 1e6;
        runners.put(MWEM, new Runner(mwemPlan, 4L * (8L << d) + 8L * mwem.parameters().records() * (d + 1),
                (t, bits) -> mwem.release(windows[t], bits).answer()));
        t0 = System.nanoTime();
        WorstCaseChainingRelease chaining = WorstCaseChainingRelease.forMarginals(w, s, MechanismId.CENTRAL_CHAINING);
        double chainingPlan = (System.nanoTime() - t0) / 1e6;
        runners.put(CHAINING, new Runner(chainingPlan, 3L * (8L << d) + 16L * w.queryCount(),
                (t, bits) -> chaining.release(windows[t], bits).answer()));
        LaplaceMarginalsRelease clipped = LaplaceMarginalsRelease.of(w, s, MechanismId.LAPLACE, false);
        runners.put(LAPLACE, new Runner(0, 16L * w.queryCount(), (t, bits) -> clipped.release(windows[t], bits).answer()));
        if (d <= LaplaceMarginalsRelease.MAX_PROJECTED_ATTRIBUTES) {
            LaplaceMarginalsRelease projected = LaplaceMarginalsRelease.of(w, s, MechanismId.LAPLACE, true);
            runners.put(LAPLACE_PROJECTED, new Runner(0, 6L * (8L << d) + 16L * w.queryCount(),
                    (t, bits) -> projected.release(windows[t], bits).answer()));
        }
        if (d <= 12) {
            t0 = System.nanoTime();
            Workload workload = centralWorkload(d, epsilon, n);
            CentralRelease pipeline = CountsReleases.of(workload);
            double plan = (System.nanoTime() - t0) / 1e6;
            runners.put(CENTRAL_PROJECTION, new Runner(plan, 8L * workload.universeSize() * workload.queryCount(),
                    (t, bits) -> pipeline.release(histograms[t], bits)));
        }
        for (Map.Entry<String, Runner> e : runners.entrySet()) {
            Runner r = e.getValue();
            double mean = 0;
            double max = 0;
            double bound = 0;
            int held = 0;
            int bounded = 0;
            double[] times = new double[trials];
            for (int t = 0; t < trials; t++) {
                double[] truth = windows[t].answers();
                SeededRandomBits bits = new SeededRandomBits(0xB1DEL + 7919L * t + d);
                long a0 = System.nanoTime();
                Answer a = r.release().apply(t, bits);
                times[t] = (System.nanoTime() - a0) / 1e6;
                double m = 0;
                double mx = 0;
                for (int q = 0; q < truth.length; q++) {
                    double err = Math.abs(a.estimates()[q] - truth[q]);
                    m += err;
                    mx = Math.max(mx, err);
                }
                mean += m / truth.length / trials;
                max += mx / trials;
                if (a.extras().maxErrorBound().isPresent()) {
                    double b = a.extras().maxErrorBound().getAsDouble();
                    bound += b;
                    bounded++;
                    held += mx <= b ? 1 : 0;
                }
            }
            Arrays.sort(times);
            Cell c = new Cell(d, n, epsilon, e.getKey(), mean, max, bounded > 0 ? bound / bounded : Double.NaN,
                    held, bounded, times[trials / 2], r.workBytes(), r.planMillis());
            log.accept(String.format("d=%d n=%d ε=%s %s: max %.4f (%.0f ms)", d, n, epsilon, e.getKey(), max,
                    c.medianMillis()));
            out.add(c);
        }
        return out;
    }

    private record Runner(double planMillis, long workBytes, BiFunction<Integer, SeededRandomBits,
            Answer> release) {}

    /** The window: n values from the public mixture, as counts per value (index = bit vector). */
    static long[] population(int d, long n, long seed) {
        UniformRandomProvider rng = new SeededRandomBits(seed).provider();
        UniformRandomProvider shape = new SeededRandomBits(0xFEEDL + d).provider();
        int profiles = 8;
        double[][] p = new double[profiles][d];
        double[] weight = new double[profiles];
        double total = 0;
        for (int i = 0; i < profiles; i++) {
            weight[i] = 1.0 / (i + 1);
            total += weight[i];
            for (int j = 0; j < d; j++) {
                p[i][j] = 0.02 + 0.96 * shape.nextDouble();
            }
        }
        long[] counts = new long[1 << d];
        for (long r = 0; r < n; r++) {
            double u = rng.nextDouble() * total;
            int i = 0;
            while (i < profiles - 1 && u >= weight[i]) {
                u -= weight[i];
                i++;
            }
            int v = 0;
            for (int j = 0; j < d; j++) {
                if (rng.nextDouble() < p[i][j]) {
                    v |= 1 << j;
                }
            }
            counts[v]++;
        }
        return counts;
    }

    /** The marginal aggregate of counts per value, by one transform (exact: integers below 2^53). */
    static MarginalCounts marginals(MarginalWorkload w, long[] counts) {
        Hypercube cube = new Hypercube(w);
        double[] f = new double[counts.length];
        long n = 0;
        for (int x = 0; x < counts.length; x++) {
            f[x] = counts[x];
            n += counts[x];
        }
        double[][] out = new double[w.subsetCount()][w.cellsPerSubset()];
        cube.marginals(f, new double[f.length], out);
        long[] cells = new long[w.queryCount()];
        for (int s = 0; s < out.length; s++) {
            for (int c = 0; c < out[s].length; c++) {
                cells[s * w.cellsPerSubset() + c] = Math.round(out[s][c]);
            }
        }
        return MarginalCounts.of(w, n, cells);
    }

    static Workload centralWorkload(int d, double epsilon, long n) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "wide-" + d);
        t.put("version", 1);
        t.put("family", "marginals");
        t.put("domain", Map.of("attributes", MarginalWorkload.anonymous(d, WAY).attributes()));
        t.put("queries", Map.of("way", WAY));
        t.put("mechanism", "central-projection");
        t.put("mode", "central");
        t.put("central", Map.of("epsilonPerRelease", epsilon, "neighbour", "add-remove", "contributionsPerWindow", 1));
        t.put("budget", Map.of("epsilonPerPeriod", 40.0, "period", "1d"));
        t.put("window", Map.of("size", "1m"));
        t.put("confidence", 0.95);
        t.put("expectedReportsPerWindow", n);
        return Workload.of(WorkloadSpecParser.parse(t));
    }

    /** The table, with every mechanism's max error as a ratio of the best baseline's in the same (d, n, ε). */
    public static String table(List<Cell> cells) {
        StringBuilder sb = new StringBuilder();
        sb.append("| d | n | ε | mechanism | mean error | max error | max / baseline | published l∞ bound | bound held"
                + " | release ms (median) | plan ms | working memory |\n");
        sb.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Cell c : cells) {
            double baseline = cells.stream().filter(o -> o.d() == c.d() && o.n() == c.n() && o.epsilon() == c.epsilon()
                    && o.mechanism().equals(c.d() <= LaplaceMarginalsRelease.MAX_PROJECTED_ATTRIBUTES ? LAPLACE_PROJECTED
                            : LAPLACE)).mapToDouble(Cell::maxError).findFirst().orElse(Double.NaN);
            sb.append(String.format("| %d | %,d | %s | %s | %.4f | %.4f | %.2f | %s | %s | %.0f | %.0f | %s |%n", c.d(), c.n(),
                    fmt(c.epsilon()), c.mechanism(), c.meanError(), c.maxError(), c.maxError() / baseline,
                    Double.isNaN(c.bound()) ? "—" : String.format("%.4f", c.bound()),
                    c.trials() == 0 ? "—" : c.held() + "/" + c.trials(), c.medianMillis(), c.planMillis(),
                    bytes(c.workBytes())));
        }
        return sb.toString();
    }

    /**
     * The release time of the two wide mechanisms with their planned parameters for d attributes (n, ε given): the
     * largest d whose release fits a 10 s window on this machine.
     */
    public List<String> scaling(int[] ds, long n, double epsilon) {
        List<String> rows = new ArrayList<>();
        rows.add("| d | mechanism | rounds T | records m | plan ms | release ms | max error | aggregate bytes |");
        rows.add("|---|---|---|---|---|---|---|---|");
        for (int d : ds) {
            MarginalWorkload w = MarginalWorkload.anonymous(d, WAY);
            WideSettings s = new WideSettings(Epsilon.of(epsilon), NeighbourRelation.ADD_REMOVE, 1,
                    ConfidenceLevel.of(0.95), n, "bench-wide-" + d);
            MarginalCounts window = marginals(w, population(d, n, 77L * d));
            int aggregate = new MarginalCountsCodec(w).encode(window).length;
            double[] truth = window.answers();
            long t0 = System.nanoTime();
            PurifiedMwemRelease mwem = PurifiedMwemRelease.of(w, s, MechanismId.CENTRAL_PROJECTION);
            long t1 = System.nanoTime();
            WideAnswer a = mwem.release(window, new SeededRandomBits(d));
            long t2 = System.nanoTime();
            rows.add(String.format("| %d | %s | %d | %d | %.0f | %.0f | %.4f | %,d |", d, MWEM, mwem.parameters().rounds(),
                    mwem.parameters().records(), (t1 - t0) / 1e6, (t2 - t1) / 1e6, maxError(a.answer(), truth),
                    aggregate));
            log.accept(rows.get(rows.size() - 1));
            t0 = System.nanoTime();
            WorstCaseChainingRelease wcc = WorstCaseChainingRelease.forMarginals(w, s, MechanismId.CENTRAL_CHAINING);
            t1 = System.nanoTime();
            a = wcc.release(window, new SeededRandomBits(d));
            t2 = System.nanoTime();
            rows.add(String.format("| %d | %s | %d | — | %.0f | %.0f | %.4f | %,d |", d, CHAINING,
                    wcc.parameters().rounds()[0], (t1 - t0) / 1e6, (t2 - t1) / 1e6, maxError(a.answer(), truth),
                    aggregate));
            log.accept(rows.get(rows.size() - 1));
        }
        return rows;
    }

    private static double maxError(Answer a, double[] truth) {
        double m = 0;
        for (int q = 0; q < truth.length; q++) {
            m = Math.max(m, Math.abs(a.estimates()[q] - truth[q]));
        }
        return m;
    }

    private static String fmt(double e) {
        return e == Math.rint(e) ? Long.toString((long) e) : Double.toString(e);
    }

    private static String bytes(long b) {
        return b >= 1 << 20 ? String.format("%.1f MiB", b / (double) (1 << 20)) : String.format("%.0f KiB", b / 1024.0);
    }
}
