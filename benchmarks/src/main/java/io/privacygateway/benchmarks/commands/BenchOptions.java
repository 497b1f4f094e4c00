package io.privacygateway.benchmarks.commands;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The options several {@code bench} commands share, each declared once as a picocli mixin. A command includes one
 * with {@code @Mixin}, initialised with its own default: {@code @Mixin BenchOptions.Trials trials = new
 * BenchOptions.Trials(3);} (picocli keeps an initialised mixin and shows the field's value as the default in
 * {@code --help}). An option given on the command line replaces the default (a list option is not appended to it).
 */
final class BenchOptions {
    private BenchOptions() {
    }

    /** A bench command: its output is the picocli command line's writer. */
    abstract static class Subcommand implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        /** Where the command prints (the command line's {@code getOut()}). */
        PrintWriter out() {
            return spec.commandLine().getOut();
        }
    }

    /** {@code --trials}: repetitions (fresh data and noise) per row or cell. */
    static final class Trials {
        @Option(names = "--trials", paramLabel = "T",
                description = "Trials (fresh data and noise) per row or cell (default ${DEFAULT-VALUE}).")
        int value;

        Trials() {
            this(3);
        }

        /** Precondition: {@code defaultValue} ≥ 1. */
        Trials(int defaultValue) {
            value = defaultValue;
        }
    }

    /** {@code --epsilons}: the ε values, one row or cell each. */
    static final class Epsilons {
        @Option(names = "--epsilons", split = ",", paramLabel = "E", description = "ε values (default ${DEFAULT-VALUE}).")
        double[] values;

        Epsilons() {
            this(0.5, 1, 2, 4);
        }

        Epsilons(double... defaults) {
            values = defaults.clone();
        }
    }

    /** {@code --ns}: reports per window n, one row or cell each. */
    static final class Ns {
        @Option(names = "--ns", split = ",", paramLabel = "N", description = "Reports per window n (default ${DEFAULT-VALUE}).")
        long[] values;

        Ns() {
            this(1_000, 10_000, 100_000);
        }

        Ns(long... defaults) {
            values = defaults.clone();
        }

        /**
         * The values as ints.
         *
         * @throws ArithmeticException when one exceeds {@link Integer#MAX_VALUE}
         */
        int[] asInts() {
            return Arrays.stream(values).mapToInt(Math::toIntExact).toArray();
        }
    }

    /** {@code --n}: reports per window of a command that runs one n. */
    static final class N {
        @Option(names = "--n", paramLabel = "N", description = "Reports per window (default ${DEFAULT-VALUE}).")
        long value = 100_000;
    }

    /** {@code --ds}: numbers of binary attributes d. */
    static final class Ds {
        @Option(names = "--ds", split = ",", paramLabel = "D",
                description = "Numbers of binary attributes d (default ${DEFAULT-VALUE}).")
        int[] values = {8, 12, 16, 20};
    }

    /**
     * The grid of the wide-marginal benchmarks ({@code bench wide}, {@code bench synthetic}): {@code --ds} (8, 12, 16,
     * 20), {@code --ns} (10^4, 10^5, 10^6) and {@code --epsilons} (0.5, 1, 2).
     */
    static final class WideGrid {
        @Mixin
        Ds ds = new Ds();

        @Mixin
        Ns ns = new Ns(10_000, 100_000, 1_000_000);

        @Mixin
        Epsilons epsilons = new Epsilons(0.5, 1, 2);
    }

    /** {@code --workloads}: a filter on workload names. */
    static final class Workloads {
        @Option(names = "--workloads", split = ",", paramLabel = "W",
                description = "Only workloads whose name contains one of these.")
        List<String> only;

        /** Whether the filter selects workload {@code name}: no filter selects all. */
        boolean selected(String name) {
            return BenchCommand.selected(only, name);
        }
    }

    /** {@code --threads} of the CPU-bound benchmarks: worker threads. */
    static final class WorkerThreads {
        @Option(names = "--threads", paramLabel = "T", description = "Worker threads (default: one per core).")
        int value;

        /** The worker threads to use: {@code --threads} when positive, else the available processors. */
        int resolved() {
            return value > 0 ? value : Runtime.getRuntime().availableProcessors();
        }
    }

    /** {@code --out}: a file that also receives the results. */
    static final class Out {
        @Option(names = "--out", paramLabel = "FILE",
                description = "Also write the results to FILE.")
        Path file;
    }
}
