package io.privacygateway.mechanisms.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.codec.Hex;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The universe, the query labels and the answer matrix {@code Q(x)} of one workload of every materialised family (and
 * domain kind) stay exactly what they were before the families became {@link FamilyRules} types: each is pinned by the
 * SHA-256 of its labels and rows (doubles as their bits), recorded from the code before the change.
 */
class FamilyAnswerMatricesTest {
    /** The pinned digests, recorded by running this test against the code before {@link FamilyRules}. */
    private static final Map<String, String> PINNED = Map.of(
            "histogram-labels", "4f14e2fc7113d8a69c20ab61e509ae2a53ece8d6556e29e856f898b11d336e1f 3x3",
            "histogram-buckets", "9770615001e371892010c566d78764f3c6df0bcedf9ff9d3faba7e5cebae8600 3x3",
            "cdf", "cbbad57b1e35c99165eb13a309bbd2a538ef3fd0c03e2c977df84d001351da67 4x3",
            "range", "54d589a17583921f817816825a56688f6c9cfe0c254dc002ad492295f4d4165a 4x10",
            "marginals", "0c5026a3a0ea9fb44edf12b8e33c45d7aef968568cdce5775a91a1213bf84060 32x80",
            "points-generated-labels", "ad9432ab31256da0fed3803d0a3a4a82c08a9f1b84ec8dedfab219550874d5df 2x3",
            "mean", "e9e6c5b3c71fb81290face328c644161540e0c3171151e3cb41d308400434ce6 17x1",
            "mode", "dd42c7449359a2a2cbdf3dacbcd9ecf84cdb113d52234d56232a6c5d8930e644 4x4",
            "regression", "0b5e4db5862aca8df10afdece562a1131687d67f08185b26e532664208d3fcb0 12x2",
            "erm", "0b5e4db5862aca8df10afdece562a1131687d67f08185b26e532664208d3fcb0 12x2");

    @Test
    void everyFamilysAnswerMatrixIsUnchanged() throws Exception {
        Map<String, String> digests = new LinkedHashMap<>();
        for (Map.Entry<String, Map<String, Object>> e : specs().entrySet()) {
            digests.put(e.getKey(), digest(Workload.of(WorkloadSpecParser.parse(e.getValue()))));
        }
        assertThat(digests).containsExactlyInAnyOrderEntriesOf(PINNED);
    }

    private static Map<String, Map<String, Object>> specs() {
        Map<String, Map<String, Object>> s = new LinkedHashMap<>();
        s.put("histogram-labels", WorkloadTest.base("histogram", Map.of("labels", List.of("a", "b", "c"))));
        s.put("histogram-buckets", WorkloadTest.base("histogram", Map.of("buckets", List.of(0, 2.5, 10, 1e20))));
        s.put("cdf", WorkloadTest.base("cdf", Map.of("buckets", List.of(-1, 0, 0.1, 7, 100))));
        s.put("range", WorkloadTest.base("range", Map.of("buckets", List.of(0, 1, 2.25, 3, 8))));
        Map<String, Object> marginals = WorkloadTest.base("marginals", Map.of("attributes", List.of("a", "b", "c",
                "d", "e")));
        marginals.put("queries", Map.of("way", 3));
        s.put("marginals", marginals);
        Map<String, Object> points = WorkloadTest.base("points", Map.of("points", List.of(
                Map.of("label", "x", "answer", List.of(0, 1, 0.25)),
                Map.of("label", "y", "answer", List.of(0.5, 0.5, 1)))));
        s.put("points-generated-labels", points);
        s.put("mean", WorkloadTest.base("mean", Map.of("range", Map.of("lo", -2, "hi", 3.5, "levels", 17))));
        s.put("mode", central(WorkloadTest.base("mode", Map.of("labels", List.of("p", "q", "r", "s")))));
        Map<String, Object> grid = Map.of("features", List.of(Map.of("name", "x1", "buckets", List.of(0, 1, 2)),
                Map.of("name", "x2", "values", List.of(-1, 0.5, 3))), "response", Map.of("name", "y", "values",
                List.of(0, 1)));
        s.put("regression", central(WorkloadTest.base("regression", grid)));
        Map<String, Object> erm = central(WorkloadTest.base("erm", grid));
        erm.put("model", Map.of("loss", "logistic", "radius", 4));
        s.put("erm", erm);
        return s;
    }

    private static Map<String, Object> central(Map<String, Object> t) {
        t.remove("epsilonPerReport");
        t.put("mode", "central");
        t.put("central", Map.of("epsilonPerRelease", 1.0, "neighbour", "add-remove"));
        return t;
    }

    private static String digest(Workload w) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        md.update(String.join("\n", w.universeLabels()).getBytes(StandardCharsets.UTF_8));
        md.update((byte) 0);
        md.update(String.join("\n", w.queryLabels()).getBytes(StandardCharsets.UTF_8));
        for (int x = 0; x < w.universeSize(); x++) {
            for (double v : w.points().row(x)) {
                long bits = Double.doubleToLongBits(v);
                for (int i = 0; i < 8; i++) {
                    md.update((byte) (bits >>> (8 * i)));
                }
            }
        }
        return Hex.format(md.digest()) + " " + w.universeSize() + "x" + w.queryCount();
    }
}
