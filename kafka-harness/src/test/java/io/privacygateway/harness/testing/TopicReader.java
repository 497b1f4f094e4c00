package io.privacygateway.harness.testing;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads topics the way a downstream consumer of the gateway does: from the beginning, with
 * {@code isolation.level=read_committed} (only records of committed gateway transactions), without a
 * consumer group. Bounded by a deadline: the caller asserts on what was read, never on the time it took.
 */
public final class TopicReader {
    private TopicReader() {}

    /**
     * Reads {@code topic} from the beginning at least up to its end offsets (last stable offsets) at the
     * time of the call, and on until {@code done} holds for the matching records or {@code timeout} passes;
     * returns the records {@code filter} accepted, in the order polled.
     */
    public static List<ConsumerRecord<byte[], byte[]>> read(Map<String, Object> kafkaConfig, String topic,
            Predicate<ConsumerRecord<byte[], byte[]>> filter, Predicate<List<ConsumerRecord<byte[], byte[]>>> done,
            Duration timeout) {
        Map<String, Object> c = ClientConfigs.readCommitted(kafkaConfig);
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

    private static boolean caughtUp(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        return end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
    }

    /** The bytes of a buffer (without moving it); {@code null} for {@code null}. */
    public static byte[] bytes(ByteBuffer b) {
        if (b == null) {
            return null;
        }
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    /** A UTF-8 string of a record key; {@code null} for {@code null}. */
    public static String string(byte[] key) {
        return key == null ? null : new String(key, StandardCharsets.UTF_8);
    }
}
