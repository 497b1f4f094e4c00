package io.privacygateway.itests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.privacygateway.itests.support.ItCluster;
import io.privacygateway.itests.support.Timed;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.service.GatewayService;
import io.privacygateway.topology.GatewaySettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link GatewayService#ensureTopics} creates the gateway's topics on a fresh cluster and checks them right
 * away, waiting while the broker's metadata catches up with the creation. (This was a gateway bug, found by
 * this test: the check failed with {@code UnknownTopicOrPartitionException} in 19 of 20 fresh starts.)
 * <b>Time:</b> about 2 s.
 */
@ExtendWith({ItCluster.Extension.class, Timed.class})
class GatewayStartupIT {
    @Test
    void theGatewayCreatesAndChecksItsTopicsOnAFreshCluster(ItCluster c) {
        for (int i = 0; i < 10; i++) {
            GatewayConfig cfg = GatewayConfig.builder(3, 3).topicPrefix("it.startup." + i + "." + System.nanoTime() + ".")
                    .applicationId("it-startup-" + i).build();
            GatewaySettings s = new GatewaySettings(c.kafka.bootstrapServers(), c.registry.ccompatUrl(), cfg, (short) 1, 1, c.workDir().resolve("unused"), "exactly_once_v2", Map.of(),
                    Map.of());
            assertThatCode(() -> GatewayService.ensureTopics(s)).as("attempt %d", i).doesNotThrowAnyException();
        }
    }

    /**
     * 8.5 and 8.12: the internal topics are named after the application id (one gateway's partials are never
     * another's), the partials keep only what recovery needs, and the central report topic (raw values) does not
     * keep the broker's 7-day default.
     */
    @Test
    void internalTopicsAreTheApplicationsOwnAndRetentionIsBounded(ItCluster c) throws Exception {
        GatewayConfig cfg = GatewayConfig.builder(3, 3).topicPrefix("it.retention." + System.nanoTime() + ".")
                .applicationId("it-retention").partialsRetention(Duration.ofHours(6))
                .centralReportsRetention(Duration.ofHours(2)).build();
        GatewaySettings s = new GatewaySettings(c.kafka.bootstrapServers(), c.registry.ccompatUrl(), cfg, (short) 1, 1,
                c.workDir().resolve("unused"), "exactly_once_v2", Map.of(), Map.of());
        GatewayService.ensureTopics(s);
        assertThat(cfg.partialsTopic()).isEqualTo("it-retention-partials");
        assertThat(cfg.clockTopic()).isEqualTo("it-retention-clock");
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", c.kafka.bootstrapServers()))) {
            assertThat(admin.listTopics().names().get()).contains(cfg.partialsTopic(), cfg.clockTopic(),
                    cfg.centralReportsTopic(), cfg.localReportsTopic());
            ConfigResource partials = new ConfigResource(ConfigResource.Type.TOPIC, cfg.partialsTopic());
            ConfigResource central = new ConfigResource(ConfigResource.Type.TOPIC, cfg.centralReportsTopic());
            Map<ConfigResource, Config> configs = admin.describeConfigs(List.of(partials, central)).all().get();
            assertThat(configs.get(partials).get(TopicConfig.RETENTION_MS_CONFIG).value())
                    .isEqualTo(Long.toString(Duration.ofHours(6).toMillis()));
            assertThat(configs.get(central).get(TopicConfig.RETENTION_MS_CONFIG).value())
                    .isEqualTo(Long.toString(Duration.ofHours(2).toMillis()));
        }
    }
}
