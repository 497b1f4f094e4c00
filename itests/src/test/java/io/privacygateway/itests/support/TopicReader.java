package io.privacygateway.itests.support;

import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.serde.AvroDeserializer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads topics the way a downstream consumer of the gateway does: from the beginning, with
 * {@code isolation.level=read_committed} (only records of committed gateway transactions), without a
 * consumer group.
 */
public final class TopicReader {
    private TopicReader() {}

    /**
     * Reads {@code topic} from the beginning at least up to its end offsets (last stable offsets) at the
     * time of the call, and on until {@code done} holds for the matching records or {@code timeout} passes.
     */
    public static List<ConsumerRecord<byte[], byte[]>> read(Map<String, Object> kafkaConfig, String topic,
            Predicate<ConsumerRecord<byte[], byte[]>> filter, Predicate<List<ConsumerRecord<byte[], byte[]>>> done,
            Duration timeout) {
        Map<String, Object> c = new java.util.HashMap<>(kafkaConfig);
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> parts = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!(caughtUp(consumer, end) && done.test(out)) && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    if (filter.test(r)) {
                        out.add(r);
                    }
                }
            }
        }
        return out;
    }

    /** As {@link #read}, decoding values with the project's wire-format deserializer. */
    public static <T extends SpecificRecord> List<T> readValues(Map<String, Object> kafkaConfig,
            SchemaRegistryClient registry, String topic, Class<T> type, Predicate<T> filter, Predicate<List<T>> done,
            Duration timeout) {
        AvroDeserializer<T> values = new AvroDeserializer<>(type, registry);
        List<T> out = new ArrayList<>();
        read(kafkaConfig, topic, r -> {
            T v = values.deserialize(topic, r.value());
            if (filter.test(v)) {
                out.add(v);
            }
            return false;
        }, l -> done.test(out), timeout);
        return out;
    }

    private static boolean caughtUp(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        return end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
    }

    /** The bytes of a buffer (without moving it). */
    public static byte[] bytes(ByteBuffer b) {
        if (b == null) {
            return null;
        }
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    /** A UTF-8 string of a record key. */
    public static String string(byte[] key) {
        return key == null ? null : new String(key, StandardCharsets.UTF_8);
    }
}
