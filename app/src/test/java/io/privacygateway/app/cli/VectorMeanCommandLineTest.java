package io.privacygateway.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code plan} and {@code simulate} on vector-mean workloads (the demo's resource-usage.yaml, a box; a ball). */
class VectorMeanCommandLineTest {
    static final String BOX = "../demo/src/main/resources/demo/resource-usage.yaml";

    @Test
    void planPrintsEachCandidatesClosedFormStandardErrorAndAutosChoice() {
        CliRun r = CliRun.run("plan", "--workload", BOX, "--n", "3000");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("the box [0.0, 100.0]^3").contains("[cpu, memory, battery]")
                .contains("duchi").contains("piecewise").contains("hybrid").contains("auto → ")
                .contains("worstStandardError");
        CliRun json = CliRun.run("plan", "--workload", BOX, "--n", "3000", "--json");
        assertThat(json.exit()).isZero();
        assertThat(json.out()).contains("\"choice\" : \"");
    }

    @Test
    void planOfABallNamesPrivUnitG(@TempDir Path dir) throws Exception {
        Path ball = dir.resolve("ball.yaml");
        Files.writeString(ball, """
                id: embedding-mean
                version: 1
                family: mean
                domain: {ball: {coordinates: [x1, x2, x3, x4], radius: 1.0}}
                mechanism: auto
                epsilonPerReport: 4.0
                budget: {epsilonPerPeriod: 4.0, period: 1d}
                window: {size: 1m}
                """);
        CliRun r = CliRun.run("plan", "--workload", ball.toString(), "--n", "10000");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("the ball of radius 1.0").contains("auto → privunit-g");
    }

    @Test
    void simulateReleasesTheMeanOfAValuesFileOfVectors(@TempDir Path dir) throws Exception {
        List<String> lines = new ArrayList<>(List.of("# cpu, memory, battery: one device a line", ""));
        Random rng = new Random(8);
        double[] truth = new double[3];
        int n = 6000;
        for (int i = 0; i < n; i++) {
            double[] v = {20 + 10 * rng.nextDouble(), 60 + 20 * rng.nextDouble(), i % 2 == 0 ? 4 : 8};
            for (int q = 0; q < 3; q++) {
                truth[q] += v[q] / n;
            }
            lines.add(String.format(Locale.ROOT, "%s, %s, %s", v[0], v[1], v[2]));
        }
        lines.add("12.5, 250.125, 3"); // outside the box
        lines.add("12.5, 50"); // two coordinates
        Path values = dir.resolve("values.txt");
        Files.write(values, lines);
        Path out = dir.resolve("out.json");
        CliRun refused = CliRun.run("simulate", "--workload", BOX, "--values",
                values.toString(), "--out", out.toString(), "--seed", "4");
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err()).contains(":" + (n + 3) + ":").contains(":" + (n + 4) + ":")
                .doesNotContain("250.125");
        CliRun r = CliRun.run("simulate", "--workload", BOX, "--values", values.toString(),
                "--out", out.toString(), "--seed", "4", "--skip-invalid");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode json = Json.MAPPER.readTree(Files.readString(out));
        assertThat(json.path("mechanism").asText()).isIn("duchi", "piecewise", "hybrid");
        assertThat(json.path("n").asLong()).isEqualTo(n);
        assertThat(json.path("answers")).hasSize(3);
        List<String> labels = new ArrayList<>();
        for (int q = 0; q < 3; q++) {
            JsonNode row = json.path("answers").get(q);
            labels.add(row.path("label").asText());
            assertThat(row.path("true").asDouble()).isCloseTo(truth[q], org.assertj.core.data.Offset.offset(1e-9));
            assertThat(row.path("estimate").asDouble()).isBetween(0.0, 100.0);
        }
        assertThat(labels).containsExactly("cpu", "memory", "battery");
        assertThat(json.path("scalars").path("dimension").asDouble()).isEqualTo(3.0);
        assertThat(json.path("rejectedLines")).hasSize(2);
    }
}
