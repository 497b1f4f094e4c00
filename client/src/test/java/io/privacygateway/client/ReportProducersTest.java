package io.privacygateway.client;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ReportProducersTest {
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
