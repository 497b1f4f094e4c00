package io.privacygateway.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.app.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** With this module on the class path, {@code demo} joins the command line, with the common exit codes. */
class DemoCommandLineTest {
    @Test
    void demoJoinsTheCommandLineWithTheCommonExitCodes() {
        CommandLine cl = Main.commandLine();
        assertThat(cl.getSubcommands()).containsKey("demo");
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        assertThat(cl.execute("demo", "--help")).isZero();
        assertThat(out.toString()).contains("Exit codes:").containsPattern("\\s2\\s+usage or configuration error")
                .contains("--devices").contains("--verbose");
    }
}
