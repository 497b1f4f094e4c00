package io.privacygateway.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.app.cli.RuntimeFailure;
import io.privacygateway.app.run.GatewayConfigFile;
import io.privacygateway.mechanisms.workload.InvalidWorkloadException;
import io.privacygateway.schemas.registry.SchemaRegistryException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Exit codes of the command line: documented in every {@code --help}, and what each kind of failure gets. */
class MainCommandTest {

    /** The production command line has no tool commands: the demo and the benchmarks are other modules. */
    @Test
    void theProductionCommandLineHasNoDemoOrBench() {
        assertThat(Main.commandLine().getSubcommands().keySet())
                .containsExactlyInAnyOrder("simulate", "plan", "audit", "run", "register", "enroll", "ingest");
    }

    static String help(String... command) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(new StringWriter()));
        String[] args = new String[command.length + 1];
        System.arraycopy(command, 0, args, 0, command.length);
        args[command.length] = "--help";
        assertThat(cl.execute(args)).isZero();
        return out.toString();
    }

    @Test
    void everyCommandsHelpListsTheExitCodes() {
        for (List<String> command : List.of(List.<String>of(), List.of("run"), List.of("register"),
                List.of("simulate"), List.of("plan"), List.of("enroll"))) {
            String text = help(command.toArray(String[]::new));
            assertThat(text).as(String.join(" ", command)).contains("Exit codes:")
                    .containsPattern("\\s0\\s+success")
                    .containsPattern("\\s1\\s+runtime failure: a broker or the schema registry unreachable")
                    .containsPattern("\\s2\\s+usage or configuration error")
                    .contains("--verbose");
        }
        assertThat(help("run")).contains("--connect-timeout=DURATION").contains("default 30s");
    }

    @Test
    void failuresAreClassified() {
        assertThat(Main.exitCode(new GatewayConfigFile.ConfigException("metrics.port", "must be in [0, 65535]")))
                .isEqualTo(Main.USAGE);
        assertThat(Main.exitCode(new IllegalArgumentException("--epsilon must be > 0"))).isEqualTo(Main.USAGE);
        assertThat(Main.exitCode(new InvalidWorkloadException("budget.period", "bad"))).isEqualTo(Main.USAGE);
        assertThat(Main.exitCode(new NoSuchFileException("w.yaml"))).isEqualTo(Main.USAGE);
        assertThat(Main.exitCode(new KafkaException("Failed to create new KafkaAdminClient",
                new org.apache.kafka.common.config.ConfigException("security.protocol", "x")))).isEqualTo(Main.USAGE);
        // a state of the deployment that refuses the request (a changed spec under a registered version)
        assertThat(Main.exitCode(new IllegalStateException("workload w version 1 is registered")))
                .isEqualTo(Main.USAGE);

        assertThat(Main.exitCode(new RuntimeFailure("cannot reach the Kafka brokers", null)))
                .isEqualTo(Main.FAILURE);
        assertThat(Main.exitCode(new IllegalStateException("publishing workload w failed: expired",
                new TimeoutException("Expiring 1 record(s)")))).isEqualTo(Main.FAILURE);
        assertThat(Main.exitCode(new ExecutionException(new TimeoutException("timed out")))).isEqualTo(Main.FAILURE);
        assertThat(Main.exitCode(new java.util.concurrent.TimeoutException("the gateway did not reach RUNNING")))
                .isEqualTo(Main.FAILURE);
        assertThat(Main.exitCode(new SchemaRegistryException("GET /config at http://r", -1, 0, "no response", null)))
                .isEqualTo(Main.FAILURE);
        assertThat(Main.exitCode(new java.io.IOException("disk full"))).isEqualTo(Main.FAILURE);
    }

    @Test
    void anUnknownOptionIsAUsageError() {
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(err));
        // an unknown option is a usage error (picocli's own exit code 2)
        assertThat(cl.execute("plan", "--workload", "w.yaml", "--n", "1", "--no-such-option"))
                .isEqualTo(Main.USAGE);
        assertThat(err.toString()).contains("Unknown option: '--no-such-option'");
    }
}
