package io.privacygateway.topology;

import io.micrometer.core.instrument.MeterRegistry;
import io.privacygateway.schemas.SchemaCompatibility;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.topology.processors.CentralReleaser;
import io.privacygateway.topology.workload.WorkloadCache;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the gateway: creates (or checks) its topics, applies the schema compatibility policy, and starts
 * the Kafka Streams application built by {@link GatewayTopologyFactory}. A stream thread that fails (for
 * example while the schema registry is unreachable) is replaced and resumes from its last committed
 * transaction; bad records never fail a thread, they become rejections.
 */
public final class GatewayService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GatewayService.class);
    /**
     * The default commit interval (Kafka Streams' own exactly-once default is 100 ms). Every commit is a
     * transaction; at 500 ms the gateway keeps pace with a plain at-least-once count on the same input
     * (see {@code bench throughput}) and an answer reaches read_committed consumers about half a second
     * after its window's release. Override with {@code commit.interval.ms} in the Kafka properties.
     */
    public static final long DEFAULT_COMMIT_INTERVAL_MS = 500;
    private final KafkaStreams streams;
    private final GatewayMetrics metrics;
    private final SchemaRegistryClient registry;

    private GatewayService(KafkaStreams streams, GatewayMetrics metrics, SchemaRegistryClient registry) {
        this.streams = streams;
        this.metrics = metrics;
        this.registry = registry;
    }

    /** Prepares topics and schemas and starts the gateway; returns once it is running (or fails). */
    public static GatewayService start(GatewaySettings s, MeterRegistry meters, CentralReleaser central,
            Duration startupTimeout) throws Exception {
        Map<String, Object> registryConfig = new HashMap<>(s.registryProperties());
        registryConfig.put("schema.registry.url", s.schemaRegistryUrl());
        SchemaRegistryClient registry = SchemaRegistryClient.fromConfigs(registryConfig);
        GatewayConfig g = s.gateway();
        ensureTopics(s);
        SchemaCompatibility.setUp(registry, t -> topicName(g, t));
        GatewayMetrics metrics = new GatewayMetrics(meters);
        KafkaStreams streams = new KafkaStreams(GatewayTopologyFactory.build(g, GatewaySerdes.withRegistry(registry),
                metrics, new WorkloadCache(), central), streamsProperties(s));
        streams.setUncaughtExceptionHandler(e -> {
            LOG.error("a stream thread failed; replacing it (it resumes from the last committed transaction)", e);
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        streams.start();
        long deadline = System.nanoTime() + startupTimeout.toNanos();
        while (streams.state() != KafkaStreams.State.RUNNING) {
            if (streams.state() == KafkaStreams.State.ERROR || streams.state() == KafkaStreams.State.NOT_RUNNING) {
                throw new IllegalStateException("the gateway stopped while starting: " + streams.state());
            }
            if (System.nanoTime() > deadline) {
                streams.close(Duration.ofSeconds(10));
                throw new TimeoutException("the gateway did not reach RUNNING within " + startupTimeout);
            }
            Thread.sleep(50);
        }
        return new GatewayService(streams, metrics, registry);
    }

    /** The Kafka Streams configuration of a gateway instance. */
    public static Properties streamsProperties(GatewaySettings s) {
        Properties p = new Properties();
        p.putAll(s.kafkaProperties());
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, s.applicationId());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, s.bootstrapServers());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, s.processingGuarantee());
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, s.streamThreads());
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) s.replicationFactor());
        p.put(StreamsConfig.STATE_DIR_CONFIG, s.stateDir().toString());
        p.put(StreamsConfig.consumerPrefix("isolation.level"), "read_committed");
        // the global workloads store's processing errors go through the same handler as the rest (the default
        // from Kafka 5.0 on; the workloads processor never throws on bad specs, it counts and skips them)
        p.putIfAbsent("processing.exception.handler.global.enabled", "true");
        p.putIfAbsent(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, Long.toString(DEFAULT_COMMIT_INTERVAL_MS));
        return p;
    }

    /** The configured name of a project topic. */
    public static String topicName(GatewayConfig g, io.privacygateway.schemas.ProjectTopic t) {
        return switch (t) {
            case LOCAL_REPORTS -> g.localReportsTopic();
            case CENTRAL_REPORTS -> g.centralReportsTopic();
            case ANSWERS -> g.answersTopic();
            case REJECTIONS -> g.rejectionsTopic();
            case WORKLOADS -> g.workloadsTopic();
        };
    }

    /**
     * Creates missing topics: report topics with {@code message.timestamp.type=LogAppendTime} (the
     * gateway's watermarks are broker append times, so a replay after a crash decides lateness exactly
     * as the first run did), the compacted workloads topic, answers, rejections and the internal partials
     * topic. Existing report topics must have the configured partition counts and LogAppendTime.
     */
    public static void ensureTopics(GatewaySettings s) throws Exception {
        GatewayConfig g = s.gateway();
        Properties admin = new Properties();
        admin.putAll(s.kafkaProperties());
        admin.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, s.bootstrapServers());
        try (Admin a = Admin.create(admin)) {
            short rf = s.replicationFactor();
            Map<String, String> append = Map.of(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime");
            List<NewTopic> wanted = new ArrayList<>();
            wanted.add(new NewTopic(g.localReportsTopic(), g.localPartitions(), rf).configs(append));
            wanted.add(new NewTopic(g.centralReportsTopic(), g.centralPartitions(), rf).configs(append));
            wanted.add(new NewTopic(g.workloadsTopic(), 1, rf).configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG,
                    TopicConfig.CLEANUP_POLICY_COMPACT)));
            wanted.add(new NewTopic(g.answersTopic(), Math.max(g.localPartitions(), g.centralPartitions()), rf));
            wanted.add(new NewTopic(g.rejectionsTopic(), g.localPartitions(), rf));
            wanted.add(new NewTopic(g.partialsTopic(), Math.max(g.localPartitions(), g.centralPartitions()), rf));
            Set<String> existing = a.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = wanted.stream().filter(t -> !existing.contains(t.name())).toList();
            if (!missing.isEmpty()) {
                try {
                    a.createTopics(missing).all().get(60, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
            }
            checkReportTopic(a, g.localReportsTopic(), g.localPartitions());
            checkReportTopic(a, g.centralReportsTopic(), g.centralPartitions());
        }
    }

    private static void checkReportTopic(Admin a, String topic, int partitions) throws Exception {
        TopicDescription d = whenKnown(() -> a.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS)
                .get(topic));
        if (d.partitions().size() != partitions) {
            throw new IllegalStateException("topic " + topic + " has " + d.partitions().size()
                    + " partitions; the gateway is configured for " + partitions + " (partitions.local /"
                    + " partitions.central in gateway.yaml)");
        }
        ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Config c = whenKnown(() -> a.describeConfigs(List.of(r)).all().get(30, TimeUnit.SECONDS).get(r));
        String type = c.get(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG).value();
        if (!"LogAppendTime".equals(type)) {
            throw new IllegalStateException("topic " + topic + " uses message.timestamp.type=" + type
                    + "; the gateway needs LogAppendTime (set it with kafka-configs --alter)");
        }
    }

    /** An admin call on a topic, retried (up to 30 s) while the broker has not caught up with its creation. */
    private static <T> T whenKnown(Callable<T> call) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                return call.call();
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }

    public KafkaStreams streams() {
        return streams;
    }

    public GatewayMetrics metrics() {
        return metrics;
    }

    public SchemaRegistryClient registry() {
        return registry;
    }

    /**
     * Waits until this instance's global workloads store maps {@code workloadId} to {@code contentHash}: from
     * then on reports of that version are validated against it (earlier ones would be rejected as
     * {@code UNKNOWN_WORKLOAD}).
     *
     * @throws TimeoutException if it does not within {@code timeout}
     */
    public void awaitWorkload(String workloadId, String contentHash, Duration timeout)
            throws TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                ReadOnlyKeyValueStore<String, String> store = streams.store(StoreQueryParameters.fromNameAndType(
                        GatewayTopologyFactory.WORKLOADS_STORE, QueryableStoreTypes.keyValueStore()));
                if (contentHash.equals(store.get(workloadId))) {
                    return;
                }
            } catch (InvalidStateStoreException e) {
                // not queryable yet (starting or rebalancing)
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("the gateway did not load workload " + workloadId + " (content hash "
                        + contentHash.substring(0, Math.min(12, contentHash.length())) + ") within " + timeout);
            }
            Thread.sleep(50);
        }
    }

    /** Stops the gateway, committing its last transaction. */
    @Override
    public void close() {
        streams.close(Duration.ofSeconds(30));
    }
}
