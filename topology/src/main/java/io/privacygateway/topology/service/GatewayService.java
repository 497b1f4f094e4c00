package io.privacygateway.topology.service;

import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.GatewayMetrics;
import io.privacygateway.topology.GatewaySettings;
import io.micrometer.core.instrument.MeterRegistry;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.schemas.ProjectTopic;
import io.privacygateway.schemas.SchemaCompatibility;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.topology.answers.AnswersStore;
import io.privacygateway.topology.clock.BrokerCaughtUpClock;
import io.privacygateway.topology.clock.CaughtUpClock;
import io.privacygateway.topology.release.CentralReleaser;
import io.privacygateway.topology.state.BoundedRocksDbConfigSetter;
import io.privacygateway.topology.workload.WorkloadCatalog;
import java.time.Duration;
import java.util.ArrayDeque;
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
import java.util.function.LongSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the gateway: creates (or checks) its topics, guards the report topics' partition counts, applies the
 * schema compatibility policy, and starts the Kafka Streams application built by {@link GatewayTopologyFactory}.
 *
 * <p><b>Failures.</b> Bad records never fail a stream thread (they become rejections). A thread that fails for
 * an infrastructure reason (the schema registry or a broker unreachable) is replaced and resumes from its last
 * committed transaction — but at most {@link #MAX_REPLACEMENTS} times within {@link #REPLACEMENT_WINDOW}; beyond
 * that the client shuts down (state ERROR) instead of looping, and {@link #failure()} says why, so a supervisor
 * (the {@code run} command, a container orchestrator) sees a dead gateway rather than a zombie.
 */
public final class GatewayService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GatewayService.class);
    /**
     * The default commit interval. Every commit is a transaction; answers reach {@code read_committed}
     * consumers one commit after their release. Override with {@code commit.interval.ms} in the Kafka properties.
     */
    public static final long DEFAULT_COMMIT_INTERVAL_MS = 100;
    /** Thread replacements allowed within {@link #REPLACEMENT_WINDOW} before the client gives up. */
    public static final int MAX_REPLACEMENTS = 10;
    public static final Duration REPLACEMENT_WINDOW = Duration.ofMinutes(5);
    private final KafkaStreams streams;
    private final GatewayMetrics metrics;
    private final SchemaRegistryClient registry;
    private final WorkloadCatalog catalog;
    private final CaughtUpClock caughtUp;
    private final AnswersStore answers;
    private volatile Throwable failure;

    private GatewayService(KafkaStreams streams, GatewayMetrics metrics, SchemaRegistryClient registry,
            WorkloadCatalog catalog, CaughtUpClock caughtUp, AnswersStore answers) {
        this.streams = streams;
        this.answers = answers;
        this.metrics = metrics;
        this.registry = registry;
        this.catalog = catalog;
        this.caughtUp = caughtUp;
    }

    /**
     * Prepares topics and schemas and starts the gateway; returns once it is running (or fails).
     *
     * @param central how central windows are released, or {@code null} for {@link CentralReleaser#secure()}
     */
    public static GatewayService start(GatewaySettings s, MeterRegistry meters, CentralReleaser central,
            Duration startupTimeout) throws Exception {
        if (central == null) {
            central = CentralReleaser.secure();
        }
        Map<String, Object> registryConfig = new HashMap<>(s.registryProperties());
        registryConfig.put("schema.registry.url", s.schemaRegistryUrl());
        SchemaRegistryClient registry = SchemaRegistryClient.fromConfigs(registryConfig);
        GatewayConfig g = s.gateway();
        ensureTopics(s);
        long deploymentStart = guardPartitionCounts(s);
        SchemaCompatibility.setUp(registry, t -> topicName(g, t));
        GatewayMetrics metrics = new GatewayMetrics(meters);
        WorkloadCatalog catalog = new WorkloadCatalog();
        catalog.answersFrom(deploymentStart);
        List<TopicPartition> reportPartitions = new ArrayList<>();
        for (Mode m : Mode.values()) {
            for (int p = 0; p < g.partitions(m); p++) {
                reportPartitions.add(new TopicPartition(g.reportsTopic(m), p));
            }
        }
        Properties client = clientProperties(s);
        CaughtUpClock caughtUp = new BrokerCaughtUpClock(client, g.clockTopic(), s.applicationId(), reportPartitions,
                Duration.ofMillis(Math.max(100, g.punctuateEvery().toMillis() * 5)));
        LongSupplier monotonic = () -> System.nanoTime() / 1_000_000;
        CentralReleaser releaser = central;
        GatewaySerdes serdes = GatewaySerdes.withRegistry(registry);
        KafkaStreams streams = new KafkaStreams(GatewayTopologyFactory.build(new GatewayTopologyFactory.Parts(g,
                serdes, metrics, catalog, releaser, caughtUp, monotonic)), streamsProperties(s));
        AnswersStore answers = g.answersStore() ? new AnswersStore(streams, g.answersTopic(), serdes.answersReader())
                : null;
        GatewayService service = new GatewayService(streams, metrics, registry, catalog, caughtUp, answers);
        ArrayDeque<Long> replacements = new ArrayDeque<>();
        streams.setUncaughtExceptionHandler(e -> {
            long now = monotonic.getAsLong();
            synchronized (replacements) {
                replacements.addLast(now);
                while (!replacements.isEmpty() && now - replacements.peekFirst() > REPLACEMENT_WINDOW.toMillis()) {
                    replacements.removeFirst();
                }
                if (replacements.size() > MAX_REPLACEMENTS) {
                    service.failure = e;
                    LOG.error("a stream thread failed {} times within {}; shutting the gateway down", replacements.size(),
                            REPLACEMENT_WINDOW, e);
                    return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
                }
            }
            LOG.error("a stream thread failed; replacing it (it resumes from the last committed transaction)", e);
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        streams.start();
        long deadline = System.nanoTime() + startupTimeout.toNanos();
        while (streams.state() != KafkaStreams.State.RUNNING) {
            if (streams.state() == KafkaStreams.State.ERROR || streams.state() == KafkaStreams.State.NOT_RUNNING) {
                caughtUp.close();
                throw new IllegalStateException("the gateway stopped while starting: " + streams.state());
            }
            if (System.nanoTime() > deadline) {
                streams.close(Duration.ofSeconds(10));
                caughtUp.close();
                throw new TimeoutException("the gateway did not reach RUNNING within " + startupTimeout);
            }
            Thread.sleep(50);
        }
        return service;
    }

    /** The Kafka client properties every client of the gateway uses (bootstrap servers and pass-through). */
    static Properties clientProperties(GatewaySettings s) {
        Properties p = new Properties();
        p.putAll(s.kafkaProperties());
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, s.bootstrapServers());
        for (String streamsOnly : List.of(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "group.instance.id")) {
            p.remove(streamsOnly);
        }
        return p;
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
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.ISOLATION_LEVEL_CONFIG), "read_committed");
        // the global workloads store's processing errors go through the same handler as the rest (the default
        // from Kafka 5.0 on; the workloads processor never throws on bad specs, it counts and skips them)
        p.putIfAbsent("processing.exception.handler.global.enabled", "true");
        p.putIfAbsent(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, Long.toString(DEFAULT_COMMIT_INTERVAL_MS));
        // every RocksDB store of the process within one shared cache and write-buffer budget (gateway.yaml rocksdb)
        p.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG,
                BoundedRocksDbConfigSetter.class);
        p.putAll(s.gateway().rocksDbMemory().streamsConfig());
        return p;
    }

    /** The configured name of a project topic. */
    public static String topicName(GatewayConfig g, ProjectTopic t) {
        return switch (t) {
            case LOCAL_REPORTS -> g.localReportsTopic();
            case CENTRAL_REPORTS -> g.centralReportsTopic();
            case ANSWERS -> g.answersTopic();
            case SYNTHETIC -> g.syntheticTopic();
            case REJECTIONS -> g.rejectionsTopic();
            case WORKLOADS -> g.workloadsTopic();
        };
    }

    /**
     * Creates missing topics: report topics and the workloads topic with {@code message.timestamp.type=
     * LogAppendTime} (watermarks and activation times are broker times, so a replay after a crash decides
     * exactly as the first run did); the central report topic with a short retention (it holds raw values);
     * the compacted workloads topic; answers (kept {@link GatewayConfig#answersRetentionMs()}: forever by default);
     * synthetic records; rejections; and the internal topics named after the application id:
     * partials (retention {@link GatewayConfig#partialsRetention()}), the broker clock probe topic (one
     * partition, LogAppendTime, one hour) and the deployment record (compacted). Existing report topics must
     * have the configured partition counts and LogAppendTime.
     */
    public static void ensureTopics(GatewaySettings s) throws Exception {
        GatewayConfig g = s.gateway();
        try (Admin a = Admin.create(clientProperties(s))) {
            short rf = s.replicationFactor();
            Map<String, String> append = Map.of(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime");
            int internalPartitions = Math.max(g.localPartitions(), g.centralPartitions());
            List<NewTopic> wanted = new ArrayList<>();
            wanted.add(new NewTopic(g.localReportsTopic(), g.localPartitions(), rf).configs(append));
            wanted.add(new NewTopic(g.centralReportsTopic(), g.centralPartitions(), rf).configs(Map.of(
                    TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime",
                    TopicConfig.RETENTION_MS_CONFIG, Long.toString(g.centralReportsRetention().toMillis()))));
            wanted.add(new NewTopic(g.workloadsTopic(), 1, rf).configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG,
                    TopicConfig.CLEANUP_POLICY_COMPACT, TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime")));
            wanted.add(new NewTopic(g.answersTopic(), internalPartitions, rf).configs(answersTopicConfig(g)));
            wanted.add(new NewTopic(g.syntheticTopic(), internalPartitions, rf));
            wanted.add(new NewTopic(g.rejectionsTopic(), g.localPartitions(), rf));
            wanted.add(new NewTopic(g.partialsTopic(), internalPartitions, rf).configs(Map.of(
                    TopicConfig.RETENTION_MS_CONFIG, Long.toString(g.partialsRetention().toMillis()))));
            wanted.add(new NewTopic(g.clockTopic(), 1, rf).configs(Map.of(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG,
                    "LogAppendTime", TopicConfig.RETENTION_MS_CONFIG, "3600000")));
            wanted.add(new NewTopic(deploymentTopic(s), 1, rf).configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG,
                    TopicConfig.CLEANUP_POLICY_COMPACT, TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime")));
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
            if (existing.contains(g.answersTopic())) {
                checkAnswersRetention(a, g);
            }
            checkReportTopic(a, g.localReportsTopic(), g.localPartitions());
            checkReportTopic(a, g.centralReportsTopic(), g.centralPartitions());
        }
    }

    /**
     * The configuration the answers topic is created with: {@code retention.ms} from
     * {@link GatewayConfig#answersRetentionMs()} ({@code -1}, keep forever, by default) and the delete cleanup policy.
     * Not compacted: the topic is keyed by workload id, and each (workload, version, horizon, window) is released
     * once, so compaction per window would keep exactly what deletion-free retention keeps.
     */
    public static Map<String, String> answersTopicConfig(GatewayConfig g) {
        return Map.of(TopicConfig.RETENTION_MS_CONFIG, Long.toString(g.answersRetentionMs()),
                TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_DELETE);
    }

    /**
     * An answers topic created before (by the operator, or by a gateway before {@code retention.answers}) keeps its
     * configuration: the gateway never alters a public topic. When its retention differs from the configured one (and
     * the gateway may read topic configurations) a warning names the field and the command that applies it.
     */
    private static void checkAnswersRetention(Admin a, GatewayConfig g) {
        ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, g.answersTopic());
        try {
            Config c = a.describeConfigs(List.of(r)).all().get(30, TimeUnit.SECONDS).get(r);
            var entry = c == null ? null : c.get(TopicConfig.RETENTION_MS_CONFIG);
            String want = Long.toString(g.answersRetentionMs());
            if (entry != null && !want.equals(entry.value())) {
                LOG.warn("topic {} keeps answers for retention.ms={} but retention.answers is {}: answers older than"
                        + " the topic's retention are gone from the topic and from the answers API. Apply it with:"
                        + " kafka-configs.sh --alter --entity-type topics --entity-name {} --add-config retention.ms={}",
                        g.answersTopic(), entry.value(), want, g.answersTopic(), want);
            }
        } catch (ExecutionException | TimeoutException e) {
            LOG.debug("cannot read the configuration of {}: {}", g.answersTopic(), e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The internal topic that records the deployment's report partition counts. */
    public static String deploymentTopic(GatewaySettings s) {
        return s.applicationId() + "-deployment";
    }

    /**
     * Refuses to run when the report topics' partition counts differ from those recorded when this application
     * id first started (recording them on the first start): device budgets live with the partition of the
     * device's id, so a changed count would send devices to partitions that do not know their budgets.
     *
     * @return the broker time of this deployment's first start (recorded with the counts): windows before it are
     *     never answered by this deployment, so a fresh deployment does not answer a workload's whole past.
     *     {@link #start} calls it; a benchmark that fills the report topics before the first start calls it first,
     *     so the reports it produces are in windows this deployment answers
     */
    public static long guardPartitionCounts(GatewaySettings s) throws Exception {
        GatewayConfig g = s.gateway();
        String topic = deploymentTopic(s);
        String now = "local=" + g.localPartitions() + ",central=" + g.centralPartitions();
        Properties cp = clientProperties(s);
        cp.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        String recorded = null;
        long firstStart = -1;
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(cp, new StringDeserializer(),
                new StringDeserializer())) {
            TopicPartition tp = new TopicPartition(topic, 0);
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            long end = whenKnown(() -> c.endOffsets(List.of(tp), Duration.ofSeconds(30)).get(tp));
            while (c.position(tp, Duration.ofSeconds(30)) < end) {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(500))) {
                    if ("partitions".equals(r.key())) {
                        recorded = r.value();
                        if (firstStart < 0) {
                            firstStart = r.timestamp();
                        }
                    }
                }
            }
        }
        if (recorded == null) {
            try (KafkaProducer<String, String> p = new KafkaProducer<>(cp, new StringSerializer(),
                    new StringSerializer())) {
                return p.send(new ProducerRecord<>(topic, "partitions", now)).get(30, TimeUnit.SECONDS).timestamp();
            }
        }
        if (!recorded.equals(now)) {
            throw new IllegalStateException("the report topics of application " + s.applicationId() + " have partition"
                    + " counts " + now + ", but they were " + recorded + " when it first started. Device budgets live"
                    + " with the partition of each device's id, so a changed count would reset or split them. To"
                    + " migrate: stop sending reports, let every open window release, then start the new layout under"
                    + " a new application id and topic prefix (or restore the original partition counts).");
        }
        return firstStart;
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

    /** A call on a topic, retried (up to 30 s) while the broker has not caught up with its creation. */
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
            } catch (UnknownTopicOrPartitionException e) {
                if (System.nanoTime() > deadline) {
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
     * The answers this instance keeps for the answers API, or {@code null} when the topology has no answers store
     * ({@link GatewayConfig#answersStore()} off).
     */
    public AnswersStore answers() {
        return answers;
    }

    /** The workloads this instance knows. */
    public WorkloadCatalog catalog() {
        return catalog;
    }

    /** Whether the streams client is alive (starting, running or rebalancing; not failed or stopped). */
    public boolean isLive() {
        KafkaStreams.State st = streams.state();
        return st != KafkaStreams.State.ERROR && st != KafkaStreams.State.NOT_RUNNING
                && st != KafkaStreams.State.PENDING_ERROR && st != KafkaStreams.State.PENDING_SHUTDOWN;
    }

    /** Whether the gateway is processing (RUNNING). */
    public boolean isReady() {
        return streams.state() == KafkaStreams.State.RUNNING;
    }

    /** Why the gateway shut itself down, or {@code null}. */
    public Throwable failure() {
        return failure;
    }

    /**
     * Waits until this instance's catalog has {@code workloadId} at {@code contentHash}: from then on reports of
     * that version are validated against it (earlier ones would be rejected as {@code UNKNOWN_WORKLOAD}).
     *
     * @throws TimeoutException if it does not within {@code timeout}
     */
    public void awaitWorkload(String workloadId, String contentHash, Duration timeout)
            throws TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            var r = catalog.current(workloadId);
            if (r != null && contentHash.equals(r.contentHash())) {
                return;
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
        caughtUp.close();
    }
}
