package io.privacygateway.topology;

import static io.privacygateway.topology.GatewayHardeningTest.T0;
import static io.privacygateway.topology.GatewayHardeningTest.local;
import static io.privacygateway.topology.GatewayHardeningTest.reasons;
import static io.privacygateway.topology.GatewayHardeningTest.report;
import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.testing.RegistryFixture;
import io.privacygateway.topology.workload.WorkloadCatalog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 27, item 11: with more versions in use than the version cache held (256), every 100 ms punctuation rebuilt
 * every workload. Every version in use is built once, when it is registered, however many there are.
 */
class VersionsInUseTest {
    @RegisterExtension
    static final RegistryFixture registry = RegistryFixture.shared();

    @Test
    void threeHundredVersionsInUseAreEachBuiltOnceAcrossManyPunctuations() {
        int workloads = 300;
        assertThat(workloads).isGreaterThan(WorkloadCatalog.VERSIONS_KEPT);
        try (GatewayDriver g = new GatewayDriver(registry.client(),
                GatewayConfig.builder(1, 1).applicationId("versions").build(), T0)) {
            List<WorkloadSpec> specs = new ArrayList<>();
            for (int i = 0; i < workloads; i++) {
                specs.add(local("w" + i, 1, 1, 10, "1d", "1m"));
                g.register(specs.get(i), T0 + i);
            }
            assertThat(g.catalog.versionsBuilt()).isEqualTo(workloads);
            for (int i = 0; i < workloads; i += 30) {
                g.send(report(specs.get(i), "d" + i, 0, T0 + 1_000, 1), T0 + 1_000);
            }
            assertThat(reasons(g)).isEmpty();
            for (int p = 0; p < 25; p++) { // 25 punctuations of every processor while the windows are open
                g.advance(Duration.ofMillis(100));
            }
            assertThat(g.catalog.versionsBuilt()).isEqualTo(workloads);
            g.advance(Duration.ofSeconds(75)); // the first window of every workload closes and is answered
            g.advance(Duration.ofMillis(100));
            List<WindowAnswer> answers = g.answers.readValuesToList();
            assertThat(answers).hasSize(workloads);
            assertThat(answers.stream().mapToLong(WindowAnswer::getN).sum()).isEqualTo(10);
            assertThat(g.catalog.versionsBuilt()).isEqualTo(workloads);
        }
    }

    /** A version registered again (after another, or after a deletion) is the same runtime, not a second build. */
    @Test
    void aVersionRegisteredAgainIsNotBuiltAgain() {
        WorkloadCatalog c = new WorkloadCatalog();
        var v1 = io.privacygateway.schemas.WorkloadSpecRecords.toRecord(local("w", 1, 1, 10, "1d", "1m"));
        var v2 = io.privacygateway.schemas.WorkloadSpecRecords.toRecord(local("w", 2, 1, 10, "1d", "1m"));
        var first = c.activate("w", v1.getSpecJson(), v1.getContentHash(), T0).workload();
        c.activate("w", v2.getSpecJson(), v2.getContentHash(), T0 + 1_000);
        c.delete("w", T0 + 2_000);
        assertThat(c.activate("w", v1.getSpecJson(), v1.getContentHash(), T0 + 3_000).workload()).isSameAs(first);
        assertThat(c.byHash(v2.getContentHash())).isNotNull();
        assertThat(c.versionsBuilt()).isEqualTo(2);
    }
}
