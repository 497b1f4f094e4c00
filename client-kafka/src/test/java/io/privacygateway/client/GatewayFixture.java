package io.privacygateway.client;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.privacygateway.harness.EmbeddedKafka;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.harness.registry.EmbeddedRegistry;
import io.privacygateway.harness.testing.ClientConfigs;
import io.privacygateway.harness.testing.RunScoped;
import io.privacygateway.harness.testing.TopicReader;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.testing.AvroTopicReader;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.service.GatewayService;
import io.privacygateway.topology.GatewaySettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One real gateway for the whole test run: an in-JVM KRaft broker, a real Apicurio registry (child process)
 * and the Kafka Streams gateway ({@link GatewayService}) with 2 local partitions, 1 stream thread,
 * exactly-once v2 and a short slack so 2-second windows close within seconds. Started by the first
 * test class that asks for it and closed at the end of the run (JUnit root store).
 */
public final class GatewayFixture implements ExtensionContext.Store.CloseableResource {
    public final EmbeddedKafka kafka;
    public final EmbeddedRegistry registry;
    public final SchemaRegistryClient registryClient;
    public final GatewayConfig config;
    public final GatewayService gateway;
    public final Producer<String, SpecificRecord> reports;
    private final Path stateDir;

    private GatewayFixture() throws Exception {
        kafka = EmbeddedKafka.start();
        registry = EmbeddedRegistry.start();
        registryClient = SchemaRegistryClient.forUrl(registry.ccompatUrl());
        config = GatewayConfig.builder(2, 2).applicationId("client-test-gateway").watermarkSlack(Duration.ofMillis(500))
                .exactCentralCounts(true) // the tests read central accepted counts from the meters
                .build();
        stateDir = Files.createTempDirectory("pgw-client-test-state");
        GatewaySettings s = new GatewaySettings(kafka.bootstrapServers(), registry.ccompatUrl(), config, (short) 1, 1, stateDir, "exactly_once_v2", Map.of(), Map.of());
        gateway = GatewayService.start(s, new SimpleMeterRegistry(), null, Duration.ofSeconds(60));
        reports = ReportProducers.avro(kafkaConfig(), registryClient);
    }

    /** Resolves {@link GatewayFixture} parameters; the fixture lives in the root store for the whole run. */
    public static final class Extension extends RunScoped.Extension<GatewayFixture> {
        public Extension() {
            super(GatewayFixture.class, "the gateway fixture", GatewayFixture::new);
        }
    }

    public Map<String, Object> kafkaConfig() {
        return ClientConfigs.bootstrap(kafka.bootstrapServers());
    }

    public GatewayTopics topics() {
        return new GatewayTopics(config.topicPrefix());
    }

    public WorkloadRegistrar registrar() {
        return WorkloadRegistrar.create(kafkaConfig(), registryClient, topics());
    }

    /**
     * Parses a workload file, resolves and publishes it ({@link WorkloadRegistrar}), and waits (up to 30 s) until
     * the gateway knows the resolved version; returns the resolved spec.
     */
    public WorkloadSpec registerAndAwait(String yaml) throws Exception {
        WorkloadSpec resolved;
        try (WorkloadRegistrar registrar = registrar()) {
            resolved = registrar.register(WorkloadFiles.parse(yaml, "test"));
        }
        awaitGatewayKnows(resolved, Duration.ofSeconds(30));
        return resolved;
    }

    /** Waits until the gateway's global workloads store holds {@code spec}'s version. */
    public void awaitGatewayKnows(WorkloadSpec spec, Duration timeout) throws Exception {
        gateway.awaitWorkload(spec.id(), CanonicalForm.contentHash(spec), timeout);
    }

    /**
     * Reads a topic from the beginning (read_committed) at least up to its end offsets at the time of the
     * call, and on until {@code done} holds for the matching values or the timeout passes; returns the
     * matching values.
     */
    public <T extends SpecificRecord> List<T> readUntil(String topic, Class<T> type, Predicate<T> filter,
            Predicate<List<T>> done, Duration timeout) {
        return AvroTopicReader.readValues(kafkaConfig(), registryClient, topic, type, filter, done, timeout);
    }

    /**
     * The answers of {@code workloadId} for windows starting at or after {@code fromWindowStart}, in order, once
     * there are {@code atLeast} (every window of a workload is answered, empty ones too).
     */
    public List<WindowAnswer> answersFrom(String workloadId, long fromWindowStart, int atLeast, Duration timeout) {
        return readUntil(config.answersTopic(), WindowAnswer.class, a -> a.getWorkloadId().equals(workloadId)
                && a.getWindowStart().toEpochMilli() >= fromWindowStart, l -> l.size() >= atLeast, timeout);
    }

    public List<WindowAnswer> answers(String workloadId, int atLeast, Duration timeout) {
        return readUntil(config.answersTopic(), WindowAnswer.class, a -> a.getWorkloadId().equals(workloadId),
                l -> l.size() >= atLeast, timeout);
    }

    /** Rejections of records whose key (the device id) starts with {@code devicePrefix}. */
    public List<Rejection> rejections(String devicePrefix, Predicate<List<Rejection>> done, Duration timeout) {
        return readUntil(config.rejectionsTopic(), Rejection.class, r -> r.getOriginalKey() != null
                && keyString(r).startsWith(devicePrefix), done, timeout);
    }

    public static String keyString(Rejection r) {
        return TopicReader.string(TopicReader.bytes(r.getOriginalKey()));
    }

    @Override
    public void close() throws Exception {
        reports.close(Duration.ofSeconds(5));
        gateway.close();
        registry.close();
        kafka.close();
        try (Stream<Path> files = Files.walk(stateDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
