package io.privacygateway.benchmarks.commands;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.app.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code bench synthetic --quick} runs, prints the table, and every certificate held. */
class BenchSyntheticTest {
    @Test
    void quickRunPrintsTheTableAndEveryCertificateHeld() {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int exit = cl.execute("bench", "synthetic", "--quick");
        assertThat(exit).as(out + "" + err).isZero();
        assertThat(out.toString()).contains("| d | n | ε | certificate").contains("| 8 | 10000 | 1 |")
                .contains("| 8 | 100000 | 1 |").doesNotContain("**NO**");
    }
}
