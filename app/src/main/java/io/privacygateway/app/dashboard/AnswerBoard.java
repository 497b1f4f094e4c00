package io.privacygateway.app.dashboard;

import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.serde.AvroDeserializer;
import io.privacygateway.schemas.wire.WireFormatException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the answers topic as a downstream consumer would ({@code isolation.level=read_committed}, so only
 * answers of committed gateway transactions are seen) and adds every answer to an {@link AnswerHistory}.
 * Runs one background thread; {@link #close()} stops it.
 *
 * <p>The thread survives bad records: values are read as bytes and decoded one by one, so a record that
 * cannot be decoded (wrong wire format, unknown or incompatible schema, bad Avro) or that lacks a workload
 * or window is skipped and counted in the history by reason ({@link AnswerHistory#skipped}); its content is
 * never logged. When the schema registry cannot be reached (not the record's fault) the record is read again
 * after a pause instead of being skipped. A failing listener is logged and does not stop the thread.
 */
public final class AnswerBoard implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AnswerBoard.class);
    /** Pause before reading a record again whose schema could not be fetched. */
    static final Duration RETRY_PAUSE = Duration.ofSeconds(1);

    private final org.apache.kafka.clients.consumer.Consumer<String, byte[]> consumer;
    private final Deserializer<WindowAnswer> deserializer;
    private final AnswerHistory history;
    private final Consumer<WindowAnswer> listener;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;

    /**
     * Starts following {@code answersTopic} from its beginning.
     *
     * @param clientProperties extra consumer properties (security settings and the like)
     * @param history where the answers go
     * @param listener also told of every answer (after the history), or {@code null}
     */
    public AnswerBoard(String bootstrapServers, Map<String, String> clientProperties, SchemaRegistryClient registry,
            String answersTopic, AnswerHistory history, Consumer<WindowAnswer> listener) {
        this(subscribed(bootstrapServers, clientProperties, answersTopic),
                new AvroDeserializer<>(WindowAnswer.class, registry), history, listener);
    }

    /** For tests: reads from an already subscribed or assigned consumer. */
    AnswerBoard(org.apache.kafka.clients.consumer.Consumer<String, byte[]> consumer,
            Deserializer<WindowAnswer> deserializer, AnswerHistory history, Consumer<WindowAnswer> listener) {
        this.consumer = Objects.requireNonNull(consumer, "consumer");
        this.deserializer = Objects.requireNonNull(deserializer, "deserializer");
        this.history = Objects.requireNonNull(history, "history");
        this.listener = listener;
        this.thread = new Thread(this::run, "answer-board");
        thread.setDaemon(true);
        thread.start();
    }

    private static KafkaConsumer<String, byte[]> subscribed(String bootstrapServers, Map<String, String> clientProperties,
            String topic) {
        Properties p = new Properties();
        p.putAll(clientProperties);
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "pgw-dashboard-" + UUID.randomUUID());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
        c.subscribe(List.of(topic));
        return c;
    }

    private void run() {
        try {
            while (running.get()) {
                try {
                    readOnce();
                } catch (WakeupException | InterruptException e) {
                    break;
                } catch (RuntimeException e) {
                    LOG.warn("reading the answers topic failed, retrying: {}", e.toString());
                    pause();
                }
            }
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    private void readOnce() {
        ConsumerRecords<String, byte[]> batch = consumer.poll(Duration.ofMillis(500));
        boolean retry = false;
        for (TopicPartition tp : batch.partitions()) {
            for (ConsumerRecord<String, byte[]> r : batch.records(tp)) {
                if (!handle(r)) {
                    consumer.seek(tp, r.offset()); // read it again, and what follows it, after the pause
                    retry = true;
                    break;
                }
            }
        }
        if (retry) {
            pause();
        }
    }

    /** Handles one record; {@code false} if it must be read again later (registry unavailable). */
    private boolean handle(ConsumerRecord<String, byte[]> r) {
        if (r.value() == null) {
            return true; // a tombstone: nothing to show
        }
        WindowAnswer a;
        try {
            a = deserializer.deserialize(r.topic(), r.headers(), r.value());
        } catch (WireFormatException e) {
            if (!e.isRecordFault()) {
                LOG.warn("answer at {}-{}@{} cannot be read now ({}); retrying", r.topic(), r.partition(), r.offset(),
                        e.reason());
                return false;
            }
            skip(r, e.reason().name());
            return true;
        } catch (RuntimeException e) {
            skip(r, "UNREADABLE");
            return true;
        }
        boolean kept;
        try {
            kept = a != null && history.accept(a);
        } catch (RuntimeException e) {
            kept = false;
        }
        if (!kept) {
            skip(r, "INCOMPLETE");
            return true;
        }
        if (listener != null) {
            try {
                listener.accept(a);
            } catch (RuntimeException e) {
                LOG.warn("an answer listener failed on {}-{}@{}: {}", r.topic(), r.partition(), r.offset(), e.toString());
            }
        }
        return true;
    }

    private void skip(ConsumerRecord<String, byte[]> r, String reason) {
        history.skipped(reason);
        LOG.warn("skipped an answers-topic record at {}-{}@{}: {}", r.topic(), r.partition(), r.offset(), reason);
    }

    private void pause() {
        try {
            Thread.sleep(RETRY_PAUSE.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running.set(false);
        }
    }

    /** Whether the reader thread is still running. */
    public boolean isRunning() {
        return thread.isAlive();
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
}
