package io.privacygateway.mechanisms.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.central.wide.MarginalCounts;
import io.privacygateway.mechanisms.central.wide.MarginalWorkload;
import io.privacygateway.mechanisms.central.wide.WideReference;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code auto} among the wide releases compares their simulated maximum errors on the wide reference data, not two
 * closed-form bounds of different tightness (which always favoured mwem).
 */
class CentralPlannerWideTest {
    static WorkloadSpec wide(int d, int k, long n) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "flags-wide");
        t.put("version", 1);
        t.put("family", "marginals");
        List<String> names = new ArrayList<>();
        for (int i = 0; i < d; i++) {
            names.add("f" + i);
        }
        t.put("domain", Map.of("attributes", names));
        t.put("queries", Map.of("way", k));
        t.put("mode", "central");
        t.put("mechanism", "auto");
        t.put("central", new HashMap<>(Map.of("epsilonPerRelease", 1.0, "neighbour", "add-remove",
                "contributionsPerWindow", 1)));
        t.put("budget", Map.of("epsilonPerPeriod", 10.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        t.put("expectedReportsPerWindow", n);
        return WorkloadSpecParser.parse(t);
    }

    /**
     * The reference window: n reports by systematic rounding of n·p (each count within one of n·p), and marginal
     * counts that are that histogram's, exactly.
     */
    @Test
    void theReferenceWindowIsTheFlooredHistogramsMarginals() {
        MarginalWorkload w = MarginalWorkload.anonymous(5, 2);
        long n = 1000;
        MarginalCounts window = WideReference.window(w, n);
        double[] p = WideReference.distribution(5);
        long[] hist = new long[p.length];
        long total = 0;
        java.math.BigDecimal cumulative = java.math.BigDecimal.ZERO;
        for (int x = 0; x < p.length; x++) {
            cumulative = cumulative.add(new java.math.BigDecimal(p[x]));
            long upTo = x == p.length - 1 ? n : cumulative.multiply(java.math.BigDecimal.valueOf(n)).longValue();
            hist[x] = upTo - total;
            total = upTo;
            assertThat((double) hist[x]).isCloseTo(n * p[x], org.assertj.core.data.Offset.offset(1.0 + 1e-9));
        }
        assertThat(window.n()).isEqualTo(n);
        double[] answers = window.answers();
        for (int q = 0; q < w.queryCount(); q++) {
            int s = q / w.cellsPerSubset();
            int cell = q % w.cellsPerSubset();
            long c = 0;
            for (int x = 0; x < hist.length; x++) {
                if (w.cellOf(s, x) == cell) {
                    c += hist[x];
                }
            }
            assertThat(answers[q]).as("query %d", q).isEqualTo((double) c / n);
        }
    }

    /**
     * Over 16 attributes only the wide releases apply: each candidate's figure is its simulated max error (not its
     * closed form), and {@code auto} picks the smaller one.
     */
    @Test
    void autoPicksTheWideReleaseWithTheSmallerSimulatedMaxError() {
        WorkloadSpec spec = wide(17, 2, 20_000);
        Plan plan = CentralPlanner.plan(spec, Epsilon.of(1), 20_000);
        Prediction mwem = null;
        Prediction chaining = null;
        for (Prediction p : plan.predictions()) {
            if (p.candidate().id() == MechanismId.MWEM) {
                mwem = p;
            } else if (p.candidate().id() == MechanismId.WORST_CASE_CHAINING) {
                chaining = p;
            }
        }
        assertThat(mwem).isNotNull();
        assertThat(chaining).isNotNull();
        for (Prediction p : List.of(mwem, chaining)) {
            assertThat(p.simulatedRms()[0]).as("%s", p.candidate().id()).isPositive().isLessThanOrEqualTo(1)
                    .isNotEqualTo(p.boundRms());
        }
        MechanismId better = mwem.simulatedRms()[0] <= chaining.simulatedRms()[0] ? MechanismId.MWEM
                : MechanismId.WORST_CASE_CHAINING;
        assertThat(plan.choice().candidate().id()).isEqualTo(better);
        System.out.printf("[wide auto] mwem %.4f (closed form %.4f), chaining %.4f (closed form %.4f)%n",
                mwem.simulatedRms()[0], mwem.boundRms(), chaining.simulatedRms()[0], chaining.boundRms());
    }
}
