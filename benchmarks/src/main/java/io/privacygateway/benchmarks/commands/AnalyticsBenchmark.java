package io.privacygateway.benchmarks.commands;

import io.privacygateway.mechanisms.analytics.SyntheticWindows;
import io.privacygateway.mechanisms.analytics.WindowStatistics;
import io.privacygateway.mechanisms.analytics.mode.ModeMechanism;
import io.privacygateway.mechanisms.central.AnalyticsRelease;
import io.privacygateway.mechanisms.central.CentralPipeline;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.planner.Candidate;
import io.privacygateway.mechanisms.planner.CentralPlanner;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.reference.ReferenceData;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.QueryFamily;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import io.privacygateway.benchmarks.commands.AccuracyBenchmark.BenchWorkload;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code bench analytics} (and the analytics part of {@code bench accuracy --mode central}): every mechanism of the
 * three window-analytics families side by side, at total pure ε per release and n reports, on synthetic data.
 *
 * <ul>
 *   <li><b>mode</b> (8 labels): the probability of releasing the true mode as a function of the gap between the two
 *       largest counts (windows with counts {@code c₁ = c₂ + gap}, the rest spread evenly below c₂), exact for the
 *       exponential mechanism, by seeded simulation (and the closed-form lower bound) for the purified test;</li>
 *   <li><b>regression</b> (d = 3 and d = 8 features on a grid): the excess MSE over OLS, mean over trials;</li>
 *   <li><b>erm</b> (logistic, d = 3): the excess regularized empirical risk and the median release time.</li>
 * </ul>
 * Data generator (regression, erm): n i.i.d. draws (seeded) from {@link SyntheticWindows#frequencies} with the
 * Zipf(1.1) reference distribution over the feature cells: a linear (regression) or logistic (erm) signal with
 * noise, see that class. No public real data set is available offline, so none is used.
 */
public final class AnalyticsBenchmark {
    /** Gaps of the mode table. */
    public static final long[] GAPS = {0, 1, 2, 5, 10, 20, 50, 100, 150, 200, 300, 500};

    private final int trials;

    public AnalyticsBenchmark(int trials) {
        this.trials = trials;
    }

    /**
     * One mechanism's result in one cell.
     *
     * @param error the median error over the trials
     * @param meanError the mean error (rare failures, such as a near-singular noisy XᵀX, dominate it)
     * @param milliseconds the median release time
     */
    public record Cell(MechanismId mechanism, double error, double meanError, double milliseconds) {}

    /** One row: a workload, ε, n, the auto choice and every mechanism's figures. */
    public record Row(String workload, QueryFamily family, double epsilon, long n, List<Cell> cells, String auto) {}

    /** One row of the mode table: ε, the gap, and P(true mode) per mechanism. */
    public record ModeRow(double epsilon, long gap, double exponential, double purified, double purifiedBound,
            long purifiedGapForConfidence, long exponentialGapForConfidence) {}

    private static Map<String, Object> base(String id, String family) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", id);
        t.put("version", 1);
        t.put("family", family);
        t.put("mode", "central");
        t.put("mechanism", "auto");
        t.put("central", Map.of("epsilonPerRelease", 1, "neighbour", "add-remove", "contributionsPerWindow", 1));
        t.put("budget", Map.of("epsilonPerPeriod", 40, "period", "1d"));
        t.put("window", Map.of("size", "1m"));
        return t;
    }

    private static Map<String, Object> values(String name, double... v) {
        List<Double> l = new ArrayList<>();
        for (double x : v) {
            l.add(x);
        }
        return Map.of("name", name, "values", l);
    }

    /** The mode, regression and erm workloads of the benchmark. */
    public static List<BenchWorkload> standardWorkloads() {
        List<BenchWorkload> out = new ArrayList<>();
        Map<String, Object> m = base("mode8", "mode");
        m.put("domain", Map.of("labels", List.of("a", "b", "c", "d", "e", "f", "g", "h")));
        out.add(new BenchWorkload("mode k=8", WorkloadSpecParser.parse(m)));
        Map<String, Object> r3 = base("reg3", "regression");
        r3.put("domain", Map.of("features", List.of(values("one", 1), Map.of("name", "x1", "buckets",
                List.of(0, 1, 2, 3, 4, 5, 6, 7, 8)), values("x2", 0, 0.5, 1)), "response",
                Map.of("name", "y", "buckets", List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10))));
        out.add(new BenchWorkload("regression d=3", WorkloadSpecParser.parse(r3)));
        Map<String, Object> r8 = base("reg8", "regression");
        List<Object> f8 = new ArrayList<>();
        f8.add(values("one", 1));
        for (int j = 1; j < 8; j++) {
            f8.add(values("x" + j, -1, 0, 1));
        }
        r8.put("domain", Map.of("features", f8, "response", Map.of("name", "y", "buckets", List.of(-2, -1, 0, 1, 2))));
        out.add(new BenchWorkload("regression d=8", WorkloadSpecParser.parse(r8)));
        Map<String, Object> e = base("erm3", "erm");
        e.put("domain", Map.of("features", List.of(values("bias", 1), values("x1", -1, -0.5, 0, 0.5, 1),
                values("x2", -1, 0, 1)), "response", values("y", 0, 1)));
        e.put("model", Map.of("loss", "logistic", "radius", 4, "regularization", 0.001));
        out.add(new BenchWorkload("erm logistic d=3", WorkloadSpecParser.parse(e)));
        Map<String, Object> rd = base("diabetes", "regression");
        rd.put("domain", Map.of("features", List.of(values("one", 1), values("bmi", -1, -0.5, 0, 0.5, 1),
                values("bp", -1, -0.5, 0, 0.5, 1)), "response", values("progression", 0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6,
                0.7, 0.8, 0.9, 1)));
        out.add(new BenchWorkload(DIABETES, WorkloadSpecParser.parse(rd)));
        Map<String, Object> eb = base("breast", "erm");
        eb.put("domain", Map.of("features", List.of(values("bias", 1), values("radius", -1, -0.5, 0, 0.5, 1),
                values("texture", -1, -0.5, 0, 0.5, 1)), "response", values("malignant", 0, 1)));
        eb.put("model", Map.of("loss", "logistic", "radius", 4, "regularization", 0.001));
        out.add(new BenchWorkload(BREAST_CANCER, WorkloadSpecParser.parse(eb)));
        return out;
    }

    /** The regression workload on public data (diabetes progression against BMI and blood pressure). */
    public static final String DIABETES = "regression d=3, public data: diabetes";
    /** The erm workload on public data (malignancy against mean radius and texture). */
    public static final String BREAST_CANCER = "erm logistic d=3, public data: breast cancer";

    /** The window's cell frequencies: the public data set's, or the seeded synthetic generator's. */
    static double[] frequencies(BenchWorkload bw, Workload w) {
        return switch (bw.name()) {
            case DIABETES -> PublicData.DIABETES.frequencies(w);
            case BREAST_CANCER -> PublicData.BREAST_CANCER.frequencies(w);
            default -> SyntheticWindows.frequencies(w, ReferenceData.ZIPF);
        };
    }

    /** Every mechanism of a regression or erm workload at ε and n. */
    public Row run(BenchWorkload bw, double epsilon, long n) {
        Epsilon eps = new Epsilon(epsilon);
        WorkloadSpec base = bw.spec().toBuilder().epsilonPerAnswer(eps).budgetAtLeastOneCharge().build();
        String auto = CentralPlanner.plan(base, eps, n).choice().candidate().label();
        List<Cell> cells = new ArrayList<>();
        for (MechanismId id : base.family().centralMechanisms()) {
            CentralPipeline p;
            try {
                p = CentralPipeline.of(Workload.of(new Candidate(id, null, null).apply(base, eps, n)));
            } catch (IllegalArgumentException ex) {
                cells.add(new Cell(id, Double.NaN, Double.NaN, Double.NaN));
                continue;
            }
            Workload w = p.workload();
            double[] freq = frequencies(bw, w);
            double[] errors = new double[trials];
            double[] ms = new double[trials];
            for (int t = 0; t < trials; t++) {
                long[] counts = new long[w.universeSize()];
                for (int v : AccuracyBenchmark.sample(freq, (int) n, 0xA11AL * (t + 1) + bw.name().hashCode())) {
                    counts[v]++;
                }
                long t0 = System.nanoTime();
                Answer a = p.release(counts, new SeededRandomBits(97L * t + 13));
                ms[t] = (System.nanoTime() - t0) / 1e6;
                errors[t] = WindowStatistics.error(w, counts, a);
            }
            double mean = Arrays.stream(errors).average().orElse(Double.NaN);
            Arrays.sort(errors);
            Arrays.sort(ms);
            cells.add(new Cell(id, errors[trials / 2], mean, ms[trials / 2]));
        }
        return new Row(bw.name(), base.family(), epsilon, n, cells, auto);
    }

    /** The mode table at ε: P(true mode) against the gap, n reports in 8 labels. */
    public List<ModeRow> modeRows(BenchWorkload bw, double epsilon, long n, int simulations) {
        Epsilon eps = new Epsilon(epsilon);
        WorkloadSpec base = bw.spec().toBuilder().epsilonPerAnswer(eps).budgetAtLeastOneCharge().build();
        CentralPipeline em = CentralPipeline.of(Workload.of(new Candidate(MechanismId.MODE_EXPONENTIAL, null, null)
                .apply(base, eps, n)));
        CentralPipeline ptr = CentralPipeline.of(Workload.of(new Candidate(MechanismId.MODE_PTR, null, null)
                .apply(base, eps, n)));
        ModeMechanism e = (ModeMechanism) ((AnalyticsRelease) em.variant()).mechanism();
        ModeMechanism p = (ModeMechanism) ((AnalyticsRelease) ptr.variant()).mechanism();
        List<ModeRow> rows = new ArrayList<>();
        int k = em.workload().universeSize();
        for (long gap : GAPS) {
            long[] counts = modeWindow(k, n, gap);
            int hits = 0;
            for (int s = 0; s < simulations; s++) {
                Answer a = ptr.release(counts, new SeededRandomBits(7919L * s + gap));
                hits += WindowStatistics.error(ptr.workload(), counts, a) == 0 ? 1 : 0;
            }
            rows.add(new ModeRow(epsilon, gap, e.probabilityCorrect(counts), hits / (double) simulations,
                    p.probabilityCorrect(counts), p.gapForConfidence(), e.gapForConfidence()));
        }
        return rows;
    }

    /**
     * n reports over k labels: the second label holds ⌊(n − gap)/4⌋, the first that plus the gap, the other k − 2
     * labels share the rest evenly (each well below the second when k = 8).
     */
    static long[] modeWindow(int k, long n, long gap) {
        long second = Math.max(0, (n - gap) / 4);
        long[] c = new long[k];
        c[0] = second + gap;
        c[1] = second;
        long rest = n - c[0] - c[1];
        for (int i = 2; i < k; i++) {
            c[i] = rest / (k - 2) + (i - 2 < rest % (k - 2) ? 1 : 0);
        }
        return c;
    }

    /** The regression/erm table (markdown). */
    public static String table(List<Row> rows) {
        StringBuilder sb = new StringBuilder();
        Map<String, List<Row>> byWorkload = new LinkedHashMap<>();
        for (Row r : rows) {
            byWorkload.computeIfAbsent(r.workload(), x -> new ArrayList<>()).add(r);
        }
        for (var e : byWorkload.entrySet()) {
            List<Row> rs = e.getValue();
            List<Cell> first = rs.get(0).cells();
            boolean erm = rs.get(0).family() == QueryFamily.ERM;
            sb.append(String.format("%n%s — %s: median (mean) over the trials%s%n%n| ε | n |", e.getKey(),
                    io.privacygateway.mechanisms.analytics.AnalyticsMechanisms.errorMeasure(rs.get(0).family()),
                    erm ? "; median release time" : ""));
            for (Cell c : first) {
                sb.append(' ').append(c.mechanism().wireName()).append(" |");
            }
            MechanismId baseline = first.get(first.size() - 1).mechanism();
            for (int i = 0; i < first.size() - 1; i++) {
                sb.append(' ').append(first.get(i).mechanism().wireName()).append(" / ").append(baseline.wireName())
                        .append(" |");
            }
            sb.append(" auto |\n|---|---|");
            sb.append("---|".repeat(2 * first.size() - 1)).append("---|\n");
            for (Row r : rs) {
                sb.append(String.format("| %s | %d |", AccuracyReportFormat.eps(r.epsilon()), r.n()));
                for (Cell c : r.cells()) {
                    sb.append(Double.isNaN(c.error()) ? " n/a |" : erm
                            ? String.format(" %.3g (%.3g); %.0f ms |", c.error(), c.meanError(), c.milliseconds())
                            : String.format(" %.3g (%.3g) |", c.error(), c.meanError()));
                }
                double b = r.cells().get(r.cells().size() - 1).error();
                for (int i = 0; i < r.cells().size() - 1; i++) {
                    sb.append(String.format(" %.3g |", r.cells().get(i).error() / b));
                }
                sb.append(' ').append(r.auto()).append(" |\n");
            }
        }
        return sb.toString();
    }

    /** The mode table (markdown). */
    public static String modeTable(List<ModeRow> rows, long n) {
        StringBuilder sb = new StringBuilder(String.format("%nmode k=8, n = %d (c₂ = (n − gap)/4, the other six labels"
                + " share the rest) — P(released label = true mode) by the gap c₁ − c₂ (exponential mechanism: exact;"
                + " mode-ptr: simulated, closed-form lower bound in brackets; at gap 0 both top labels are modes;"
                + " neither mechanism depends on n)%n%n| ε | gap | mode-exponential | mode-ptr | gap for P ≥ 0.95: exponential / ptr |%n"
                + "|---|---|---|---|---|%n", n));
        for (ModeRow r : rows) {
            sb.append(String.format("| %s | %d | %.4f | %.4f [%.4f] | %d / %s |%n", AccuracyReportFormat.eps(r.epsilon()),
                    r.gap(), r.exponential(), r.purified(), r.purifiedBound(), r.exponentialGapForConfidence(),
                    r.purifiedGapForConfidence() == Long.MAX_VALUE ? "∞" : Long.toString(r.purifiedGapForConfidence())));
        }
        return sb.toString();
    }
}
