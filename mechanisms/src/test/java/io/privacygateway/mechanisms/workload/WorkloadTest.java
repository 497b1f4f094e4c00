package io.privacygateway.mechanisms.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkloadTest {

    static Map<String, Object> base(String family, Map<String, Object> domain) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "w1");
        t.put("version", 1);
        t.put("family", family);
        t.put("domain", domain);
        t.put("epsilonPerReport", 1.0);
        t.put("budget", Map.of("epsilonPerPeriod", 4.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        return t;
    }

    @Test
    void parsesAHistogramWithDefaults() {
        WorkloadSpec s = WorkloadSpecParser.parse(base("histogram", Map.of("labels", List.of("a", "b", "c"))));
        assertThat(s.mechanism()).isEqualTo(MechanismId.AUTO);
        assertThat(s.mode()).isEqualTo(Mode.LOCAL);
        assertThat(s.confidence().value()).isEqualTo(0.95);
        assertThat(s.reportsPerPeriod()).isEqualTo(4);
        assertThat(s.window().size()).isEqualTo(Duration.ofMinutes(1));
        assertThat(s.budget().period()).isEqualTo(Duration.ofDays(1));
        Workload w = Workload.of(s);
        assertThat(w.universeSize()).isEqualTo(3);
        assertThat(w.queryCount()).isEqualTo(3);
        assertThat(w.points().row(1)).containsExactly(0, 1, 0);
        assertThat(w.contentHash()).hasSize(64);
    }

    @Test
    void cdfQueriesAreStrictPrefixes() throws Exception {
        Workload w = Workload.of(WorkloadSpecParser.parse(base("cdf", Map.of("buckets", List.of(0, 10, 20, 50)))));
        assertThat(w.universeSize()).isEqualTo(3);
        assertThat(w.queryCount()).isEqualTo(2);
        assertThat(w.queryLabels()).containsExactly("< 10", "< 20");
        assertThat(w.points().row(0)).containsExactly(1, 1);
        assertThat(w.points().row(1)).containsExactly(0, 1);
        assertThat(w.points().row(2)).containsExactly(0, 0);
        assertThat(w.encode("0")).isZero();
        assertThat(w.encode("10")).isEqualTo(1);
        assertThat(w.encode("19.99")).isEqualTo(1);
        assertThat(w.encode("50")).isEqualTo(2);
        assertThatThrownBy(() -> w.encode("50.5")).hasMessageContaining("outside");
        assertThatThrownBy(() -> w.encode("abc")).hasMessageContaining("not a number");
    }

    @Test
    void rangeQueriesCoverAllIntervals() {
        Workload w = Workload.of(WorkloadSpecParser.parse(base("range", Map.of("buckets", List.of(0, 1, 2, 3)))));
        assertThat(w.queryCount()).isEqualTo(6);
        assertThat(w.queryLabels()).containsExactly("[0, 1)", "[0, 2)", "[0, 3]", "[1, 2)", "[1, 3]", "[2, 3]");
        assertThat(w.points().row(1)).containsExactly(0, 1, 1, 1, 1, 0);
    }

    @Test
    void marginalsCountCells() throws Exception {
        Map<String, Object> t = base("marginals", Map.of("attributes", List.of("a", "b", "c", "d")));
        t.put("queries", Map.of("way", 2));
        Workload w = Workload.of(WorkloadSpecParser.parse(t));
        assertThat(w.universeSize()).isEqualTo(16);
        assertThat(w.queryCount()).isEqualTo(6 * 4);
        assertThat(w.queryLabel(0)).isEqualTo("a=0,b=0");
        assertThat(w.queryLabel(3)).isEqualTo("a=1,b=1");
        int x = w.encode("1,1,0,1");
        assertThat(x).isEqualTo(0b1011);
        double[] q = w.points().row(x);
        assertThat(q[3]).isEqualTo(1); // a=1,b=1
        double sum = 0;
        for (double v : q) {
            sum += v;
        }
        assertThat(sum).isEqualTo(6); // exactly one cell per marginal
        assertThatThrownBy(() -> w.encode("1,2,0,1")).hasMessageContaining("attribute b");
        assertThatThrownBy(() -> w.encode("1,0")).hasMessageContaining("expected 4");
    }

    @Test
    void pointsFamily() throws Exception {
        Map<String, Object> t = base("points", Map.of("points", List.of(
                Map.of("label", "x", "answer", List.of(0, 1)),
                Map.of("label", "y", "answer", List.of(0.5, 0.5)))));
        t.put("queries", Map.of("labels", List.of("first", "second")));
        Workload w = Workload.of(WorkloadSpecParser.parse(t));
        assertThat(w.encode("y")).isEqualTo(1);
        assertThat(w.queryLabels()).containsExactly("first", "second");
        assertThatThrownBy(() -> w.encode("z")).hasMessageContaining("unknown label \"z\"");
    }

    @Test
    void errorsNameTheFieldAndValue() {
        Map<String, Object> t = base("histogram", Map.of("labels", List.of("a", "b")));
        t.put("epsilonPerReport", -1);
        assertThatThrownBy(() -> WorkloadSpecParser.parse(t))
                .isInstanceOf(InvalidWorkloadException.class)
                .hasMessageContaining("epsilonPerReport").hasMessageContaining("-1");

        Map<String, Object> t2 = base("histogram", Map.of("labels", List.of("a", "a")));
        assertThatThrownBy(() -> WorkloadSpecParser.parse(t2)).hasMessageContaining("domain.labels[1]");

        Map<String, Object> t3 = base("cdf", Map.of("buckets", List.of(0, 5, 3)));
        assertThatThrownBy(() -> WorkloadSpecParser.parse(t3)).hasMessageContaining("domain.buckets[2]");

        Map<String, Object> t4 = base("histogram", Map.of("labels", List.of("a", "b")));
        t4.put("epsilon_per_report", 1);
        assertThatThrownBy(() -> WorkloadSpecParser.parse(t4)).hasMessageContaining("epsilon_per_report: unknown field");

        Map<String, Object> t5 = base("histogram", Map.of("labels", List.of("a", "b")));
        t5.put("window", Map.of("size", "soon"));
        assertThatThrownBy(() -> WorkloadSpecParser.parse(t5)).hasMessageContaining("window.size").hasMessageContaining("soon");

        Map<String, Object> t6 = base("histogram", Map.of("labels", List.of("a", "b")));
        t6.put("budget", Map.of("epsilonPerPeriod", 0.5, "period", "1d"));
        assertThatThrownBy(() -> WorkloadSpecParser.parse(t6)).hasMessageContaining("budget.epsilonPerPeriod");

        Map<String, Object> t7 = base("histogram", Map.of("labels", List.of("a", "b")));
        t7.put("mechanism", "chaining");
        assertThatThrownBy(() -> WorkloadSpecParser.parse(t7)).hasMessageContaining("alpha: is required");

        Map<String, Object> t8 = base("histogram", Map.of("labels", List.of("a", "b")));
        t8.put("mechanism", "laplace");
        assertThatThrownBy(() -> WorkloadSpecParser.parse(t8)).hasMessageContaining("central-mode mechanism");

        Map<String, Object> t9 = base("cdf", Map.of("labels", List.of("a", "b")));
        assertThatThrownBy(() -> WorkloadSpecParser.parse(t9)).hasMessageContaining("domain: family cdf needs");

        Map<String, Object> t10 = base("histogram", Map.of("labels", List.of("a", "b")));
        t10.put("epsilonPerReport", Double.NaN);
        assertThatThrownBy(() -> WorkloadSpecParser.parse(t10)).hasMessageContaining("NaN");
    }

    @Test
    void centralModeBlock() {
        Map<String, Object> t = base("histogram", Map.of("labels", List.of("a", "b")));
        t.remove("epsilonPerReport");
        t.put("mode", "central");
        t.put("central", Map.of("epsilonPerRelease", 1.0, "neighbour", "replace-one", "contributionsPerWindow", 2));
        WorkloadSpec s = WorkloadSpecParser.parse(t);
        assertThat(s.central().neighbour()).isEqualTo(NeighbourRelation.REPLACE_ONE);
        assertThat(s.central().contributionsPerWindow()).isEqualTo(2);
        assertThat(s.reportsPerPeriod()).isEqualTo(4);
        t.put("central", Map.of("epsilonPerRelease", 1.0, "neighbour", "everyone"));
        assertThatThrownBy(() -> WorkloadSpecParser.parse(t)).hasMessageContaining("central.neighbour");
    }

    @Test
    void contentHashIsStableAndSensitive() {
        WorkloadSpec a = WorkloadSpecParser.parse(base("histogram", Map.of("labels", List.of("a", "b"))));
        WorkloadSpec b = WorkloadSpecParser.parse(base("histogram", Map.of("labels", List.of("a", "b"))));
        assertThat(CanonicalForm.contentHash(a)).isEqualTo(CanonicalForm.contentHash(b));
        assertThat(CanonicalForm.of(a)).isEqualTo("{\"budget\":{\"epsilonPerPeriod\":4,\"period\":\"PT24H\"},"
                + "\"confidence\":0.9499999999999999555910790149937383830547332763671875,"
                + "\"domain\":{\"labels\":[\"a\",\"b\"]},\"epsilonPerReport\":1,\"epsilonSplit\":\"optimal\","
                + "\"family\":\"histogram\",\"id\":\"w1\",\"mechanism\":\"auto\",\"mode\":\"local\",\"protocol\":\"pgw-v1\",\"queries\":{},"
                + "\"version\":1,\"window\":{\"grace\":\"PT10S\",\"size\":\"PT1M\"}}");
        assertThat(CanonicalForm.contentHash(a.toBuilder().mechanism(MechanismId.OUE).build()))
                .isNotEqualTo(CanonicalForm.contentHash(a));
    }

    @Test
    void canonicalJsonParsesBackToTheSameHash() throws Exception {
        Map<String, Object> t = base("marginals", Map.of("attributes", List.of("a", "b", "c")));
        t.put("queries", Map.of("way", 2));
        t.put("alpha", 0.25);
        WorkloadSpec s = WorkloadSpecParser.parse(t);
        // a minimal JSON reader is not available here: rebuild the tree the way Jackson would
        Map<String, Object> back = MiniJson.parse(CanonicalForm.of(s));
        WorkloadSpec again = WorkloadSpecParser.parse(back);
        assertThat(CanonicalForm.contentHash(again)).isEqualTo(CanonicalForm.contentHash(s));
        back.put("protocol", "pgw-v0");
        assertThatThrownBy(() -> WorkloadSpecParser.parse(back)).hasMessageContaining("protocol")
                .hasMessageContaining("pgw-v0");
    }
}
