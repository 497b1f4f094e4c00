package io.privacygateway.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ReportProducersTest {
    /** An unreachable broker holds a device's thread at most 5 s (Kafka's default is 60 s), then SEND_FAILED. */
    @Test
    void aDevicesThreadIsNotHeldLongByAnUnreachableBroker() {
        assertThat(ReportProducers.defaults()).containsEntry("max.block.ms", 5_000);
    }

    @Test
    void aCustomPartitionerIsRefusedWithTheFieldNamed() {
        Map<String, Object> config = Map.of("bootstrap.servers", "127.0.0.1:9",
                "partitioner.class", "org.example.RoundRobin");
        assertThatThrownBy(() -> ReportProducers.raw(config))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("partitioner.class")
                .hasMessageContaining("WRONG_PARTITION")
                .hasMessageContaining("org.example.RoundRobin");
        assertThatThrownBy(() -> ReportProducers.avro(config, "http://127.0.0.1:9"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("partitioner.class");
    }
}
