package io.privacygateway.mechanisms.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The mean family's spec rules, parser, canonical form and value encoding. */
class MeanWorkloadSpecTest {
    static Map<String, Object> tree(Object range, String mechanism) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "latency");
        t.put("version", 1);
        t.put("family", "mean");
        t.put("domain", Map.of("range", range));
        t.put("mechanism", mechanism);
        t.put("epsilonPerReport", 1.0);
        t.put("budget", Map.of("epsilonPerPeriod", 1.0, "period", "1d"));
        t.put("window", Map.of("size", "1m"));
        return t;
    }

    @Test
    void parsesARangeWithDefaultLevelsAndRoundTripsThroughTheCanonicalForm() {
        WorkloadSpec s = WorkloadSpecParser.parse(tree(Map.of("lo", 0, "hi", 120), "auto"));
        assertThat(s.domain()).isEqualTo(new Domain.Range(0, 120, 1025));
        String canonical = CanonicalForm.of(s);
        assertThat(canonical).contains("\"range\":{\"hi\":120,\"levels\":1025,\"lo\":0}");
        WorkloadSpec back = WorkloadSpecParser.parse(MiniJson.parse(canonical));
        assertThat(back).isEqualTo(s);
        assertThat(CanonicalForm.contentHash(back)).isEqualTo(CanonicalForm.contentHash(s));
        WorkloadSpec other = WorkloadSpecParser.parse(tree(Map.of("lo", 0, "hi", 120, "levels", 513), "auto"));
        assertThat(CanonicalForm.contentHash(other)).isNotEqualTo(CanonicalForm.contentHash(s));
    }

    @Test
    void rejectsBadRangesAndForeignMechanisms() {
        assertThatThrownBy(() -> WorkloadSpecParser.parse(tree(Map.of("lo", 5, "hi", 5), "auto")))
                .isInstanceOf(InvalidWorkloadException.class).hasMessageContaining("domain.range.hi");
        assertThatThrownBy(() -> WorkloadSpecParser.parse(tree(Map.of("lo", 0, "hi", 1, "levels", 1), "auto")))
                .isInstanceOf(InvalidWorkloadException.class).hasMessageContaining("domain.range.levels");
        assertThatThrownBy(() -> WorkloadSpecParser.parse(tree(Map.of("lo", 0, "hi", 1, "step", 1), "auto")))
                .isInstanceOf(InvalidWorkloadException.class).hasMessageContaining("domain.range.step");
        assertThatThrownBy(() -> WorkloadSpecParser.parse(tree(Map.of("lo", 0, "hi", 1), "grr")))
                .isInstanceOf(InvalidWorkloadException.class).hasMessageContaining("mechanism");
        Map<String, Object> hist = tree(Map.of("lo", 0, "hi", 1), "duchi");
        hist.put("family", "histogram");
        hist.put("domain", Map.of("labels", java.util.List.of("a", "b")));
        assertThatThrownBy(() -> WorkloadSpecParser.parse(hist)).isInstanceOf(InvalidWorkloadException.class)
                .hasMessageContaining("answers family mean only");
        Map<String, Object> wrongDomain = tree(Map.of("lo", 0, "hi", 1), "auto");
        wrongDomain.put("domain", Map.of("labels", java.util.List.of("a", "b")));
        assertThatThrownBy(() -> WorkloadSpecParser.parse(wrongDomain)).isInstanceOf(InvalidWorkloadException.class)
                .hasMessageContaining("domain");
    }

    @Test
    void encodesANumberToTheNearestLevel() throws InvalidValueException {
        Workload w = Workload.of(WorkloadSpecParser.parse(tree(Map.of("lo", 0, "hi", 100, "levels", 101), "hybrid")));
        assertThat(w.universeSize()).isEqualTo(101);
        assertThat(w.queryCount()).isEqualTo(1);
        assertThat(w.encode("42.4")).isEqualTo(42);
        assertThat(w.encode(" 42.6 ")).isEqualTo(43);
        assertThat(w.encode("42.5")).isEqualTo(42);
        assertThat(w.encode("100")).isEqualTo(100);
        assertThat(w.encode("0")).isEqualTo(0);
        assertThat(w.points().row(37)[0]).isEqualTo(37.0);
        assertThatThrownBy(() -> w.encode("100.01")).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> w.encode("abc")).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> w.encode("NaN")).isInstanceOf(InvalidValueException.class);
    }
}
