package io.privacygateway.benchmarks.commands;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code privacy-gateway bench vector-means}: the vector-mean protocols ({@link VectorMeanBenchmark}). */
@Command(name = "vector-means", mixinStandardHelpOptions = true,
        description = {"Vector means in the unit l2 ball (uniform / skewed / bimodal data): privunit-g with its chosen",
            "(N, s), the one-bit N = 2 form, the continuous PrivUnitG as an ideal floating-point reference (not exact,",
            "not shipped), and the box protocol on [-1, 1]^d with each scalar randomizer at its chosen k and at k = d:",
            "RMS l2 error of the projected mean, and ratios to the best method of each row (docs/vector-means.md)."})
public final class VectorMeanBenchCommand extends BenchOptions.Subcommand {
    @Mixin
    BenchOptions.N reportsPerWindow = new BenchOptions.N();

    @Mixin
    BenchOptions.Trials trialsOption = new BenchOptions.Trials(5);

    @Mixin
    BenchOptions.Epsilons epsilonsOption = new BenchOptions.Epsilons(0.5, 1, 2, 4);

    @Option(names = "--dims", split = ",", defaultValue = "8,32", description = "Dimensions d.")
    int[] dims;

    @Mixin
    BenchOptions.WorkerThreads threads = new BenchOptions.WorkerThreads();

    @Override
    public Integer call() throws Exception {
        PrintWriter o = out();
        int th = threads.resolved();
        int n = Math.toIntExact(reportsPerWindow.value);
        int trials = trialsOption.value;
        double[] epsilons = epsilonsOption.values;
        o.printf("bench vector-means: n = %d, %d trials per row, ε ∈ %s, d ∈ %s, %d threads%n", n, trials,
                Arrays.toString(epsilons), Arrays.toString(dims), th);
        o.printf("command: bench vector-means --n %d --trials %d --epsilons %s --dims %s%n", n, trials,
                Arrays.stream(epsilons).mapToObj(VectorMeanBenchmark::trim).collect(Collectors.joining(",")),
                Arrays.stream(dims).mapToObj(Integer::toString).collect(Collectors.joining(",")));
        o.flush();
        long t0 = System.nanoTime();
        var rows = new VectorMeanBenchmark(n, trials, th).run(epsilons, dims, BenchCommand.progressLines(o));
        o.println(VectorMeanBenchmark.table(rows));
        BenchCommand.printElapsed(o, t0);
        return 0;
    }
}
