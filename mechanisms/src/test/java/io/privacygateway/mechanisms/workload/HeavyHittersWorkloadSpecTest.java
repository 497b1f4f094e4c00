package io.privacygateway.mechanisms.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The heavy-hitters family's spec rules, parser and canonical form. */
class HeavyHittersWorkloadSpecTest {
    static Map<String, Object> tree(Object strings, String mechanism) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "crash-signatures");
        t.put("version", 1);
        t.put("family", "heavy-hitters");
        Map<String, Object> domain = new HashMap<>();
        domain.put("strings", strings);
        t.put("domain", domain);
        t.put("mechanism", mechanism);
        t.put("epsilonPerReport", 2.0);
        t.put("budget", Map.of("epsilonPerPeriod", 4.0, "period", "1d"));
        t.put("window", Map.of("size", "1h"));
        return t;
    }

    @Test
    void parsesStringsWithDefaultsAndRoundTripsThroughTheCanonicalForm() {
        WorkloadSpec s = WorkloadSpecParser.parse(tree(Map.of("maxBytes", 24), "prefix-tree-sketch"));
        assertThat(s.family()).isEqualTo(QueryFamily.HEAVY_HITTERS);
        assertThat(s.domain()).isEqualTo(new Domain.Strings(24));
        assertThat(s.mechanism()).isEqualTo(MechanismId.PREFIX_TREE_SKETCH);
        String canonical = CanonicalForm.of(s);
        assertThat(canonical).contains("\"domain\":{\"strings\":{\"maxBytes\":24}}")
                .contains("\"family\":\"heavy-hitters\"");
        WorkloadSpec back = WorkloadSpecParser.parse(MiniJson.parse(canonical));
        assertThat(back).isEqualTo(s);
        assertThat(CanonicalForm.contentHash(back)).isEqualTo(CanonicalForm.contentHash(s));
        WorkloadSpec other = WorkloadSpecParser.parse(tree(Map.of("maxBytes", 16), "prefix-tree-sketch"));
        assertThat(CanonicalForm.contentHash(other)).isNotEqualTo(CanonicalForm.contentHash(s));
        assertThat(WorkloadSpecParser.parse(tree(Map.of(), "auto")).domain()).isEqualTo(new Domain.Strings(16));
        assertThat(WorkloadSpecParser.parse(tree(null, "auto")).domain())
                .isEqualTo(new Domain.Strings(Domain.Strings.DEFAULT_MAX_BYTES));
    }

    @Test
    void namesEachBadField() {
        assertField(tree(Map.of("maxBytes", 0), "auto"), "domain.strings.maxBytes");
        assertField(tree(Map.of("maxBytes", 65), "auto"), "domain.strings.maxBytes");
        assertField(tree(Map.of("maxBytes", "long"), "auto"), "domain.strings.maxBytes");
        assertField(tree(Map.of("maxLength", 8), "auto"), "domain.strings.maxLength");
        assertField(tree(java.util.List.of(8), "auto"), "domain.strings");
        assertField(tree(Map.of(), "grr"), "mechanism");
        assertField(tree(Map.of(), "duchi"), "mechanism");
        Map<String, Object> labels = tree(Map.of(), "auto");
        labels.put("domain", Map.of("labels", java.util.List.of("a", "b")));
        assertField(labels, "domain");
        Map<String, Object> hist = tree(Map.of(), "prefix-tree-sketch");
        hist.put("family", "histogram");
        hist.put("domain", Map.of("labels", java.util.List.of("a", "b")));
        assertThatThrownBy(() -> WorkloadSpecParser.parse(hist)).isInstanceOf(InvalidWorkloadException.class)
                .hasMessageContaining("mechanism").hasMessageContaining("heavy-hitters only");
        Map<String, Object> stringsForHistogram = tree(Map.of(), "auto");
        stringsForHistogram.put("family", "histogram");
        assertField(stringsForHistogram, "domain");
        Map<String, Object> eps = tree(Map.of(), "auto");
        eps.put("epsilonPerReport", -1);
        assertField(eps, "epsilonPerReport");
        Map<String, Object> budget = tree(Map.of(), "auto");
        budget.put("budget", Map.of("epsilonPerPeriod", 1.0, "period", "1d"));
        assertField(budget, "budget.epsilonPerPeriod");
        Map<String, Object> window = tree(Map.of(), "auto");
        window.put("window", Map.of("size", "0s"));
        assertField(window, "window.size");
    }

    @Test
    void centralModeIsRefusedNamingTheModeField() {
        Map<String, Object> t = tree(Map.of("maxBytes", 16), "auto");
        t.remove("epsilonPerReport");
        t.put("mode", "central");
        t.put("central", Map.of("epsilonPerRelease", 1.0, "neighbour", "add-remove"));
        assertThatThrownBy(() -> WorkloadSpecParser.parse(t)).isInstanceOf(InvalidWorkloadException.class)
                .hasMessageStartingWith("mode:").hasMessageContaining("local mode only");
        t.put("mechanism", "prefix-tree-sketch");
        assertThatThrownBy(() -> WorkloadSpecParser.parse(t)).isInstanceOf(InvalidWorkloadException.class)
                .hasMessageStartingWith("mode:");
    }

    @Test
    void theOpenDomainIsNeverMaterialised() {
        WorkloadSpec s = WorkloadSpecParser.parse(tree(Map.of(), "prefix-tree-sketch"));
        assertThatThrownBy(() -> Workload.of(s)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("open domain");
    }

    private static void assertField(Map<String, Object> tree, String field) {
        assertThatThrownBy(() -> WorkloadSpecParser.parse(tree)).isInstanceOf(InvalidWorkloadException.class)
                .hasMessageStartingWith(field + ":");
    }
}
