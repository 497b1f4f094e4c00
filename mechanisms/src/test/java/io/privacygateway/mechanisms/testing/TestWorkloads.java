package io.privacygateway.mechanisms.testing;

import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Local-mode workload specs for tests: one builder instead of a copy per test class. */
public final class TestWorkloads {
    private TestWorkloads() {}

    /**
     * A local workload: ε = 1 per report, a budget of 4 per day, one-minute windows.
     *
     * @param family the family's wire name
     * @param domain the domain tree ({@link #labels}, {@link #buckets} or a map of the family's own)
     * @param mechanism the mechanism's wire name, or {@code null} for {@code auto}
     */
    public static WorkloadSpec local(String family, Map<String, Object> domain, String mechanism) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "t-" + family);
        t.put("version", 1);
        t.put("family", family);
        t.put("domain", domain);
        t.put("epsilonPerReport", 1.0);
        t.put("budget", Map.of("epsilonPerPeriod", 4.0, "period", "1d"));
        t.put("window", Map.of("size", "1m"));
        if (mechanism != null) {
            t.put("mechanism", mechanism);
        }
        return WorkloadSpecParser.parse(t);
    }

    /** A labels domain {@code v0 … v(k−1)}. */
    public static Map<String, Object> labels(int k) {
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            labels.add("v" + i);
        }
        return Map.of("labels", labels);
    }

    /** A buckets domain with edges {@code 0, 1, …, k}. */
    public static Map<String, Object> buckets(int k) {
        List<Double> edges = new ArrayList<>();
        for (int i = 0; i <= k; i++) {
            edges.add((double) i);
        }
        return Map.of("buckets", edges);
    }
}
