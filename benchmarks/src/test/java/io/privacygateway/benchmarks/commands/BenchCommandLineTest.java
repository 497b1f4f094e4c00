package io.privacygateway.benchmarks.commands;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.app.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** With this module on the class path, {@code bench} joins the command line, with the common exit codes. */
class BenchCommandLineTest {
    @Test
    void benchJoinsTheCommandLineWithTheCommonExitCodes() {
        for (List<String> command : List.of(List.of("bench"), List.of("bench", "accuracy"),
                List.of("bench", "throughput"))) {
            CommandLine cl = Main.commandLine();
            StringWriter out = new StringWriter();
            cl.setOut(new PrintWriter(out));
            String[] args = new String[command.size() + 1];
            command.toArray(args);
            args[command.size()] = "--help";
            assertThat(cl.execute(args)).as(String.join(" ", command)).isZero();
            assertThat(out.toString()).as(String.join(" ", command)).contains("Exit codes:")
                    .containsPattern("\\s1\\s+runtime failure").contains("--verbose");
        }
    }
}
