package io.privacygateway.ingest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.ProtocolVersions;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.WorkloadSpecRecord;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.serde.AvroDeserializer;
import io.privacygateway.topology.workload.Registration;
import io.privacygateway.topology.workload.WorkloadCatalog;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's workload catalog as this instance sees it: a thread reads the compacted workloads topic from the
 * beginning (no consumer group: every instance reads all of it) into the gateway's own {@link WorkloadCatalog}
 * (same validation, same resolution, same content-hash check), and keeps the documents {@code GET /v1/workloads}
 * serves. {@link #ready()} once it has read the topic to the end offsets it found at start.
 */
final class WorkloadFeed implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WorkloadFeed.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private final WorkloadCatalog catalog = new WorkloadCatalog();
    private final KafkaConsumer<String, byte[]> consumer;
    private final AvroDeserializer<WorkloadSpecRecord> values;
    private final String topic;
    private final Thread thread;
    private volatile boolean ready;
    private volatile boolean closed;
    private volatile Docs docs = new Docs(Map.of(), doc(List.of()));

    /** A served document: its bytes and strong ETag. */
    record Doc(byte[] body, String etag) {}

    private record Docs(Map<String, Doc> byId, Doc all) {}

    WorkloadFeed(Map<String, Object> kafkaConfig, SchemaRegistryClient registry, String topic) {
        Map<String, Object> c = new HashMap<>(kafkaConfig);
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.remove(ConsumerConfig.GROUP_ID_CONFIG);
        this.consumer = new KafkaConsumer<>(c, new StringDeserializer(), new ByteArrayDeserializer());
        this.values = new AvroDeserializer<>(WorkloadSpecRecord.class, registry);
        this.topic = topic;
        this.thread = new Thread(this::run, "pgw-ingest-workloads");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Whether the topic has been read to the end it had when this instance started. */
    boolean ready() {
        return ready;
    }

    /** The current registration of {@code id}, or null if none or deleted. */
    Registration current(String id) {
        Registration r = catalog.current(id);
        return r == null || r.deleted() ? null : r;
    }

    /** The document of one workload, or null. */
    Doc doc(String id) {
        return docs.byId.get(id);
    }

    /** The document of every active workload. */
    Doc all() {
        return docs.all;
    }

    private void run() {
        try {
            while (!closed) {
                try {
                    follow();
                } catch (TimeoutException e) {
                    // Kafka unreachable (at start, or while looking the topic up): try again, never give up
                    LOG.warn("reading the workloads topic {}: {}; retrying", topic, e.getMessage());
                    Thread.sleep(1000);
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            if (!closed) {
                LOG.error("the workloads reader stopped: {}", e.toString());
                ready = false;
            }
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    /** Finds the topic's partitions, reads them from the beginning, and follows them until closed. */
    private void follow() throws InterruptedException {
        List<TopicPartition> parts = List.of();
        while (!closed && parts.isEmpty()) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(5));
            parts = infos == null ? List.of() : infos.stream().map(i -> new TopicPartition(topic, i.partition()))
                    .toList();
            if (parts.isEmpty()) {
                LOG.info("waiting for the workloads topic {} (the gateway creates it)", topic);
                Thread.sleep(1000);
            }
        }
        if (closed) {
            return;
        }
        consumer.assign(parts);
        if (!ready) {
            consumer.seekToBeginning(parts);
        }
        Map<TopicPartition, Long> end = consumer.endOffsets(parts, Duration.ofSeconds(30));
        while (!closed) {
            var records = consumer.poll(Duration.ofMillis(200));
            boolean changed = false;
            for (ConsumerRecord<String, byte[]> r : records) {
                changed |= apply(r);
            }
            if (changed) {
                rebuildDocs();
            }
            if (!ready && caughtUp(end)) {
                ready = true;
                LOG.info("workload catalog loaded: {} active workloads", docs.byId.size());
            }
        }
    }

    private boolean caughtUp(Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** Applies one record as the gateway's WorkloadsProcessor does; true if the catalog changed. */
    private boolean apply(ConsumerRecord<String, byte[]> record) {
        String id = record.key();
        if (id == null || id.isEmpty() || id.length() > 100) {
            return false;
        }
        if (record.value() == null) {
            return catalog.delete(id, record.timestamp()) != null;
        }
        try {
            WorkloadSpecRecord r = values.deserialize(topic, record.value());
            if (!r.getId().equals(id)) {
                return false;
            }
            Registration prior = catalog.current(id);
            if (prior != null && !prior.deleted() && r.getContentHash().equals(prior.contentHash())) {
                return false;
            }
            catalog.activate(id, r.getSpecJson(), r.getContentHash(), record.timestamp());
            return true;
        } catch (RuntimeException e) {
            LOG.warn("ignoring an invalid workload record for {}: {}", id, e.getMessage());
            return false;
        }
    }

    private void rebuildDocs() {
        Map<String, Doc> byId = new TreeMap<>();
        List<Map<String, Object>> all = new ArrayList<>();
        for (Registration r : catalog.registrations()) {
            if (r.deleted()) {
                continue;
            }
            Map<String, Object> d = describe(r);
            byId.put(r.id(), doc(d));
            all.add(d);
        }
        all.sort(Comparator.comparing(m -> (String) m.get("id")));
        docs = new Docs(Map.copyOf(byId), doc(all));
    }

    /** The served description of a registration: canonical form, hash, protocol version, activation, rules. */
    static Map<String, Object> describe(Registration r) {
        ResolvedWorkload w = r.workload();
        WorkloadSpec s = w.spec();
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("id", s.id());
        d.put("version", s.version());
        d.put("contentHash", r.contentHash());
        d.put("protocolVersion", s.protocolVersion()); // what local reports must carry (docs/wire-format.md)
        d.put("protocol", ProtocolVersions.wireName(s.mechanism(),
                s.protocolVersion()));
        d.put("canonicalFormVersion", CanonicalForm.PROTOCOL_VERSION);
        d.put("mode", s.mode().wireName());
        d.put("mechanism", s.mechanism().wireName());
        d.put("activeSince", r.since());
        d.put("window", Map.of("sizeMillis", s.window().sizeMillis(), "graceMillis", s.window().graceMillis()));
        d.put("period", Map.of("millis", s.budget().periodMillis()));
        d.put("slots", w.slots());
        d.put("canonicalForm", CanonicalForm.of(s));
        return d;
    }

    private static Doc doc(Object value) {
        try {
            byte[] body = JSON.writeValueAsBytes(value);
            byte[] h = MessageDigest.getInstance("SHA-256").digest(body);
            StringBuilder etag = new StringBuilder("\"");
            for (int i = 0; i < 16; i++) {
                etag.append(String.format("%02x", h[i]));
            }
            return new Doc(body, etag.append('"').toString());
        } catch (JsonProcessingException | NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        closed = true;
        consumer.wakeup();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
