package io.privacygateway.mechanisms.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The mean family's vector domains (ball and box): parser, rules, canonical form; the scalar mean unchanged. */
class VectorMeanWorkloadSpecTest {
    static Map<String, Object> tree(String kind, Map<String, Object> domain, String mechanism) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "resource-usage");
        t.put("version", 1);
        t.put("family", "mean");
        t.put("domain", Map.of(kind, domain));
        t.put("mechanism", mechanism);
        t.put("epsilonPerReport", 1.0);
        t.put("budget", Map.of("epsilonPerPeriod", 1.0, "period", "1d"));
        t.put("window", Map.of("size", "1m"));
        return t;
    }

    static Map<String, Object> ball(Object coordinates, Object radius) {
        Map<String, Object> m = new HashMap<>();
        m.put("coordinates", coordinates);
        m.put("radius", radius);
        return m;
    }

    static Map<String, Object> box(Object coordinates, Object lo, Object hi) {
        Map<String, Object> m = new HashMap<>();
        m.put("coordinates", coordinates);
        m.put("lo", lo);
        m.put("hi", hi);
        return m;
    }

    static void refused(Map<String, Object> tree, String field) {
        assertThatThrownBy(() -> WorkloadSpecParser.parse(tree)).isInstanceOf(InvalidWorkloadException.class)
                .hasMessageContaining(field);
    }

    @Test
    void parsesABallAndRoundTripsThroughTheCanonicalForm() {
        WorkloadSpec s = WorkloadSpecParser.parse(tree("ball", ball(List.of("cpu", "memory", "battery"), 1.5), "auto"));
        assertThat(s.domain()).isEqualTo(new Domain.Ball(List.of("cpu", "memory", "battery"), 1.5));
        assertThat(s.isVectorMean()).isTrue();
        assertThat(((Domain.Vector) s.domain()).dimension()).isEqualTo(3);
        String canonical = CanonicalForm.of(s);
        assertThat(canonical).contains("\"ball\":{\"coordinates\":[\"cpu\",\"memory\",\"battery\"],\"radius\":1.5}");
        WorkloadSpec back = WorkloadSpecParser.parse(MiniJson.parse(canonical));
        assertThat(back).isEqualTo(s);
        assertThat(CanonicalForm.contentHash(back)).isEqualTo(CanonicalForm.contentHash(s));
        // every new key is covered by the hash: radius, coordinate names, their order
        for (Map<String, Object> other : List.of(ball(List.of("cpu", "memory", "battery"), 2.0),
                ball(List.of("cpu", "memory", "disk"), 1.5), ball(List.of("memory", "cpu", "battery"), 1.5))) {
            assertThat(CanonicalForm.contentHash(WorkloadSpecParser.parse(tree("ball", other, "auto"))))
                    .isNotEqualTo(CanonicalForm.contentHash(s));
        }
        WorkloadSpec named = WorkloadSpecParser.parse(tree("ball", ball(List.of("cpu"), 1), "privunit-g"));
        assertThat(named.mechanism()).isEqualTo(MechanismId.PRIVUNIT_G);
    }

    @Test
    void parsesABoxWithDefaultLevelsAndRoundTripsThroughTheCanonicalForm() {
        WorkloadSpec s = WorkloadSpecParser.parse(tree("box", box(List.of("cpu", "memory"), 0, 100), "auto"));
        assertThat(s.domain()).isEqualTo(new Domain.Box(List.of("cpu", "memory"), 0, 100, Domain.Range.DEFAULT_LEVELS));
        assertThat(((Domain.Vector) s.domain()).coordinateLo()).isEqualTo(0);
        assertThat(((Domain.Vector) s.domain()).coordinateHi()).isEqualTo(100);
        String canonical = CanonicalForm.of(s);
        assertThat(canonical).contains("\"box\":{\"coordinates\":[\"cpu\",\"memory\"],\"hi\":100,\"levels\":1025,"
                + "\"lo\":0}");
        WorkloadSpec back = WorkloadSpecParser.parse(MiniJson.parse(canonical));
        assertThat(back).isEqualTo(s);
        assertThat(CanonicalForm.contentHash(back)).isEqualTo(CanonicalForm.contentHash(s));
        Map<String, Object> levels = box(List.of("cpu", "memory"), 0, 100);
        levels.put("levels", 513);
        assertThat(CanonicalForm.contentHash(WorkloadSpecParser.parse(tree("box", levels, "auto"))))
                .isNotEqualTo(CanonicalForm.contentHash(s));
        for (String m : List.of("duchi", "piecewise", "hybrid")) {
            assertThat(WorkloadSpecParser.parse(tree("box", box(List.of("cpu"), -1, 1), m)).mechanism().wireName())
                    .isEqualTo(m);
        }
    }

    @Test
    void namesEveryBadFieldOfABall() {
        refused(tree("ball", ball(List.of(), 1), "auto"), "domain.ball.coordinates");
        refused(tree("ball", ball(List.of("cpu", " "), 1), "auto"), "domain.ball.coordinates[1]");
        refused(tree("ball", ball(List.of("cpu", "cpu"), 1), "auto"), "domain.ball.coordinates[1]");
        refused(tree("ball", ball(List.of("cpu", "x".repeat(65)), 1), "auto"), "domain.ball.coordinates[1]");
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 257; i++) {
            many.add("c" + i);
        }
        refused(tree("ball", ball(many, 1), "auto"), "domain.ball.coordinates");
        refused(tree("ball", ball("cpu", 1), "auto"), "domain.ball.coordinates");
        refused(tree("ball", ball(List.of("cpu"), 0), "auto"), "domain.ball.radius");
        refused(tree("ball", ball(List.of("cpu"), -1), "auto"), "domain.ball.radius");
        refused(tree("ball", ball(List.of("cpu"), "NaN"), "auto"), "domain.ball.radius");
        refused(tree("ball", ball(List.of("cpu"), "Infinity"), "auto"), "domain.ball.radius");
        refused(tree("ball", ball(List.of("cpu"), "wide"), "auto"), "domain.ball.radius");
        refused(tree("ball", ball(List.of("cpu"), null), "auto"), "domain.ball.radius");
        Map<String, Object> extra = ball(List.of("cpu"), 1);
        extra.put("lo", 0);
        refused(tree("ball", extra, "auto"), "domain.ball.lo");
        Map<String, Object> notAMap = tree("ball", ball(List.of("cpu"), 1), "auto");
        notAMap.put("domain", Map.of("ball", List.of("cpu")));
        refused(notAMap, "domain.ball");
        for (String m : List.of("duchi", "piecewise", "hybrid", "grr", "prefix-tree-sketch")) {
            refused(tree("ball", ball(List.of("cpu"), 1), m), "mechanism");
        }
    }

    @Test
    void namesEveryBadFieldOfABox() {
        refused(tree("box", box(List.of(), 0, 1), "auto"), "domain.box.coordinates");
        refused(tree("box", box(List.of("a", "a"), 0, 1), "auto"), "domain.box.coordinates[1]");
        refused(tree("box", box(List.of("a"), 5, 5), "auto"), "domain.box.hi");
        refused(tree("box", box(List.of("a"), 5, 1), "auto"), "domain.box.hi");
        refused(tree("box", box(List.of("a"), "NaN", 1), "auto"), "domain.box.lo");
        refused(tree("box", box(List.of("a"), 0, 1e13), "auto"), "domain.box.hi");
        refused(tree("box", box(List.of("a"), null, 1), "auto"), "domain.box.lo");
        Map<String, Object> levels = box(List.of("a"), 0, 1);
        levels.put("levels", 1);
        refused(tree("box", levels, "auto"), "domain.box.levels");
        Map<String, Object> extra = box(List.of("a"), 0, 1);
        extra.put("radius", 1);
        refused(tree("box", extra, "auto"), "domain.box.radius");
        for (String m : List.of("privunit-g", "grr", "oue")) {
            refused(tree("box", box(List.of("a"), 0, 1), m), "mechanism");
        }
    }

    @Test
    void refusesCentralModeTwoDomainsAndVectorDomainsOnOtherFamilies() {
        Map<String, Object> central = tree("box", box(List.of("a"), 0, 1), "auto");
        central.put("mode", "central");
        refused(central, "mode");
        Map<String, Object> two = tree("box", box(List.of("a"), 0, 1), "auto");
        two.put("domain", Map.of("box", box(List.of("a"), 0, 1), "ball", ball(List.of("a"), 1)));
        refused(two, "domain");
        Map<String, Object> hist = tree("ball", ball(List.of("a", "b"), 1), "auto");
        hist.put("family", "histogram");
        refused(hist, "domain");
        Map<String, Object> foreign = tree("ball", ball(List.of("a", "b"), 1), "privunit-g");
        foreign.put("family", "histogram");
        foreign.put("domain", Map.of("labels", List.of("a", "b")));
        refused(foreign, "answers family mean only");
        WorkloadSpec s = WorkloadSpecParser.parse(tree("box", box(List.of("a"), 0, 1), "duchi"));
        assertThatThrownBy(() -> Workload.of(s)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("never materialised");
    }

    @Test
    void theScalarMeanWorkloadsCanonicalFormAndHashAreUnchanged() {
        // the demo's latency-mean.yaml: canonical form and hash computed before the vector domains existed
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "latency-mean");
        t.put("version", 1);
        t.put("family", "mean");
        t.put("domain", Map.of("range", Map.of("lo", 0, "hi", 2000)));
        t.put("mechanism", "auto");
        t.put("epsilonPerReport", 1.0);
        t.put("budget", Map.of("epsilonPerPeriod", 1.0, "period", "10s"));
        t.put("window", Map.of("size", "10s", "grace", "2s"));
        t.put("confidence", 0.95);
        t.put("expectedReportsPerWindow", 2800);
        WorkloadSpec s = WorkloadSpecParser.parse(t);
        assertThat(CanonicalForm.of(s)).isEqualTo("{\"budget\":{\"epsilonPerPeriod\":1,\"period\":\"PT10S\"},"
                + "\"confidence\":0.9499999999999999555910790149937383830547332763671875,\"domain\":{\"range\":"
                + "{\"hi\":2000,\"levels\":1025,\"lo\":0}},\"epsilonPerReport\":1,\"epsilonSplit\":\"optimal\","
                + "\"expectedReportsPerWindow\":2800,\"family\":\"mean\",\"id\":\"latency-mean\",\"mechanism\":\"auto\","
                + "\"mode\":\"local\",\"protocol\":\"pgw-v1\",\"queries\":{},\"version\":1,\"window\":{\"grace\":\"PT2S\","
                + "\"size\":\"PT10S\"}}");
        assertThat(CanonicalForm.contentHash(s))
                .isEqualTo("f83becce1b93c4328a1aee04c12ddb840a6471e823cc0cbf24c81335a39c040d");
        assertThat(s.isVectorMean()).isFalse();
    }
}
