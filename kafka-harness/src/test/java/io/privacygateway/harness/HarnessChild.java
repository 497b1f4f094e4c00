package io.privacygateway.harness;

import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Run in a child JVM by {@link KafkaHarnessTest}: starts {@code KafkaHarness.start()}, writes a
 * record, reports on stdout and waits to be killed (the shutdown hook must clean up).
 */
public final class HarnessChild {

    private HarnessChild() {
    }

    public static void main(String[] args) throws Exception {
        long t0 = System.nanoTime();
        KafkaHarness kafka = KafkaHarness.start();
        long startMs = (System.nanoTime() - t0) / 1_000_000;
        kafka.createTopic("child", 1, false);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.<String, Object>copyOf(
                kafka.clientConfig()), new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>("child", "hello")).get();
        }
        System.out.println("kind=" + kafka.kind());
        System.out.println("bootstrap=" + kafka.bootstrapServers());
        if (kafka instanceof EmbeddedKafka) {
            System.out.println("dir=" + ((EmbeddedKafka) kafka).dataDirectory());
        }
        System.out.println("testcontainers=" + DockerProbe.testcontainersPresent());
        System.out.println("startMs=" + startMs);
        System.out.println("ready " + List.of(args));
        System.out.flush();
        Thread.currentThread().join();
    }
}
