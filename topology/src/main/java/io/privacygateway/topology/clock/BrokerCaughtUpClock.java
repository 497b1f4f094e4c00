package io.privacygateway.topology.clock;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The production {@link CaughtUpClock}: a background thread that, every {@code interval}, (1) reads the
 * broker's time by appending a one-byte probe to the gateway's clock topic (LogAppendTime: the broker stamps
 * it), (2) then lists the report partitions' end offsets ({@code read_committed}: the last stable offsets) and
 * (3) the gateway's committed offsets. Everything appended before the probe lies below those end offsets, so a
 * shard whose position reached its end offset has processed every record appended before the probe's broker
 * time. A reading older than {@code 3 × interval} (the broker could not be reached since) is not used. The
 * gateway's own wall clock is never read.
 */
public final class BrokerCaughtUpClock implements CaughtUpClock {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerCaughtUpClock.class);
    private final Admin admin;
    private final KafkaProducer<byte[], byte[]> producer;
    private final String clockTopic;
    private final String groupId;
    private final List<TopicPartition> partitions;
    private final Duration interval;
    private final LongSupplier monotonicMillis;
    private final ScheduledExecutorService thread;
    private volatile Reading reading;

    /** One successful reading: the broker time of the probe, end and committed offsets, and when it was taken. */
    private record Reading(long brokerTime, Map<TopicPartition, Long> ends, Map<TopicPartition, Long> committed,
            long takenAtMonotonic) {}

    /**
     * @param clientProperties the gateway's Kafka client properties (bootstrap servers, TLS, SASL)
     * @param clockTopic a single-partition topic with LogAppendTime that the gateway may write
     * @param groupId the gateway's application id (its consumer group)
     * @param partitions the report partitions to watch
     */
    public BrokerCaughtUpClock(Properties clientProperties, String clockTopic, String groupId,
            List<TopicPartition> partitions, Duration interval) {
        this(clientProperties, clockTopic, groupId, partitions, interval, () -> System.nanoTime() / 1_000_000);
    }

    BrokerCaughtUpClock(Properties clientProperties, String clockTopic, String groupId, List<TopicPartition> partitions,
            Duration interval, LongSupplier monotonicMillis) {
        this.clockTopic = clockTopic;
        this.groupId = groupId;
        this.partitions = List.copyOf(partitions);
        this.interval = interval;
        this.monotonicMillis = monotonicMillis;
        Properties a = new Properties();
        a.putAll(clientProperties);
        a.putIfAbsent("request.timeout.ms", Long.toString(Math.max(1000, 2 * interval.toMillis())));
        a.putIfAbsent("default.api.timeout.ms", Long.toString(Math.max(2000, 4 * interval.toMillis())));
        this.admin = Admin.create(a);
        Properties p = new Properties();
        p.putAll(clientProperties);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, groupId + "-clock");
        p.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Long.toString(Math.max(2000, 4 * interval.toMillis())));
        p.putIfAbsent(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(Math.max(1000, 2 * interval.toMillis())));
        p.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(Math.max(1000, 2 * interval.toMillis())));
        this.producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, groupId + "-caught-up-clock");
            t.setDaemon(true);
            return t;
        });
        thread.scheduleWithFixedDelay(this::read, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void read() {
        long timeout = Math.max(1000, 2 * interval.toMillis());
        try {
            long started = monotonicMillis.getAsLong();
            RecordMetadata md = producer.send(new ProducerRecord<>(clockTopic, new byte[] {0}))
                    .get(timeout, TimeUnit.MILLISECONDS);
            Map<TopicPartition, OffsetSpec> request = new HashMap<>();
            for (TopicPartition tp : partitions) {
                request.put(tp, OffsetSpec.latest());
            }
            ListOffsetsResult offsets = admin.listOffsets(request,
                    new ListOffsetsOptions(IsolationLevel.READ_COMMITTED));
            Map<TopicPartition, Long> ends = new HashMap<>();
            for (var e : offsets.all().get(timeout, TimeUnit.MILLISECONDS).entrySet()) {
                ends.put(e.getKey(), e.getValue().offset());
            }
            Map<TopicPartition, Long> committed = new HashMap<>();
            Map<TopicPartition, OffsetAndMetadata> c = admin.listConsumerGroupOffsets(groupId)
                    .partitionsToOffsetAndMetadata().get(timeout, TimeUnit.MILLISECONDS);
            for (TopicPartition tp : partitions) {
                OffsetAndMetadata o = c.get(tp);
                committed.put(tp, o == null ? -1L : o.offset());
            }
            reading = new Reading(md.timestamp(), ends, committed, started);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.debug("could not read the broker's time and end offsets (idle watermarks wait): {}", e.toString());
        }
    }

    @Override
    public OptionalLong caughtUpTo(String topic, int partition, long nextOffset) {
        Reading r = reading;
        if (r == null || monotonicMillis.getAsLong() - r.takenAtMonotonic() > 3 * interval.toMillis()) {
            return OptionalLong.empty();
        }
        TopicPartition tp = new TopicPartition(topic, partition);
        Long end = r.ends().get(tp);
        if (end == null) {
            return OptionalLong.empty();
        }
        long position = Math.max(nextOffset, r.committed().getOrDefault(tp, -1L));
        return position >= end ? OptionalLong.of(r.brokerTime()) : OptionalLong.empty();
    }

    @Override
    public void close() {
        thread.shutdownNow();
        producer.close(Duration.ofSeconds(5));
        admin.close(Duration.ofSeconds(5));
    }
}
