package io.privacygateway.benchmarks.commands;

import io.privacygateway.mechanisms.amplification.AmplificationBound;
import io.privacygateway.mechanisms.continual.ContinualCounter;
import io.privacygateway.mechanisms.continual.ContinualSettings;
import io.privacygateway.mechanisms.continual.ContinualState;
import io.privacygateway.mechanisms.continual.HorizonAnswer;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.Horizon;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;

/**
 * {@code bench horizons}: the error of running totals since activation after T windows, the binary-tree counter
 * ({@link ContinualCounter}, one tree of depth h for the whole run) against composing independent releases (the same
 * counter with depth 0: every window its own node with noise Δ₁/ε, the total the sum of T noisy windows). Both cost
 * the same ε per window of contribution, both run through the production code on the same data (a Zipf-like mix
 * of {@code reportsPerWindow} reports per window), with seeded randomness (the figures are reproducible; production
 * uses {@code SecureRandom}). Reported per checkpoint T: the measured RMS error of the total count per universe value,
 * its ratio tree/baseline (same run), the number of noisy nodes the tree total adds up, the predicted RMS
 * ({@code √(nodes·Var)}), and the published per-answer bar half-width (mean over answers) and RMS error of the mean
 * answer vector.
 */
public final class HorizonsBenchmark {
    /** One checkpoint. */
    public record Row(long windows, int treeNodes, double treeRms, double baselineRms, double treePredicted,
            double baselinePredicted, double treeBar, double baselineBar, double treeAnswerRms,
            double baselineAnswerRms, int matchedDepth, double matchedRms) {
        public double ratio() {
            return treeRms / baselineRms;
        }

        public double matchedRatio() {
            return matchedRms / baselineRms;
        }
    }

    private final int universe;
    private final double epsilon;
    private final int reportsPerWindow;
    private final int trials;

    public HorizonsBenchmark(int universe, double epsilon, int reportsPerWindow, int trials) {
        this.universe = universe;
        this.epsilon = epsilon;
        this.reportsPerWindow = reportsPerWindow;
        this.trials = trials;
    }

    /** The histogram workload (central, add/remove, one report per device per window). */
    Workload workload() {
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < universe; i++) {
            labels.add("v" + i);
        }
        WorkloadSpec s = AccuracyBenchmark.spec("horizons", "histogram", Map.of("labels", labels), null).toBuilder()
                .inCentralMode(Epsilon.of(epsilon), NeighbourRelation.ADD_REMOVE, 1).build();
        return Workload.of(s);
    }

    /** One window's counts: {@link #reportsPerWindow} public values skewed towards the first buckets. */
    private long[] window(Random data) {
        long[] counts = new long[universe];
        for (int r = 0; r < reportsPerWindow; r++) {
            int x = (int) Math.min(universe - 1, Math.floor(Math.pow(data.nextDouble(), 2.5) * universe));
            counts[x]++;
        }
        return counts;
    }

    /** The mean over the universe of the squared differences of the noisy and the exact totals. */
    private double meanSquare(long[] noisy, long[] exact) {
        double s = 0;
        for (int x = 0; x < universe; x++) {
            double d = noisy[x] - exact[x];
            s += d * d;
        }
        return s / universe;
    }

    /** The mean half-width of the answer's bars and its mean squared error against {@code truth}. */
    private static double[] barAndSquaredError(Answer a, double[] truth) {
        double b = 0;
        double e = 0;
        for (int q = 0; q < a.estimates().length; q++) {
            b += (a.upper()[q] - a.lower()[q]) / 2;
            double d = a.estimates()[q] - truth[q];
            e += d * d;
        }
        return new double[] {b / a.estimates().length, e / a.estimates().length};
    }

    /** Runs {@code trials} streams of {@code max(checkpoints)} windows; one tree of depth ⌈log₂ max⌉. */
    public List<Row> run(long[] checkpoints, Consumer<String> progress) {
        long last = 0;
        for (long c : checkpoints) {
            last = Math.max(last, c);
        }
        Workload w = workload();
        long size = w.spec().window().sizeMillis();
        int depth = ContinualSettings.depthFor(w.spec().window().size(), w.spec().window().size().multipliedBy(last));
        ContinualCounter tree = ContinualCounter.of(w, new ContinualSettings(Epsilon.of(epsilon), depth,
                List.of(new Horizon.SinceActivation())));
        ContinualCounter baseline = ContinualCounter.of(w, new ContinualSettings(Epsilon.of(epsilon), 0,
                List.of(new Horizon.SinceActivation())));
        int cps = checkpoints.length;
        ContinualCounter[] matched = new ContinualCounter[cps];
        ContinualState[] sm = new ContinualState[cps];
        double[] matchedSq = new double[cps];
        for (int cp = 0; cp < cps; cp++) {
            matched[cp] = ContinualCounter.of(w, new ContinualSettings(Epsilon.of(epsilon), depthFor(checkpoints[cp]),
                    List.of(new Horizon.SinceActivation())));
        }
        double[][] sq = new double[2][cps];
        double[][] bar = new double[2][cps];
        double[][] ansSq = new double[2][cps];
        int[] nodes = new int[cps];
        double[] predicted = new double[2];
        for (int trial = 0; trial < trials; trial++) {
            Random data = new Random(7919L * trial); // public benchmark data (seeded for reproducible figures)
            SeededRandomBits bitsTree = new SeededRandomBits(1_000_003L * trial + 1);
            SeededRandomBits bitsBase = new SeededRandomBits(1_000_003L * trial + 2);
            ContinualState st = tree.start(0);
            ContinualState sb = baseline.start(0);
            SeededRandomBits bitsMatched = new SeededRandomBits(1_000_003L * trial + 3);
            for (int cp = 0; cp < cps; cp++) {
                sm[cp] = matched[cp].start(0);
            }
            long[] exact = new long[universe];
            int cp = 0;
            for (long t = 0; t < last; t++) {
                long[] counts = window(data);
                for (int x = 0; x < universe; x++) {
                    exact[x] += counts[x];
                }
                st = tree.update(st, t * size, counts, bitsTree);
                sb = baseline.update(sb, t * size, counts, bitsBase);
                for (int c = cp; c < cps; c++) {
                    sm[c] = matched[c].update(sm[c], t * size, counts, bitsMatched);
                }
                while (cp < cps && checkpoints[cp] == t + 1) {
                    HorizonAnswer[] both = {tree.answers(st).get(0), baseline.answers(sb).get(0)};
                    double[] truth = w.meanAnswer(exact);
                    for (int i = 0; i < 2; i++) {
                        sq[i][cp] += meanSquare(both[i].noisyTotals(), exact);
                        double[] barAndError = barAndSquaredError(both[i].answer(), truth);
                        bar[i][cp] += barAndError[0];
                        ansSq[i][cp] += barAndError[1];
                    }
                    nodes[cp] = both[0].nodes();
                    matchedSq[cp] += meanSquare(matched[cp].answers(sm[cp]).get(0).noisyTotals(), exact);
                    cp++;
                }
            }
            progress.accept("trial " + (trial + 1) + " of " + trials);
        }
        double varTree = variance(tree.noiseScale().doubleValue());
        double varBase = variance(baseline.noiseScale().doubleValue());
        List<Row> rows = new ArrayList<>();
        for (int cp = 0; cp < cps; cp++) {
            predicted[0] = Math.sqrt(nodes[cp] * varTree);
            predicted[1] = Math.sqrt(checkpoints[cp] * varBase);
            rows.add(new Row(checkpoints[cp], nodes[cp], Math.sqrt(sq[0][cp] / trials), Math.sqrt(sq[1][cp] / trials),
                    predicted[0], predicted[1], bar[0][cp] / trials, bar[1][cp] / trials,
                    Math.sqrt(ansSq[0][cp] / trials), Math.sqrt(ansSq[1][cp] / trials), depthFor(checkpoints[cp]),
                    Math.sqrt(matchedSq[cp] / trials)));
        }
        return rows;
    }

    /**
     * The amplified (ε, δ = 10⁻⁶) of a local answer with n reports of ε₀ each, one per device, by both numerical bounds
     * ({@link io.privacygateway.mechanisms.amplification.AmplificationBound}), with the uncached computation time.
     */
    public static String amplificationTable(double[] eps0s, long[] ns, double delta) {
        StringBuilder b = new StringBuilder();
        b.append("| ε₀ per report | n | clones (FMT) ε | variation-ratio ε | ratio | time clones / variation-ratio |\n");
        b.append("|---|---|---|---|---|---|\n");
        for (double e0 : eps0s) {
            for (long n : ns) {
                long t0 = System.nanoTime();
                double c = AmplificationBound.amplified(
                        AmplificationBound.Method.CLONES, e0, n, 1, delta)
                        .epsilon();
                long t1 = System.nanoTime();
                double v = AmplificationBound.amplified(
                        AmplificationBound.Method.VARIATION_RATIO, e0, n, 1,
                        delta).epsilon();
                long t2 = System.nanoTime();
                b.append(String.format("| %s | %,d | %.4f | %.4f | %.3f | %.0f ms / %.0f ms |%n", e0, n, c, v, v / c,
                        (t1 - t0) / 1e6, (t2 - t1) / 1e6));
            }
        }
        return b.toString();
    }

    /** The tree depth the run uses for {@code last} windows. */
    public static int depthFor(long last) {
        return 64 - Long.numberOfLeadingZeros(Math.max(1, last) - 1);
    }

    /** {@code Var η = 1/(2 sinh²(1/(2t)))} for discrete Laplace of scale t. */
    static double variance(double scale) {
        double s = Math.sinh(0.5 / scale);
        return 0.5 / (s * s);
    }

    /** The table (Markdown). */
    public static String table(List<Row> rows) {
        StringBuilder b = new StringBuilder();
        b.append("| windows T | tree nodes | tree RMS (count) | baseline RMS (count) | tree/baseline"
                + " | predicted tree / baseline | tree of depth ⌈log₂T⌉: RMS, /baseline"
                + " | bar ± tree / baseline (mean answer) | answer RMS tree / baseline |\n");
        b.append("|---|---|---|---|---|---|---|---|---|\n");
        for (Row r : rows) {
            b.append(String.format("| %,d | %d | %.1f | %.1f | %.3f | %.1f / %.1f | h=%d: %.1f, %.3f | %.2e / %.2e"
                    + " | %.2e / %.2e |%n", r.windows(), r.treeNodes(), r.treeRms(), r.baselineRms(), r.ratio(),
                    r.treePredicted(), r.baselinePredicted(), r.matchedDepth(), r.matchedRms(), r.matchedRatio(),
                    r.treeBar(), r.baselineBar(), r.treeAnswerRms(), r.baselineAnswerRms()));
        }
        return b.toString();
    }
}
