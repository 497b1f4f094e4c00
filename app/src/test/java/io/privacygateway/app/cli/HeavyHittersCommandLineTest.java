package io.privacygateway.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code plan} and {@code simulate} on a heavy-hitters workload (the demo's top-crash-signatures.yaml). */
class HeavyHittersCommandLineTest {
    static final String WORKLOAD = "../demo/src/main/resources/demo/top-crash-signatures.yaml";

    @Test
    void planPrintsTheClosedFormThresholdAndStandardError() {
        CliRun r = CliRun.run("plan", "--workload", WORKLOAD, "--n", "3000");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("auto → prefix-tree-sketch").contains("Predicted threshold share 0.")
                .contains("standard error").contains("closed form from the protocol's variance");
        CliRun json = CliRun.run("plan", "--workload", WORKLOAD, "--n", "3000", "--json");
        assertThat(json.exit()).isZero();
        assertThat(json.out()).contains("\"choice\" : \"prefix-tree-sketch\"");
    }

    @Test
    void simulateFindsTheFrequentStringsOfAValuesFile(@TempDir Path dir) throws Exception {
        List<String> lines = new ArrayList<>(List.of("# crash signatures, one device a line", ""));
        for (int i = 0; i < 6000; i++) {
            lines.add(i % 10 < 5 ? "oom" : i % 10 < 8 ? "anr" : "s" + (i % 50));
        }
        lines.add("much-too-long");
        Path values = dir.resolve("values.txt");
        Files.write(values, lines);
        Path out = dir.resolve("out.json");
        CliRun refused = CliRun.run("simulate", "--workload", WORKLOAD, "--values",
                values.toString(), "--out", out.toString(), "--seed", "4");
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err()).contains(":6003:").doesNotContain("much-too-long");
        CliRun r = CliRun.run("simulate", "--workload", WORKLOAD, "--values", values.toString(),
                "--out", out.toString(), "--seed", "4", "--skip-invalid");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("prefix-tree-sketch").contains("threshold share");
        JsonNode json = Json.MAPPER.readTree(Files.readString(out));
        assertThat(json.path("mechanism").asText()).isEqualTo("prefix-tree-sketch");
        assertThat(json.path("n").asLong()).isEqualTo(6000);
        assertThat(json.path("answers").get(0).path("label").asText()).isEqualTo("oom");
        assertThat(json.path("answers").get(0).path("true").asDouble()).isEqualTo(0.5);
        assertThat(json.path("answers").get(1).path("label").asText()).isEqualTo("anr");
        assertThat(json.path("scalars").path("thresholdShare").asDouble()).isBetween(0.0, 0.3);
        assertThat(json.path("trueTop").get(0).path("value").asText()).isEqualTo("oom");
        assertThat(json.path("rejectedLines")).hasSize(1);
    }
}
