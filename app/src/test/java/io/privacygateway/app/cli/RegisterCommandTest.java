package io.privacygateway.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.app.Main;
import io.privacygateway.client.GatewayTopics;
import io.privacygateway.client.WorkloadRegistrar;
import io.privacygateway.harness.EmbeddedKafka;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.harness.testing.RealRegistry;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code register} against a real broker and registry: topics created, the workload resolved and published. */
class RegisterCommandTest {
    @RegisterExtension
    static final RealRegistry registry = RealRegistry.shared();

    @Test
    void registersResolvedWorkloadsOnceAndRefusesAChangedSpecUnderTheSameVersion(@TempDir Path dir) throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            Path config = dir.resolve("gateway.yaml");
            Files.writeString(config, "bootstrapServers: " + kafka.bootstrapServers() + "\nschemaRegistryUrl: "
                    + registry.ccompatUrl() + "\ntopicPrefix: reg.\npartitions: {local: 2, central: 2}\n");
            String out = run("register", "--config", config.toString(), "--workload", "../examples/screen-usage.yaml",
                    "--workload", "../examples/latency-cdf.yaml");
            assertThat(out).contains("registered screen-usage v1: local mode, mechanism")
                    .contains("(chosen by the planner)").contains("registered latency-cdf v1");
            try (WorkloadRegistrar r = WorkloadRegistrar.create(Map.of("bootstrap.servers", kafka.bootstrapServers()),
                    SchemaRegistryClient.forUrl(registry.ccompatUrl()), new GatewayTopics("reg."))) {
                WorkloadSpec s = r.fetch("screen-usage");
                assertThat(s.mechanism()).isNotEqualTo(MechanismId.AUTO);
            }
            // the identical spec again is a no-op; changed content under the same version is refused
            assertThat(run("register", "--config", config.toString(), "--workload", "../examples/screen-usage.yaml"))
                    .contains("registered screen-usage v1");
            Path changed = dir.resolve("changed.yaml");
            Files.writeString(changed, Files.readString(Path.of("../examples/screen-usage.yaml"))
                    .replace("epsilonPerReport: 1.0", "epsilonPerReport: 2.0"));
            StringWriter err = new StringWriter();
            CommandLine cl = Main.commandLine();
            cl.setErr(new PrintWriter(err));
            cl.setOut(new PrintWriter(new StringWriter()));
            int code = cl.execute("register", "--config", config.toString(), "--workload", changed.toString());
            assertThat(code).isEqualTo(2);
            assertThat(err.toString()).contains("version 1 is registered").contains("register version 2");
        }
    }

    private static String run(String... args) {
        StringWriter out = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        int code = cl.execute(args);
        assertThat(code).as(out.toString()).isZero();
        return out.toString();
    }
}
