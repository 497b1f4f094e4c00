package io.privacygateway.mechanisms.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.central.wide.MarginalCounts;
import io.privacygateway.mechanisms.central.wide.MarginalWorkload;
import io.privacygateway.mechanisms.planner.Planner;
import io.privacygateway.mechanisms.runtime.CentralWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Wide marginal workloads in the file format ({@code family: marginals}, up to 26 attributes, mechanism mwem or
 * worst-case-chaining, optional {@code central.synthetic}): parsed, validated with the field named, hashed with every
 * new field, and resolved without materialising the {@code 2^d} universe.
 */
class WideWorkloadSpecTest {
    static List<String> flags(int d) {
        List<String> names = new ArrayList<>();
        for (int j = 0; j < d; j++) {
            names.add(String.format("flag%02d", j));
        }
        return names;
    }

    /** A central marginals workload over d flags, way k, with the given mechanism. */
    static Map<String, Object> tree(int d, int k, String mechanism) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "flags-wide");
        t.put("version", 1);
        t.put("family", "marginals");
        t.put("domain", Map.of("attributes", flags(d)));
        t.put("queries", Map.of("way", k));
        t.put("mode", "central");
        t.put("mechanism", mechanism);
        t.put("central", new HashMap<>(Map.of("epsilonPerRelease", 1.0, "neighbour", "add-remove",
                "contributionsPerWindow", 1)));
        t.put("budget", Map.of("epsilonPerPeriod", 10.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        t.put("expectedReportsPerWindow", 100_000);
        return t;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> central(Map<String, Object> t) {
        return (Map<String, Object>) t.get("central");
    }

    private static void fails(Map<String, Object> t, String field) {
        assertThatThrownBy(() -> WorkloadSpecParser.parse(t)).isInstanceOf(InvalidWorkloadException.class)
                .hasMessageStartingWith(field + ":");
    }

    @Test
    void twentyFlagsResolveWithoutMaterialisingTheUniverse() {
        WorkloadSpec s = WorkloadSpecParser.parse(tree(20, 3, "mwem"));
        assertThat(s.isWide()).isTrue();
        CentralWorkload w = (CentralWorkload) ResolvedWorkload.of(s);
        assertThat(w.wide()).contains(MarginalWorkload.of(flags(20), 3));
        assertThat(w.aggregateLength()).isEqualTo(9120);
        assertThat(w.queryLabels()).hasSize(9120).startsWith("flag00=0,flag01=0,flag02=0");
        assertThat(w.contentHash()).isEqualTo(CanonicalForm.contentHash(s));
        assertThatThrownBy(w::workload).isInstanceOf(IllegalStateException.class).hasMessageContaining("never");
        assertThatThrownBy(w::release).isInstanceOf(IllegalStateException.class);
        // the dense limit: 2^26 values would be 4 GiB of answer vectors if materialised; resolving takes no time
        CentralWorkload big = (CentralWorkload) ResolvedWorkload.of(WorkloadSpecParser.parse(tree(26, 2,
                "worst-case-chaining")));
        assertThat(big.aggregateLength()).isEqualTo(325 * 4);
    }

    @Test
    void reportsAreBitVectorsAggregatedAsMarginalCells() throws Exception {
        CentralWorkload w = (CentralWorkload) ResolvedWorkload.of(WorkloadSpecParser.parse(tree(20, 3, "mwem")));
        MarginalWorkload mw = w.wide().orElseThrow();
        long[] state = new long[w.aggregateLength()];
        MarginalCounts expected = MarginalCounts.empty(mw);
        Random r = new Random(3);
        for (int i = 0; i < 200; i++) {
            StringBuilder v = new StringBuilder();
            long bits = 0;
            for (int j = 0; j < 20; j++) {
                int b = r.nextInt(2);
                v.append(j == 0 ? "" : ",").append(b);
                bits |= (long) b << j;
            }
            int index = w.encode(v.toString());
            assertThat(index).isEqualTo(bits);
            w.accumulate(index, state);
            expected.add(bits);
        }
        assertThat(w.marginalCounts(200, state)).isEqualTo(expected);
        // malformed bit vectors are refused by encode, naming no value
        for (String bad : new String[] {"", "1,0", "1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1", "2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0",
            "1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,x", "true,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0"}) {
            assertThatThrownBy(() -> w.encode(bad)).isInstanceOf(InvalidValueException.class);
        }
        // an index beyond d bits leaves the aggregate unchanged
        long[] before = state.clone();
        assertThatThrownBy(() -> w.accumulate(1 << 20, state)).isInstanceOf(IllegalArgumentException.class);
        assertThat(state).isEqualTo(before);
        // a state that is not consistent marginals is refused when the window is released
        state[0]++;
        assertThatThrownBy(() -> w.marginalCounts(200, state)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void everyWideRuleNamesItsField() {
        // more than 16 attributes: only the wide mechanisms (or auto in central mode)
        fails(tree(20, 3, "central-projection"), "domain");
        Map<String, Object> local = tree(20, 3, "auto");
        local.remove("mode");
        local.remove("central");
        local.put("epsilonPerReport", 1.0);
        fails(local, "domain");
        fails(tree(27, 3, "mwem"), "domain.attributes");
        fails(tree(20, 9, "mwem"), "queries.way");
        Map<String, Object> comma = tree(18, 2, "mwem");
        List<String> names = new ArrayList<>(flags(18));
        names.set(1, "a=b");
        comma.put("domain", Map.of("attributes", names));
        fails(comma, "domain.attributes[1]");
        // the wide mechanisms answer marginals only
        Map<String, Object> hist = tree(20, 3, "mwem");
        hist.put("family", "histogram");
        hist.put("domain", Map.of("labels", List.of("a", "b")));
        hist.remove("queries");
        fails(hist, "mechanism");
        // synthetic records: a map {records} in [1, 4096], mwem (or auto) only
        Map<String, Object> t = tree(20, 3, "mwem");
        central(t).put("synthetic", Map.of("records", 0));
        fails(t, "central.synthetic.records");
        central(t).put("synthetic", Map.of("records", 4097));
        fails(t, "central.synthetic.records");
        central(t).put("synthetic", Map.of("records", 100, "format", "csv"));
        fails(t, "central.synthetic.format");
        central(t).put("synthetic", 100);
        fails(t, "central.synthetic");
        Map<String, Object> chaining = tree(20, 3, "worst-case-chaining");
        central(chaining).put("synthetic", Map.of("records", 100));
        fails(chaining, "central.synthetic");
        // running totals need counts per universe value
        Map<String, Object> totals = tree(20, 3, "mwem");
        totals.put("window", Map.of("size", "1m", "grace", "10s", "horizons", List.of("1h")));
        central(totals).put("epsilonPerRunningTotal", 0.5);
        fails(totals, "window.horizons");
    }

    @Test
    void theContentHashCoversEveryNewField() {
        WorkloadSpec plain = WorkloadSpecParser.parse(tree(20, 3, "mwem"));
        Map<String, Object> t = tree(20, 3, "mwem");
        central(t).put("synthetic", Map.of("records", 1000));
        WorkloadSpec synthetic = WorkloadSpecParser.parse(t);
        assertThat(synthetic.central().synthetic()).isEqualTo(new WorkloadSpec.Synthetic(1000));
        assertThat(CanonicalForm.of(synthetic)).contains("\"synthetic\":{\"records\":1000}");
        assertThat(CanonicalForm.of(plain)).doesNotContain("synthetic");
        central(t).put("synthetic", Map.of("records", 1001));
        WorkloadSpec other = WorkloadSpecParser.parse(t);
        WorkloadSpec chaining = WorkloadSpecParser.parse(tree(20, 3, "worst-case-chaining"));
        assertThat(java.util.Set.of(CanonicalForm.contentHash(plain), CanonicalForm.contentHash(synthetic),
                CanonicalForm.contentHash(other), CanonicalForm.contentHash(chaining))).hasSize(4);
        // copies keep the synthetic records (ε changed through the builder)
        WorkloadSpec copy = synthetic.toBuilder().epsilonPerAnswer(io.privacygateway.mechanisms.param.Epsilon.of(2))
                .build();
        assertThat(copy.central().synthetic()).isEqualTo(new WorkloadSpec.Synthetic(1000));
        assertThat(synthetic.toBuilder().build()).isEqualTo(synthetic);
    }

    @Test
    void autoChoosesAWideMechanismWhereTheUniverseDoesNotFit() {
        WorkloadSpec auto = WorkloadSpecParser.parse(tree(17, 2, "auto"));
        WorkloadSpec resolved = Planner.resolve(auto);
        assertThat(resolved.mechanism().isWide()).isTrue();
        Map<String, Object> t = tree(17, 2, "auto");
        central(t).put("synthetic", Map.of("records", 512));
        assertThat(Planner.resolve(WorkloadSpecParser.parse(t)).mechanism()).isEqualTo(MechanismId.MWEM);
        // a small marginal workload keeps the materialised candidates
        assertThat(Planner.resolve(WorkloadSpecParser.parse(tree(4, 2, "auto"))).mechanism().isWide()).isFalse();
    }
}
