package io.privacygateway.benchmarks.commands;

import io.privacygateway.app.cli.ToolCommand;
import io.privacygateway.benchmarks.speed.GaussianSignBenchmark;
import io.privacygateway.benchmarks.speed.NetsBenchmark;
import io.privacygateway.benchmarks.speed.ProjectionBenchmark;
import io.privacygateway.mechanisms.param.Alpha;
import io.privacygateway.mechanisms.workload.QueryFamily;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code privacy-gateway bench}: benchmarks that print figures (never pass/fail on timings). */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Benchmarks (print figures).",
        subcommands = {BenchCommand.Accuracy.class, BenchCommand.Speed.class, BenchCommand.Throughput.class,
            BenchCommand.ReleaseTiming.class, BenchCommand.Analytics.class, BenchCommand.Horizons.class,
            BenchCommand.Synthetic.class, WideBenchCommand.class, BenchCommand.HeavyHitters.class,
            VectorMeanBenchCommand.class, IngestBenchCommand.class, MemoryBenchCommand.class})
public final class BenchCommand implements Runnable, ToolCommand {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Open-domain heavy hitters: the prefix-tree sketch against the PEM baseline (docs/heavy-hitters.md). */
    @Command(name = "heavy-hitters", mixinStandardHelpOptions = true,
            description = {"The open-domain heavy-hitter protocol (prefix-tree-sketch, b = 1 and 2) against PEM with OLH",
                "on Zipf(1.1) users over 10^6 distinct strings of at most L bytes: precision, recall and RMS share error",
                "of the top-k, threshold, device bytes, server state, decode time."})
    public static final class HeavyHitters extends BenchOptions.Subcommand {
        @Mixin
        BenchOptions.Ns ns = new BenchOptions.Ns(100_000, 1_000_000);

        @Mixin
        BenchOptions.Epsilons epsilons = new BenchOptions.Epsilons(1, 2, 4);

        @Option(names = "--ks", split = ",", defaultValue = "10,20", description = "Top-k sizes.")
        int[] ks;

        @Option(names = "--segments", split = ",", defaultValue = "1,2", description = "Segment sizes b to run.")
        int[] segments;

        @Mixin
        BenchOptions.Trials trials = new BenchOptions.Trials(3);

        @Option(names = "--max-bytes", defaultValue = "16", description = "L: the longest string, in bytes.")
        int maxBytes;

        @Option(names = "--universe", defaultValue = "1000000", description = "Distinct strings.")
        int universe;

        @Option(names = "--zipf", defaultValue = "1.1", description = "Zipf exponent.")
        double zipf;

        @Option(names = "--pem-eta", defaultValue = "4", description = "PEM: bits added per group.")
        int pemEta;

        @Override
        public Integer call() throws Exception {
            PrintWriter o = out();
            int[] n = ns.asInts();
            o.printf("bench heavy-hitters: Zipf(%s) over %d distinct strings of 1..%d bytes; n ∈ %s, ε ∈ %s, k ∈ %s;"
                    + " %d trials per row%n", zipf, universe, maxBytes, Arrays.toString(n),
                    Arrays.toString(epsilons.values), Arrays.toString(ks), trials.value);
            o.printf("command: bench heavy-hitters --ns %s --epsilons %s --ks %s --segments %s --trials %d --max-bytes %d"
                    + " --universe %d --zipf %s --pem-eta %d%n", join(n), join(epsilons.values), join(ks),
                    join(segments), trials.value, maxBytes, universe, zipf, pemEta);
            o.flush();
            long t0 = System.nanoTime();
            HeavyHitterBenchmark b = new HeavyHitterBenchmark(universe, maxBytes, zipf);
            var rows = b.run(n, epsilons.values, ks, segments, pemEta, trials.value, progressLines(o));
            o.println(HeavyHitterBenchmark.table(rows));
            printElapsed(o, t0);
            return 0;
        }

        private static String join(int[] a) {
            return Arrays.stream(a).mapToObj(Integer::toString).collect(Collectors.joining(","));
        }

        private static String join(double[] a) {
            return Arrays.stream(a).mapToObj(HeavyHitterBenchmark::trim)
                    .collect(Collectors.joining(","));
        }
    }

    /** Accuracy of every mechanism side by side. */
    @Command(name = "accuracy", mixinStandardHelpOptions = true,
            description = {"Every applicable mechanism on histograms k ∈ {16, 64, 256}, CDF k = 128 and 3-way marginals",
                "over 8 attributes, ε ∈ {0.5, 1, 2, 4}, uniform / Zipf(1.1) / 3-point sparse data: RMS error per query",
                "and its ratio to the best projected frequency-oracle/hierarchical peer; then the mean family's rows",
                "(duchi, piecewise, hybrid on uniform / skewed / bimodal scalars; docs/local-accuracy.md)."})
    public static final class Accuracy extends BenchOptions.Subcommand {
        @Mixin
        BenchOptions.N reportsPerWindow = new BenchOptions.N();

        @Mixin
        BenchOptions.Trials trialsOption = new BenchOptions.Trials(3);

        @Mixin
        BenchOptions.Epsilons epsilonsOption = new BenchOptions.Epsilons(0.5, 1, 2, 4);

        @Mixin
        BenchOptions.Workloads workloads = new BenchOptions.Workloads();

        @Mixin
        BenchOptions.WorkerThreads threads = new BenchOptions.WorkerThreads();

        @Mixin
        BenchOptions.Out out = new BenchOptions.Out();

        @Option(names = "--mode", defaultValue = "local", paramLabel = "local|central",
                description = "local (default) or central: purified Gaussian projection, purified chaining and the"
                        + " Laplace baseline at n ∈ {10^3, 10^4, 10^5}, then the wide marginal releases at d = 8 (bench"
                        + " wide for the full grid) and the window-analytics families (bench analytics).")
        String mode;

        @Mixin
        BenchOptions.Ns nsOption = new BenchOptions.Ns(1_000, 10_000, 100_000);

        @Override
        public Integer call() throws Exception {
            PrintWriter o = out();
            int th = threads.resolved();
            long n = reportsPerWindow.value;
            int trials = trialsOption.value;
            double[] epsilons = epsilonsOption.values;
            long[] ns = nsOption.values;
            List<String> only = workloads.only;
            if (mode.equals("central")) {
                return runCentral(o, th, trials, epsilons, ns, only);
            }
            List<AccuracyBenchmark.BenchWorkload> ws = new ArrayList<>();
            for (AccuracyBenchmark.BenchWorkload w : AccuracyBenchmark.standardWorkloads()) {
                if (selected(only, w.name())) {
                    ws.add(w);
                }
            }
            for (AccuracyBenchmark.BenchWorkload w : AccuracyBenchmark.optionalWorkloads()) {
                if (only != null && selected(only, w.name())) { // only when named
                    ws.add(w);
                }
            }
            boolean means = only == null || only.stream().anyMatch("mean"::contains);
            if (only != null && only.contains("wfm")) { // the workload-factorization prototype's CDF row only
                o.printf("bench accuracy, workload factorization vs tree: cdf k=128, n = %d, %d trials per row;"
                        + " RMS = ‖estimate − truth‖₂/√m%n", n, trials);
                o.flush();
                long t0 = System.nanoTime();
                o.println(FactorizationBenchmark.table(new FactorizationBenchmark(n, trials).run(epsilons, 128)));
                printElapsed(o, t0);
                return 0;
            }
            if (ws.isEmpty() && means) { // --workloads mean: only the mean family's rows
                return runMeans(o, th);
            }
            o.printf("bench accuracy: n = %d, %d trials per row, %d threads; RMS = ‖estimate − truth‖₂/√m%n", n, trials, th);
            o.flush();
            long t0 = System.nanoTime();
            List<AccuracyBenchmark.Row> rows = new AccuracyBenchmark(n, trials, th).run(ws, epsilons, r -> {
                synchronized (o) {
                    o.printf("  done: %s ε=%s %s%n", r.workload(), r.epsilon(), r.data());
                    o.flush();
                }
            });
            o.println(AccuracyReport.summary(rows));
            o.println(AccuracyReport.details(rows));
            printElapsed(o, t0);
            if (out.file != null) {
                Files.writeString(out.file, AccuracyReport.csv(rows));
                o.printf("wrote %s%n", out.file);
            }
            return means ? runMeans(o, th) : 0;
        }

        /** The mean family's rows ({@link MeanAccuracyBenchmark}). */
        private int runMeans(PrintWriter o, int th) throws Exception {
            long n = reportsPerWindow.value;
            int trials = trialsOption.value;
            o.printf("bench accuracy, mean family: range [0, 1] (1025 levels), n = %d, %d trials per row;"
                    + " RMS of the published mean in units of the range%n", n, trials);
            o.flush();
            long t0 = System.nanoTime();
            o.println(MeanAccuracyBenchmark.table(new MeanAccuracyBenchmark(n, trials, th).run(epsilonsOption.values)));
            printElapsed(o, t0);
            return 0;
        }
    }

    /**
     * Whether {@code --workloads} selects the workload called {@code name}: with no filter ({@code null}) every
     * workload, otherwise those whose name contains one of the filter's strings.
     */
    static boolean selected(List<String> only, String name) {
        return only == null || only.stream().anyMatch(name::contains);
    }

    /**
     * The sink of a benchmark's progress messages: each message printed on its own line, indented by two spaces,
     * and flushed at once; safe to call from several threads (one whole line at a time).
     */
    static Consumer<String> progressLines(PrintWriter o) {
        return line -> {
            synchronized (o) {
                o.println("  " + line);
                o.flush();
            }
        };
    }

    /** Prints the seconds since {@code t0} (a {@link System#nanoTime()} reading), rounded, as {@code (N s)}. */
    static void printElapsed(PrintWriter o, long t0) {
        o.printf("(%.0f s)%n", (System.nanoTime() - t0) / 1e9);
    }

    /** Shared by the accuracy modes. */
    static int runCentral(PrintWriter o, int th, int trials, double[] epsilons, long[] ns, List<String> only)
            throws Exception {
        List<AccuracyBenchmark.BenchWorkload> ws = new ArrayList<>();
        for (AccuracyBenchmark.BenchWorkload w : CentralAccuracyBenchmark.standardWorkloads()) {
            if (selected(only, w.name())) {
                ws.add(w);
            }
        }
        int t = Math.max(trials, 10);
        o.printf("bench accuracy --mode central: Zipf(1.1) data, %d releases per cell, %d threads;"
                + " RMS = ‖estimate − truth‖₂/√m%n", t, th);
        o.flush();
        long t0 = System.nanoTime();
        var rows = new CentralAccuracyBenchmark(t, th).run(ws, epsilons, ns, r -> {
            synchronized (o) {
                o.printf("  done: %s ε=%s n=%d%n", r.workload(), r.epsilon(), r.n());
                o.flush();
            }
        });
        o.println(CentralAccuracyBenchmark.table(rows));
        printElapsed(o, t0);
        if (only == null || only.stream().anyMatch("wide-marginals"::contains)) {
            runWide(o, epsilons, ns);
        }
        return runAnalytics(o, Math.max(trials, 5), epsilons, ns, only, 2000);
    }

    /** The wide marginal releases at d = 8 (the full grid up to d = 20 is {@code bench wide}). */
    static void runWide(PrintWriter o, double[] epsilons, long[] ns) {
        o.printf("wide-marginals: all 3-way marginals over d = 8 binary attributes (mwem, worst-case chaining, Laplace,"
                + " projected Laplace, central projection), add/remove, L = 1, 2 windows per cell; bench wide runs"
                + " d up to 20%n");
        o.flush();
        long t0 = System.nanoTime();
        WideBenchmark bench = new WideBenchmark(2, progressLines(o));
        o.println(WideBenchmark.table(bench.run(new int[] {8}, ns, epsilons)));
        printElapsed(o, t0);
    }

    /** The window-analytics families (mode, regression, erm): every mechanism side by side. */
    static int runAnalytics(PrintWriter o, int trials, double[] epsilons, long[] ns, List<String> only,
            int simulations) {
        var bench = new AnalyticsBenchmark(trials);
        List<AnalyticsBenchmark.Row> rows = new ArrayList<>();
        long t0 = System.nanoTime();
        o.printf("window analytics: %d releases per cell (regression, erm), %d simulated releases per mode cell;"
                + " synthetic workloads on the three reference distributions (SyntheticWindows), public-data workloads"
                + " on their data set; seeded%n", trials, simulations);
        o.flush();
        for (var w : AnalyticsBenchmark.standardWorkloads()) {
            if (!selected(only, w.name())) {
                continue;
            }
            if (w.spec().family() == QueryFamily.MODE) {
                for (long n : ns) { // the probabilities depend on the gap only; every n shows which gaps it allows
                    List<AnalyticsBenchmark.ModeRow> mr = new ArrayList<>();
                    for (double e : epsilons) {
                        mr.addAll(bench.modeRows(w, e, n, simulations));
                    }
                    o.println(AnalyticsBenchmark.modeTable(mr, n));
                    o.flush();
                }
                continue;
            }
            for (long n : ns) {
                for (double e : epsilons) {
                    rows.add(bench.run(w, e, n));
                    o.printf("  done: %s ε=%s n=%d%n", w.name(), e, n);
                    o.flush();
                }
            }
        }
        o.println(AnalyticsBenchmark.table(rows));
        printElapsed(o, t0);
        return 0;
    }

    /** {@code bench analytics}: the window-analytics families alone. */
    @Command(name = "analytics", mixinStandardHelpOptions = true,
            description = {"Mode, regression and erm mechanisms side by side at ε ∈ {0.5, 1, 2, 4} and n ∈ {10^3, 10^4,",
                "10^5}: P(true mode) against the gap; excess MSE over OLS; excess empirical risk and release time."})
    public static final class Analytics extends BenchOptions.Subcommand {
        @Mixin
        BenchOptions.Trials trials = new BenchOptions.Trials(7);

        @Option(names = "--simulations", defaultValue = "2000",
                description = "Simulated mode releases per cell (default ${DEFAULT-VALUE}).")
        int simulations;

        @Mixin
        BenchOptions.Epsilons epsilons = new BenchOptions.Epsilons(0.5, 1, 2, 4);

        @Mixin
        BenchOptions.Ns ns = new BenchOptions.Ns(1_000, 10_000, 100_000);

        @Mixin
        BenchOptions.Workloads workloads = new BenchOptions.Workloads();

        @Override
        public Integer call() {
            return runAnalytics(out(), trials.value, epsilons.values, ns.values, workloads.only, simulations);
        }
    }

    /** Server-side speed figures. */
    @Command(name = "speed", mixinStandardHelpOptions = true,
            description = {"Server cost per Gaussian-sign report vs generating the same Gaussians; generic projection",
                "of 4,096 points in m = 256 to a 1e-6 gap; nets for 16,384 points in m = 64."})
    public static final class Speed extends BenchOptions.Subcommand {
        @Override
        public Integer call() {
            PrintWriter o = out();
            o.println("1. Gaussian-sign server cost per report (SipHash base + regenerate Z + fixed-point accumulate)");
            o.println("   vs generating m Gaussians with the same generator, same run:");
            o.flush();
            o.println(GaussianSignBenchmark.run().table());
            o.println("2. Generic projection onto conv(4,096 points) in m = 256, certified duality gap 1e-6:");
            o.flush();
            o.println(ProjectionBenchmark.standard());
            o.println("3. Nested nets + chaining decomposition, 16,384 points in m = 64, α = 0.05 (k = 6 levels):");
            o.flush();
            var points = NetsBenchmark.generate(NetsBenchmark.Kind.MIXTURE, 16_384, 64, 20240601L);
            NetsBenchmark.run("warm-up", points, Alpha.of(0.05));
            o.println("   " + NetsBenchmark.run("mixture", points, Alpha.of(0.05)));
            return 0;
        }
    }

    /** Durations of central releases on very different data with the same parameters (timing side channel). */
    @Command(name = "release-timing", mixinStandardHelpOptions = true,
            description = {"Every central mechanism on the central workloads (ε = 1, planned n = 10,000): release",
                "durations on empty, one-report, one-value and reference datasets with the same parameters."})
    public static final class ReleaseTiming extends BenchOptions.Subcommand {
        @Option(names = "--rounds", defaultValue = "300", description = "Timed releases per dataset.")
        int rounds;

        @Option(names = "--warmup", defaultValue = "500", description = "Untimed releases first.")
        int warmup;

        @Option(names = "--analytics", description = "Time the window analytics (mode, regression, erm) instead of "
                + "the linear families.")
        boolean analytics;

        @Override
        public Integer call() {
            PrintWriter o = out();
            o.printf("bench release-timing: %d timed releases per dataset after %d warm-up releases%n", rounds, warmup);
            o.flush();
            var bench = new ReleaseTimingBenchmark(rounds, warmup);
            Consumer<ReleaseTimingBenchmark.Row> progress = r -> {
                o.printf("  done: %s %s%n", r.workload(), r.mechanism());
                o.flush();
            };
            var rows = analytics
                    ? bench.runAnalytics(AnalyticsBenchmark.standardWorkloads(),
                            progress)
                    : bench.run(CentralAccuracyBenchmark.standardWorkloads(),
                            progress);
            o.println(ReleaseTimingBenchmark.table(rows));
            return 0;
        }
    }

    /** Certified synthetic data (issue 12, part 3) against marginals-then-sample baselines. */
    @Command(name = "synthetic", mixinStandardHelpOptions = true,
            description = {"Certified synthetic data on all 3-way marginals over d binary attributes, d ∈ {8, 12, 16, 20},",
                "n ∈ {10^4, 10^5, 10^6}, ε ∈ {0.5, 1, 2}: the certificate next to the realised utility loss (every trial),",
                "cell errors against the chain and central-Laplace baselines, release time and allocation."})
    public static final class Synthetic extends BenchOptions.Subcommand {
        @Option(names = "--quick", description = "A subset that runs in well under a minute (d = 8, n ∈ {10^4, 10^5}, ε = 1).")
        boolean quick;

        @Mixin
        BenchOptions.WideGrid grid = new BenchOptions.WideGrid();

        @Mixin
        BenchOptions.Trials trials = new BenchOptions.Trials(3);

        @Option(names = "--no-haar", description = "Skip the Haar-basis run next to the identity basis.")
        boolean noHaar;

        @Override
        public Integer call() {
            PrintWriter o = out();
            int[] d = quick ? new int[] {8} : grid.ds.values;
            long[] n = quick ? new long[] {10_000, 100_000} : grid.ns.values;
            double[] e = quick ? new double[] {1} : grid.epsilons.values;
            int t = quick ? 2 : trials.value;
            o.printf("bench synthetic: all 3-way marginals, add/remove neighbours, L = 1, %d trials per cell,"
                    + " certificate confidence 0.95; errors are of marginal-cell fractions%n", t);
            o.flush();
            long t0 = System.nanoTime();
            var rows = new SyntheticBenchmark(t, !noHaar).run(d, n, e, r -> {
                o.printf("  done: d=%d n=%d ε=%s certificate %.4f, U %.4f, held in every trial: %s%n", r.d(), r.n(),
                        r.epsilon(), r.certificateMean(), r.lossMean(), r.heldEveryTrial());
                o.flush();
            });
            o.println(SyntheticBenchmark.table(rows));
            printElapsed(o, t0);
            return rows.stream().allMatch(SyntheticBenchmark.Row::heldEveryTrial) ? 0 : 1;
        }
    }

    /** Streaming throughput and latency on an embedded broker. */
    @Command(name = "throughput", mixinStandardHelpOptions = true,
            description = {"On an in-JVM broker and a real registry: a plain Kafka Streams windowed count() (at-least-once",
                "and exactly-once) and the gateway (exactly-once) at m = 64 and m = 1024 over the same report topic;",
                "reports/s, the ratio gateway / plain count, and latency from window end + grace to answer."})
    public static final class Throughput extends BenchOptions.Subcommand {
        @Option(names = "--reports", defaultValue = "400000", description = "Reports at m = 64 (default ${DEFAULT-VALUE}).")
        int reports;

        @Option(names = "--reports-1024", defaultValue = "100000", description = "Reports at m = 1024.")
        int reports1024;

        @Option(names = "--partitions", defaultValue = "4", description = "Report-topic partitions.")
        int partitions;

        @Option(names = "--threads", defaultValue = "2", description = "Stream threads of every system.")
        int threads;

        @Option(names = "--live-seconds", defaultValue = "100",
                description = "Steady-state duration of the latency phase, after its warm-up (default ${DEFAULT-VALUE}).")
        int liveSeconds;

        @Option(names = "--live-rate", defaultValue = "20000", description = "Reports/s in the latency phase.")
        int liveRate;

        @Option(names = "--rounds", defaultValue = "3",
                description = "Alternating rounds of baseline and gateway (medians reported; default ${DEFAULT-VALUE}).")
        int rounds;

        @Option(names = "--commit-interval-ms", defaultValue = "100",
                description = "The gateway's commit interval (default ${DEFAULT-VALUE}, the gateway's default).")
        long commitIntervalMs;

        @Option(names = "--latency-only", description = "Run the latency phase alone and print every window's latency.")
        boolean latencyOnly;

        @Override
        public Integer call() throws Exception {
            PrintWriter o = out();
            if (latencyOnly) {
                var l = new ThroughputBenchmark(partitions, threads, progressLines(o))
                        .commitInterval(commitIntervalMs).latencyOnly(liveSeconds, liveRate);
                printLatency(o, l);
                o.printf("every steady-state window (ms, in order): %s%n",
                        l.each().stream().map(v -> String.format("%.0f", v)).toList());
                return 0;
            }
            o.printf("bench throughput: %d partitions, %d stream threads per system, %d cores, gateway commit interval %d ms%n",
                    partitions, threads, Runtime.getRuntime().availableProcessors(), commitIntervalMs);
            o.flush();
            List<Object> results = new ThroughputBenchmark(partitions, threads,
                    progressLines(o)).commitInterval(commitIntervalMs).rounds(rounds).run(reports, reports1024,
                    liveSeconds, liveRate);
            // the baseline is the faster of the two plain count() configurations (the first two results)
            double faster = 0;
            int seen = 0;
            for (Object r : results) {
                if (r instanceof ThroughputBenchmark.Result t && seen++ < 2) {
                    faster = Math.max(faster, t.perSecond());
                }
            }
            o.printf("%n| system | reports (steady state) | seconds | reports/s | ratio to the faster plain count() |%n"
                    + "|---|---|---|---|---|%n");
            for (Object r : results) {
                if (r instanceof ThroughputBenchmark.Result t) {
                    o.printf("| %s | %d | %.2f | %.0f | %.2f |%n", t.system(), t.records(), t.seconds(), t.perSecond(),
                            t.perSecond() / faster);
                } else if (r instanceof ThroughputBenchmark.Latency l) {
                    o.println();
                    printLatency(o, l);
                }
            }
            return 0;
        }
    }

    /** The steady-state latency line and the cold start's windows. */
    static void printLatency(PrintWriter o, ThroughputBenchmark.Latency l) {
        o.printf("latency from window end + grace to a read_committed consumer (m = 64, %.0f reports/s, %d windows of"
                + " 1 s in steady state): p50 %.0f ms, p99 %.0f ms%n", l.reportsPerSecond(), l.answers(), l.p50ms(),
                l.p99ms());
        o.printf("cold start (the windows of the first %d s after the gateway and the traffic start together, in ms):"
                + " %s%n", ThroughputBenchmark.LIVE_WARMUP_SECONDS,
                l.coldStart().stream().map(v -> String.format("%.0f", v)).toList());
    }

    /** Continual release: running totals by the binary tree against composing independent releases. */
    @Command(name = "horizons", mixinStandardHelpOptions = true,
            description = {"Running totals since activation after T windows (central histogram, add/remove, L = 1): the",
                "binary-tree counter against the sum of T independently noised windows, same ε per window, same run;",
                "then the amplified (ε, δ) of local answers by the clone and variation-ratio bounds."})
    public static final class Horizons extends BenchOptions.Subcommand {
        @Option(names = "--windows", split = ",", defaultValue = "100,1000,10000", description = "Checkpoints T.")
        long[] windows;

        @Mixin
        BenchOptions.Trials trials = new BenchOptions.Trials(20);

        @Option(names = "--epsilon", defaultValue = "1", description = "ε per window of contribution.")
        double epsilon;

        @Option(names = "--universe", defaultValue = "16", description = "Histogram labels.")
        int universe;

        @Option(names = "--reports", defaultValue = "100", description = "Reports per window.")
        int reports;

        @Option(names = "--no-amplification", description = "Skip the table of amplified (ε, δ) of local answers.")
        boolean noAmplification;

        @Override
        public Integer call() {
            PrintWriter o = out();
            long[] cps = windows.clone();
            Arrays.sort(cps);
            var bench = new HorizonsBenchmark(universe, epsilon, reports, trials.value);
            o.printf("bench horizons: histogram k=%d, central add/remove, L = 1, ε = %s per window, %d reports per window,"
                    + " %d streams; one tree of depth %d (levels %d) for all checkpoints%n", universe, epsilon, reports,
                    trials.value, HorizonsBenchmark.depthFor(cps[cps.length - 1]),
                    HorizonsBenchmark.depthFor(cps[cps.length - 1]) + 1);
            o.flush();
            long t0 = System.nanoTime();
            var rows = bench.run(cps, progressLines(o));
            o.println(HorizonsBenchmark.table(rows));
            printElapsed(o, t0);
            if (!noAmplification) {
                o.printf("%nAmplified guarantee of a local answer against answer consumers, δ = 10⁻⁶, one report per device:%n");
                o.flush();
                o.println(HorizonsBenchmark.amplificationTable(new double[] {1, 2, 4},
                        new long[] {1_000, 10_000, 100_000, 1_000_000}, 1e-6));
            }
            return 0;
        }
    }
}
