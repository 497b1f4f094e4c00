package io.privacygateway.mechanisms.continual;

import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Central-mode workloads for the continual-release tests (1-minute windows). */
final class ContinualFixtures {
    private ContinualFixtures() {}

    static Workload histogram(int k, String neighbour, double eps, int contributions, double confidence) {
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            labels.add("v" + i);
        }
        return central("histogram", Map.of("labels", labels), neighbour, eps, contributions, confidence);
    }

    static Workload cdf(int k, String neighbour, double eps, double confidence) {
        List<Double> edges = new ArrayList<>();
        for (int i = 0; i <= k; i++) {
            edges.add((double) i);
        }
        return central("cdf", Map.of("buckets", edges), neighbour, eps, 1, confidence);
    }

    static Workload central(String family, Map<String, Object> domain, String neighbour, double eps,
            int contributions, double confidence) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "cont-" + family);
        t.put("version", 1);
        t.put("family", family);
        t.put("domain", domain);
        t.put("mode", "central");
        t.put("mechanism", "laplace");
        t.put("central", Map.of("epsilonPerRelease", eps, "neighbour", neighbour, "contributionsPerWindow",
                contributions));
        t.put("budget", Map.of("epsilonPerPeriod", 40.0, "period", "1d"));
        t.put("window", Map.of("size", "1m"));
        t.put("confidence", confidence);
        return Workload.of(WorkloadSpecParser.parse(t));
    }
}
