package io.privacygateway.app.cli;

import io.privacygateway.app.bench.AccuracyBenchmark;
import io.privacygateway.mechanisms.local.gaussian.GaussianSignBenchmark;
import io.privacygateway.mechanisms.nets.NetsBenchmark;
import io.privacygateway.mechanisms.param.Alpha;
import io.privacygateway.mechanisms.projection.ProjectionBenchmark;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code privacy-gateway bench}: benchmarks that print figures (never pass/fail on timings). */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Benchmarks (print figures).",
        subcommands = {BenchCommand.Accuracy.class, BenchCommand.Speed.class, BenchCommand.Throughput.class,
            BenchCommand.ReleaseTiming.class, io.privacygateway.app.bench.WideBenchCommand.class})
public final class BenchCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Accuracy of every mechanism side by side. */
    @Command(name = "accuracy", mixinStandardHelpOptions = true,
            description = {"Every applicable mechanism on histograms k ∈ {16, 64, 256}, CDF k = 128 and 3-way marginals",
                "over 8 attributes, ε ∈ {0.5, 1, 2, 4}, uniform / Zipf(1.1) / 3-point sparse data: RMS error per query",
                "and its ratio to the best projected frequency-oracle/hierarchical peer."})
    public static final class Accuracy implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--n", defaultValue = "100000", description = "Reports per window (default ${DEFAULT-VALUE}).")
        long n;

        @Option(names = "--trials", defaultValue = "3", description = "Trials per row (default ${DEFAULT-VALUE}).")
        int trials;

        @Option(names = "--epsilons", split = ",", defaultValue = "0.5,1,2,4", description = "ε values.")
        double[] epsilons;

        @Option(names = "--workloads", split = ",", description = "Only workloads whose name contains one of these.")
        List<String> only;

        @Option(names = "--threads", defaultValue = "0", description = "Worker threads (default: one per core).")
        int threads;

        @Option(names = "--out", paramLabel = "FILE", description = "Also write every cell as CSV.")
        Path out;

        @Option(names = "--mode", defaultValue = "local", paramLabel = "local|central",
                description = "local (default) or central: purified Gaussian projection, purified chaining and the"
                        + " Laplace baseline at n ∈ {10^3, 10^4, 10^5}.")
        String mode;

        @Option(names = "--ns", split = ",", defaultValue = "1000,10000,100000", description = "Central mode: n values.")
        long[] ns;

        @Override
        public Integer call() throws Exception {
            PrintWriter o = spec.commandLine().getOut();
            int th = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
            if (mode.equals("central")) {
                return runCentral(o, th, trials, epsilons, ns, only);
            }
            List<AccuracyBenchmark.BenchWorkload> ws = new ArrayList<>();
            for (AccuracyBenchmark.BenchWorkload w : AccuracyBenchmark.standardWorkloads()) {
                if (only == null || only.stream().anyMatch(s -> w.name().contains(s))) {
                    ws.add(w);
                }
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
            o.printf("(%.0f s)%n", (System.nanoTime() - t0) / 1e9);
            if (out != null) {
                Files.writeString(out, AccuracyReport.csv(rows));
                o.printf("wrote %s%n", out);
            }
            return 0;
        }
    }

    /** Shared by the accuracy modes. */
    static int runCentral(PrintWriter o, int th, int trials, double[] epsilons, long[] ns, List<String> only)
            throws Exception {
        List<AccuracyBenchmark.BenchWorkload> ws = new ArrayList<>();
        for (AccuracyBenchmark.BenchWorkload w : io.privacygateway.app.bench.CentralAccuracyBenchmark.standardWorkloads()) {
            if (only == null || only.stream().anyMatch(s -> w.name().contains(s))) {
                ws.add(w);
            }
        }
        int t = Math.max(trials, 10);
        o.printf("bench accuracy --mode central: Zipf(1.1) data, %d releases per cell, %d threads;"
                + " RMS = ‖estimate − truth‖₂/√m%n", t, th);
        o.flush();
        long t0 = System.nanoTime();
        var rows = new io.privacygateway.app.bench.CentralAccuracyBenchmark(t, th).run(ws, epsilons, ns, r -> {
            synchronized (o) {
                o.printf("  done: %s ε=%s n=%d%n", r.workload(), r.epsilon(), r.n());
                o.flush();
            }
        });
        o.println(io.privacygateway.app.bench.CentralAccuracyBenchmark.table(rows));
        o.printf("(%.0f s)%n", (System.nanoTime() - t0) / 1e9);
        return 0;
    }

    /** Server-side speed figures. */
    @Command(name = "speed", mixinStandardHelpOptions = true,
            description = {"Server cost per Gaussian-sign report vs generating the same Gaussians; generic projection",
                "of 4,096 points in m = 256 to a 1e-6 gap; nets for 16,384 points in m = 64."})
    public static final class Speed implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter o = spec.commandLine().getOut();
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
    public static final class ReleaseTiming implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--rounds", defaultValue = "300", description = "Timed releases per dataset.")
        int rounds;

        @Option(names = "--warmup", defaultValue = "500", description = "Untimed releases first.")
        int warmup;

        @Override
        public Integer call() {
            PrintWriter o = spec.commandLine().getOut();
            o.printf("bench release-timing: %d timed releases per dataset after %d warm-up releases%n", rounds, warmup);
            o.flush();
            var rows = new io.privacygateway.app.bench.ReleaseTimingBenchmark(rounds, warmup).run(
                    io.privacygateway.app.bench.CentralAccuracyBenchmark.standardWorkloads(), r -> {
                        o.printf("  done: %s %s%n", r.workload(), r.mechanism());
                        o.flush();
                    });
            o.println(io.privacygateway.app.bench.ReleaseTimingBenchmark.table(rows));
            return 0;
        }
    }

    /** Streaming throughput and latency on an embedded broker. */
    @Command(name = "throughput", mixinStandardHelpOptions = true,
            description = {"On an in-JVM broker and a real registry: a plain Kafka Streams windowed count() (at-least-once",
                "and exactly-once) and the gateway (exactly-once) at m = 64 and m = 1024 over the same report topic;",
                "reports/s, the ratio gateway / plain count, and latency from window end + grace to answer."})
    public static final class Throughput implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--reports", defaultValue = "400000", description = "Reports at m = 64 (default ${DEFAULT-VALUE}).")
        int reports;

        @Option(names = "--reports-1024", defaultValue = "100000", description = "Reports at m = 1024.")
        int reports1024;

        @Option(names = "--partitions", defaultValue = "4", description = "Report-topic partitions.")
        int partitions;

        @Option(names = "--threads", defaultValue = "2", description = "Stream threads of every system.")
        int threads;

        @Option(names = "--live-seconds", defaultValue = "20", description = "Duration of the latency phase.")
        int liveSeconds;

        @Option(names = "--live-rate", defaultValue = "20000", description = "Reports/s in the latency phase.")
        int liveRate;

        @Option(names = "--rounds", defaultValue = "3",
                description = "Alternating rounds of baseline and gateway (medians reported; default ${DEFAULT-VALUE}).")
        int rounds;

        @Option(names = "--commit-interval-ms", defaultValue = "500",
                description = "The gateway's commit interval (default ${DEFAULT-VALUE}, the gateway's default; Kafka"
                        + " Streams' exactly-once default is 100 ms).")
        long commitIntervalMs;

        @Override
        public Integer call() throws Exception {
            PrintWriter o = spec.commandLine().getOut();
            o.printf("bench throughput: %d partitions, %d stream threads per system, %d cores, gateway commit interval %d ms%n",
                    partitions, threads, Runtime.getRuntime().availableProcessors(), commitIntervalMs);
            o.flush();
            List<Object> results = new io.privacygateway.app.bench.ThroughputBenchmark(partitions, threads, msg -> {
                o.println("  " + msg);
                o.flush();
            }).commitInterval(commitIntervalMs).rounds(rounds).run(reports, reports1024, liveSeconds, liveRate);
            double plain = 0;
            o.printf("%n| system | reports (steady state) | seconds | reports/s | ratio to plain count (at-least-once) |%n"
                    + "|---|---|---|---|---|%n");
            for (Object r : results) {
                if (r instanceof io.privacygateway.app.bench.ThroughputBenchmark.Result t) {
                    if (plain == 0) {
                        plain = t.perSecond();
                    }
                    o.printf("| %s | %d | %.2f | %.0f | %.2f |%n", t.system(), t.records(), t.seconds(), t.perSecond(),
                            t.perSecond() / plain);
                } else if (r instanceof io.privacygateway.app.bench.ThroughputBenchmark.Latency l) {
                    o.printf("%nlatency from window end + grace to a read_committed consumer (m = 64, %.0f reports/s, %d"
                            + " windows of 1 s): p50 %.0f ms, p99 %.0f ms%n", l.reportsPerSecond(), l.answers(), l.p50ms(),
                            l.p99ms());
                }
            }
            return 0;
        }
    }
}
