package io.privacygateway.client;

import io.privacygateway.mechanisms.planner.Planner;
import io.privacygateway.mechanisms.runtime.CentralWorkload;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.WorkloadSpecRecords;
import io.privacygateway.schemas.avro.WorkloadSpecRecord;
import io.privacygateway.schemas.limits.RecordSizes;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.serde.AvroDeserializer;
import io.privacygateway.schemas.serde.AvroSerializer;
import io.privacygateway.schemas.wire.WireFormatException;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes resolved workloads to the gateway's compacted workloads topic and reads them back.
 *
 * <p><b>{@link #register}</b> resolves {@code auto} with {@link Planner#resolve} (deterministic: the
 * same spec always resolves to the same mechanism and content hash), checks that devices and the gateway
 * can build the resolved workload, and publishes it as a {@link WorkloadSpecRecord} keyed by the workload id,
 * acknowledged by all in-sync replicas, with an idempotent producer. It returns the resolved spec: devices
 * must report with it, since its content hash keys the public coins and is checked by the gateway.
 * Versions only move forward: registering a spec whose (id, version) is registered with other content, or
 * whose version is below the registered one, is refused, so an (id, version) never changes meaning while
 * devices report for it. Registering the registered spec again publishes nothing.
 * (Two registrars racing on the same id are not serialized against each other.)
 *
 * <p><b>{@link #fetch}</b> reads the current spec of a workload: the topic from the beginning with
 * {@code isolation.level=read_committed}, up to its end offsets at the time of the call; the last record
 * for the id wins, a tombstone deletes it, and a record that does not decode or verify is skipped (the
 * previous one stays current), as in the gateway.
 *
 * <p>The workloads topic must exist and be compacted (the gateway creates it at startup); the registrar
 * never lets a producer auto-create it with the wrong cleanup policy. Thread-safe; close it when done.
 */
public final class WorkloadRegistrar implements AutoCloseable {
    /** How long {@link #register} and {@link #fetch} wait by default. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    private final Map<String, Object> kafkaConfig;
    private final SchemaRegistryClient registry;
    private final String topic;
    private final Duration timeout;
    private final Producer<String, WorkloadSpecRecord> producer;
    private final Admin admin;

    private WorkloadRegistrar(Map<String, ?> kafkaConfig, SchemaRegistryClient registry, GatewayTopics topics,
            Duration timeout) {
        this.kafkaConfig = new HashMap<>(kafkaConfig);
        this.registry = Objects.requireNonNull(registry, "registry");
        this.topic = topics.workloads();
        this.timeout = timeout;
        Map<String, Object> p = new HashMap<>(this.kafkaConfig);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) Math.max(timeout.toMillis(), 15_000));
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.min(timeout.toMillis(), 15_000));
        p.remove(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG);
        p.remove(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG);
        // The gateway registers its schemas at startup; registering here too is idempotent and lets the
        // registrar run first.
        this.producer = new KafkaProducer<>(p, new StringSerializer(), new AvroSerializer<>(registry, true));
        this.admin = Admin.create(new HashMap<>(this.kafkaConfig));
    }

    /**
     * A registrar.
     *
     * @param kafkaConfig at least {@code bootstrap.servers}; any client setting (TLS, SASL, ...)
     * @param registry the schema registry the gateway uses
     * @param topics the gateway's topic names
     */
    public static WorkloadRegistrar create(Map<String, ?> kafkaConfig, SchemaRegistryClient registry,
            GatewayTopics topics) {
        return new WorkloadRegistrar(kafkaConfig, registry, topics, DEFAULT_TIMEOUT);
    }

    /** A registrar whose operations wait at most {@code timeout}. */
    public static WorkloadRegistrar create(Map<String, ?> kafkaConfig, SchemaRegistryClient registry,
            GatewayTopics topics, Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
        return new WorkloadRegistrar(kafkaConfig, registry, topics, timeout);
    }

    /**
     * Resolves and publishes a workload.
     *
     * @return the resolved spec (mechanism chosen, planned n filled in) that devices must use
     * @throws IllegalArgumentException if the resolved workload cannot be built (e.g. α too large)
     * @throws IllegalStateException if the version is already registered with other content or is older
     *     than the registered one, or the workloads topic is missing or not compacted
     * @throws TimeoutException if the broker does not acknowledge within the timeout
     */
    public synchronized WorkloadSpec register(WorkloadSpec spec) throws TimeoutException, InterruptedException {
        WorkloadSpec resolved = Planner.resolve(spec);
        // the gateway builds the same; fail here rather than have it skip the record or every window
        var runtime = Workloads.resolve(resolved);
        RecordSizes.check(runtime);
        if (runtime instanceof CentralWorkload central) {
            central.checkReleasable();
        }
        checkTopic();
        String hash = CanonicalForm.contentHash(resolved);
        Optional<WorkloadSpec> current = find(resolved.id());
        if (current.isPresent()) {
            WorkloadSpec c = current.get();
            if (CanonicalForm.contentHash(c).equals(hash)) {
                return c;
            }
            if (c.version() >= resolved.version()) {
                throw new IllegalStateException("workload " + resolved.id() + " version " + c.version()
                        + " is registered (content hash " + CanonicalForm.contentHash(c).substring(0, 12) + "); to change"
                        + " it, register version " + (c.version() + 1) + " or later (got version " + resolved.version()
                        + ", content hash " + hash.substring(0, 12) + ")");
            }
        }
        try {
            producer.send(new ProducerRecord<>(topic, resolved.id(), WorkloadSpecRecords.toRecord(resolved)))
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("publishing workload " + resolved.id() + " to " + topic + " failed: "
                    + e.getCause().getMessage(), e.getCause());
        }
        return resolved;
    }

    /**
     * The current spec of a workload.
     *
     * @throws NoSuchElementException if no valid spec is registered under {@code id}
     * @throws TimeoutException if the topic cannot be read to its end within the timeout
     */
    public WorkloadSpec fetch(String id) throws TimeoutException {
        return find(id).orElseThrow(() -> new NoSuchElementException("no workload \"" + id + "\" is registered in "
                + topic));
    }

    /** The current spec of a workload, if one is registered. */
    public Optional<WorkloadSpec> find(String id) throws TimeoutException {
        return Optional.ofNullable(fetchAll().get(Objects.requireNonNull(id, "id")));
    }

    /**
     * Every currently registered workload, by id (in the order their latest records were written).
     *
     * @throws TimeoutException if the topic cannot be read to its end within the timeout
     */
    public Map<String, WorkloadSpec> fetchAll() throws TimeoutException {
        Map<String, Object> c = new HashMap<>(kafkaConfig);
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        c.remove(ConsumerConfig.GROUP_ID_CONFIG);
        c.remove(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG);
        c.remove(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG);
        long deadline = System.nanoTime() + timeout.toNanos();
        AvroDeserializer<WorkloadSpecRecord> values = new AvroDeserializer<>(WorkloadSpecRecord.class, registry);
        Map<String, WorkloadSpec> out = new LinkedHashMap<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(c, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
            if (infos == null || infos.isEmpty()) {
                return out;
            }
            List<TopicPartition> parts = infos.stream().map(i -> new TopicPartition(topic, i.partition())).toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts, timeout);
            while (!caughtUp(consumer, end)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new TimeoutException("reading " + topic + " to its end took longer than " + timeout);
                }
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(Math.min(200,
                        TimeUnit.NANOSECONDS.toMillis(left) + 1)))) {
                    apply(r, values, out);
                }
            }
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            throw new TimeoutException("reading " + topic + ": " + e.getMessage());
        }
        return out;
    }

    private static boolean caughtUp(KafkaConsumer<String, byte[]> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    private void apply(ConsumerRecord<String, byte[]> r, AvroDeserializer<WorkloadSpecRecord> values,
            Map<String, WorkloadSpec> out) {
        if (r.key() == null) {
            return;
        }
        if (r.value() == null) {
            out.remove(r.key());
            return;
        }
        try {
            WorkloadSpecRecord rec = values.deserialize(topic, r.value());
            if (!rec.getId().equals(r.key())) {
                return;
            }
            WorkloadSpec s = WorkloadSpecRecords.toSpec(rec);
            out.remove(r.key()); // keep "latest written" order
            out.put(r.key(), s);
        } catch (WireFormatException e) {
            if (!e.isRecordFault()) {
                throw e;
            }
        } catch (RuntimeException e) {
            // not a valid spec record: the previous one stays current, as in the gateway
        }
    }

    private void checkTopic() throws TimeoutException, InterruptedException {
        ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Config config;
        try {
            config = admin.describeConfigs(List.of(r)).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(r);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                throw new IllegalStateException("the workloads topic " + topic + " does not exist: start the gateway"
                        + " (it creates its topics) or create it with cleanup.policy=compact");
            }
            throw new IllegalStateException("cannot describe " + topic + ": " + e.getCause().getMessage(), e.getCause());
        }
        String policy = config.get(TopicConfig.CLEANUP_POLICY_CONFIG).value();
        if (policy == null || !policy.contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
            throw new IllegalStateException("the workloads topic " + topic + " has cleanup.policy=" + policy
                    + "; it must be compacted so the current spec of every workload is kept");
        }
    }

    /** The workloads topic. */
    public String topic() {
        return topic;
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
        admin.close(Duration.ofSeconds(10));
    }
}
