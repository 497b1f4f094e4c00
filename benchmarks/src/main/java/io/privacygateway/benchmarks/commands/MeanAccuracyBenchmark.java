package io.privacygateway.benchmarks.commands;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.local.mean.MeanProtocol;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.planner.LocalPlanner;
import io.privacygateway.mechanisms.planner.Plan;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@code bench accuracy}, mean rows: the three scalar randomizers of the {@code mean} family (Duchi et al.'s,
 * piecewise, hybrid) side by side on a range {@code [0, 1]} with 1025 levels, on three data shapes (uniform;
 * skewed: a gamma(2) bump at 1/16 of the range; bimodal: two narrow bumps at 0.15 and 0.85), through the real
 * device code (seeded secret randomness, reproducible) and the real release (clipped to the range). Metric: RMS
 * error of the published mean over trials, in units of the range width; every mechanism sees the same data and
 * the same secret stream per trial. {@code auto} is the planner's closed-form choice (it never sees the data).
 */
public final class MeanAccuracyBenchmark {
    /** The data shapes. */
    public static final List<String> DATA = List.of("uniform", "skewed", "bimodal");

    /** One row. */
    public record Row(double epsilon, String data, double[] rms, double[] predicted, MechanismId auto) {
        /** The smallest RMS of the three. */
        public double best() {
            return Math.min(rms[0], Math.min(rms[1], rms[2]));
        }

        /** The RMS of {@code auto}'s choice. */
        public double autoRms() {
            return rms[MechanismId.MEAN_MECHANISMS.indexOf(auto)];
        }
    }

    private final long n;
    private final int trials;
    private final int threads;

    public MeanAccuracyBenchmark(long n, int trials, int threads) {
        this.n = n;
        this.trials = trials;
        this.threads = threads;
    }

    static WorkloadSpec spec() {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "mean01");
        t.put("version", 1);
        t.put("family", "mean");
        t.put("domain", Map.of("range", Map.of("lo", 0, "hi", 1)));
        t.put("epsilonPerReport", 1.0);
        t.put("budget", Map.of("epsilonPerPeriod", 40.0, "period", "1d"));
        t.put("window", Map.of("size", "1m"));
        return WorkloadSpecParser.parse(t);
    }

    /** The frequencies of a data shape over {@code levels} levels. */
    static double[] frequencies(String data, int levels) {
        double[] f = new double[levels];
        double s = 0;
        for (int x = 0; x < levels; x++) {
            double v = x / (levels - 1.0);
            f[x] = switch (data) {
                case "uniform" -> 1;
                case "skewed" -> (v * 16) * Math.exp(-v * 16);
                default -> Math.exp(-Math.pow((v - 0.15) / 0.04, 2) / 2) + Math.exp(-Math.pow((v - 0.85) / 0.04, 2) / 2);
            };
            s += f[x];
        }
        for (int x = 0; x < levels; x++) {
            f[x] /= s;
        }
        return f;
    }

    /** Every (ε, data) row. */
    public List<Row> run(double[] epsilons) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Row>> futures = new ArrayList<>();
            for (double e : epsilons) {
                for (String data : DATA) {
                    futures.add(pool.submit(() -> row(new Epsilon(e), data)));
                }
            }
            List<Row> out = new ArrayList<>();
            for (Future<Row> f : futures) {
                out.add(f.get());
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    Row row(Epsilon eps, String data) {
        WorkloadSpec base = spec();
        Plan plan = LocalPlanner.plan(base, eps, n);
        List<MechanismId> ids = MechanismId.MEAN_MECHANISMS;
        LocalPipeline[] pipelines = new LocalPipeline[ids.size()];
        for (int i = 0; i < ids.size(); i++) {
            pipelines[i] = LocalPipeline.of(Workload.of(base.toBuilder().epsilonPerAnswer(eps).budgetAtLeastOneCharge()
                    .mechanism(ids.get(i)).build()));
        }
        Workload w = pipelines[0].workload();
        double[] f = frequencies(data, w.universeSize());
        double[] sq = new double[ids.size()];
        for (int t = 0; t < trials; t++) {
            long seed = 0x3EA7L ^ (data.hashCode() * 31L + Double.hashCode(eps.value())) * 1_000_003L + t;
            int[] values = AccuracyBenchmark.sample(f, (int) n, seed);
            for (int i = 0; i < ids.size(); i++) {
                sq[i] += squaredError(pipelines[i], values, seed * 7919L + 17);
            }
        }
        double[] rms = new double[ids.size()];
        double[] predicted = new double[ids.size()];
        for (int i = 0; i < ids.size(); i++) {
            rms[i] = Math.sqrt(sq[i] / trials);
            // closed form: (hi − lo)/2 · √(Σ_x f_x Var(t̂|x) / n), the range being [0, 1]
            predicted[i] = 0.5 * Math.sqrt(((MeanProtocol) pipelines[i].protocol()).randomizer().varianceUnder(f) / n);
        }
        return new Row(eps.value(), data, rms, predicted, plan.choice().candidate().id());
    }

    static double squaredError(LocalPipeline pipeline, int[] values, long seed) {
        LocalProtocol protocol = pipeline.protocol();
        SeededRandomBits secret = new SeededRandomBits(seed);
        long[] state = new long[protocol.stateLength()];
        long[] counts = new long[pipeline.workload().universeSize()];
        ReportCoordinates c = new ReportCoordinates("bench", 0, 0); // the mean protocols use no public coins
        for (int v : values) {
            protocol.accumulate(protocol.randomize(v, c, secret), c, state);
            counts[v]++;
        }
        Answer a = pipeline.release().release(state, values.length);
        double truth = pipeline.workload().meanAnswer(counts)[0];
        double d = a.estimates()[0] - truth;
        return d * d;
    }

    /** The markdown table of the rows. */
    public static String table(List<Row> rows) {
        StringBuilder sb = new StringBuilder();
        sb.append("| ε | data | duchi | piecewise | hybrid | best | piecewise/duchi | hybrid/best | auto | auto/best"
                + " | predicted duchi / piecewise / hybrid |\n");
        sb.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Row r : rows) {
            String best = MechanismId.MEAN_MECHANISMS.get(argmin(r.rms())).wireName();
            sb.append(String.format(Locale.ROOT,
                    "| %s | %s | %.5f | %.5f | %.5f | %s | %.3f | %.3f | %s | %.3f | %.5f / %.5f / %.5f |%n",
                    fmt(r.epsilon()), r.data(), r.rms()[0], r.rms()[1], r.rms()[2], best, r.rms()[1] / r.rms()[0],
                    r.rms()[2] / r.best(), r.auto().wireName(), r.autoRms() / r.best(), r.predicted()[0],
                    r.predicted()[1], r.predicted()[2]));
        }
        return sb.toString();
    }

    private static int argmin(double[] v) {
        int b = 0;
        for (int i = 1; i < v.length; i++) {
            if (v[i] < v[b]) {
                b = i;
            }
        }
        return b;
    }

    private static String fmt(double e) {
        return e == Math.rint(e) ? Long.toString((long) e) : Double.toString(e);
    }

    /** The closed-form per-report variance of each randomizer at its worst level (for the docs). */
    static double[] worstVariances(Epsilon eps) {
        double[] out = new double[3];
        for (int i = 0; i < 3; i++) {
            out[i] = MeanProtocol.randomizer(MechanismId.MEAN_MECHANISMS.get(i), 1025, eps).worstVariance();
        }
        return out;
    }
}
