package io.privacygateway.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code bench synthetic --quick} runs, prints the table, and every certificate held. */
class BenchSyntheticTest {
    @Test
    void quickRunPrintsTheTableAndEveryCertificateHeld() {
        CommandLineTest.Run r = CommandLineTest.run("bench", "synthetic", "--quick");
        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("| d | n | ε | certificate").contains("| 8 | 10000 | 1 |")
                .contains("| 8 | 100000 | 1 |").doesNotContain("**NO**");
    }
}
