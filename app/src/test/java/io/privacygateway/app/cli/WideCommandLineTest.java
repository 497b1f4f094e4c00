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

/**
 * plan and simulate on a wide marginal workload (20 flags, all 3-way marginals): neither materialises the 2^20
 * universe; simulate publishes the answer with its l∞ bound and mwem's synthetic records.
 */
class WideCommandLineTest {
    @TempDir
    Path dir;

    static String spec(String mechanism, String synthetic) {
        StringBuilder flags = new StringBuilder();
        for (int j = 0; j < 20; j++) {
            flags.append(j == 0 ? "" : ", ").append("f").append(j);
        }
        return """
                id: wide
                version: 1
                family: marginals
                domain: {attributes: [%s]}
                queries: {way: 3}
                mode: central
                mechanism: %s
                central: {epsilonPerRelease: 1.0, neighbour: add-remove, contributionsPerWindow: 1%s}
                budget: {epsilonPerPeriod: 2.0, period: 1d}
                window: {size: 1m, grace: 10s}
                expectedReportsPerWindow: 2000
                """.formatted(flags, mechanism, synthetic);
    }

    @Test
    void planAndSimulateAWideWorkload() throws Exception {
        Path auto = dir.resolve("auto.yaml");
        Files.writeString(auto, spec("auto", ""));
        CliRun p = run("plan", "--workload", auto.toString(), "--n", "2000");
        assertThat(p.exit()).as(p.err()).isZero();
        assertThat(p.out()).contains("1048576 values, 9120 queries").contains("mwem").contains("worst-case-chaining")
                .contains("auto → ").contains("maximum error");

        Random r = new Random(5);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            StringBuilder v = new StringBuilder();
            for (int j = 0; j < 20; j++) {
                v.append(j == 0 ? "" : ",").append(r.nextDouble() < 0.2 + 0.03 * j ? 1 : 0);
            }
            lines.add(v.toString());
        }
        lines.add("1,0,1"); // not 20 flags
        Path values = dir.resolve("flags.values");
        Files.writeString(values, String.join("\n", lines) + "\n");
        Path mwem = dir.resolve("mwem.yaml");
        Files.writeString(mwem, spec("mwem", ", synthetic: {records: 256}"));
        Path out = dir.resolve("mwem.json");
        CliRun s = run("simulate", "--workload", mwem.toString(), "--values", values.toString(),
                "--seed", "3", "--out", out.toString());
        assertThat(s.exit()).isEqualTo(2); // the invalid line is reported
        assertThat(s.err()).contains(":2001:").contains("expected 20");
        s = run("simulate", "--workload", mwem.toString(), "--values", values.toString(), "--seed", "3",
                "--skip-invalid", "--out", out.toString());
        assertThat(s.exit()).as(s.err()).isZero();
        JsonNode j = Json.MAPPER.readTree(out.toFile());
        assertThat(j.at("/mechanism").asText()).isEqualTo("mwem");
        assertThat(j.at("/workload/queries").asInt()).isEqualTo(9120);
        assertThat(j.at("/privacy/delta").asDouble()).isZero();
        assertThat(j.at("/answers").size()).isEqualTo(9120);
        assertThat(j.at("/syntheticRecords").size()).isEqualTo(256);
        assertThat(j.at("/maxError").asDouble()).isLessThanOrEqualTo(j.at("/maxErrorBound").asDouble());
        assertThat(s.out()).contains("published l∞ bound").contains("256 synthetic records");
    }
}
