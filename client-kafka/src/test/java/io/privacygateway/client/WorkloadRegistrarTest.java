package io.privacygateway.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.planner.Planner;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.time.Duration;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Publishing resolved workloads to the real workloads topic, and reading them back. */
@ExtendWith(GatewayFixture.Extension.class)
class WorkloadRegistrarTest {
    static WorkloadSpec flags(int version, String window) {
        return WorkloadFiles.parse("""
                id: registrar-flags
                version: %d
                family: marginals
                domain: {attributes: [darkMode, betaUI, offlineSync, largeText]}
                queries: {way: 2}
                mechanism: auto
                epsilonPerReport: 2.0
                budget: {epsilonPerPeriod: 4.0, period: 1d}
                window: {size: %s, grace: 10s}
                expectedReportsPerWindow: 5000
                """.formatted(version, window), "test");
    }

    @Test
    void autoIsResolvedAndThePublishedRecordRoundTripsThroughFetch(GatewayFixture g) throws Exception {
        try (WorkloadRegistrar r = g.registrar()) {
            WorkloadSpec declared = flags(1, "1m");
            WorkloadSpec resolved = r.register(declared);
            assertThat(resolved.mechanism()).isNotEqualTo(MechanismId.AUTO);
            assertThat(CanonicalForm.of(resolved)).isEqualTo(CanonicalForm.of(Planner.resolve(declared)));
            WorkloadSpec fetched = r.fetch("registrar-flags");
            assertThat(CanonicalForm.of(fetched)).isEqualTo(CanonicalForm.of(resolved));
            assertThat(CanonicalForm.contentHash(fetched)).isEqualTo(CanonicalForm.contentHash(resolved));
            g.awaitGatewayKnows(resolved, Duration.ofSeconds(30)); // and the gateway loaded it

            // registering the same declaration again is a no-op returning the registered spec
            assertThat(CanonicalForm.of(r.register(declared))).isEqualTo(CanonicalForm.of(resolved));
            // the same version with other content is refused; a newer version replaces it
            assertThatThrownBy(() -> r.register(flags(1, "2m"))).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("register version 2");
            WorkloadSpec v2 = r.register(flags(2, "2m"));
            assertThat(r.fetch("registrar-flags").version()).isEqualTo(2);
            assertThat(CanonicalForm.contentHash(r.fetch("registrar-flags"))).isEqualTo(CanonicalForm.contentHash(v2));
            assertThatThrownBy(() -> r.register(flags(1, "1m"))).isInstanceOf(IllegalStateException.class);
            assertThat(r.fetchAll()).containsKey("registrar-flags");
        }
    }

    @Test
    void unknownWorkloadsAndMissingTopicsAreClearErrors(GatewayFixture g) throws Exception {
        try (WorkloadRegistrar r = g.registrar()) {
            assertThatThrownBy(() -> r.fetch("no-such-workload")).isInstanceOf(NoSuchElementException.class)
                    .hasMessageContaining("no-such-workload");
            assertThat(r.find("no-such-workload")).isEmpty();
        }
        try (WorkloadRegistrar r = WorkloadRegistrar.create(g.kafkaConfig(), g.registryClient,
                new GatewayTopics("nowhere."), Duration.ofSeconds(10))) {
            assertThatThrownBy(() -> r.register(flags(1, "1m"))).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("nowhere.workloads does not exist");
            assertThat(r.fetchAll()).isEmpty();
        }
    }

    @Test
    void aTopicThatIsNotCompactedIsRefused(GatewayFixture g) throws Exception {
        g.kafka.createTopic("plain.workloads", 1, false);
        try (WorkloadRegistrar r = WorkloadRegistrar.create(g.kafkaConfig(), g.registryClient,
                new GatewayTopics("plain."))) {
            assertThatThrownBy(() -> r.register(flags(1, "1m"))).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("cleanup.policy=delete");
        }
    }
}
