package io.privacygateway.benchmarks.commands;

import io.privacygateway.mechanisms.central.CentralParameters;
import io.privacygateway.mechanisms.central.CentralRelease;
import io.privacygateway.mechanisms.runtime.CountsReleases;
import io.privacygateway.mechanisms.central.PurifiedGaussianRelease;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.planner.Candidate;
import io.privacygateway.mechanisms.planner.CentralPlanner;
import io.privacygateway.mechanisms.planner.Plan;
import io.privacygateway.mechanisms.planner.Prediction;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.reference.ReferenceData;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * {@code bench accuracy --mode central}: purified Gaussian projection, purified chaining and the Laplace
 * baseline side by side on the same counts, at total pure ε per release and n reports. Data: Zipf(1.1)
 * over the universe, sampled i.i.d. (seeded). Every release runs the real mechanism with exact samplers
 * (seeded for reproducibility). Reported: RMS per answer, ratios to Laplace, the chosen space of the
 * Gaussian mechanism, and Theorem 1's bound on the purification's l1 perturbation (per answer).
 */
public final class CentralAccuracyBenchmark {
    /** One row. */
    public record Row(String workload, double epsilon, long n, double projection, double chaining, double laplace,
            String projectionSpace, String chainingConfig, double theorem1PerAnswer, String autoChoice) {}

    private final int trials;
    private final int threads;

    public CentralAccuracyBenchmark(int trials, int threads) {
        this.trials = trials;
        this.threads = threads;
    }

    /** The central workloads: the local ones ({@link AccuracyBenchmark#standardWorkloads}) but histograms k = 16, 256. */
    public static List<AccuracyBenchmark.BenchWorkload> standardWorkloads() {
        List<AccuracyBenchmark.BenchWorkload> out = new ArrayList<>();
        for (AccuracyBenchmark.BenchWorkload w : AccuracyBenchmark.standardWorkloads()) {
            if (!w.name().equals("histogram k=16") && !w.name().equals("histogram k=256")) {
                out.add(central(w));
            }
        }
        return out;
    }

    private static AccuracyBenchmark.BenchWorkload central(AccuracyBenchmark.BenchWorkload w) {
        return new AccuracyBenchmark.BenchWorkload(w.name(),
                w.spec().toBuilder().inCentralMode(new Epsilon(1), NeighbourRelation.ADD_REMOVE, 1).build());
    }

    public List<Row> run(List<AccuracyBenchmark.BenchWorkload> workloads, double[] epsilons, long[] ns,
            Consumer<Row> progress) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Row>> futures = new ArrayList<>();
            for (AccuracyBenchmark.BenchWorkload bw : workloads) {
                for (double e : epsilons) {
                    for (long n : ns) {
                        futures.add(pool.submit(() -> {
                            Row r = runRow(bw, new Epsilon(e), n);
                            progress.accept(r);
                            return r;
                        }));
                    }
                }
            }
            List<Row> rows = new ArrayList<>();
            for (Future<Row> f : futures) {
                rows.add(f.get());
            }
            return rows;
        } finally {
            pool.shutdownNow();
        }
    }

    Row runRow(AccuracyBenchmark.BenchWorkload bw, Epsilon eps, long n) {
        WorkloadSpec base = bw.spec().toBuilder().epsilonPerAnswer(eps).budgetAtLeastOneCharge().build();
        Plan plan = CentralPlanner.plan(base, eps, n);
        Candidate chain = null;
        double best = Double.POSITIVE_INFINITY;
        for (Prediction p : plan.predictions()) {
            if (p.applicable() && p.candidate().id() == MechanismId.CENTRAL_CHAINING && p.meanSimulatedRms() < best) {
                best = p.meanSimulatedRms();
                chain = p.candidate();
            }
        }
        CentralRelease proj = CountsReleases.of(Workload.of(new Candidate(MechanismId.CENTRAL_PROJECTION, null, null)
                .apply(base, eps, n)));
        CentralRelease lap = CountsReleases.of(Workload.of(new Candidate(MechanismId.LAPLACE, null, null)
                .apply(base, eps, n)));
        CentralRelease ch = chain == null ? null : CountsReleases.of(Workload.of(chain.apply(base, eps, n)));
        Workload w = proj.workload();
        double[] sq = new double[3];
        for (int t = 0; t < trials; t++) {
            long[] counts = new long[w.universeSize()];
            for (int v : AccuracyBenchmark.sample(ReferenceData.ZIPF.frequencies(w.universeSize()), (int) n,
                    0xCE17L * (t + 1) + bw.name().hashCode())) {
                counts[v]++;
            }
            double[] truth = w.meanAnswer(counts);
            SeededRandomBits secret = new SeededRandomBits(31L * t + 7);
            sq[0] += err(proj.release(counts, secret), truth);
            sq[1] += ch == null ? Double.NaN : err(ch.release(counts, secret), truth);
            sq[2] += err(lap.release(counts, secret), truth);
        }
        PurifiedGaussianRelease pg = (PurifiedGaussianRelease) proj;
        CentralParameters.Gaussian pp = pg.parameters();
        double theorem1 = pg.purifier().expectedL1ErrorBound()
                / (pp.space() == CentralParameters.Space.HISTOGRAM ? w.universeSize() : w.queryCount());
        return new Row(bw.name(), eps.value(), n, Math.sqrt(sq[0] / trials), Math.sqrt(sq[1] / trials),
                Math.sqrt(sq[2] / trials), pp.space().name().toLowerCase(Locale.ROOT),
                chain == null ? "n/a" : chain.label(), theorem1, plan.choice().candidate().label());
    }

    private static double err(Answer a, double[] truth) {
        double s = 0;
        for (int q = 0; q < truth.length; q++) {
            s += (a.estimates()[q] - truth[q]) * (a.estimates()[q] - truth[q]);
        }
        return s / truth.length;
    }

    /** A markdown table. */
    public static String table(List<Row> rows) {
        StringBuilder sb = new StringBuilder(String.format("%n| workload | ε | n | purified projection (space) | purified"
                + " chaining | Laplace baseline | projection/Laplace | chaining/Laplace | Theorem 1 bound per coordinate |"
                + " auto |%n|---|---|---|---|---|---|---|---|---|---|%n"));
        for (Row r : rows) {
            sb.append(String.format("| %s | %s | %d | %.5f (%s) | %s | %.5f | %.2f | %s | %.2e | %s |%n", r.workload(),
                    AccuracyReportFormat.eps(r.epsilon()), r.n(), r.projection(), r.projectionSpace(),
                    Double.isNaN(r.chaining()) ? "n/a" : String.format("%.5f", r.chaining()), r.laplace(),
                    r.projection() / r.laplace(),
                    Double.isNaN(r.chaining()) ? "n/a" : String.format("%.2f", r.chaining() / r.laplace()),
                    r.theorem1PerAnswer(), r.autoChoice()));
        }
        return sb.toString();
    }
}
