package io.privacygateway.benchmarks.commands;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.planner.Candidate;
import io.privacygateway.mechanisms.planner.LocalPlanner;
import io.privacygateway.mechanisms.planner.Plan;
import io.privacygateway.mechanisms.planner.Prediction;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.reference.ReferenceData;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.EpsilonSplit;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.DiscreteProbabilityCollectionSampler;
import org.apache.commons.rng.simple.RandomSource;

/**
 * {@code bench accuracy} (local model): every applicable mechanism side by side on the same data, in one
 * run. Data are drawn i.i.d. from the {@link ReferenceData} distributions with a seeded generator; every
 * report goes through the real device code ({@link LocalProtocol#randomize}, seeded secret randomness so
 * the run is reproducible) and the real gateway release. The metric is the per-query RMS error
 * {@code ‖estimate − truth‖₂/√m}, root-mean-squared over trials (sparse rows use four times the trials:
 * their error sits in a few answers and varies more from trial to trial). Peers (frequency oracles and the tree)
 * are reported raw and projected onto K; the ratios are to the best projected peer of the row.
 */
public final class AccuracyBenchmark {
    /** Peer mechanisms (frequency oracles and the hierarchical mechanism). */
    static final List<MechanismId> PEERS = List.of(MechanismId.GRR, MechanismId.OUE, MechanismId.OLH,
            MechanismId.SUBSET_SELECTION, MechanismId.HADAMARD_RESPONSE, MechanismId.TREE);

    /** Whether a column is a peer (frequency oracle or the tree). */
    public static boolean isPeer(String column) {
        return PEERS.stream().anyMatch(p -> p.wireName().equals(column));
    }

    /** A benchmark workload. */
    public record BenchWorkload(String name, WorkloadSpec spec) {}

    /** One measured configuration in a row. */
    public record Cell(String column, String config, double projected, double unprojected) {}

    /** One row: workload, ε, data distribution. */
    public record Row(String workload, double epsilon, String data, List<Cell> cells, String autoChoice) {
        public Cell cell(String column) {
            for (Cell c : cells) {
                if (c.column().equals(column)) {
                    return c;
                }
            }
            return null;
        }

        /** The best projected peer. */
        public Cell bestPeer() {
            Cell best = null;
            for (Cell c : cells) {
                if (isPeer(c.column()) && (best == null || c.projected() < best.projected())) {
                    best = c;
                }
            }
            return best;
        }
    }

    private final long n;
    private final int trials;
    private final int threads;

    public AccuracyBenchmark(long n, int trials, int threads) {
        this.n = n;
        this.trials = trials;
        this.threads = threads;
    }

    /**
     * The standard workloads: histograms k ∈ {16, 64, 256}, CDF k = 128, all ranges over k = 32 buckets, 3-way
     * marginals over 8 attributes.
     */
    public static List<BenchWorkload> standardWorkloads() {
        List<BenchWorkload> out = new ArrayList<>();
        for (int k : new int[] {16, 64, 256}) {
            List<String> labels = new ArrayList<>();
            for (int i = 0; i < k; i++) {
                labels.add("v" + i);
            }
            out.add(new BenchWorkload("histogram k=" + k, spec("hist" + k, "histogram", Map.of("labels", labels), null)));
        }
        List<Double> edges = new ArrayList<>();
        for (int i = 0; i <= 128; i++) {
            edges.add((double) i);
        }
        out.add(new BenchWorkload("cdf k=128", spec("cdf128", "cdf", Map.of("buckets", edges), null)));
        out.add(new BenchWorkload("all ranges k=32", spec("range32", "range", Map.of("buckets", edges.subList(0, 33)),
                null)));
        out.add(new BenchWorkload("3-way marginals d=8", spec("marg3of8", "marginals",
                Map.of("attributes", List.of("a", "b", "c", "d", "e", "f", "g", "h")), Map.of("way", 3))));
        return out;
    }

    /**
     * Workloads run only when {@code --workloads} names them: 3-way marginals over 7 attributes (128 values, the
     * largest universe the workload-factorization mechanism takes, so it is one of the candidates).
     */
    public static List<BenchWorkload> optionalWorkloads() {
        return List.of(new BenchWorkload("3-way marginals d=7", spec("marg3of7", "marginals",
                Map.of("attributes", List.of("a", "b", "c", "d", "e", "f", "g")), Map.of("way", 3))));
    }

    static WorkloadSpec spec(String id, String family, Map<String, Object> domain, Map<String, Object> queries) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", id);
        t.put("version", 1);
        t.put("family", family);
        t.put("domain", domain);
        if (queries != null) {
            t.put("queries", queries);
        }
        t.put("epsilonPerReport", 1.0);
        t.put("budget", Map.of("epsilonPerPeriod", 40.0, "period", "1d"));
        t.put("window", Map.of("size", "1m"));
        return WorkloadSpecParser.parse(t);
    }

    /** Runs every row; {@code progress} receives each finished row. */
    public List<Row> run(List<BenchWorkload> workloads, double[] epsilons, Consumer<Row> progress)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<Row>>> futures = new ArrayList<>();
            for (BenchWorkload bw : workloads) {
                for (double e : epsilons) {
                    futures.add(pool.submit(() -> {
                        List<Row> rows = runSetting(bw, new Epsilon(e));
                        rows.forEach(progress);
                        return rows;
                    }));
                }
            }
            List<Row> all = new ArrayList<>();
            for (Future<List<Row>> f : futures) {
                all.addAll(f.get());
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }

    /** One (workload, ε): the plan, then every configuration on every data distribution. */
    List<Row> runSetting(BenchWorkload bw, Epsilon eps) {
        Plan plan = LocalPlanner.plan(bw.spec(), eps, n);
        Map<String, Candidate> columns = new LinkedHashMap<>();
        for (Prediction p : plan.predictions()) {
            Candidate c = p.candidate();
            // the peers, and the workload-factorization and Fourier mechanisms where they apply (columns of their own,
            // not peers: the targets compare them with the best of the mechanisms that existed before them)
            if (p.applicable() && (PEERS.contains(c.id()) || c.id() == MechanismId.FACTORIZATION
                    || c.id() == MechanismId.FOURIER)) {
                columns.put(c.id().wireName(), c);
            }
        }
        columns.put("projection", new Candidate(MechanismId.LOCAL_PROJECTION, null, null));
        Candidate coarse = bestOf(plan, MechanismId.LOCAL_COARSE_PROJECTION);
        if (coarse != null) {
            columns.put("coarse", coarse);
        }
        Candidate chain = bestOf(plan, MechanismId.LOCAL_CHAINING);
        if (chain != null) {
            columns.put("chaining", chain);
            columns.put("chaining-equal", new Candidate(MechanismId.LOCAL_CHAINING, chain.alpha(), EpsilonSplit.EQUAL));
        }
        columns.put("auto", plan.choice().candidate());
        Map<String, LocalPipeline> pipelines = new LinkedHashMap<>();
        Map<String, String> configs = new LinkedHashMap<>();
        Map<String, Object> fingerprints = new LinkedHashMap<>();
        for (Map.Entry<String, Candidate> e : columns.entrySet()) {
            LocalPipeline p = LocalPipeline.of(Workload.of(e.getValue().apply(bw.spec(), eps, n)));
            pipelines.put(e.getKey(), p);
            configs.put(e.getKey(), e.getValue().label());
            fingerprints.put(e.getKey(), LocalPlanner.fingerprint(p));
        }
        Workload w = pipelines.values().iterator().next().workload();
        List<Row> rows = new ArrayList<>();
        for (ReferenceData data : ReferenceData.all()) {
            Map<String, double[]> sq = new LinkedHashMap<>(); // projected, unprojected squared errors
            // identical protocols (same fingerprint) are run once per trial; every configuration sees the same
            // data and the same secret randomness per trial (common random numbers)
            Map<Object, double[]> memo = new LinkedHashMap<>();
            for (String col : columns.keySet()) {
                sq.put(col, new double[2]);
            }
            // sparse rows: the error of the few non-zero answers dominates, so one trial says little;
            // they get four times the trials to measure with the same precision as the others
            int rowTrials = data == ReferenceData.SPARSE ? 4 * trials : trials;
            for (int t = 0; t < rowTrials; t++) {
                long dataSeed = 0xDA7AL ^ (bw.name().hashCode() * 31L + data.ordinal()) * 1_000_003L + t;
                int[] values = sample(data.frequencies(w.universeSize()), (int) n, dataSeed);
                memo.clear();
                for (String col : columns.keySet()) {
                    Object fp = fingerprints.get(col);
                    double[] err = memo.get(fp);
                    if (err == null) {
                        err = measure(pipelines.get(col), values, dataSeed * 7919L + 17);
                        memo.put(fp, err);
                    }
                    sq.get(col)[0] += err[0];
                    sq.get(col)[1] += err[1];
                }
            }
            List<Cell> cells = new ArrayList<>();
            for (String col : columns.keySet()) {
                double[] s = sq.get(col);
                cells.add(new Cell(col, configs.get(col), Math.sqrt(s[0] / rowTrials), Math.sqrt(s[1] / rowTrials)));
            }
            rows.add(new Row(bw.name(), eps.value(), data.label(), cells, plan.choice().candidate().label()));
        }
        return rows;
    }

    private static Candidate bestOf(Plan plan, MechanismId id) {
        Prediction best = null;
        for (Prediction p : plan.predictions()) {
            if (p.applicable() && p.candidate().id() == id
                    && (best == null || p.meanSimulatedRms() < best.meanSimulatedRms())) {
                best = p;
            }
        }
        return best == null ? null : best.candidate();
    }

    /** Squared projected and unprojected errors of one run through the real device and gateway code. */
    static double[] measure(LocalPipeline pipeline, int[] values, long seed) {
        LocalProtocol protocol = pipeline.protocol();
        Workload w = pipeline.workload();
        SeededRandomBits secret = new SeededRandomBits(seed);
        long[] state = new long[protocol.stateLength()];
        long[] counts = new long[w.universeSize()];
        for (int i = 0; i < values.length; i++) {
            ReportCoordinates c = new ReportCoordinates("bench-" + i, seed & 0xFFFF, 0);
            protocol.accumulate(protocol.randomize(values[i], c, secret), c, state);
            counts[values[i]]++;
        }
        Answer a = pipeline.release().release(state, values.length);
        double[] truth = w.meanAnswer(counts);
        double p = 0;
        double u = 0;
        for (int q = 0; q < truth.length; q++) {
            p += (a.estimates()[q] - truth[q]) * (a.estimates()[q] - truth[q]);
            u += (a.unprojected().orElseThrow()[q] - truth[q]) * (a.unprojected().orElseThrow()[q] - truth[q]);
        }
        return new double[] {p / truth.length, u / truth.length};
    }

    static int[] sample(double[] f, int n, long seed) {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
        List<Integer> items = new ArrayList<>();
        List<Double> probs = new ArrayList<>();
        for (int x = 0; x < f.length; x++) {
            if (f[x] > 0) {
                items.add(x);
                probs.add(f[x]);
            }
        }
        double[] p = probs.stream().mapToDouble(Double::doubleValue).toArray();
        DiscreteProbabilityCollectionSampler<Integer> s = new DiscreteProbabilityCollectionSampler<>(rng, items, p);
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = s.sample();
        }
        return out;
    }
}
