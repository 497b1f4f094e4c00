package io.privacygateway.demo;

import io.privacygateway.schemas.avro.SyntheticData;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.serde.AvroDeserializer;
import io.privacygateway.schemas.wire.WireFormatException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Follows the synthetic-data topic ({@code <prefix>synthetic}) from its beginning, committed records only, and hands
 * every {@link SyntheticData} record to a listener (the demo prints a line per window). A record that cannot be read
 * is skipped; the thread stops on {@link #close()}.
 */
final class SyntheticFeed implements AutoCloseable {
    private final KafkaConsumer<String, byte[]> consumer;
    private final AvroDeserializer<SyntheticData> deserializer;
    private final Consumer<SyntheticData> listener;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;

    SyntheticFeed(String bootstrapServers, SchemaRegistryClient registry, String topic, Consumer<SyntheticData> listener) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "pgw-demo-synthetic-" + UUID.randomUUID());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        this.consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(List.of(topic));
        this.deserializer = new AvroDeserializer<>(SyntheticData.class, registry);
        this.listener = listener;
        this.thread = new Thread(this::run, "synthetic-feed");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            while (running.get()) {
                try {
                    for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                        if (r.value() == null) {
                            continue;
                        }
                        try {
                            listener.accept(deserializer.deserialize(r.topic(), r.headers(), r.value()));
                        } catch (WireFormatException e) {
                            // skipped: the demo only prints what it can read
                        }
                    }
                } catch (WakeupException | InterruptException e) {
                    break;
                } catch (RuntimeException e) {
                    sleepQuietly();
                }
            }
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    private static void sleepQuietly() {
        try {
            Thread.sleep(500);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        consumer.wakeup();
        thread.join(10_000);
    }

    /** One line about a window's synthetic records, with the first record's set attributes. */
    static String describe(SyntheticData s, String windowText) {
        List<String> names = s.getAttributes();
        StringBuilder first = new StringBuilder();
        if (!s.getRecords().isEmpty()) {
            long r = s.getRecords().get(0);
            for (int j = 0; j < names.size(); j++) {
                if (((r >>> j) & 1L) != 0) {
                    first.append(first.length() == 0 ? "" : ",").append(names.get(j));
                }
            }
        }
        if (s.getCertificate() != null) { // certified-synthetic: the certificate and the queries it covers
            return String.format(Locale.ROOT, "synthetic data: %s %s: %d records over %d attributes, ε = %.4g,"
                    + " δ = 0; certificate %.4f (%.0f%%) for %s; first record: {%s}", s.getWorkloadId(), windowText,
                    s.getRecords().size(), names.size(), s.getEpsilon(), s.getCertificate(), 100 * s.getConfidence(),
                    s.getCertificateQueries(), first);
        }
        return String.format(Locale.ROOT, "synthetic data: %s %s: %d records over %d attributes, ε = %.4g,"
                + " δ = 0; every marginal of them within ±%.4f of the truth (%.0f%%); first record: {%s}",
                s.getWorkloadId(), windowText, s.getRecords().size(), names.size(), s.getEpsilon(),
                s.getMaxErrorBound(), 100 * s.getConfidence(), first);
    }
}
