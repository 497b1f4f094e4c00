package io.privacygateway.app.cli;

import static io.privacygateway.app.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line end to end: files in, JSON and tables out, exit codes. */
class CommandLineTest {
    @TempDir
    Path dir;

    Path workload(String body) throws Exception {
        Path p = dir.resolve("w.yaml");
        Files.writeString(p, body);
        return p;
    }

    static final String HIST = """
            id: apps
            version: 1
            family: histogram
            domain: {labels: [a, b, c, d]}
            epsilonPerReport: 1.0
            budget: {epsilonPerPeriod: 2.0, period: 1d}
            window: {size: 1m, grace: 10s}
            """;

    Path values(String... lines) throws Exception {
        Path p = dir.resolve("v.txt");
        Files.writeString(p, String.join("\n", lines) + "\n");
        return p;
    }

    static String[] repeat(int times, String... pattern) {
        String[] out = new String[times * pattern.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = pattern[i % pattern.length];
        }
        return out;
    }

    @Test
    void simulateWritesAnswersErrorBarsTruthAndError() throws Exception {
        Path w = workload(HIST);
        Path v = values(repeat(500, "a", "a", "b", "c"));
        Path out = dir.resolve("out.json");
        CliRun r = run("simulate", "--workload", w.toString(), "--values", v.toString(), "--epsilon", "2", "--seed", "5",
                "--mechanism", "oue", "--out", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode j = Json.MAPPER.readTree(out.toFile());
        assertThat(j.get("mechanism").asText()).isEqualTo("oue");
        assertThat(j.get("n").asLong()).isEqualTo(2000);
        assertThat(j.at("/privacy/delta").asDouble()).isZero();
        assertThat(j.at("/privacy/epsilonPerReport").asDouble()).isEqualTo(2.0);
        assertThat(j.get("answers")).hasSize(4);
        JsonNode a = j.get("answers").get(0);
        assertThat(a.get("label").asText()).isEqualTo("a");
        assertThat(a.get("true").asDouble()).isEqualTo(0.5);
        assertThat(a.get("lower").asDouble()).isLessThanOrEqualTo(a.get("estimate").asDouble());
        assertThat(a.get("upper").asDouble()).isGreaterThanOrEqualTo(a.get("estimate").asDouble());
        assertThat(j.at("/error/rms").asDouble()).isBetween(0.0, 0.2);
        assertThat(r.out()).contains("achieved RMS error");
        // the same seed reproduces the same answer; a different seed does not
        Path out2 = dir.resolve("out2.json");
        run("simulate", "--workload", w.toString(), "--values", v.toString(), "--epsilon", "2", "--seed", "5",
                "--mechanism", "oue", "--out", out2.toString());
        assertThat(Json.MAPPER.readTree(out2.toFile()).get("answers")).isEqualTo(j.get("answers"));
    }

    @Test
    void autoIsResolvedByThePlannerAndRecorded() throws Exception {
        Path out = dir.resolve("out.json");
        CliRun r = run("simulate", "--workload", workload(HIST).toString(), "--values",
                values(repeat(300, "a", "b", "d")).toString(), "--seed", "1", "--out", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode j = Json.MAPPER.readTree(out.toFile());
        assertThat(j.get("mechanismRequested").asText()).isEqualTo("auto");
        assertThat(j.get("mechanism").asText()).isNotEqualTo("auto");
        assertThat(j.at("/plan/choice").asText()).startsWith(j.get("mechanism").asText());
        assertThat(r.out()).contains("chosen by auto");
    }

    @Test
    void invalidLinesAreReportedWithLineNumbersNotSkipped() throws Exception {
        Path v = values("a", "# a comment", "zz", "", "b", "e");
        Path out = dir.resolve("out.json");
        CliRun r = run("simulate", "--workload", workload(HIST).toString(), "--values", v.toString(), "--out",
                out.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains(":3: unknown label \"zz\"").contains(":6: unknown label \"e\"");
        assertThat(out).doesNotExist();

        CliRun skip = run("simulate", "--workload", workload(HIST).toString(), "--values", v.toString(), "--out",
                out.toString(), "--skip-invalid", "--mechanism", "grr", "--seed", "2");
        assertThat(skip.exit()).as(skip.err()).isZero();
        JsonNode j = Json.MAPPER.readTree(out.toFile());
        assertThat(j.get("n").asLong()).isEqualTo(2);
        assertThat(j.get("rejectedLines")).hasSize(2);
        assertThat(j.get("rejectedLines").get(0).get("line").asLong()).isEqualTo(3);
    }

    @Test
    void badWorkloadAndOptionsNameTheField() throws Exception {
        Path bad = workload(HIST.replace("epsilonPerReport: 1.0", "epsilonPerReport: \"NaN\""));
        CliRun r = run("simulate", "--workload", bad.toString(), "--values", values("a").toString(), "--out",
                dir.resolve("o.json").toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("epsilonPerReport").contains("NaN");

        CliRun eps = run("simulate", "--workload", workload(HIST).toString(), "--values", values("a").toString(),
                "--epsilon", "0", "--out", dir.resolve("o.json").toString());
        assertThat(eps.exit()).isEqualTo(2);
        assertThat(eps.err()).contains("epsilon").contains("0.0");

        CliRun mech = run("simulate", "--workload", workload(HIST).toString(), "--values", values("a").toString(),
                "--mechanism", "magic", "--out", dir.resolve("o.json").toString());
        assertThat(mech.exit()).isEqualTo(2);
        assertThat(mech.err()).contains("unknown mechanism \"magic\"");

        CliRun missing = run("plan", "--workload", dir.resolve("nope.yaml").toString(), "--n", "10");
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("no such file");
    }

    @Test
    void planPrintsEveryMechanismAndTheChoice() throws Exception {
        CliRun r = run("plan", "--workload", workload(HIST).toString(), "--epsilon", "1", "--n", "50000");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("projection").contains("oue").contains("subset-selection").contains("auto → ");
        CliRun j = run("plan", "--workload", workload(HIST).toString(), "--n", "50000", "--json");
        JsonNode plan = Json.MAPPER.readTree(j.out());
        assertThat(plan.get("predictions").size()).isGreaterThan(5);
        assertThat(plan.get("choice").asText()).isNotBlank();
    }

    @Test
    void planPrintsThePoisoningBoundOfEveryLocalMechanism() throws Exception {
        CliRun r = run("plan", "--workload", workload(HIST).toString(), "--epsilon", "1", "--n", "50000");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("n·Δ∞").contains("n·Δ₂").contains("docs/poisoning.md");
        // GRR over 4 labels at ε = 1: one report moves a coordinate by at most 1/(p − q) = (e + 3)/(e − 1), and
        // the answer by √2 times that in ℓ2 (two one-hot answers)
        double linf = (Math.E + 3) / (Math.E - 1);
        String grr = r.out().lines().filter(l -> l.startsWith("grr ")).findFirst().orElseThrow();
        String[] cells = grr.replace(" *", "").trim().split("\\s+"); // " *" marks auto's choice
        assertThat(cells[3]).isEqualTo(String.format("%.2f", linf));
        assertThat(cells[4]).isEqualTo(String.format("%.2f", Math.sqrt(2) * linf));
        // every applicable local mechanism has the two columns
        long rows = r.out().lines().filter(l -> l.matches("^(projection|coarse-projection|chaining|olh|oue|grr|subset-selection|hadamard-response).*"))
                .filter(l -> !l.contains("n/a")).peek(l -> assertThat(l.trim().split("\\s+").length).isGreaterThanOrEqualTo(8)).count();
        assertThat(rows).isGreaterThanOrEqualTo(6);

        CliRun central = run("plan", "--workload", workload(HIST).toString(), "--mode", "central", "--n", "50000");
        assertThat(central.exit()).as(central.err()).isZero();
        assertThat(central.out()).doesNotContain("n·Δ∞");
    }
}
