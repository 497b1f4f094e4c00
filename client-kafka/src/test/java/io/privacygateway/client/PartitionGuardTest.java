package io.privacygateway.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.service.GatewayService;
import io.privacygateway.topology.GatewaySettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * 8.11: adding report-topic partitions used to reset device budgets (a device's budget lives with the partition
 * of its id, and a new count moves devices to partitions that do not know them). The gateway records the
 * counts at its first start and refuses to run on others, saying how to migrate.
 */
@ExtendWith(GatewayFixture.Extension.class)
class PartitionGuardTest {

    @Test
    void aGatewayRefusesReportTopicsWhosePartitionCountChanged(GatewayFixture g) throws Exception {
        Path state = Files.createTempDirectory("pgw-partition-guard");
        GatewayConfig first = GatewayConfig.builder(2, 2).topicPrefix("guard.").applicationId("guard-app").build();
        GatewaySettings s1 = new GatewaySettings(g.kafka.bootstrapServers(), g.registry.ccompatUrl(), first, (short) 1,
                1, state, "exactly_once_v2", Map.of(), Map.of());
        try (GatewayService service = GatewayService.start(s1, new SimpleMeterRegistry(), null, Duration.ofSeconds(60))) {
            assertThat(service.isReady()).isTrue();
        }
        try (Admin a = Admin.create(Map.of("bootstrap.servers", g.kafka.bootstrapServers()))) {
            a.createPartitions(Map.of("guard.reports.local", NewPartitions.increaseTo(4), "guard.reports.central",
                    NewPartitions.increaseTo(4))).all().get(30, TimeUnit.SECONDS);
        }
        GatewayConfig grown = first.toBuilder().partitions(4, 4).build();
        GatewaySettings s2 = new GatewaySettings(g.kafka.bootstrapServers(), g.registry.ccompatUrl(), grown, (short) 1,
                1, state, "exactly_once_v2", Map.of(), Map.of());
        assertThatThrownBy(() -> GatewayService.start(s2, new SimpleMeterRegistry(), null, Duration.ofSeconds(60)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("local=4,central=4")
                .hasMessageContaining("local=2,central=2 when it first started")
                .hasMessageContaining("To migrate");
        // and the old configuration no longer matches the topic either: the gateway never runs on a changed layout
        assertThatThrownBy(() -> GatewayService.start(s1, new SimpleMeterRegistry(), null, Duration.ofSeconds(60)))
                .hasMessageContaining("has 4 partitions");
    }
}
