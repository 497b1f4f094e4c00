package io.privacygateway.benchmarks.commands;

import io.privacygateway.mechanisms.analytics.release.AnalyticsMechanisms;
import io.privacygateway.mechanisms.analytics.SyntheticWindows;
import io.privacygateway.mechanisms.analytics.WindowStatistics;
import io.privacygateway.mechanisms.analytics.mode.ModeMechanism;
import io.privacygateway.mechanisms.analytics.release.AnalyticsRelease;
import io.privacygateway.mechanisms.central.CentralRelease;
import io.privacygateway.mechanisms.runtime.CountsReleases;
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
import java.util.SplittableRandom;

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
 * Data (regression, erm): the synthetic workloads are measured on every {@link ReferenceData} distribution over the
 * feature cells (the signal of {@link SyntheticWindows}), n i.i.d. draws per window (seeded), and judged by the
 * planner's criterion, minimax regret over the three, with a bootstrap of the trials to tell a difference from noise
 * ({@link Row#autoFollows}); the public-data workloads on their data set ({@link PublicData}).
 */
public final class AnalyticsBenchmark {
    /** Gaps of the mode table. */
    public static final long[] GAPS = {0, 1, 2, 5, 10, 20, 50, 100, 150, 200, 300, 500};

    private final int trials;

    public AnalyticsBenchmark(int trials) {
        this.trials = trials;
    }

    /**
     * One mechanism's result in one cell, per data set of the cell (the three reference distributions for synthetic
     * workloads, in {@link ReferenceData} order; the data set itself for public data).
     *
     * @param meanError the mean error over the trials, per data set (what {@code auto}'s planner predicts)
     * @param medianError the median error over the trials, per data set (rare failures, such as a near-singular
     *     noisy XᵀX, dominate the mean)
     * @param regret the largest ratio, over the data sets, of this mechanism's mean error to the best mechanism's
     * @param milliseconds the median release time
     */
    public record Cell(MechanismId mechanism, double[] meanError, double[] medianError, double regret,
            double milliseconds) {
        boolean applicable() {
            return !Double.isNaN(milliseconds);
        }
    }

    /**
     * One row: a workload, ε, n, every mechanism's figures, the measured choice (minimax regret over the data sets,
     * the criterion {@code auto} uses on its reference windows) and {@code auto}.
     *
     * @param dataSets the data sets each cell was measured on
     * @param autoRegret the measured regret of the mechanism {@code auto} picked
     * @param autoShare the fraction of bootstrap resamples of the trials in which {@code auto}'s pick is the
     *     minimax choice ({@link #BOOTSTRAP} resamples, seeded)
     */
    public record Row(String workload, QueryFamily family, double epsilon, long n, List<String> dataSets,
            List<Cell> cells, String measured, double measuredRegret, String auto, double autoRegret,
            double autoShare) {
        /**
         * Whether {@code auto} follows the measurement: it picked the measured choice, or the trials cannot tell its
         * pick from the measured choice (its pick is the minimax choice in at least {@link #INDISTINGUISHABLE} of the
         * bootstrap resamples).
         */
        public boolean autoFollows() {
            return auto.equals(measured) || autoShare >= INDISTINGUISHABLE;
        }
    }

    /** Bootstrap resamples of the trials per cell. */
    public static final int BOOTSTRAP = 1000;
    /** The bootstrap share at or above which the measurement cannot tell auto's pick from the measured choice. */
    public static final double INDISTINGUISHABLE = 0.10;

    /** The data sets a workload is measured on: its public data set, or every reference distribution. */
    static List<String> dataSets(BenchWorkload bw) {
        return switch (bw.name()) {
            case DIABETES, BREAST_CANCER -> List.of(bw.name().substring(bw.name().indexOf("public data: ")
                    + "public data: ".length()));
            default -> ReferenceData.all().stream().map(ReferenceData::label).toList();
        };
    }

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

    /**
     * The window's cell frequencies on data set {@code d} of {@link #dataSets}: the public data set's, or the
     * synthetic generator's on the d-th reference distribution.
     */
    static double[] frequencies(BenchWorkload bw, Workload w, int d) {
        return switch (bw.name()) {
            case DIABETES -> PublicData.DIABETES.frequencies(w);
            case BREAST_CANCER -> PublicData.BREAST_CANCER.frequencies(w);
            default -> SyntheticWindows.frequencies(w, ReferenceData.all().get(d));
        };
    }

    /**
     * Every mechanism of a regression or erm workload at ε and n, {@code trials} windows of n i.i.d. reports per data
     * set (seeded; the same windows for every mechanism).
     */
    public Row run(BenchWorkload bw, double epsilon, long n) {
        Epsilon eps = new Epsilon(epsilon);
        WorkloadSpec base = bw.spec().toBuilder().epsilonPerAnswer(eps).budgetAtLeastOneCharge().build();
        String auto = CentralPlanner.plan(base, eps, n).choice().candidate().label();
        List<String> sets = dataSets(bw);
        List<MechanismId> ids = base.family().centralMechanisms();
        double[][] means = new double[ids.size()][];
        double[][] medians = new double[ids.size()][];
        double[][][] raw = new double[ids.size()][][];
        double[] ms = new double[ids.size()];
        for (int i = 0; i < ids.size(); i++) {
            CentralRelease p;
            try {
                p = CountsReleases.of(Workload.of(new Candidate(ids.get(i), null, null).apply(base, eps, n)));
            } catch (IllegalArgumentException ex) {
                ms[i] = Double.NaN;
                continue;
            }
            Workload w = p.workload();
            means[i] = new double[sets.size()];
            medians[i] = new double[sets.size()];
            raw[i] = new double[sets.size()][];
            double[] times = new double[trials * sets.size()];
            for (int d = 0; d < sets.size(); d++) {
                double[] freq = frequencies(bw, w, d);
                double[] errors = new double[trials];
                for (int t = 0; t < trials; t++) {
                    long[] counts = new long[w.universeSize()];
                    for (int v : AccuracyBenchmark.sample(freq, (int) n,
                            0xA11AL * (t + 1) + 31L * d + bw.name().hashCode())) {
                        counts[v]++;
                    }
                    long t0 = System.nanoTime();
                    Answer a = p.release(counts, new SeededRandomBits(97L * t + 13 + 7L * d));
                    times[d * trials + t] = (System.nanoTime() - t0) / 1e6;
                    errors[t] = WindowStatistics.error(w, counts, a);
                }
                means[i][d] = Arrays.stream(errors).average().orElse(Double.NaN);
                raw[i][d] = errors.clone();
                Arrays.sort(errors);
                medians[i][d] = errors[trials / 2];
            }
            Arrays.sort(times);
            ms[i] = times[times.length / 2];
        }
        int chosen = minimax(means);
        double[] regrets = regrets(means);
        List<Cell> cells = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            cells.add(new Cell(ids.get(i), means[i], medians[i], regrets[i], ms[i]));
        }
        int autoIndex = -1;
        for (int i = 0; i < ids.size(); i++) {
            autoIndex = ids.get(i).wireName().equals(auto) ? i : autoIndex;
        }
        return new Row(bw.name(), base.family(), epsilon, n, sets, cells, ids.get(chosen).wireName(), regrets[chosen],
                auto, autoIndex < 0 ? Double.POSITIVE_INFINITY : regrets[autoIndex],
                autoIndex < 0 ? 0 : bootstrapShare(raw, autoIndex, 0xB0075L + bw.name().hashCode()));
    }

    /**
     * Each mechanism's regret: the largest ratio, over the data sets, of its mean error to the best mean (a
     * {@code null} row, an inapplicable mechanism, has infinite regret).
     */
    static double[] regrets(double[][] means) {
        int sets = 0;
        for (double[] m : means) {
            sets = m == null ? sets : m.length;
        }
        double[] best = new double[sets];
        Arrays.fill(best, Double.POSITIVE_INFINITY);
        for (double[] m : means) {
            for (int d = 0; m != null && d < sets; d++) {
                best[d] = Math.min(best[d], m[d]);
            }
        }
        double[] out = new double[means.length];
        for (int i = 0; i < means.length; i++) {
            out[i] = Double.POSITIVE_INFINITY;
            if (means[i] != null) {
                out[i] = 1;
                for (int d = 0; d < sets; d++) {
                    out[i] = Math.max(out[i], best[d] > 0 ? means[i][d] / best[d] : 1);
                }
            }
        }
        return out;
    }

    /** The minimax-regret mechanism (the first on a tie; {@code means} has at least one applicable row). */
    static int minimax(double[][] means) {
        double[] r = regrets(means);
        int chosen = 0;
        for (int i = 1; i < r.length; i++) {
            chosen = r[i] < r[chosen] ? i : chosen;
        }
        return chosen;
    }

    /**
     * The fraction of {@link #BOOTSTRAP} resamples (each mechanism's trials on each data set drawn with replacement,
     * seeded) in which mechanism {@code pick} is the minimax choice: how often the trials are consistent with it.
     */
    static double bootstrapShare(double[][][] raw, int pick, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        int wins = 0;
        double[][] means = new double[raw.length][];
        for (int b = 0; b < BOOTSTRAP; b++) {
            for (int i = 0; i < raw.length; i++) {
                if (raw[i] == null) {
                    continue;
                }
                means[i] = new double[raw[i].length];
                for (int d = 0; d < raw[i].length; d++) {
                    double sum = 0;
                    for (int t = 0; t < raw[i][d].length; t++) {
                        sum += raw[i][d][rng.nextInt(raw[i][d].length)];
                    }
                    means[i][d] = sum / raw[i][d].length;
                }
            }
            wins += minimax(means) == pick ? 1 : 0;
        }
        return wins / (double) BOOTSTRAP;
    }

    /** The mode table at ε: P(true mode) against the gap, n reports in 8 labels. */
    public List<ModeRow> modeRows(BenchWorkload bw, double epsilon, long n, int simulations) {
        Epsilon eps = new Epsilon(epsilon);
        WorkloadSpec base = bw.spec().toBuilder().epsilonPerAnswer(eps).budgetAtLeastOneCharge().build();
        CentralRelease em = CountsReleases.of(Workload.of(new Candidate(MechanismId.MODE_EXPONENTIAL, null, null)
                .apply(base, eps, n)));
        CentralRelease ptr = CountsReleases.of(Workload.of(new Candidate(MechanismId.MODE_PTR, null, null)
                .apply(base, eps, n)));
        ModeMechanism e = (ModeMechanism) ((AnalyticsRelease) em).mechanism();
        ModeMechanism p = (ModeMechanism) ((AnalyticsRelease) ptr).mechanism();
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

    /**
     * The regression/erm table (markdown): per mechanism, the mean error on each data set (median in brackets) and
     * its regret; the measured choice; {@code auto} and whether it follows the measurement.
     */
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
            sb.append(String.format("%n%s — %s: mean (median) over the trials on %s; regret = the largest ratio to the"
                    + " best mean over those data sets%s%n%n| ε | n |", e.getKey(),
                    AnalyticsMechanisms.errorMeasure(rs.get(0).family()), String.join(" / ", rs.get(0).dataSets()),
                    erm ? "; median release time" : ""));
            for (Cell c : first) {
                sb.append(' ').append(c.mechanism().wireName()).append(" |");
            }
            sb.append(" measured choice (minimax regret) | auto |\n|---|---|");
            sb.append("---|".repeat(first.size() + 2)).append('\n');
            int followed = 0;
            for (Row r : rs) {
                sb.append(String.format("| %s | %d |", AccuracyReportFormat.eps(r.epsilon()), r.n()));
                for (Cell c : r.cells()) {
                    if (!c.applicable()) {
                        sb.append(" n/a |");
                        continue;
                    }
                    List<String> parts = new ArrayList<>();
                    for (int d = 0; d < c.meanError().length; d++) {
                        parts.add(String.format("%.3g (%.3g)", c.meanError()[d], c.medianError()[d]));
                    }
                    sb.append(' ').append(String.join(" / ", parts));
                    if (c.meanError().length > 1) {
                        sb.append(String.format("; regret %.2f", c.regret()));
                    }
                    sb.append(erm ? String.format("; %.0f ms |", c.milliseconds()) : " |");
                }
                followed += r.autoFollows() ? 1 : 0;
                sb.append(' ').append(r.measured()).append(" | ").append(r.auto()).append(r.auto().equals(r.measured())
                        ? "" : String.format(" (%s: regret %.2f vs %.2f; minimax in %.0f%% of resamples)",
                        r.autoFollows() ? "indistinguishable" : "**differs**", r.autoRegret(), r.measuredRegret(),
                        100 * r.autoShare())).append(" |\n");
            }
            sb.append(String.format("%nauto follows the measurement in %d of %d cells (picks the measured choice, or a"
                    + " mechanism that is the minimax choice in at least %.0f%% of %d bootstrap resamples of the"
                    + " trials)%n", followed, rs.size(), 100 * INDISTINGUISHABLE, BOOTSTRAP));
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
