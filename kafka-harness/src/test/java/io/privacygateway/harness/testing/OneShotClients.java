package io.privacygateway.harness.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * One write or one read as a given client configuration (typically a SASL user's {@code
 * EmbeddedKafka.clientConfig(user)}), with short timeouts so that a refused principal fails within seconds: the
 * ACL and authentication tests of the harness and of the deployment files.
 */
public final class OneShotClients {
    private OneShotClients() {}

    /**
     * Sends one string record (key and value {@code value}: compacted topics accept it) and waits for its
     * acknowledgement.
     *
     * @throws java.util.concurrent.ExecutionException whose root cause is Kafka's {@code AuthorizationException} when
     *     the principal may not write the topic
     */
    public static void send(Map<String, Object> config, String topic, String value) throws Exception {
        Map<String, Object> p = new HashMap<>(config);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 10_000);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, value, value)).get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * Reads a topic from the beginning (assigned partitions, no group) until {@code expected} records arrived or 30 s
     * passed, and returns their values.
     *
     * @throws org.apache.kafka.common.errors.TopicAuthorizationException when the principal may not read the topic
     */
    public static List<String> readAll(Map<String, Object> config, String topic, int expected) {
        Map<String, Object> c = new HashMap<>(config);
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
        List<String> out = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c, new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> parts = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (out.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    out.add(r.value());
                }
            }
        }
        return out;
    }
}
