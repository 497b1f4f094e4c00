package io.privacygateway.ingest;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.privacygateway.client.GatewayTopics;
import io.privacygateway.client.WorkloadFiles;
import io.privacygateway.client.WorkloadRegistrar;
import io.privacygateway.harness.EmbeddedKafka;
import io.privacygateway.harness.registry.EmbeddedRegistry;
import io.privacygateway.harness.testing.ClientConfigs;
import io.privacygateway.harness.testing.RunScoped;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.testing.AvroTopicReader;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.service.GatewayService;
import io.privacygateway.topology.GatewaySettings;
import io.privacygateway.topology.identity.DeviceAuthentication;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One real gateway for the ingest tests: an in-JVM KRaft broker, a real Apicurio registry and the Kafka Streams
 * gateway with enrolled devices (key {@code k1}), 2 local partitions, 2-second windows closing within seconds.
 */
public final class IngestFixture implements ExtensionContext.Store.CloseableResource {
    public final EmbeddedKafka kafka;
    public final EmbeddedRegistry registry;
    public final SchemaRegistryClient registryClient;
    public final GatewayConfig config;
    public final GatewayService gateway;
    public final byte[] key = new byte[32];
    private final Path stateDir;

    private IngestFixture() throws Exception {
        new Random(29).nextBytes(key);
        kafka = EmbeddedKafka.start();
        registry = EmbeddedRegistry.start();
        registryClient = SchemaRegistryClient.forUrl(registry.ccompatUrl());
        config = GatewayConfig.builder(2, 2).applicationId("ingest-test-gateway")
                .watermarkSlack(Duration.ofMillis(500)).authentication(new DeviceAuthentication.Enrolled(Map.of("k1",
                        key))).build();
        stateDir = Files.createTempDirectory("pgw-ingest-test-state");
        GatewaySettings s = new GatewaySettings(kafka.bootstrapServers(), registry.ccompatUrl(), config, (short) 1, 1,
                stateDir, "exactly_once_v2", Map.of(), Map.of());
        gateway = GatewayService.start(s, new SimpleMeterRegistry(), null, Duration.ofSeconds(60));
    }

    public static final class Extension extends RunScoped.Extension<IngestFixture> {
        public Extension() {
            super(IngestFixture.class, "the ingest fixture", IngestFixture::new);
        }
    }

    public Map<String, Object> kafkaConfig() {
        return ClientConfigs.bootstrap(kafka.bootstrapServers());
    }

    public GatewayTopics topics() {
        return new GatewayTopics(config.topicPrefix());
    }

    /** Settings of an ingest instance on loopback for this gateway (enrolled, key k1), with short timeouts. */
    public IngestSettings settings() {
        return IngestSettings.loopback(kafka.bootstrapServers(), registry.ccompatUrl(), Map.of("k1", key))
                .withLimits(IngestSettings.Limits.defaults().withProduceTimeout(Duration.ofSeconds(3))
                        .withRequestTimeout(Duration.ofSeconds(2)));
    }

    public IngestService start(IngestSettings s) throws Exception {
        return IngestService.start(s, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), "127.0.0.1", 0);
    }

    /** Registers a workload file and waits until the gateway knows it. */
    public WorkloadSpec register(String yaml) throws Exception {
        WorkloadSpec resolved;
        try (WorkloadRegistrar r = WorkloadRegistrar.create(kafkaConfig(), registryClient, topics())) {
            resolved = r.register(WorkloadFiles.parse(yaml, "test"));
        }
        gateway.awaitWorkload(resolved.id(), CanonicalForm.contentHash(resolved), Duration.ofSeconds(30));
        return resolved;
    }

    public String credential(String device) {
        return io.privacygateway.schemas.identity.DeviceCredential.issue("k1", key, device);
    }

    public <T extends SpecificRecord> List<T> readUntil(String topic, Class<T> type, Predicate<T> filter,
            Predicate<List<T>> done, Duration timeout) {
        return AvroTopicReader.readValues(kafkaConfig(), registryClient, topic, type, filter, done, timeout);
    }

    @Override
    public void close() throws Exception {
        gateway.close();
        registry.close();
        kafka.close();
        try (Stream<Path> files = Files.walk(stateDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
