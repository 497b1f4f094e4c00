package io.privacygateway.mechanisms.central.synthetic;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.central.wide.MarginalCounts;
import io.privacygateway.mechanisms.central.wide.MarginalWorkload;
import io.privacygateway.mechanisms.central.wide.SyntheticRecords;
import io.privacygateway.mechanisms.central.wide.WideAnswer;
import io.privacygateway.mechanisms.central.wide.WideSettings;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.runtime.CentralWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The gateway's certified-synthetic release ({@link CertifiedSyntheticRelease}, reached through the workload runtime
 * exactly as the gateway reaches it) is the library's {@link CertifiedSyntheticData} release on the same cells and
 * secret bits; its answer is the records' marginals with the certificate as l∞ bound and bars.
 */
class CertifiedSyntheticReleaseTest {
    static Map<String, Object> tree(int d, int k, String neighbour, int records) {
        List<String> names = new ArrayList<>();
        for (int j = 0; j < d; j++) {
            names.add("a" + j);
        }
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "certified");
        t.put("version", 1);
        t.put("family", "marginals");
        t.put("domain", Map.of("attributes", names));
        t.put("queries", Map.of("way", k));
        t.put("mode", "central");
        t.put("mechanism", "certified-synthetic");
        t.put("central", new HashMap<>(Map.of("epsilonPerRelease", 1.0, "neighbour", neighbour,
                "contributionsPerWindow", 1, "synthetic", Map.of("records", records))));
        t.put("budget", Map.of("epsilonPerPeriod", 10.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        t.put("expectedReportsPerWindow", 20_000);
        return t;
    }

    private static MarginalCounts counts(MarginalWorkload w, int[] records) {
        MarginalCounts c = MarginalCounts.empty(w);
        for (int r : records) {
            c.add(r);
        }
        return c;
    }

    @Test
    void theGatewaysReleaseIsTheLibrarysReleaseOnTheSameCellsAndSeed() {
        WorkloadSpec spec = WorkloadSpecParser.parse(tree(10, 3, "add-remove", 4096));
        CentralWorkload w = (CentralWorkload) ResolvedWorkload.of(spec);
        MarginalWorkload mw = w.wide().orElseThrow();
        int[] data = SyntheticFixtures.mixture(10, 20_000, 7);
        MarginalCounts cells = counts(mw, data);
        MarginalLayout layout = MarginalLayout.of(10, 3);
        // the two layouts order subsets and cells alike
        assertThat(cells.cells()).isEqualTo(SyntheticFixtures.counts(layout, data));

        assertThat(w.wideRelease()).isInstanceOf(CertifiedSyntheticRelease.class);
        WideAnswer gateway = w.wideRelease().release(cells, new SeededRandomBits(42));
        SyntheticParameters p = new SyntheticParameters(layout, spec.central().epsilonPerRelease(),
                spec.central().neighbour(), 1, NoiseBasis.IDENTITY, spec.confidence(), 4096,
                SyntheticParameters.DEFAULT_CANDIDATES, 20_000);
        assertThat(CertifiedSyntheticRelease.parameters(mw, WideSettings.of(spec, w.contentHash()), 4096))
                .usingRecursiveComparison().isEqualTo(p);
        SyntheticRelease library = CertifiedSyntheticData.of(p).release(cells.cells(), cells.n(),
                new SeededRandomBits(42));

        SyntheticRecords records = gateway.records().orElseThrow();
        long[] expected = new long[4096];
        int[] expanded = library.expand();
        for (int i = 0; i < expanded.length; i++) {
            expected[i] = expanded[i];
        }
        assertThat(records.records()).isEqualTo(expected);
        assertThat(records.cost()).isEqualTo(library.cost());
        Answer a = gateway.answer();
        assertThat(a.mechanism()).isEqualTo(MechanismId.CERTIFIED_SYNTHETIC);
        assertThat(a.cost()).isEqualTo(library.cost());
        assertThat(a.cost().epsilon()).isLessThanOrEqualTo(1.0);
        assertThat(a.n()).isEqualTo(library.reportCount());
        assertThat(a.extras().maxErrorBound().orElseThrow()).isEqualTo(library.certificate().value());
        assertThat(a.extras().scalars()).containsEntry("certificate", library.certificate().value())
                .containsEntry("certificateFit", library.certificate().fit())
                .containsEntry("certificateNoise", library.certificate().noise())
                .containsEntry("certificateCount", library.certificate().count())
                .containsEntry("certificateWay", 3.0);
        assertThat(a.workloadHash()).isEqualTo(w.contentHash());
        assertThat(a.labels()).isEqualTo(w.queryLabels());

        // the answer is the records' marginals; bars are the certificate, clipped; the certificate holds here
        double[] est = records.answers();
        assertThat(a.estimates()).isEqualTo(est);
        double c = library.certificate().value();
        assertThat(c).isLessThan(0.5);
        double[] truth = cells.answers();
        for (int q = 0; q < est.length; q++) {
            assertThat(a.lower()[q]).isEqualTo(Math.max(0, est[q] - c));
            assertThat(a.upper()[q]).isEqualTo(Math.min(1, est[q] + c));
            assertThat(Math.abs(est[q] - truth[q])).isLessThanOrEqualTo(c);
        }
        double u = SyntheticFixtures.utilityLoss(layout, cells.cells(), cells.n(),
                records.marginalCounts().cells(), 4096);
        assertThat(u).isLessThanOrEqualTo(c);
    }

    @Test
    void everyAddRemoveWindowHasRecordsAndAReplaceOneWindowWithoutReportsHasNone() {
        CentralWorkload ar = (CentralWorkload) ResolvedWorkload.of(WorkloadSpecParser.parse(
                tree(8, 2, "add-remove", 100)));
        WideAnswer empty = ar.wideRelease().release(MarginalCounts.empty(ar.wide().orElseThrow()),
                new SeededRandomBits(1));
        assertThat(empty.records().orElseThrow().size()).isEqualTo(100);
        assertThat(empty.answer().cost().epsilon()).isPositive().isLessThanOrEqualTo(1.0);
        assertThat(empty.answer().extras().maxErrorBound()).isPresent();

        CentralWorkload ro = (CentralWorkload) ResolvedWorkload.of(WorkloadSpecParser.parse(
                tree(8, 2, "replace-one", 100)));
        WideAnswer none = ro.wideRelease().release(MarginalCounts.empty(ro.wide().orElseThrow()),
                new SeededRandomBits(1));
        assertThat(none.records()).isEmpty();
        assertThat(none.answer().cost().epsilon()).isZero();
        assertThat(none.answer().extras().maxErrorBound().orElseThrow()).isEqualTo(1.0);
        assertThat(none.answer().lower()).containsOnly(0.0);
        assertThat(none.answer().upper()).containsOnly(1.0);
    }
}
