package io.privacygateway.harness;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.testcontainers.kafka.KafkaContainer;

/**
 * The container's configuration, checked without Docker: building a container does not contact
 * Docker (but e.g. {@code getDockerImageName()} would, and Testcontainers then logs its ERROR).
 */
class ContainerKafkaConfigTest {

    @Test
    void singleBrokerExactlyOnceSettings() {
        try (KafkaContainer container = ContainerKafka.configure(KafkaHarness.DEFAULT_IMAGE, true)) {
            assertThat(container.getEnvMap())
                    .containsEntry("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "1")
                    .containsEntry("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "1")
                    .containsEntry("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", "1")
                    .containsEntry("KAFKA_MIN_INSYNC_REPLICAS", "1")
                    .containsEntry("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0")
                    .containsEntry("KAFKA_SHARE_COORDINATOR_STATE_TOPIC_REPLICATION_FACTOR", "1");
            assertThat(container.getExposedPorts()).containsExactly(9092);
        }
    }

    @Test
    void acceptsAMirroredImage() {
        // KafkaContainer refuses images not declared compatible with apache/kafka.
        try (KafkaContainer container = ContainerKafka.configure("mirror.example/apache/kafka:4.3.1", false)) {
            assertThat(container.getEnvMap()).containsEntry("KAFKA_MIN_INSYNC_REPLICAS", "1");
        }
    }
}
