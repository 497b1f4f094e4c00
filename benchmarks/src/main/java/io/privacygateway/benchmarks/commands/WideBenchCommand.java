package io.privacygateway.benchmarks.commands;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code privacy-gateway bench wide}: pure-DP release over wide marginal workloads ({@link WideBenchmark}). */
@Command(name = "wide", mixinStandardHelpOptions = true,
        description = {"All 3-way marginals over d binary attributes in central mode: MWEM + purification, worst-case",
            "chaining, Laplace (clipped; projected for d <= 16) and the existing central projection (d <= 12):",
            "mean and max error, the published l∞ bound and its coverage, ratios to the best baseline, release time",
            "and working memory. --quick runs d = 8, n = 10^4, ε = 1 once (under a minute)."})
public final class WideBenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--ds", split = ",", defaultValue = "8,12,16,20", description = "Numbers of attributes d.")
    int[] ds;

    @Option(names = "--ns", split = ",", defaultValue = "10000,100000,1000000", description = "Reports per window n.")
    long[] ns;

    @Option(names = "--epsilons", split = ",", defaultValue = "0.5,1,2", description = "ε per release.")
    double[] epsilons;

    @Option(names = "--trials", defaultValue = "2", description = "Windows (fresh data and noise) per cell.")
    int trials;

    @Option(names = "--quick", description = "d = 8, n = 10^4, ε = 1, one trial.")
    boolean quick;

    @Option(names = "--scaling", split = ",", paramLabel = "D", description = {"Instead: time both wide mechanisms",
        "at these d (n = 10^5, ε = 1) to find the largest d that releases in 10 s."})
    int[] scaling;

    @Option(names = "--out", paramLabel = "FILE", description = "Also write the table (markdown) to FILE.")
    Path out;

    @Override
    public Integer call() throws Exception {
        PrintWriter o = spec.commandLine().getOut();
        WideBenchmark bench = new WideBenchmark(quick ? 1 : trials, BenchCommand.progressLines(o));
        long t0 = System.nanoTime();
        String text;
        if (scaling != null) {
            o.printf("bench wide --scaling: n = 100,000, ε = 1, add/remove, planned parameters%n");
            o.flush();
            List<String> rows = bench.scaling(scaling, 100_000, 1.0);
            text = String.join(System.lineSeparator(), rows) + System.lineSeparator();
        } else {
            int[] d = quick ? new int[] {8} : ds;
            long[] n = quick ? new long[] {10_000} : ns;
            double[] e = quick ? new double[] {1} : epsilons;
            o.printf("bench wide: all 3-way marginals, add/remove, L = 1, confidence 0.95, %d trial(s) per cell, %d cores%n",
                    quick ? 1 : trials, Runtime.getRuntime().availableProcessors());
            o.flush();
            text = WideBenchmark.table(bench.run(d, n, e));
        }
        o.println(text);
        BenchCommand.printElapsed(o, t0);
        if (out != null) {
            Files.writeString(out, text);
            o.printf("wrote %s%n", out);
        }
        return 0;
    }
}
