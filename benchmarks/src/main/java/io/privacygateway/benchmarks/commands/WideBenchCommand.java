package io.privacygateway.benchmarks.commands;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code privacy-gateway bench wide}: pure-DP release over wide marginal workloads ({@link WideBenchmark}). */
@Command(name = "wide", mixinStandardHelpOptions = true,
        description = {"All 3-way marginals over d binary attributes in central mode: MWEM + purification, worst-case",
            "chaining, Laplace (clipped; projected for d <= 16) and the existing central projection (d <= 12):",
            "mean and max error, the published l∞ bound and its coverage, ratios to the best baseline, release time",
            "and working memory. --quick runs d = 8, n = 10^4, ε = 1 once (under a minute)."})
public final class WideBenchCommand extends BenchOptions.Subcommand {
    @Mixin
    BenchOptions.WideGrid grid = new BenchOptions.WideGrid();

    @Mixin
    BenchOptions.Trials trials = new BenchOptions.Trials(2);

    @Option(names = "--quick", description = "d = 8, n = 10^4, ε = 1, one trial.")
    boolean quick;

    @Option(names = "--scaling", split = ",", paramLabel = "D", description = {"Instead: time both wide mechanisms",
        "at these d (n = 10^5, ε = 1) to find the largest d that releases in 10 s."})
    int[] scaling;

    @Mixin
    BenchOptions.Out out = new BenchOptions.Out();

    @Override
    public Integer call() throws Exception {
        PrintWriter o = out();
        WideBenchmark bench = new WideBenchmark(quick ? 1 : trials.value, BenchCommand.progressLines(o));
        long t0 = System.nanoTime();
        String text;
        if (scaling != null) {
            o.printf("bench wide --scaling: n = 100,000, ε = 1, add/remove, planned parameters%n");
            o.flush();
            List<String> rows = bench.scaling(scaling, 100_000, 1.0);
            text = String.join(System.lineSeparator(), rows) + System.lineSeparator();
        } else {
            int[] d = quick ? new int[] {8} : grid.ds.values;
            long[] n = quick ? new long[] {10_000} : grid.ns.values;
            double[] e = quick ? new double[] {1} : grid.epsilons.values;
            o.printf("bench wide: all 3-way marginals, add/remove, L = 1, confidence 0.95, %d trial(s) per cell, %d cores%n",
                    quick ? 1 : trials.value, Runtime.getRuntime().availableProcessors());
            o.flush();
            text = WideBenchmark.table(bench.run(d, n, e));
        }
        o.println(text);
        BenchCommand.printElapsed(o, t0);
        if (out.file != null) {
            Files.writeString(out.file, text);
            o.printf("wrote %s%n", out.file);
        }
        return 0;
    }
}
