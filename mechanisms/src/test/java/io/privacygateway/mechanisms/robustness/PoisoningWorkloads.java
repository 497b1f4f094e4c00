package io.privacygateway.mechanisms.robustness;

import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Small workloads for the poisoning tests and the table of docs/poisoning.md. */
final class PoisoningWorkloads {
    private PoisoningWorkloads() {}

    static WorkloadSpec spec(String id, String family, Map<String, Object> domain, Map<String, Object> queries,
            double epsilon, double alpha) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", id);
        t.put("version", 1);
        t.put("family", family);
        t.put("domain", domain);
        if (queries != null) {
            t.put("queries", queries);
        }
        t.put("epsilonPerReport", epsilon);
        t.put("budget", Map.of("epsilonPerPeriod", epsilon, "period", "1d"));
        t.put("window", Map.of("size", "1m"));
        t.put("alpha", alpha);
        t.put("expectedReportsPerWindow", 100000);
        return WorkloadSpecParser.parse(t);
    }

    /** A histogram over {@code k} ordered buckets (so that every local mechanism, the tree included, applies). */
    static WorkloadSpec histogram(int k, double epsilon) {
        return spec("hist-" + k, "histogram", Map.of("buckets", edges(k)), null, epsilon, 0.125);
    }

    /** A histogram over {@code k} labels. */
    static WorkloadSpec labels(int k, double epsilon) {
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            labels.add("v" + i);
        }
        return spec("labels-" + k, "histogram", Map.of("labels", labels), null, epsilon, 0.125);
    }

    /** A CDF over {@code k} buckets ({@code k − 1} answers). */
    static WorkloadSpec cdf(int k, double epsilon) {
        return spec("cdf-" + k, "cdf", Map.of("buckets", edges(k)), null, epsilon, 0.125);
    }

    /** All {@code way}-way marginals over {@code d} binary attributes. */
    static WorkloadSpec marginals(int d, int way, double epsilon) {
        List<String> attrs = new ArrayList<>();
        for (int i = 0; i < d; i++) {
            attrs.add("a" + i);
        }
        return spec("marg-" + d, "marginals", Map.of("attributes", attrs), Map.of("way", way), epsilon, 0.25);
    }

    static WorkloadSpec histogram16(double epsilon) {
        return histogram(16, epsilon);
    }

    static WorkloadSpec cdf16(double epsilon) {
        return cdf(16, epsilon);
    }

    static List<Double> edges(int k) {
        List<Double> e = new ArrayList<>();
        for (int i = 0; i <= k; i++) {
            e.add((double) i);
        }
        return e;
    }

    static LocalPipeline pipeline(WorkloadSpec s, MechanismId id) {
        return LocalPipeline.of(Workload.of(s.toBuilder().mechanism(id).build()));
    }

    static LocalPipeline pipeline(WorkloadSpec s, MechanismId id, double alpha) {
        return LocalPipeline.of(Workload.of(s.toBuilder().mechanism(id)
                .alpha(new io.privacygateway.mechanisms.param.Alpha(alpha)).build()));
    }

    /** The local mechanisms that apply to a spec (the tree only to ordered buckets). */
    static List<MechanismId> local(WorkloadSpec s) {
        List<MechanismId> out = new ArrayList<>();
        for (MechanismId id : MechanismId.values()) {
            if (id == MechanismId.AUTO || id.mode() != io.privacygateway.mechanisms.workload.Mode.LOCAL
                    || id == MechanismId.PREFIX_TREE_SKETCH // open-domain strings: no universe
                    || id == MechanismId.PRIVUNIT_G) { // vectors in a ball (family mean): no universe
                continue;
            }
            if (id == MechanismId.TREE && !(s.domain() instanceof io.privacygateway.mechanisms.workload.Domain.Buckets)) {
                continue;
            }
            if (id == MechanismId.FACTORIZATION && s.family() != io.privacygateway.mechanisms.workload.QueryFamily.CDF
                    && s.family() != io.privacygateway.mechanisms.workload.QueryFamily.RANGE) {
                continue; // cdf and range only
            }
            if (id == MechanismId.FOURIER && s.family() != io.privacygateway.mechanisms.workload.QueryFamily.MARGINALS) {
                continue; // marginals only
            }
            if (MechanismId.MEAN_MECHANISMS.contains(id)
                    && s.family() != io.privacygateway.mechanisms.workload.QueryFamily.MEAN) {
                continue; // duchi, piecewise and hybrid answer the mean family only
            }
            out.add(id);
        }
        return out;
    }
}
