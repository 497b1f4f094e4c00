package io.privacygateway.image;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kafka Streams series the dashboard reads are names Micrometer's {@link KafkaStreamsMetrics}
 * really produces for this project's Kafka version: a Kafka Streams instance (constructed, not
 * started: no broker is needed for its client and thread metrics to exist) is bound to a registry and
 * the meters' names are turned into Prometheus names as Micrometer's Prometheus registry does for
 * meters without a base unit (dots to underscores, {@code _total} on counters).
 *
 * <p>Not covered: {@code kafka_consumer_fetch_manager_records_lag}, a per-partition metric that the
 * consumer registers only once partitions are assigned (it needs a running broker); its name follows
 * the same rule as the client-level {@code records_lag_max} checked here.
 */
class KafkaStreamsMetricNamesTest {
    @Test
    void theDashboardsKafkaSeriesAreWhatTheBinderProduces(@TempDir Path state) {
        StreamsBuilder b = new StreamsBuilder();
        b.stream("in").to("out");
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "metric-names");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1");
        p.put(StreamsConfig.STATE_DIR_CONFIG, state.toString());
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Set<String> names = new TreeSet<>();
        try (KafkaStreams streams = new KafkaStreams(b.build(), p);
                KafkaStreamsMetrics binder = new KafkaStreamsMetrics(streams)) {
            binder.bindTo(registry);
            for (Meter m : registry.getMeters()) {
                String name = m.getId().getName().replace('.', '_');
                names.add(m instanceof FunctionCounter && !name.endsWith("_total") ? name + "_total" : name);
            }
        }
        Set<String> expected = new TreeSet<>(MetricsContract.KAFKA);
        expected.remove("kafka_consumer_fetch_manager_records_lag");
        assertThat(names).containsAll(expected);
    }
}
