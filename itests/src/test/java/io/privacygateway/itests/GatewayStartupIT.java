package io.privacygateway.itests;

import static org.assertj.core.api.Assertions.assertThatCode;

import io.privacygateway.itests.support.ItCluster;
import io.privacygateway.itests.support.Timed;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.GatewayService;
import io.privacygateway.topology.GatewaySettings;
import java.util.Map;
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
            GatewayConfig cfg = GatewayConfig.builder(3, 1).topicPrefix("it.startup." + i + "." + System.nanoTime() + ".")
                    .applicationId("it-startup-" + i).build();
            GatewaySettings s = new GatewaySettings(c.kafka.bootstrapServers(), c.registry.ccompatUrl(), cfg, (short) 1, 1, c.workDir().resolve("unused"), "exactly_once_v2", Map.of(),
                    Map.of());
            assertThatCode(() -> GatewayService.ensureTopics(s)).as("attempt %d", i).doesNotThrowAnyException();
        }
    }
}
