package io.privacygateway.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Two brokers in one JVM at once; and a start that fails cleans up after itself. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConcurrentEmbeddedKafkaTest {

    @Test
    void twoBrokersStartedConcurrentlyAreIndependent() throws Exception {
        Set<Long> threadsBefore = EmbeddedKafkaTest.liveThreadIds();
        CompletableFuture<EmbeddedKafka> first = CompletableFuture.supplyAsync(EmbeddedKafka::start);
        CompletableFuture<EmbeddedKafka> second = CompletableFuture.supplyAsync(EmbeddedKafka::start);
        EmbeddedKafka a = first.get(90, TimeUnit.SECONDS);
        EmbeddedKafka b = second.get(90, TimeUnit.SECONDS);
        Path dirA = a.dataDirectory();
        Path dirB = b.dataDirectory();
        try {
            assertThat(a.bootstrapServers()).isNotEqualTo(b.bootstrapServers());
            assertThat(a.brokerConfig().get("listeners")).isNotEqualTo(b.brokerConfig().get("listeners"));
            assertThat(dirA).isNotEqualTo(dirB);
            assertThat(a.clusterId()).isNotEqualTo(b.clusterId());
            assertThat(EmbeddedKafka.ShutdownRegistry.open()).contains(a, b);

            // Same topic name on both; each sees only what was written to it.
            a.createTopic("same-name", 1, false);
            b.createTopic("same-name", 1, false);
            send(a, "same-name", "from-a");
            send(b, "same-name", "from-b");
            assertThat(readAll(a, "same-name", 1)).containsExactly("from-a");
            assertThat(readAll(b, "same-name", 1)).containsExactly("from-b");

            // Closing one leaves the other serving.
            a.close();
            assertThat(Files.exists(dirA)).isFalse();
            send(b, "same-name", "from-b-again");
            assertThat(readAll(b, "same-name", 2)).containsExactly("from-b", "from-b-again");
        } finally {
            a.close();
            b.close();
        }
        assertThat(Files.exists(dirB)).isFalse();
        assertThat(a.isClosed()).isTrue();
        assertThatThrownBy(a::bootstrapServers).isInstanceOf(IllegalStateException.class);
        assertThat(EmbeddedKafkaTest.awaitNoNewNonDaemonThreads(threadsBefore, Duration.ofSeconds(10))).isEmpty();
    }

    @Test
    void failedStartLeavesNothingBehind() throws Exception {
        Set<Long> threadsBefore = EmbeddedKafkaTest.liveThreadIds();
        Set<EmbeddedKafka> openBefore = EmbeddedKafka.ShutdownRegistry.open();
        List<Path> dirsBefore = embeddedDirs();
        // Rejected by KafkaConfig validation (segments must be at least 1 MiB).
        assertThatThrownBy(() -> EmbeddedKafka.start(Map.of("log.segment.bytes", "1")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("did not start");
        assertThat(embeddedDirs()).isSubsetOf(dirsBefore);
        assertThat(EmbeddedKafka.ShutdownRegistry.open()).isEqualTo(openBefore);
        assertThat(EmbeddedKafkaTest.awaitNoNewNonDaemonThreads(threadsBefore, Duration.ofSeconds(10))).isEmpty();
    }

    private static List<Path> embeddedDirs() throws Exception {
        List<Path> dirs = new ArrayList<>();
        try (var stream = Files.newDirectoryStream(Path.of(System.getProperty("java.io.tmpdir")),
                EmbeddedKafka.TEMP_DIR_PREFIX + "*")) {
            stream.forEach(dirs::add);
        }
        return dirs;
    }

    private static void send(KafkaHarness kafka, String topic, String value) {
        Map<String, Object> config = new HashMap<>(kafka.clientConfig());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, value));
            producer.flush();
        }
    }

    private static List<String> readAll(KafkaHarness kafka, String topic, int expected) {
        Map<String, Object> config = new HashMap<>(kafka.clientConfig());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "g-" + System.nanoTime());
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (values.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> values.add(r.value()));
            }
            consumer.poll(Duration.ofMillis(300)).forEach(r -> values.add(r.value()));
        }
        return values;
    }
}
