package io.privacygateway.app.cli;

import static io.privacygateway.app.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** simulate and plan on the window-analytics families: values files in, the family's answer and error out. */
class AnalyticsCommandLineTest {
    @TempDir
    Path dir;

    static final String COMMON = """
            mode: central
            central: {epsilonPerRelease: 1.0, neighbour: add-remove, contributionsPerWindow: 1}
            budget: {epsilonPerPeriod: 2.0, period: 1d}
            window: {size: 1m, grace: 10s}
            """;

    Path file(String name, String body) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, body);
        return p;
    }

    Path values(String name, List<String> lines) throws Exception {
        return file(name, String.join("\n", lines) + "\n");
    }

    @Test
    void simulateAndPlanEachFamily() throws Exception {
        Path mode = file("mode.yaml", "id: top\nversion: 1\nfamily: mode\ndomain: {labels: [a, b, c]}\n"
                + "mechanism: mode-exponential\n" + COMMON);
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            labels.add(i % 3 == 0 || i % 5 == 0 ? "b" : i % 2 == 0 ? "a" : "c");
        }
        Path out = dir.resolve("mode.json");
        CliRun r = run("simulate", "--workload", mode.toString(), "--values",
                values("mode.values", labels).toString(), "--seed", "3", "--out", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode j = Json.MAPPER.readTree(out.toFile());
        assertThat(j.at("/analytics/items/0/label").asText()).isEqualTo("b");
        assertThat(j.at("/analytics/error").asDouble()).isZero();
        assertThat(j.at("/analytics/errorMeasure").asText()).contains("most frequent");
        assertThat(j.at("/privacy/delta").asDouble()).isZero();
        assertThat(j.at("/privacy/mechanismParameters/k").asDouble()).isPositive();

        Path reg = file("reg.yaml", """
                id: reg
                version: 1
                family: regression
                domain:
                  features: [{name: one, values: [1]}, {name: x, buckets: [0, 1, 2, 3, 4]}]
                  response: {name: y, buckets: [0, 2, 4, 6, 8, 10]}
                mechanism: auto
                """ + COMMON);
        Random rnd = new Random(2);
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            double x = 4 * rnd.nextDouble();
            rows.add("1," + x + "," + Math.min(10, Math.max(0, 1 + 2 * x + rnd.nextGaussian())));
        }
        rows.add("1,7,3"); // x outside [0, 4]
        Path regOut = dir.resolve("reg.json");
        r = run("simulate", "--workload", reg.toString(), "--values", values("reg.values", rows).toString(), "--seed",
                "4", "--skip-invalid", "--out", regOut.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.err()).contains("x: value 7 is outside");
        j = Json.MAPPER.readTree(regOut.toFile());
        assertThat(j.get("mechanismRequested").asText()).isEqualTo("auto");
        assertThat(List.of("adassp", "ssp-laplace")).contains(j.get("mechanism").asText());
        assertThat(j.get("answers")).hasSize(2);
        assertThat(j.at("/answers/1/true").asDouble()).isBetween(1.5, 2.5); // the OLS slope of the file
        assertThat(j.at("/analytics/scalars/errorEstimate").asDouble()).isPositive();
        assertThat(j.at("/analytics/error").asDouble()).isGreaterThanOrEqualTo(0);

        Path erm = file("erm.yaml", """
                id: churn
                version: 1
                family: erm
                domain:
                  features: [{name: bias, values: [1]}, {name: a, values: [-1, 0, 1]}]
                  response: {name: y, values: [0, 1]}
                model: {loss: logistic, radius: 3}
                mechanism: auto
                """ + COMMON);
        r = run("plan", "--workload", erm.toString(), "--n", "2000");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("excess regularized empirical risk").contains("erm-exponential")
                .contains("purified-dpsgd").contains("output-perturbation").contains("auto →");
    }
}
