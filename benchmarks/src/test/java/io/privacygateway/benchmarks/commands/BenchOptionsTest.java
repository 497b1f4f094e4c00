package io.privacygateway.benchmarks.commands;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.app.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The shared bench options (mixins of {@link BenchOptions}) keep every command's command line: the same option names
 * as before they were shared, each listed by {@code --help}, each command's own defaults, and a given list replacing
 * the default rather than adding to it.
 */
class BenchOptionsTest {
    /** Every bench command's options as they were declared one by one (commit d2b9e3e), Main's common ones aside. */
    private static final Map<String, List<String>> OPTIONS = new LinkedHashMap<>();

    static {
        OPTIONS.put("heavy-hitters", List.of("--ns", "--epsilons", "--ks", "--segments", "--trials", "--max-bytes",
                "--universe", "--zipf", "--pem-eta"));
        OPTIONS.put("accuracy", List.of("--n", "--trials", "--epsilons", "--workloads", "--threads", "--out", "--mode",
                "--ns"));
        OPTIONS.put("analytics", List.of("--trials", "--simulations", "--epsilons", "--ns", "--workloads"));
        OPTIONS.put("speed", List.of());
        OPTIONS.put("release-timing", List.of("--rounds", "--warmup", "--analytics"));
        OPTIONS.put("synthetic", List.of("--quick", "--ds", "--ns", "--epsilons", "--trials", "--no-haar"));
        OPTIONS.put("throughput", List.of("--reports", "--reports-1024", "--partitions", "--threads", "--live-seconds",
                "--live-rate", "--rounds", "--commit-interval-ms", "--latency-only"));
        OPTIONS.put("horizons", List.of("--windows", "--trials", "--epsilon", "--universe", "--reports",
                "--no-amplification"));
        OPTIONS.put("wide", List.of("--ds", "--ns", "--epsilons", "--trials", "--quick", "--scaling", "--out"));
        OPTIONS.put("vector-means", List.of("--n", "--trials", "--epsilons", "--dims", "--threads"));
        OPTIONS.put("ingest", List.of("--seconds", "--connections", "--batches", "--h2load"));
        OPTIONS.put("memory", List.of("--devices", "--large", "--stores", "--reads", "--block-cache", "--write-buffers",
                "--child-heap", "--only"));
    }

    @Test
    void everyBenchCommandHasTheSameOptionsAsBeforeAndItsHelpListsThem() {
        Map<String, CommandLine> bench = Main.commandLine().getSubcommands().get("bench").getSubcommands();
        assertThat(bench.keySet()).containsExactlyInAnyOrderElementsOf(OPTIONS.keySet());
        for (Map.Entry<String, List<String>> e : OPTIONS.entrySet()) {
            Set<String> names = new TreeSet<>();
            for (OptionSpec o : bench.get(e.getKey()).getCommandSpec().options()) {
                boolean common = o.usageHelp() || o.versionHelp() || o.longestName().equals("--verbose"); // Main's
                if (!common) {
                    names.addAll(Arrays.asList(o.names()));
                }
            }
            assertThat(names).as("bench %s", e.getKey()).containsExactlyInAnyOrderElementsOf(e.getValue());
            CommandLine cl = Main.commandLine();
            StringWriter out = new StringWriter();
            cl.setOut(new PrintWriter(out));
            assertThat(cl.execute("bench", e.getKey(), "--help")).isZero();
            for (String name : e.getValue()) {
                assertThat(out.toString()).as("bench %s --help", e.getKey()).contains(name);
            }
        }
    }

    @Test
    void eachCommandKeepsItsOwnDefaults() {
        BenchCommand.HeavyHitters hh = parse(new BenchCommand.HeavyHitters());
        assertThat(hh.trials.value).isEqualTo(3);
        assertThat(hh.ns.values).containsExactly(100_000, 1_000_000);
        assertThat(hh.epsilons.values).containsExactly(1, 2, 4);
        BenchCommand.Analytics analytics = parse(new BenchCommand.Analytics());
        assertThat(analytics.trials.value).isEqualTo(7);
        assertThat(analytics.ns.values).containsExactly(1_000, 10_000, 100_000);
        assertThat(analytics.epsilons.values).containsExactly(0.5, 1, 2, 4);
        assertThat(analytics.workloads.only).isNull();
        assertThat(parse(new BenchCommand.Horizons()).trials.value).isEqualTo(20);
        BenchCommand.Synthetic synthetic = parse(new BenchCommand.Synthetic());
        assertThat(synthetic.grid.ds.values).containsExactly(8, 12, 16, 20);
        assertThat(synthetic.grid.ns.values).containsExactly(10_000, 100_000, 1_000_000);
        assertThat(synthetic.grid.epsilons.values).containsExactly(0.5, 1, 2);
        WideBenchCommand wide = parse(new WideBenchCommand());
        assertThat(wide.trials.value).isEqualTo(2);
        assertThat(wide.out.file).isNull();
        VectorMeanBenchCommand vm = parse(new VectorMeanBenchCommand());
        assertThat(vm.trialsOption.value).isEqualTo(5);
        assertThat(vm.reportsPerWindow.value).isEqualTo(100_000);
        assertThat(vm.threads.value).isZero();
        assertThat(vm.threads.resolved()).isEqualTo(Runtime.getRuntime().availableProcessors());
        BenchCommand.Accuracy accuracy = parse(new BenchCommand.Accuracy());
        assertThat(accuracy.trialsOption.value).isEqualTo(3);
        assertThat(accuracy.nsOption.values).containsExactly(1_000, 10_000, 100_000);
    }

    @Test
    void givenValuesReplaceTheDefaultsAndRepeatedListsAccumulate() {
        BenchCommand.Accuracy a = parse(new BenchCommand.Accuracy(), "--trials", "10", "--epsilons", "2,4", "--ns",
                "5", "--workloads", "cdf k=128", "--threads", "2", "--n", "7", "--out", "cells.csv");
        assertThat(a.trialsOption.value).isEqualTo(10);
        assertThat(a.epsilonsOption.values).containsExactly(2, 4);
        assertThat(a.nsOption.values).containsExactly(5);
        assertThat(a.workloads.only).containsExactly("cdf k=128");
        assertThat(a.workloads.selected("cdf k=128 zipf")).isTrue();
        assertThat(a.workloads.selected("histogram k=16")).isFalse();
        assertThat(a.threads.resolved()).isEqualTo(2);
        assertThat(a.reportsPerWindow.value).isEqualTo(7);
        assertThat(a.out.file).hasToString("cells.csv");
        WideBenchCommand w = parse(new WideBenchCommand(), "--epsilons", "1", "--epsilons", "2", "--ds", "8");
        assertThat(w.grid.epsilons.values).containsExactly(1, 2);
        assertThat(w.grid.ds.values).containsExactly(8);
        // a second parse of a fresh command sees the defaults again (the mixins' defaults are not shared state)
        assertThat(parse(new WideBenchCommand()).grid.epsilons.values).containsExactly(0.5, 1, 2);
    }

    private static <T> T parse(T command, String... args) {
        new CommandLine(command).parseArgs(args);
        return command;
    }
}
