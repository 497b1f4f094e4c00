package io.privacygateway.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One embedded broker for the whole class: plain, transactional and Kafka Streams exactly-once
 * traffic, topic configs, and the start/stop measurements (printed, and kept in bounds).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EmbeddedKafkaTest {

    private static EmbeddedKafka kafka;
    private static long classStart;
    private static long heapBefore;
    private static long heapAfterStart;
    private static Set<Long> threadsBefore;

    @BeforeAll
    static void startBroker() {
        classStart = System.nanoTime();
        threadsBefore = liveThreadIds();
        heapBefore = usedHeapAfterGc();
        kafka = EmbeddedKafka.start();
        heapAfterStart = usedHeapAfterGc();
    }

    @AfterAll
    static void stopBroker() throws InterruptedException {
        Path dir = kafka.dataDirectory();
        kafka.close();
        long shutdownMs = kafka.shutdownTime().orElseThrow().toMillis();
        assertThat(Files.exists(dir)).as("data directory deleted on close").isFalse();
        assertThat(EmbeddedKafka.ShutdownRegistry.open()).doesNotContain(kafka);
        List<String> leftover = awaitNoNewNonDaemonThreads(threadsBefore, Duration.ofSeconds(10));
        System.out.printf("[EmbeddedKafkaTest] startup %d ms, shutdown %d ms, heap used by the broker %d MiB"
                        + " (%d -> %d MiB after GC), whole class %d ms%n",
                kafka.startupTime().toMillis(), shutdownMs, (heapAfterStart - heapBefore) >> 20,
                heapBefore >> 20, heapAfterStart >> 20, (System.nanoTime() - classStart) / 1_000_000);
        assertThat(leftover).as("non-daemon threads left after close").isEmpty();
        assertThat(shutdownMs).as("shutdown time").isLessThan(15_000);
    }

    @Test
    void listensOnLoopbackWithEphemeralPorts() {
        assertThat(kafka.kind()).isEqualTo(KafkaHarness.Kind.EMBEDDED);
        assertThat(kafka.bootstrapServers()).matches("127\\.0\\.0\\.1:\\d+");
        Map<String, String> config = kafka.brokerConfig();
        assertThat(config.get("listeners")).matches(
                "PLAINTEXT://127\\.0\\.0\\.1:\\d+,CONTROLLER://127\\.0\\.0\\.1:\\d+");
        assertThat(config.get("listeners")).doesNotContain(":0,").doesNotEndWith(":0");
        assertThat(config.get("controller.quorum.voters")).matches("1@127\\.0\\.0\\.1:\\d+");
        assertThat(config).containsEntry("offsets.topic.replication.factor", "1")
                .containsEntry("transaction.state.log.replication.factor", "1")
                .containsEntry("transaction.state.log.min.isr", "1")
                .containsEntry("min.insync.replicas", "1")
                .containsEntry("group.initial.rebalance.delay.ms", "0");
        assertThat(kafka.dataDirectory()).startsWith(Path.of(System.getProperty("java.io.tmpdir")));
        assertThat(kafka.fatalFault()).isEmpty();
    }

    @Test
    void producesAndConsumes() throws Exception {
        kafka.createTopic("plain", 3, false);
        Map<String, String> sent = new TreeMap<>();
        try (KafkaProducer<String, String> producer = producer(Map.of())) {
            for (int i = 0; i < 300; i++) {
                sent.put("k" + i, "v" + i);
                producer.send(new ProducerRecord<>("plain", "k" + i, "v" + i));
            }
            producer.flush();
        }
        List<ConsumerRecord<String, String>> received = consume("plain", "read_uncommitted", 300, Duration.ofSeconds(30));
        assertThat(received).hasSize(300);
        Map<String, String> got = received.stream()
                .collect(Collectors.toMap(ConsumerRecord::key, ConsumerRecord::value, (a, b) -> b, TreeMap::new));
        assertThat(got).isEqualTo(sent);
        assertThat(received.stream().map(ConsumerRecord::partition).distinct().count()).isEqualTo(3);
    }

    @Test
    void readCommittedSeesCommittedTransactionsOnly() throws Exception {
        kafka.createTopic("tx", 2, false);
        Map<String, Object> txConfig = Map.of(
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "tx-test",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        try (KafkaProducer<String, String> producer = producer(txConfig)) {
            producer.initTransactions();
            producer.beginTransaction();
            for (int i = 0; i < 5; i++) {
                producer.send(new ProducerRecord<>("tx", "c" + i, "committed-1"));
            }
            producer.commitTransaction();

            producer.beginTransaction();
            for (int i = 0; i < 5; i++) {
                producer.send(new ProducerRecord<>("tx", "a" + i, "aborted"));
            }
            producer.flush();
            producer.abortTransaction();

            producer.beginTransaction();
            for (int i = 5; i < 10; i++) {
                producer.send(new ProducerRecord<>("tx", "c" + i, "committed-2"));
            }
            producer.commitTransaction();
        }
        List<ConsumerRecord<String, String>> committed = consume("tx", "read_committed", 10, Duration.ofSeconds(30));
        assertThat(committed).hasSize(10);
        assertThat(committed).extracting(ConsumerRecord::value).doesNotContain("aborted");
        assertThat(committed).extracting(ConsumerRecord::key)
                .containsExactlyInAnyOrder("c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9");

        // The aborted records are in the log: a read_uncommitted consumer sees all 15.
        List<ConsumerRecord<String, String>> all = consume("tx", "read_uncommitted", 15, Duration.ofSeconds(30));
        assertThat(all).hasSize(15);
        assertThat(all).extracting(ConsumerRecord::value).filteredOn("aborted"::equals).hasSize(5);
    }

    @Test
    void kafkaStreamsExactlyOnceCountsPerKey() throws Exception {
        // Not under /tmp, which Kafka Streams warns about.
        Path stateDir = Files.createDirectories(Path.of("target", "streams-state-" + System.nanoTime()));
        kafka.createTopic("words", 2, false);
        kafka.createTopic("word-counts", 2, false);
        List<String> words = new ArrayList<>();
        List<String> vocabulary = List.of("alpha", "beta", "gamma", "delta", "alpha", "beta", "alpha");
        for (int i = 0; i < 70; i++) {
            words.add(vocabulary.get(i % vocabulary.size())); // alpha 30, beta 20, gamma 10, delta 10
        }
        Map<String, Long> expected = words.stream()
                .collect(Collectors.groupingBy(w -> w, TreeMap::new, Collectors.counting()));

        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "count-per-key");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        props.put("processing.exception.handler.global.enabled", true);
        StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(props)));
        builder.stream("words", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey(Grouped.with("by-word", Serdes.String(), Serdes.String()))
                .count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("word-count-store")
                        .withKeySerde(Serdes.String())
                        .withValueSerde(Serdes.Long()))
                .toStream()
                .to("word-counts", Produced.with(Serdes.String(), Serdes.Long()));

        try (KafkaStreams streams = new KafkaStreams(builder.build(), props)) {
            streams.start();
            try (KafkaProducer<String, String> producer = producer(Map.of())) {
                for (String w : words) {
                    producer.send(new ProducerRecord<>("words", w, w));
                }
                producer.flush();
            }
            Map<String, Long> latest = new TreeMap<>();
            Map<String, Object> consumerConfig = consumerConfig("read_committed");
            try (KafkaConsumer<String, Long> consumer = new KafkaConsumer<>(consumerConfig,
                    new StringDeserializer(), new LongDeserializer())) {
                consumer.subscribe(List.of("word-counts"));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!latest.equals(expected) && System.nanoTime() < deadline) {
                    consumer.poll(Duration.ofMillis(200)).forEach(r -> latest.put(r.key(), r.value()));
                }
            }
            assertThat(streams.state()).isIn(KafkaStreams.State.RUNNING, KafkaStreams.State.REBALANCING);
            assertThat(latest).isEqualTo(expected);
            streams.close(Duration.ofSeconds(30));
        } finally {
            EmbeddedKafka.deleteRecursively(stateDir);
        }
    }

    @Test
    void createsCompactedTopic() throws Exception {
        kafka.createTopic("compacted", 1, true);
        kafka.createTopic("deleted", 1, false);
        // Idempotent for the same partition count, refused for a different one.
        kafka.createTopic("compacted", 1, true);
        assertThatThrownBy(() -> kafka.createTopic("compacted", 4, true))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("1 partitions");
        try (Admin admin = kafka.admin()) {
            ConfigResource compacted = new ConfigResource(ConfigResource.Type.TOPIC, "compacted");
            ConfigResource deleted = new ConfigResource(ConfigResource.Type.TOPIC, "deleted");
            Map<ConfigResource, Config> configs = admin.describeConfigs(List.of(compacted, deleted)).all()
                    .get(30, TimeUnit.SECONDS);
            assertThat(configs.get(compacted).get(TopicConfig.CLEANUP_POLICY_CONFIG).value()).isEqualTo("compact");
            assertThat(configs.get(deleted).get(TopicConfig.CLEANUP_POLICY_CONFIG).value()).isEqualTo("delete");
            assertThat(admin.describeTopics(List.of("compacted")).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get("compacted").partitions()).hasSize(1);
        }
    }

    @Test
    void createsTopicWithArbitraryConfigs() throws Exception {
        kafka.createTopic("short-lived", 2, Map.of(TopicConfig.RETENTION_MS_CONFIG, "60000"));
        try (Admin admin = kafka.admin()) {
            ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, "short-lived");
            Config config = admin.describeConfigs(List.of(topic)).all().get(30, TimeUnit.SECONDS).get(topic);
            assertThat(config.get(TopicConfig.RETENTION_MS_CONFIG).value()).isEqualTo("60000");
        }
    }

    // ---------------------------------------------------------------------------------------------

    private static KafkaProducer<String, String> producer(Map<String, Object> extra) {
        Map<String, Object> config = new HashMap<>(kafka.clientConfig());
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        config.putAll(extra);
        return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }

    private static Map<String, Object> consumerConfig(String isolation) {
        Map<String, Object> config = new HashMap<>(kafka.clientConfig());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "g-" + System.nanoTime());
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return config;
    }

    /** Polls until {@code expected} records arrived, then a little longer to catch extras. */
    private static List<ConsumerRecord<String, String>> consume(String topic, String isolation, int expected,
                                                                Duration timeout) {
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig(isolation),
                new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (records.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            consumer.poll(Duration.ofMillis(500)).forEach(records::add);
        }
        return records;
    }

    static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    static Set<Long> liveThreadIds() {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getId).collect(Collectors.toSet());
    }

    /** Non-daemon threads started since {@code before} that are still alive after {@code wait}. */
    static List<String> awaitNoNewNonDaemonThreads(Set<Long> before, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        List<String> leftover;
        do {
            leftover = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> !before.contains(t.getId()) && t.isAlive() && !t.isDaemon())
                    .filter(t -> !t.getName().startsWith("junit-")) // JUnit's @Timeout watcher
                    .map(Thread::getName)
                    .sorted()
                    .collect(Collectors.toList());
            if (leftover.isEmpty()) {
                break;
            }
            Thread.sleep(50);
        } while (System.nanoTime() < deadline);
        return leftover;
    }
}
