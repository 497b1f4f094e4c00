package io.privacygateway.schemas.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The record-size bounds of one workload of each answer shape (a local histogram, a central histogram with running
 * totals, the analytics mode, heavy hitters, a vector mean, a wide marginal workload with synthetic records) stay what
 * they were before {@link RecordSizes#of} was split into its parts: recorded from the code before the split.
 */
class RecordSizesPinnedTest {
    private static final Map<String, String> PINNED = Map.of(
            "local-histogram", "Sizes[answerBytes=2042, partialBytes=288, budgetEntryBytes=129, runningTotalStateBytes=0,"
                    + " syntheticBytes=0]",
            "central-totals", "Sizes[answerBytes=2069, partialBytes=288, budgetEntryBytes=193,"
                    + " runningTotalStateBytes=770, syntheticBytes=0]",
            "mode", "Sizes[answerBytes=2711, partialBytes=280, budgetEntryBytes=232, runningTotalStateBytes=0,"
                    + " syntheticBytes=0]",
            "heavy-hitters", "Sizes[answerBytes=4382, partialBytes=197056, budgetEntryBytes=129,"
                    + " runningTotalStateBytes=0, syntheticBytes=0]",
            "vector-mean", "Sizes[answerBytes=2202, partialBytes=280, budgetEntryBytes=129, runningTotalStateBytes=0,"
                    + " syntheticBytes=0]",
            "wide-synthetic", "Sizes[answerBytes=37446, partialBytes=5152, budgetEntryBytes=232,"
                    + " runningTotalStateBytes=0, syntheticBytes=5478]");

    @Test
    void everyAnswerShapesBoundsAreUnchanged() {
        Map<String, String> sizes = new LinkedHashMap<>();
        specs().forEach((name, tree) -> sizes.put(name,
                RecordSizes.of(ResolvedWorkload.of(WorkloadSpecParser.parse(tree))).toString()));
        assertThat(sizes).containsExactlyInAnyOrderEntriesOf(PINNED);
    }

    private static Map<String, Map<String, Object>> specs() {
        Map<String, Map<String, Object>> s = new LinkedHashMap<>();
        s.put("local-histogram", named(base("histogram", Map.of("labels", List.of("a", "b", "c", "d"))), "grr"));
        Map<String, Object> totals = central(base("histogram", Map.of("buckets", List.of(0, 1, 2, 5, 10))));
        totals.put("window", Map.of("size", "1m", "grace", "10s", "horizons", List.of("1h", "since-activation")));
        totals.put("central", Map.of("epsilonPerRelease", 1.0, "neighbour", "add-remove", "contributionsPerWindow", 3,
                "epsilonPerRunningTotal", 0.5));
        s.put("central-totals", named(totals, "laplace"));
        s.put("mode", named(central(base("mode", Map.of("labels", List.of("alpha", "beta", "gamma")))),
                "mode-exponential"));
        s.put("heavy-hitters", named(base("heavy-hitters", Map.of("strings", Map.of("maxBytes", 24))),
                "prefix-tree-sketch"));
        s.put("vector-mean", named(base("mean", Map.of("ball", Map.of("coordinates", List.of("cpu", "memory", "disk"),
                "radius", 2))), "privunit-g"));
        Map<String, Object> wide = central(base("marginals", Map.of("attributes",
                List.of("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r"))));
        wide.put("queries", Map.of("way", 2));
        wide.put("mechanism", "mwem");
        wide.put("central", Map.of("epsilonPerRelease", 1.0, "neighbour", "add-remove", "synthetic",
                Map.of("records", 512)));
        s.put("wide-synthetic", wide);
        return s;
    }

    private static Map<String, Object> base(String family, Map<String, Object> domain) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "sizes");
        t.put("version", 3);
        t.put("family", family);
        t.put("domain", domain);
        t.put("epsilonPerReport", 1.0);
        t.put("budget", Map.of("epsilonPerPeriod", 8.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        t.put("expectedReportsPerWindow", 100_000);
        return t;
    }

    private static Map<String, Object> named(Map<String, Object> t, String mechanism) {
        t.put("mechanism", mechanism);
        return t;
    }

    private static Map<String, Object> central(Map<String, Object> t) {
        t.remove("epsilonPerReport");
        t.put("mode", "central");
        t.put("central", Map.of("epsilonPerRelease", 1.0, "neighbour", "add-remove"));
        return t;
    }
}
