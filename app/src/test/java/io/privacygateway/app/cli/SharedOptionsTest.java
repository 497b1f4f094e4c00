package io.privacygateway.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.app.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The options the workload commands (plan, audit, simulate) and the connecting commands (run, register) share are
 * declared once ({@link WorkloadOptions}, {@link GatewayConnectionOptions}); every command keeps the option names it
 * had when each declared its own, its help lists them, and the shared options parse into the mixins.
 */
class SharedOptionsTest {
    /** The options of each command as they were declared one by one (commit d2b9e3e), Main's common ones aside. */
    private static final Map<String, List<String>> OPTIONS = Map.of(
            "plan", List.of("--workload", "--epsilon", "--n", "--mode", "--neighbour", "--json"),
            "audit", List.of("--workload", "--mode", "--samples", "--confidence", "--seed", "--secure-random",
                    "--mechanism", "--epsilon", "--alpha", "--neighbour", "--contributions", "--json"),
            "simulate", List.of("--workload", "--values", "--epsilon", "--mechanism", "--seed", "--mode", "--neighbour",
                    "--skip-invalid", "--out"),
            "run", List.of("--config", "--connect-timeout", "--startup-timeout"),
            "register", List.of("--config", "--workload", "--connect-timeout"));

    @Test
    void everyCommandKeepsItsOptionNamesAndItsHelpListsThem() {
        Map<String, CommandLine> commands = Main.commandLine().getSubcommands();
        for (Map.Entry<String, List<String>> e : OPTIONS.entrySet()) {
            Set<String> names = new TreeSet<>();
            for (OptionSpec o : commands.get(e.getKey()).getCommandSpec().options()) {
                boolean common = o.usageHelp() || o.versionHelp() || o.longestName().equals("--verbose"); // Main's
                if (!common) {
                    names.addAll(Arrays.asList(o.names()));
                }
            }
            assertThat(names).as(e.getKey()).containsExactlyInAnyOrderElementsOf(e.getValue());
            CommandLine cl = Main.commandLine();
            StringWriter out = new StringWriter();
            cl.setOut(new PrintWriter(out));
            assertThat(cl.execute(e.getKey(), "--help")).isZero();
            for (String name : e.getValue()) {
                assertThat(out.toString()).as("%s --help", e.getKey()).contains(name);
            }
        }
    }

    @Test
    void theSharedOptionsParseIntoTheirMixins() {
        PlanCommand plan = new PlanCommand();
        new CommandLine(plan).parseArgs("--workload", "w.yaml", "--mode", "central", "--n", "10");
        assertThat(plan.input.workload).isEqualTo(Path.of("w.yaml"));
        assertThat(plan.input.mode).isEqualTo("central");
        assertThat(plan.conversion.neighbour).isEqualTo("add-remove");
        SimulateCommand simulate = new SimulateCommand();
        new CommandLine(simulate).parseArgs("--workload", "w.yaml", "--values", "v.txt", "--out", "o.json",
                "--neighbour", "replace-one");
        assertThat(simulate.conversion.neighbour).isEqualTo("replace-one");
        RunCommand run = new RunCommand();
        new CommandLine(run).parseArgs("--config", "gateway.yaml");
        assertThat(run.connection.config).isEqualTo(Path.of("gateway.yaml"));
        assertThat(run.connection.connectTimeout()).isEqualTo(Duration.ofSeconds(30));
        RegisterCommand register = new RegisterCommand();
        new CommandLine(register).parseArgs("--config", "g.yaml", "--workload", "a.yaml", "--connect-timeout", "500ms");
        assertThat(register.connection.connectTimeout()).isEqualTo(Duration.ofMillis(500));
    }
}
