package io.privacygateway.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.app.Main;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code register} against an unreachable broker: one line naming the address and {@code --connect-timeout}, exit
 * code 1, instead of a minute of client retries (no timing assertion: {@link RunCommandTest#HANG_GUARD} only guards
 * against a hang).
 */
class RegisterConnectTimeoutTest {
    @Test
    void anUnreachableBrokerFailsWithOneLineNamingTheAddressAndTheTimeout(@TempDir Path dir) throws Exception {
        int closed = RunCommandTest.freePort(); // nothing listens there
        Path cfg = dir.resolve("gateway.yaml");
        Files.writeString(cfg, "bootstrapServers: 127.0.0.1:" + closed + "\nschemaRegistryUrl: http://127.0.0.1:"
                + RunCommandTest.freePort() + "\n");
        RunCommandTest.Result r = RunCommandTest.execute(Main.commandLine(), "register", "--config", cfg.toString(),
                "--workload", "../examples/screen-usage.yaml", "--connect-timeout", "1s");
        assertThat(r.exit()).as(r.err()).isEqualTo(Main.FAILURE);
        assertThat(r.err()).isEqualTo("privacy-gateway: error: cannot reach the Kafka brokers at 127.0.0.1:" + closed
                + " (bootstrapServers): no broker answered within 1s (--connect-timeout)" + System.lineSeparator());
        assertThat(r.out()).isEmpty();
    }

    @Test
    void aZeroTimeoutIsAUsageError(@TempDir Path dir) throws Exception {
        Path cfg = dir.resolve("gateway.yaml");
        Files.writeString(cfg, "bootstrapServers: 127.0.0.1:1\nschemaRegistryUrl: http://127.0.0.1:1\n");
        RunCommandTest.Result r = RunCommandTest.execute(Main.commandLine(), "register", "--config", cfg.toString(),
                "--workload", "../examples/screen-usage.yaml", "--connect-timeout", "0s");
        assertThat(r.exit()).isEqualTo(Main.USAGE);
        assertThat(r.err()).contains("--connect-timeout must be > 0");
    }
}
