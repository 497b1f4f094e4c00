package io.privacygateway.mechanisms.audit;

import io.privacygateway.mechanisms.planner.Planner;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Small resolved workloads for audit tests. */
final class AuditWorkloads {
    private AuditWorkloads() {}

    static final Map<String, Object> HISTOGRAM = Map.of("labels", List.of("a", "b", "c", "d", "e", "f", "g", "h"));
    static final Map<String, Object> BUCKETS = Map.of("buckets", edges(12));
    static final Map<String, Object> ATTRIBUTES = Map.of("attributes", List.of("p", "q", "r", "s"));

    static List<Double> edges(int k) {
        List<Double> e = new ArrayList<>();
        for (int i = 0; i <= k; i++) {
            e.add((double) i);
        }
        return e;
    }

    static Map<String, Object> domain(String family) {
        return switch (family) {
            case "histogram" -> HISTOGRAM;
            case "marginals" -> ATTRIBUTES;
            default -> BUCKETS;
        };
    }

    static Workload local(String family, String mechanism, double epsilon) {
        Map<String, Object> t = base(family, mechanism);
        t.put("epsilonPerReport", epsilon);
        return Workload.of(Planner.resolve(WorkloadSpecParser.parse(t)));
    }

    static Workload central(String family, String mechanism, double epsilon, String neighbour, int contributions) {
        Map<String, Object> t = base(family, mechanism);
        t.put("mode", "central");
        t.put("central", Map.of("epsilonPerRelease", epsilon, "neighbour", neighbour, "contributionsPerWindow",
                contributions));
        return Workload.of(Planner.resolve(WorkloadSpecParser.parse(t)));
    }

    private static Map<String, Object> base(String family, String mechanism) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "audit-" + family);
        t.put("version", 1);
        t.put("family", family);
        t.put("domain", domain(family));
        if (family.equals("marginals")) {
            t.put("queries", Map.of("way", 2));
        }
        t.put("mechanism", mechanism);
        t.put("budget", Map.of("epsilonPerPeriod", 10.0, "period", "1d"));
        t.put("window", Map.of("size", "1m"));
        t.put("confidence", 0.95);
        t.put("alpha", 0.125);
        t.put("expectedReportsPerWindow", 2800);
        return t;
    }

    /** The spec with another ε (per report or per release), for under-noised controls. */
    static Workload withEpsilon(Workload w, double epsilon) {
        WorkloadSpec s = w.spec();
        var e = io.privacygateway.mechanisms.param.Epsilon.of(epsilon);
        return Workload.of(s.toBuilder().epsilonPerAnswer(e).budgetAtLeastOneCharge().build());
    }
}
