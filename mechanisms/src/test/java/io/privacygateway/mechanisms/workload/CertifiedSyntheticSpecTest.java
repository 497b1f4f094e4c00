package io.privacygateway.mechanisms.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.planner.CentralPlanner;
import io.privacygateway.mechanisms.runtime.CentralWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code mechanism: certified-synthetic} in the file format: marginals in central mode only, {@code central.synthetic}
 * required, at most 24 attributes and {@code k <= 4}, every rule naming its field; the records count is in the
 * canonical form; auto never picks it.
 */
class CertifiedSyntheticSpecTest {
    private static Map<String, Object> certified(int d, int k) {
        Map<String, Object> t = WideWorkloadSpecTest.tree(d, k, "certified-synthetic");
        WideWorkloadSpecTest.central(t).put("synthetic", Map.of("records", 1024));
        return t;
    }

    private static void fails(Map<String, Object> t, String field, String text) {
        assertThatThrownBy(() -> WorkloadSpecParser.parse(t)).isInstanceOf(InvalidWorkloadException.class)
                .hasMessageStartingWith(field + ":").hasMessageContaining(text);
    }

    @Test
    void aCertifiedWorkloadResolvesAsWide() {
        WorkloadSpec s = WorkloadSpecParser.parse(certified(12, 3));
        assertThat(s.mechanism()).isEqualTo(MechanismId.CERTIFIED_SYNTHETIC);
        assertThat(s.isWide()).isTrue();
        assertThat(s.central().synthetic().records()).isEqualTo(1024);
        CentralWorkload w = (CentralWorkload) ResolvedWorkload.of(s);
        assertThat(w.aggregateLength()).isEqualTo(220 * 8);
        assertThat(CanonicalForm.of(s)).contains("\"mechanism\":\"certified-synthetic\"")
                .contains("\"synthetic\":{\"records\":1024}");
        Map<String, Object> other = certified(12, 3);
        WideWorkloadSpecTest.central(other).put("synthetic", Map.of("records", 1000));
        assertThat(CanonicalForm.contentHash(WorkloadSpecParser.parse(other))).isNotEqualTo(CanonicalForm.contentHash(s));
        // 17..24 attributes: not materialisable, still certified
        assertThat(WorkloadSpecParser.parse(certified(24, 3)).isWide()).isTrue();
    }

    @Test
    void rulesNameTheirFields() {
        fails(WideWorkloadSpecTest.tree(10, 3, "certified-synthetic"), "central.synthetic", "required");
        fails(certified(25, 2), "domain.attributes", "at most 24");
        fails(certified(10, 5), "queries.way", "at most 4");
        Map<String, Object> zero = certified(10, 3);
        WideWorkloadSpecTest.central(zero).put("synthetic", Map.of("records", 4097));
        fails(zero, "central.synthetic.records", "4096");
        Map<String, Object> local = certified(10, 3);
        local.put("mode", "local");
        local.remove("central");
        local.put("epsilonPerReport", 1.0);
        assertThatThrownBy(() -> WorkloadSpecParser.parse(local)).isInstanceOf(InvalidWorkloadException.class)
                .hasMessageContaining("certified-synthetic");
        Map<String, Object> histogram = certified(10, 3);
        histogram.put("family", "histogram");
        histogram.put("domain", Map.of("labels", java.util.List.of("a", "b")));
        histogram.remove("queries");
        assertThatThrownBy(() -> WorkloadSpecParser.parse(histogram)).isInstanceOf(InvalidWorkloadException.class)
                .hasMessageContaining("certified-synthetic");
    }

    @Test
    void autoIsUnchanged() {
        Map<String, Object> t = WideWorkloadSpecTest.tree(20, 3, "auto");
        WideWorkloadSpecTest.central(t).put("synthetic", Map.of("records", 512));
        assertThat(CentralPlanner.candidates(WorkloadSpecParser.parse(t)))
                .noneMatch(c -> c.id() == MechanismId.CERTIFIED_SYNTHETIC);
        // where it is named, plan predicts it: its certificate's noise and count terms at the planned n
        WorkloadSpec named = WorkloadSpecParser.parse(certified(10, 3));
        var plan = CentralPlanner.plan(named, named.central().epsilonPerRelease(), 100_000);
        var certified = plan.predictions().stream().filter(p -> p.candidate().id() == MechanismId.CERTIFIED_SYNTHETIC)
                .findFirst().orElseThrow();
        assertThat(certified.boundRms()).isGreaterThan(0).isLessThan(0.1);
    }
}
