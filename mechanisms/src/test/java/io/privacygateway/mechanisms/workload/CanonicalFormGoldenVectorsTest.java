package io.privacygateway.mechanisms.workload;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.privacygateway.mechanisms.testing.GoldenVectors;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The JSON golden vectors of the canonical form and content hash ({@code docs/test-vectors/canonical-form.json},
 * docs/wire-format.md §16): every case's {@code input} (a workload file as JSON) is parsed and must give
 * {@code canonical} and {@code contentHash}; {@code canonical} read back must give itself. With
 * {@code -Dgolden.write=true}, {@link #generate} rewrites the file from the definitions below.
 */
class CanonicalFormGoldenVectorsTest {
    static final String NAME = "canonical-form";

    @Test
    void everyVectorIsReproduced() {
        JsonNode doc = GoldenVectors.read(NAME);
        int n = 0;
        for (JsonNode c : doc.get("cases")) {
            String what = c.get("name").asText();
            WorkloadSpec spec = WorkloadSpecParser.parse((Map<?, ?>) GoldenVectors.value(c.get("input")));
            String canonical = c.get("canonical").asText();
            assertThat(CanonicalForm.of(spec)).as(what).isEqualTo(canonical);
            assertThat(CanonicalForm.contentHash(spec)).as(what).isEqualTo(c.get("contentHash").asText());
            assertThat(CanonicalForm.of(GoldenVectors.spec(canonical))).as(what + " read back").isEqualTo(canonical);
            n++;
        }
        assertThat(n).isPositive();
    }

    @Test
    void fileMatchesItsDefinitions() {
        if (GoldenVectors.writing()) {
            return;
        }
        assertThat(GoldenVectors.tree(GoldenVectors.read(NAME)))
                .as("docs/test-vectors/%s.json (regenerate with -Dgolden.write=true)", NAME)
                .isEqualTo(GoldenVectors.tree(GoldenVectors.toJson(build())));
    }

    @Test
    void generate() {
        if (GoldenVectors.writing()) {
            GoldenVectors.write(NAME, build());
        }
    }

    // ------------------------------------------------------------------ definitions

    record Case(String name, Map<String, Object> input) {}

    static Map<String, Object> base(String id, String family, Map<String, Object> domain, String mechanism,
            Object epsilon) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("id", id);
        t.put("version", 1L);
        t.put("family", family);
        t.put("domain", domain);
        t.put("mechanism", mechanism);
        if (epsilon != null) {
            t.put("epsilonPerReport", epsilon);
        }
        t.put("budget", new LinkedHashMap<>(Map.of("epsilonPerPeriod", new BigDecimal("4"), "period", "1d")));
        t.put("window", new LinkedHashMap<>(Map.of("size", "1m")));
        return t;
    }

    static List<Case> cases() {
        List<Case> out = new ArrayList<>();
        out.add(new Case("labels: string escaping, non-ASCII, labels trimmed when parsed", base("escapes", "histogram",
                Map.of("labels", List.of("a\"b", "back\\slash", "tab\there", "cr\rx", "c\u0001t\u001fl\u0008x\u000cy",
                        "del\u007f", "slash/", "  trimmed  ", "ünïcødé", "emoji \uD83D\uDE00")),
                "grr", new BigDecimal("0.1"))));
        Map<String, Object> cdf = base("latency.cdf-v2", "cdf",
                Map.of("buckets", List.of(new BigDecimal("-1.5"), 0L, new BigDecimal("0.1"), new BigDecimal("0.3"),
                        1000L, new BigDecimal("1e10"))), "tree", new BigDecimal("1.50"));
        cdf.put("version", 7L);
        cdf.put("window", new LinkedHashMap<>(Map.of("size", "1h", "grace", "30s")));
        cdf.put("budget", new LinkedHashMap<>(Map.of("epsilonPerPeriod", new BigDecimal("40"), "period", "P1D")));
        out.add(new Case("buckets: doubles as exact expansions, ε with trailing zeros, durations", cdf));
        Map<String, Object> marg = base("flags", "marginals", Map.of("attributes", List.of("a", "b", "c", "d")),
                "fourier", new BigDecimal("2.0"));
        marg.put("queries", Map.of("way", 2L));
        marg.put("amplification", Map.of("delta", new BigDecimal("1e-8")));
        marg.put("expectedReportsPerWindow", 20000L);
        out.add(new Case("attributes, way, amplification, expectedReportsPerWindow", marg));
        out.add(new Case("range (mean): levels written when defaulted", base("age", "mean",
                Map.of("range", Map.of("lo", new BigDecimal("-1"), "hi", 1L)), "duchi", new BigDecimal("0.75"))));
        Map<String, Object> pts = base("points", "points", Map.of("points", List.of(
                Map.of("label", "p", "answer", List.of(0L, new BigDecimal("0.5"))),
                Map.of("label", "q", "answer", List.of(1L, new BigDecimal("0.25"))))), "oue", 1L);
        pts.put("queries", Map.of("labels", List.of("x", "y")));
        pts.put("confidence", new BigDecimal("0.99"));
        out.add(new Case("points with query labels and a confidence", pts));
        out.add(new Case("heavy hitters: strings", base("words", "heavy-hitters", Map.of("strings",
                Map.of("maxBytes", 32L)), "prefix-tree-sketch", 2L)));
        out.add(new Case("strings: maxBytes written when defaulted", base("words2", "heavy-hitters",
                Map.of("strings", Map.of()), "prefix-tree-sketch", 2L)));
        out.add(new Case("vector mean over a ball", base("ball", "mean", Map.of("ball",
                Map.of("coordinates", List.of("cpu", "mem"), "radius", new BigDecimal("1.5"))), "privunit-g", 1L)));
        out.add(new Case("vector mean over a box", base("box", "mean", Map.of("box", Map.of("coordinates",
                List.of("x", "y"), "lo", 0L, "hi", 100L, "levels", 257L)), "piecewise", new BigDecimal("0.5"))));
        Map<String, Object> grp = base("grouped", "histogram", Map.of("labels", List.of("a", "b", "c")),
                "coarse-projection", 1L);
        grp.put("budget", new LinkedHashMap<>(Map.of("epsilonPerPeriod", 3L, "period", "12h",
                "group", Map.of("name", "telemetry", "epsilonPerPeriod", new BigDecimal("6")))));
        grp.put("window", new LinkedHashMap<>(Map.of("size", "90s", "grace", "500ms", "horizons",
                List.of("1h", "1d"))));
        grp.put("alpha", new BigDecimal("0.1"));
        grp.put("epsilonSplit", "equal");
        out.add(new Case("group budget, horizons, fractional durations, alpha, equal split", grp));
        Map<String, Object> central = base("central", "histogram", Map.of("labels", List.of("x", "y")),
                "laplace", null);
        central.put("mode", "central");
        central.put("central", Map.of("epsilonPerRelease", new BigDecimal("0.25"), "neighbour", "replace-one",
                "contributionsPerWindow", 2L));
        out.add(new Case("central mode: no epsilonPerReport, a central object", central));
        Map<String, Object> reg = base("regression", "regression", Map.of(
                "features", List.of(Map.of("name", "x1", "buckets", List.of(0L, 1L, 2L)),
                        Map.of("name", "x2", "values", List.of(new BigDecimal("-1"), new BigDecimal("0.5")))),
                "response", Map.of("name", "y", "values", List.of(0L, 1L))), "adassp", null);
        reg.put("mode", "central");
        reg.put("central", Map.of("epsilonPerRelease", 1L, "neighbour", "replace-one", "contributionsPerWindow", 1L));
        out.add(new Case("grid (regression): features and response", reg));
        return out;
    }

    /** Maps with sorted keys, recursively (Map.of iterates in a per-JVM order; the file must be stable). */
    static Object sorted(Object v) {
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new java.util.TreeMap<>();
            m.forEach((k, x) -> out.put(String.valueOf(k), sorted(x)));
            return out;
        }
        if (v instanceof List<?> l) {
            return l.stream().map(CanonicalFormGoldenVectorsTest::sorted).toList();
        }
        return v;
    }

    static Map<String, Object> build() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("protocol", NAME);
        out.put("specSection", "docs/wire-format.md §16");
        out.put("generator", "mechanisms/src/test/java/io/privacygateway/mechanisms/workload/"
                + "CanonicalFormGoldenVectorsTest.java (-Dgolden.write=true)");
        List<Object> cs = new ArrayList<>();
        for (Case c : cases()) {
            // the input as the file will hold it: parse what is written, so numbers are the JSON tokens
            Map<?, ?> input = (Map<?, ?>) GoldenVectors.value(GoldenVectors.toJson(c.input()));
            WorkloadSpec spec = WorkloadSpecParser.parse(input);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", c.name());
            m.put("input", sorted(c.input()));
            m.put("canonical", CanonicalForm.of(spec));
            m.put("contentHash", CanonicalForm.contentHash(spec));
            cs.add(m);
        }
        out.put("cases", cs);
        return out;
    }
}
