package io.privacygateway.topology;

import static io.privacygateway.topology.GatewayTopologyTest.MINUTE;
import static io.privacygateway.topology.GatewayTopologyTest.T0;
import static io.privacygateway.topology.GatewayTopologyTest.centralReport;
import static io.privacygateway.topology.GatewayTopologyTest.centralSpec;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.testing.RegistryFixture;
import io.privacygateway.topology.release.CentralReleaser;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A central answer publishes a noisy n; the meters (an unauthenticated endpoint) must not give the exact one. With
 * the default configuration no meter of the registry lets a reader learn a central workload's exact accepted count,
 * per window or cumulative: neither a meter of that workload (accepted reports, ε charged, reports per window,
 * devices' spend) nor any other meter holds one of those numbers. {@code exactCentralCounts} turns them on.
 */
class CentralCountsExposureTest {
    @RegisterExtension
    static final RegistryFixture registry = RegistryFixture.shared();
    private static final int FIRST = 23;
    private static final int SECOND = 31;

    /** Sends 23 reports (distinct devices) in window 1, 31 in window 2, releases both and expires the budgets. */
    private static SimpleMeterRegistry run(GatewayConfig cfg) {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        WorkloadSpec s = centralSpec(); // ε = 1 per release, one contribution per device and window
        Workload w = Workload.of(s);
        try (GatewayDriver g = new GatewayDriver(registry.client(), cfg, T0,
                CentralReleaser.withSecret(new SeededRandomBits(7)), new GatewayMetrics(meters))) {
            g.register(s, T0);
            for (int i = 0; i < FIRST; i++) {
                g.sendCentral(centralReport(w, "a" + i, 0, T0 + 1_000, "a"), T0 + 1_000);
            }
            for (int i = 0; i < SECOND; i++) {
                g.sendCentral(centralReport(w, "b" + i, 0, T0 + MINUTE + 1_000, "b"), T0 + MINUTE + 1_000);
            }
            List<WindowAnswer> answers = new ArrayList<>();
            for (int k = 0; k < 10 && answers.size() < 2; k++) {
                g.advance(Duration.ofSeconds(30));
                answers.addAll(g.answers.readValuesToList());
            }
            assertThat(answers).as("both windows answered").hasSize(2);
            g.advance(Duration.ofDays(2)); // the devices' budget periods end: their spend is recorded
            g.advance(Duration.ofSeconds(1));
        }
        return meters;
    }

    private static GatewayConfig.Builder config() {
        return GatewayConfig.builder(1, 1).applicationId("exposure-test");
    }

    @Test
    void byDefaultNoMeterHoldsACentralWorkloadsExactCounts() {
        SimpleMeterRegistry meters = run(config().build());
        String id = centralSpec().id();
        Set<Double> exact = Set.of((double) FIRST, (double) SECOND, (double) (FIRST + SECOND));
        List<String> holders = new ArrayList<>();
        // answers published and cumulative ε count released windows (public: every answer carries them)
        Set<String> windowsReleased = Set.of("pgw.answers.published", "pgw.central.cumulative.epsilon");
        for (Meter m : meters.getMeters()) {
            if (windowsReleased.contains(m.getId().getName())) {
                continue;
            }
            for (Measurement x : m.measure()) {
                if (exact.contains(x.getValue())) {
                    holders.add(m.getId() + " " + x.getStatistic() + " = " + x.getValue());
                }
            }
        }
        assertThat(holders).as("meters whose value is an exact count of the central workload").isEmpty();
        for (String name : List.of("pgw.reports.accepted", "pgw.epsilon.charged", "pgw.window.reports",
                "pgw.device.spend")) {
            assertThat(meters.find(name).meters()).as(name).isEmpty();
        }
        // what remains for the central workload: public facts (answers published, cumulative ε, latency)
        assertThat(meters.find("pgw.answers.published").tag("workload", id).counter().count()).isPositive();
        assertThat(meters.find("pgw.central.cumulative.epsilon").tag("workload", id).gauge().value()).isPositive();
        assertThat(meters.find("pgw.release.latency").tag("workload", id).timer()).isNotNull();
    }

    @Test
    void exactCentralCountsRegistersThem() {
        SimpleMeterRegistry meters = run(config().exactCentralCounts(true).build());
        String id = centralSpec().id();
        assertThat(meters.find("pgw.reports.accepted").tag("workload", id).counter().count())
                .isEqualTo(FIRST + SECOND);
        assertThat(meters.find("pgw.window.reports").tag("workload", id).summary().max()).isEqualTo(SECOND);
        assertThat(meters.find("pgw.epsilon.charged").tag("workload", id).counter().count())
                .isEqualTo(FIRST + SECOND);
        assertThat(meters.find("pgw.device.spend").tag("budget", id).summary().count()).isEqualTo(FIRST + SECOND);
    }
}
