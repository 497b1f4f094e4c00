package io.privacygateway.mechanisms.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.analytics.AnalyticsFixtures;
import io.privacygateway.mechanisms.analytics.erm.GridExponentialErm;
import io.privacygateway.mechanisms.analytics.release.AnalyticsRelease;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The per-workload release delay is fixed at registration from public parameters, and for the grid exponential
 * mechanism it covers the worst case of its grid (every cell occupied: its running time grows with grid points ×
 * occupied cells; 4.8–6.4 s for 50,617 points and 2,048 cells on the 2-core reference machine, which overran the
 * fixed one second it had before); a window too short for it is refused where the workload is registered. The
 * data-independent fallback answers of the failure paths are a function of public parameters only.
 */
class CentralReleaseDelayTest {
    static WorkloadSpec grid(int values, String windowSize) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "grid");
        t.put("version", 1);
        t.put("family", "erm");
        t.put("mode", "central");
        t.put("mechanism", "erm-exponential");
        t.put("central", Map.of("epsilonPerRelease", 1.0, "neighbour", "add-remove", "contributionsPerWindow", 1));
        t.put("budget", Map.of("epsilonPerPeriod", 4.0, "period", "1d"));
        t.put("window", Map.of("size", windowSize, "grace", "10s"));
        List<Object> v = new ArrayList<>();
        for (int i = 0; i < values; i++) {
            v.add(-1 + 2.0 * i / (values - 1));
        }
        t.put("domain", Map.of("features", List.of(Map.of("name", "bias", "values", List.of(1)),
                        Map.of("name", "x", "values", v)),
                "response", Map.of("name", "y", "values", List.of(0, 1))));
        t.put("model", Map.of("loss", "logistic", "radius", 4, "regularization", 0.01));
        return WorkloadSpecParser.parse(t);
    }

    static GridExponentialErm mechanism(CentralWorkload c) {
        return (GridExponentialErm) ((AnalyticsRelease) c.release()).mechanism();
    }

    @Test
    void theGridExponentialMechanismsDelayCoversItsGridsWorstCase() {
        CentralWorkload small = (CentralWorkload) ResolvedWorkload.of(grid(3, "1m"));
        assertThat(small.minimumReleaseDelay()).isEqualTo(Duration.ofSeconds(1));
        CentralWorkload large = (CentralWorkload) ResolvedWorkload.of(grid(1024, "1m")); // 2,048 cells
        GridExponentialErm m = mechanism(large);
        assertThat(m.gridPoints()).isEqualTo(50_617);
        // 150 ns per point and cell, 2.5 times the slowest measured (61 ns), plus the sampler
        assertThat(large.minimumReleaseDelay()).isEqualTo(Duration.ofSeconds(16))
                .isGreaterThan(Duration.ofMillis(6_400 * 2));
        large.checkReleasable();
        CentralWorkload tooShort = (CentralWorkload) ResolvedWorkload.of(grid(1024, "15s"));
        assertThatThrownBy(tooShort::checkReleasable).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("window.size").hasMessageContaining("16 s");
    }

    @Test
    void otherCentralReleasesKeepTheirFixedDelay() {
        CentralWorkload dpsgd = (CentralWorkload) ResolvedWorkload.of(
                AnalyticsFixtures.erm("purified-dpsgd", 1, "add-remove", 1));
        assertThat(dpsgd.minimumReleaseDelay()).isZero();
    }

    @Test
    void theFallbackIsAFunctionOfPublicParametersOnly() {
        CentralWorkload erm = (CentralWorkload) ResolvedWorkload.of(
                AnalyticsFixtures.erm("output-perturbation", 1, "replace-one", 1));
        Answer a = CentralFallback.answer(erm, 12);
        Answer b = CentralFallback.answer(erm, 12);
        assertThat(a.estimates()).containsOnly(0.0).isEqualTo(b.estimates());
        assertThat(a.lower()).containsOnly(-4.0);
        assertThat(a.upper()).containsOnly(4.0);
        assertThat(a.n()).isEqualTo(12); // replace-one: the count is public
        assertThat(a.cost()).isEqualTo(erm.release().cost());
        assertThat(a.levels()).isEmpty();
        assertThat(a.unprojected()).isEmpty();
        CentralWorkload mode = (CentralWorkload) ResolvedWorkload.of(AnalyticsFixtures.mode("mode-ptr", 1));
        Answer m = CentralFallback.answer(mode, 7);
        assertThat(m.n()).isZero(); // add/remove: no count is released
        assertThat(m.estimates()).containsOnly(0.0);
        assertThat(m.upper()).containsOnly(1.0);
        assertThat(m.expectedRmsError()).isEqualTo(Math.sqrt(2.0 / 5));
    }
}
