package io.privacygateway.mechanisms.analytics;

import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.util.List;
import java.util.Map;

/** Workloads of the three analytics families for tests. */
public final class AnalyticsFixtures {
    private AnalyticsFixtures() {}

    static Map<String, Object> base(String id, String family, String mechanism, double epsilon, String neighbour,
            int contributions) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", id);
        t.put("version", 1);
        t.put("family", family);
        t.put("mode", "central");
        t.put("mechanism", mechanism);
        t.put("central", Map.of("epsilonPerRelease", epsilon, "neighbour", neighbour, "contributionsPerWindow",
                contributions));
        t.put("budget", Map.of("epsilonPerPeriod", 40.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        t.put("expectedReportsPerWindow", 10_000);
        return t;
    }

    public static WorkloadSpec mode(String mechanism, double epsilon, String neighbour, int contributions,
            List<String> labels) {
        Map<String, Object> t = base("top-app", "mode", mechanism, epsilon, neighbour, contributions);
        t.put("domain", Map.of("labels", labels));
        return WorkloadSpecParser.parse(t);
    }

    public static WorkloadSpec mode(String mechanism, double epsilon) {
        return mode(mechanism, epsilon, "add-remove", 1, List.of("a", "b", "c", "d", "e"));
    }

    public static WorkloadSpec regression(String mechanism, double epsilon, String neighbour, int contributions) {
        Map<String, Object> t = base("usage-regression", "regression", mechanism, epsilon, neighbour, contributions);
        t.put("domain", Map.of(
                "features", List.of(Map.of("name", "one", "values", List.of(1)),
                        Map.of("name", "x1", "buckets", List.of(0, 1, 2, 3, 4, 5, 6, 7, 8)),
                        Map.of("name", "x2", "values", List.of(0, 0.5, 1))),
                "response", Map.of("name", "y", "buckets", List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10))));
        return WorkloadSpecParser.parse(t);
    }

    public static WorkloadSpec erm(String mechanism, double epsilon, String neighbour, int contributions) {
        Map<String, Object> t = base("churn-model", "erm", mechanism, epsilon, neighbour, contributions);
        t.put("domain", Map.of(
                "features", List.of(Map.of("name", "bias", "values", List.of(1)),
                        Map.of("name", "sessions", "values", List.of(-1, -0.5, 0, 0.5, 1)),
                        Map.of("name", "tenure", "values", List.of(-1, 0, 1))),
                "response", Map.of("name", "churned", "values", List.of(0, 1))));
        t.put("model", Map.of("loss", "logistic", "radius", 4, "regularization", 0.001));
        return WorkloadSpecParser.parse(t);
    }

    public static Workload workload(WorkloadSpec s) {
        return Workload.of(s);
    }
}
