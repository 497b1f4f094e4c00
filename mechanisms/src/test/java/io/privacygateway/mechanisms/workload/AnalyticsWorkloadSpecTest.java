package io.privacygateway.mechanisms.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.analytics.AnalyticsFixtures;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The window-analytics families in workload files: validated like every other family (errors name the field),
 * central-only, each with its own mechanisms, grid values encoded per axis, canonical forms that parse back.
 */
class AnalyticsWorkloadSpecTest {

    private static Map<String, Object> tree(WorkloadSpec s) {
        return MiniJson.parse(CanonicalForm.of(s));
    }

    private static void fails(Map<String, Object> tree, String field, String fragment) {
        assertThatThrownBy(() -> WorkloadSpecParser.parse(tree)).isInstanceOf(InvalidWorkloadException.class)
                .hasMessageStartingWith(field + ":").hasMessageContaining(fragment);
    }

    @Test
    void eachFamilyParsesAndItsCanonicalFormParsesBackToTheSameSpec() {
        for (WorkloadSpec s : List.of(AnalyticsFixtures.mode("mode-ptr", 1),
                AnalyticsFixtures.regression("adassp", 1, "add-remove", 1),
                AnalyticsFixtures.erm("erm-exponential", 0.5, "replace-one", 2))) {
            WorkloadSpec back = WorkloadSpecParser.parse(tree(s));
            assertThat(back).isEqualTo(s);
            assertThat(CanonicalForm.contentHash(back)).isEqualTo(CanonicalForm.contentHash(s));
        }
        WorkloadSpec erm = AnalyticsFixtures.erm("erm-exponential", 1, "add-remove", 1);
        assertThat(erm.model()).isEqualTo(new WorkloadSpec.Model("logistic", 4, 0.001));
        // the model is part of the content hash
        WorkloadSpec other = erm.toBuilder().model(new WorkloadSpec.Model("logistic", 5, 0.001)).build();
        assertThat(CanonicalForm.contentHash(other)).isNotEqualTo(CanonicalForm.contentHash(erm));
    }

    @Test
    void analyticsFamiliesAreCentralOnlyAndRunOnlyTheirOwnMechanisms() {
        Map<String, Object> t = tree(AnalyticsFixtures.mode("mode-ptr", 1));
        t.put("mechanism", "laplace");
        fails(t, "mechanism", "does not answer family mode");
        t.put("mechanism", "adassp");
        fails(t, "mechanism", "does not answer family mode");
        t.put("mechanism", "auto");
        t.remove("central");
        t.put("mode", "local");
        t.put("epsilonPerReport", 1);
        fails(t, "mode", "central mode only");
        // and the linear families cannot name an analytics mechanism
        Map<String, Object> h = new LinkedHashMap<>(t);
        h.put("family", "histogram");
        h.put("mode", "central");
        h.remove("epsilonPerReport");
        h.put("central", Map.of("epsilonPerRelease", 1, "neighbour", "add-remove"));
        h.put("mechanism", "mode-exponential");
        fails(h, "mechanism", "does not answer family histogram");
    }

    @Test
    void gridDomainsAreValidatedFieldByField() {
        Map<String, Object> t = tree(AnalyticsFixtures.regression("ssp-laplace", 1, "add-remove", 1));
        Map<String, Object> domain = new LinkedHashMap<>(castMap(t.get("domain")));
        t.put("domain", domain);
        domain.remove("response");
        fails(t, "domain", "needs features and response");
        domain.put("response", Map.of("name", "y", "buckets", List.of(0, 1, 1)));
        fails(t, "domain.y.buckets[2]", "increase strictly");
        domain.put("response", Map.of("name", "y", "buckets", List.of(0, 1), "values", List.of(1)));
        fails(t, "domain.y", "exactly one of buckets");
        domain.put("response", Map.of("name", "x1", "values", List.of(0, 1)));
        fails(t, "domain.response.name", "also a feature name");
        domain.put("response", Map.of("name", "y", "values", List.of(0, 1), "scale", 2));
        fails(t, "domain.response.scale", "unknown field");
        domain.put("features", List.of());
        domain.put("response", Map.of("name", "y", "values", List.of(0, 1)));
        fails(t, "domain.features", "at least 1 feature");
        domain.put("features", List.of(Map.of("name", "a", "values", List.of(0, 1)),
                Map.of("name", "a", "values", List.of(0, 1))));
        fails(t, "domain.features[1].name", "duplicate");
        // the universe (cells) is bounded like every other family's
        List<Double> many = new java.util.ArrayList<>();
        for (int i = 0; i <= 1024; i++) {
            many.add((double) i);
        }
        domain.put("features", List.of(Map.of("name", "a", "buckets", many), Map.of("name", "b", "buckets", many)));
        fails(t, "domain", "universe has");
    }

    @Test
    void ermNeedsItsModelAndABinaryResponse() {
        Map<String, Object> t = tree(AnalyticsFixtures.erm("purified-dpsgd", 1, "add-remove", 1));
        Map<String, Object> model = new LinkedHashMap<>(castMap(t.get("model")));
        t.put("model", model);
        model.put("radius", 0);
        fails(t, "model.radius", "(0, 1e6]");
        model.put("radius", 4);
        model.put("loss", "hinge");
        fails(t, "model.loss", "logistic");
        model.put("loss", "logistic");
        model.put("regularization", -1);
        fails(t, "model.regularization", "[0, 1e6]");
        t.remove("model");
        fails(t, "model", "required for family erm");
        Map<String, Object> r = tree(AnalyticsFixtures.regression("adassp", 1, "add-remove", 1));
        r.put("model", Map.of("loss", "logistic", "radius", 1));
        fails(r, "model", "only allowed for family erm");
        Map<String, Object> e = tree(AnalyticsFixtures.erm("purified-dpsgd", 1, "add-remove", 1));
        Map<String, Object> domain = new LinkedHashMap<>(castMap(e.get("domain")));
        domain.put("response", Map.of("name", "y", "values", List.of(0, 1, 2)));
        e.put("domain", domain);
        fails(e, "domain.response", "exactly two values");
    }

    @Test
    void gridValuesEncodePerAxisAndOutOfRangeValuesNameTheAxis() throws Exception {
        Workload w = Workload.of(AnalyticsFixtures.regression("adassp", 1, "add-remove", 1));
        Domain.Grid g = (Domain.Grid) w.spec().domain();
        assertThat(w.universeSize()).isEqualTo(1 * 8 * 3 * 10);
        assertThat(w.queryLabels()).containsExactly("one", "x1", "x2");
        int x = w.encode("1, 2.5, 0.7, 9.99");
        assertThat(g.featuresOf(x)).containsExactly(1, 2.5, 0.5); // x1 bucket [2,3) → 2.5; x2 nearest 0.5
        assertThat(g.responseOf(x)).isEqualTo(9.5);
        // every universe label is a raw value that encodes to its own cell
        for (int c = 0; c < w.universeSize(); c++) {
            assertThat(w.encode(w.universeLabel(c))).isEqualTo(c);
        }
        assertThatThrownBy(() -> w.encode("1,9,0,1")).hasMessageContaining("x1").hasMessageContaining("outside");
        assertThatThrownBy(() -> w.encode("2,1,0,1")).hasMessageContaining("one");
        assertThatThrownBy(() -> w.encode("1,1,0")).hasMessageContaining("expected 3 feature value(s)");
        assertThatThrownBy(() -> w.encode("1,x,0,1")).hasMessageContaining("not a number");
    }

    @Test
    void analyticsFamiliesHaveNoFeasibleSetAndTheirTruthIsTheStatistic() {
        Workload mode = Workload.of(AnalyticsFixtures.mode("mode-exponential", 1));
        assertThatThrownBy(mode::feasibleSetShape).isInstanceOf(IllegalStateException.class);
        assertThat(io.privacygateway.mechanisms.analytics.WindowStatistics.trueAnswer(mode, new long[] {1, 5, 5, 0, 2})).containsExactly(0, 1, 0, 0, 0); // ties to the first
        assertThat(mode.meanAnswer(new long[] {1, 1, 0, 0, 2})).containsExactly(0.25, 0.25, 0, 0, 0.5);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Object o) {
        return (Map<String, Object>) o;
    }
}
