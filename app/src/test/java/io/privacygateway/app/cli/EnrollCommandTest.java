package io.privacygateway.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.schemas.identity.DeviceCredential;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code enroll} issues the credentials the gateway's enrolled-device mode verifies; bad input names the option. */
class EnrollCommandTest {
    static final byte[] KEY = "0123456789abcdef0123456789abcdef-enrollment".getBytes(StandardCharsets.UTF_8);

    static CliRun run(Map<String, String> env, String... args) {
        CommandLine cl = new CommandLine(new EnrollCommand(env::get));
        cl.setExecutionExceptionHandler((ex, cmd, pr) -> {
            cmd.getErr().println(ex.getMessage());
            return 2;
        });
        return CliRun.run(cl, args);
    }

    @Test
    void issuesCredentialsTheGatewayAccepts() {
        Map<String, String> env = Map.of("PGW_ENROLLMENT_KEY", Base64.getEncoder().encodeToString(KEY));
        CliRun r = run(env, "--key-id", "k1", "--device", "phone-1", "--device", "phone-2");
        assertThat(r.exit()).as(r.err()).isZero();
        String[] lines = r.out().strip().split("\n");
        assertThat(lines).hasSize(2);
        for (String line : lines) {
            String[] parts = line.split(" ");
            assertThat(DeviceCredential.verify(parts[1].getBytes(StandardCharsets.UTF_8), parts[0], Map.of("k1", KEY)))
                    .isTrue();
            // a credential proves its own id only
            assertThat(DeviceCredential.verify(parts[1].getBytes(StandardCharsets.UTF_8), "someone-else",
                    Map.of("k1", KEY))).isFalse();
        }
        assertThat(lines[0]).startsWith("phone-1 v1.k1.");
    }

    @Test
    void aMissingShortOrMalformedKeyIsAUsageErrorNamingTheOption() {
        assertThat(run(Map.of(), "--key-id", "k1", "--device", "d").err()).contains("--key-env")
                .contains("PGW_ENROLLMENT_KEY");
        assertThat(run(Map.of("PGW_ENROLLMENT_KEY", "***"), "--key-id", "k1", "--device", "d").err())
                .contains("not base64");
        String shortKey = Base64.getEncoder().encodeToString(new byte[16]);
        assertThat(run(Map.of("PGW_ENROLLMENT_KEY", shortKey), "--key-id", "k1", "--device", "d").err())
                .contains("at least 32 bytes");
        String key = Base64.getEncoder().encodeToString(KEY);
        assertThat(run(Map.of("PGW_ENROLLMENT_KEY", key), "--key-id", "k1").err()).contains("no device id");
        assertThat(run(Map.of("PGW_ENROLLMENT_KEY", key), "--key-id", "bad id", "--device", "d").err())
                .contains("key id");
    }

    @Test
    void anInvalidIdAmongValidOnesWritesNoCredentialAtAll() {
        Map<String, String> env = Map.of("PGW_ENROLLMENT_KEY", Base64.getEncoder().encodeToString(KEY));
        CliRun r = run(env, "--key-id", "k1", "--device", "phone-1", "--device", "bad id",
                "--device", "phone-3");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).contains("device id number 2 of 3").contains("no credential was written");
    }
}
