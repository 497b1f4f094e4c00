package io.privacygateway.benchmarks.commands;

import io.privacygateway.mechanisms.local.factorization.FactorizationEstimates;
import io.privacygateway.mechanisms.local.factorization.FactorizationMechanism;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.planner.Candidate;
import io.privacygateway.mechanisms.projection.MonotoneUnitBoxProjection;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.reference.ReferenceData;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code bench accuracy --workloads wfm}: the workload-factorization randomizer ({@code local.factorization}, driven
 * directly; it builds the same weights as mechanism {@code factorization}) against the tree mechanism, the best existing one, on the CDF of k = 128 buckets: the
 * same data per trial (i.i.d. from each {@link ReferenceData} distribution), both through their device code with
 * seeded secret randomness, both projected onto K (monotone vectors in [0, 1]). Metric: per-query RMS error
 * {@code ‖estimate − truth‖₂/√m}, root-mean-squared over trials.
 */
public final class FactorizationBenchmark {
    /** One row. */
    public record Row(double epsilon, String data, double tree, double treeUnprojected, double wfm, double wfmUnprojected,
            double predictedPerUserVariance) {}

    private final long n;
    private final int trials;

    public FactorizationBenchmark(long n, int trials) {
        this.n = n;
        this.trials = trials;
    }

    /** Rows for every ε and reference distribution. */
    public List<Row> run(double[] epsilons, int k) {
        List<Row> out = new ArrayList<>();
        List<Double> edges = new ArrayList<>();
        for (int i = 0; i <= k; i++) {
            edges.add((double) i);
        }
        WorkloadSpec base = AccuracyBenchmark.spec("cdf" + k, "cdf", Map.of("buckets", edges), null);
        for (double e : epsilons) {
            Epsilon eps = new Epsilon(e);
            LocalPipeline tree = LocalPipeline.of(Workload.of(new Candidate(MechanismId.TREE, null, null)
                    .apply(base, eps, n)));
            Workload w = tree.workload();
            int m = w.queryCount();
            double[][] matrix = new double[m][k];
            for (int x = 0; x < k; x++) {
                double[] row = w.points().row(x);
                for (int q = 0; q < m; q++) {
                    matrix[q][x] = row[q];
                }
            }
            FactorizationMechanism wfm = new FactorizationMechanism(matrix, eps, 4 * k, 300, 30, 7);
            MonotoneUnitBoxProjection proj = new MonotoneUnitBoxProjection(m);
            for (ReferenceData data : ReferenceData.all()) {
                double[] sq = new double[4];
                for (int t = 0; t < trials; t++) {
                    long seed = 0xCDFL ^ (data.ordinal() * 31L + Double.hashCode(e)) * 1_000_003L + t;
                    int[] values = AccuracyBenchmark.sample(data.frequencies(k), (int) n, seed);
                    double[] tr = AccuracyBenchmark.measure(tree, values, seed * 7919L + 17);
                    sq[0] += tr[0];
                    sq[3] += tr[1];
                    SecretDraws draws = ExactSampler.draws(new SeededRandomBits(seed * 104729L + 3));
                    long[] outputs = new long[wfm.outputs()];
                    long[] counts = new long[k];
                    for (int v : values) {
                        outputs[wfm.randomize(v, draws)]++;
                        counts[v]++;
                    }
                    double[] truth = w.meanAnswer(counts);
                    double[] answers = w.answersOf(FactorizationEstimates.frequencies(wfm, outputs, values.length));
                    double[] projected = proj.project(answers).point();
                    double p = 0;
                    double u = 0;
                    for (int q = 0; q < m; q++) {
                        p += (projected[q] - truth[q]) * (projected[q] - truth[q]);
                        u += (answers[q] - truth[q]) * (answers[q] - truth[q]);
                    }
                    sq[1] += p / m;
                    sq[2] += u / m;
                }
                out.add(new Row(e, data.label(), Math.sqrt(sq[0] / trials), Math.sqrt(sq[3] / trials),
                        Math.sqrt(sq[1] / trials),
                        Math.sqrt(sq[2] / trials), wfm.perUserTotalVariance()));
            }
        }
        return out;
    }

    /** The markdown table. */
    public static String table(List<Row> rows) {
        StringBuilder sb = new StringBuilder("| ε | data | tree (projected) | wfm (projected) | tree/wfm | tree (raw)"
                + " | wfm (raw) | wfm per-user total variance (closed form, uniform) |\n|---|---|---|---|---|---|---|---|\n");
        for (Row r : rows) {
            sb.append(String.format(Locale.ROOT, "| %s | %s | %.6f | %.6f | %.3f | %.6f | %.6f | %.1f |%n", r.epsilon(),
                    r.data(), r.tree(), r.wfm(), r.tree() / r.wfm(), r.treeUnprojected(), r.wfmUnprojected(),
                    r.predictedPerUserVariance()));
        }
        return sb.toString();
    }
}
