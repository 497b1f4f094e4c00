package io.privacygateway.mechanisms.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one release interface: each shape adapted once, its result carrying answer, records, cost and guarantee. */
class WindowReleaseTest {
    static WorkloadSpec local(String mechanism) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "local-" + mechanism);
        t.put("version", 1);
        t.put("family", "histogram");
        t.put("domain", Map.of("labels", List.of("a", "b", "c", "d")));
        t.put("mechanism", mechanism);
        t.put("epsilonPerReport", 2.0);
        t.put("amplification", Map.of("delta", 1e-6));
        t.put("budget", Map.of("epsilonPerPeriod", 2.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        return WorkloadSpecParser.parse(t);
    }

    static WorkloadSpec central(String family, Map<String, Object> domain, String mechanism, Integer records) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "central-" + mechanism);
        t.put("version", 1);
        t.put("family", family);
        t.put("domain", domain);
        if (family.equals("marginals")) {
            t.put("queries", Map.of("way", 2));
        }
        t.put("mode", "central");
        t.put("mechanism", mechanism);
        Map<String, Object> c = new HashMap<>(Map.of("epsilonPerRelease", 1.0, "neighbour", "add-remove",
                "contributionsPerWindow", 1));
        if (records != null) {
            c.put("synthetic", Map.of("records", records));
        }
        t.put("central", c);
        t.put("budget", Map.of("epsilonPerPeriod", 10.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        t.put("expectedReportsPerWindow", 1000);
        return WorkloadSpecParser.parse(t);
    }

    @Test
    void aLocalReleaseCarriesItsCostAndTheAmplifiedGuaranteeOnlyOverAVouchedCrowd() {
        LocalWorkload grr = (LocalWorkload) ResolvedWorkload.of(local("grr"));
        long[] state = new long[grr.aggregateLength()];
        ReleaseResult empty = grr.windowRelease().release(new WindowRelease.Window(0, state, 60_000, 0, "open"), null);
        assertThat(empty.answer()).isEmpty();
        assertThat(empty.n()).isZero();
        assertThat(empty.cost().epsilon()).isEqualTo(2.0);
        assertThat(empty.mechanism()).isEqualTo("grr");
        assertThat(empty.amplified()).isEmpty();
        assertThat(empty.fallback()).isFalse();
        ReleaseResult vouched = grr.windowRelease().release(new WindowRelease.Window(0, state, 60_000, 500,
                "declared-honest-reports"), null);
        assertThat(vouched.amplified()).hasValueSatisfying(a -> {
            assertThat(a.crowdReports()).isEqualTo(500);
            assertThat(a.crowdBasis()).isEqualTo("declared-honest-reports");
            assertThat(a.guarantee().epsilon()).isLessThan(2.0);
        });
        LocalWorkload olh = (LocalWorkload) ResolvedWorkload.of(local("olh"));
        assertThat(olh.windowRelease().release(new WindowRelease.Window(0, new long[olh.aggregateLength()], 60_000,
                500, "declared-honest-reports"), null).amplified()).as("coins derived from the device").isEmpty();
    }

    @Test
    void aCentralReleaseIsItsMechanismAndItsFallbackIsChargedTheSame() {
        CentralWorkload c = (CentralWorkload) ResolvedWorkload.of(central("histogram",
                Map.of("labels", List.of("a", "b", "c")), "laplace", null));
        long[] counts = {30, 50, 20};
        ReleaseResult r = c.windowRelease().release(WindowRelease.Window.central(100, counts, 60_000),
                new SeededRandomBits(7));
        Answer direct = c.release().release(counts, new SeededRandomBits(7));
        assertThat(r.answer().orElseThrow().estimates()).containsExactly(direct.estimates());
        assertThat(r.cost()).isEqualTo(direct.cost()).isEqualTo(c.windowRelease().cost());
        assertThat(r.mechanism()).isEqualTo("laplace");
        assertThat(r.synthetic()).isEmpty();
        assertThat(r.fallback()).isFalse();
        ReleaseResult f = c.windowRelease().fallback(100);
        assertThat(f.fallback()).isTrue();
        assertThat(f.mechanism()).isEqualTo("laplace");
        assertThat(f.cost()).isEqualTo(r.cost());
        assertThat(f.n()).isZero(); // add/remove: the count is not public
    }

    @Test
    void aWideReleaseWithSyntheticRecordsFallsBackWithNone() {
        CentralWorkload c = (CentralWorkload) ResolvedWorkload.of(central("marginals",
                Map.of("attributes", List.of("f0", "f1", "f2", "f3", "f4", "f5")), "mwem", 32));
        ReleaseResult f = c.windowRelease().fallback(0);
        assertThat(f.fallback()).isTrue();
        assertThat(f.synthetic()).hasValueSatisfying(s -> {
            assertThat(s.records()).isEmpty();
            assertThat(s.cost()).isEqualTo(f.cost());
        });
        ReleaseResult r = c.windowRelease().release(WindowRelease.Window.central(0,
                new long[c.aggregateLength()], 60_000), new SeededRandomBits(3));
        assertThat(r.synthetic()).hasValueSatisfying(s -> assertThat(s.size()).isEqualTo(32));
        assertThat(r.cost()).isEqualTo(c.windowRelease().cost());
    }
}
