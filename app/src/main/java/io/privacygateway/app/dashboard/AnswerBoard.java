package io.privacygateway.app.dashboard;

import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.serde.AvroDeserializer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Follows the answers topic as a downstream consumer would ({@code isolation.level=read_committed}, so
 * only answers of committed gateway transactions are seen) and keeps the latest answer of every workload
 * plus a short history. Runs one background thread; {@link #close()} stops it.
 */
public final class AnswerBoard implements AutoCloseable {
    private static final int HISTORY = 50;
    private final KafkaConsumer<String, WindowAnswer> consumer;
    private final Map<String, WindowAnswer> latest = new ConcurrentHashMap<>();
    private final List<WindowAnswer> history = Collections.synchronizedList(new ArrayList<>());
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;

    public AnswerBoard(String bootstrapServers, Map<String, String> clientProperties, SchemaRegistryClient registry,
            String answersTopic, Consumer<WindowAnswer> listener) {
        Properties p = new Properties();
        p.putAll(clientProperties);
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "pgw-dashboard-" + java.util.UUID.randomUUID());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        consumer = new KafkaConsumer<>(p, new StringDeserializer(), new AvroDeserializer<>(WindowAnswer.class, registry));
        consumer.subscribe(List.of(answersTopic));
        thread = new Thread(() -> {
            try {
                while (running.get()) {
                    for (ConsumerRecord<String, WindowAnswer> r : consumer.poll(Duration.ofMillis(500))) {
                        if (r.value() == null) {
                            continue;
                        }
                        latest.put(r.value().getWorkloadId(), r.value());
                        synchronized (history) {
                            history.add(r.value());
                            if (history.size() > HISTORY) {
                                history.remove(0);
                            }
                        }
                        if (listener != null) {
                            listener.accept(r.value());
                        }
                    }
                }
            } catch (WakeupException e) {
                // closing
            } finally {
                consumer.close(Duration.ofSeconds(5));
            }
        }, "answer-board");
        thread.setDaemon(true);
        thread.start();
    }

    /** The latest answer of every workload, by workload id (sorted). */
    public Map<String, WindowAnswer> latest() {
        return Collections.unmodifiableMap(new java.util.TreeMap<>(latest));
    }

    /** The most recent answers, oldest first. */
    public List<WindowAnswer> history() {
        synchronized (history) {
            return List.copyOf(history);
        }
    }

    @Override
    public void close() {
        running.set(false);
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** An ordered map of answers keyed by "workload@windowStart", for tests. */
    Map<String, WindowAnswer> byWindow() {
        Map<String, WindowAnswer> out = new LinkedHashMap<>();
        for (WindowAnswer a : history()) {
            out.put(a.getWorkloadId() + "@" + a.getWindowStart().toEpochMilli(), a);
        }
        return out;
    }
}
