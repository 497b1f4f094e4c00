package io.privacygateway.itests.support;

import io.privacygateway.harness.KafkaHarness;
import io.privacygateway.harness.registry.EmbeddedRegistry;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.harness.testing.RunScoped;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What every IT of the module shares: one real broker ({@link KafkaHarness#start()}: a Testcontainers
 * Kafka where Docker answers, the in-JVM KRaft broker otherwise), one real Apicurio registry (child
 * process) and, started on first use, one in-process gateway ({@link TestGateway}) with the
 * {@link #SHARED_CONFIG} timing. Created by the first test class that asks for it (JUnit root store) and
 * closed at the end of the run. Test classes isolate themselves by workload ids and device ids of their
 * own (metrics are tagged by workload; rejections carry the device id).
 */
public final class ItCluster implements ExtensionContext.Store.CloseableResource {
    /**
     * The shared gateway's timing: 3 local partitions (so a window's release waits for three shards),
     * 2 central partitions, event times up to 1 min ahead of or 1 h behind the broker, idle caught-up shards
     * follow the broker's time minus 0.5 s slack.
     */
    public static final GatewayConfig SHARED_CONFIG = GatewayConfig.builder(3, 3).topicPrefix("it.shared.")
            .applicationId("it-shared").watermarkSlack(Duration.ofMillis(500))
            .exactCentralCounts(true) // the tests check central accepted counts on the meters
            .build();

    public final KafkaHarness kafka;
    public final EmbeddedRegistry registry;
    public final SchemaRegistryClient registryClient;
    private final Path workDir;
    private TestGateway shared;

    private ItCluster() throws Exception {
        // failsafe points java.io.tmpdir into target/ (see the pom); it must exist before anything uses it
        Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
        long t0 = System.nanoTime();
        kafka = KafkaHarness.start();
        long t1 = System.nanoTime();
        registry = EmbeddedRegistry.start();
        registryClient = SchemaRegistryClient.forUrl(registry.ccompatUrl());
        workDir = Files.createDirectories(Path.of(System.getProperty("privacygateway.itests.work",
                System.getProperty("java.io.tmpdir") + "/pgw-itests")));
        System.out.printf("[it] broker (%s) up in %.1f s, registry up in %.1f s%n", kafka.kind(),
                (t1 - t0) / 1e9, (System.nanoTime() - t1) / 1e9);
    }

    /** Kafka client settings: just the bootstrap servers. */
    public Map<String, Object> kafkaConfig() {
        return new HashMap<>(kafka.clientConfig());
    }

    /** A directory under the module's build directory for state and child-process logs. */
    public Path workDir() {
        return workDir;
    }

    /** The shared in-process gateway (started on first use, with {@link #SHARED_CONFIG}). */
    public synchronized TestGateway sharedGateway() {
        if (shared == null) {
            try {
                shared = TestGateway.start(this, "it-shared-gateway", SHARED_CONFIG);
            } catch (Exception e) {
                throw new IllegalStateException("cannot start the shared gateway", e);
            }
        }
        return shared;
    }

    @Override
    public void close() {
        if (shared != null) {
            shared.close();
        }
        registryClient.close();
        registry.close();
        kafka.close();
    }

    /** Resolves {@link ItCluster} parameters; the cluster lives in the root store for the whole run. */
    public static final class Extension extends RunScoped.Extension<ItCluster> {
        public Extension() {
            super(ItCluster.class, "the broker and the registry", ItCluster::new);
        }

        @Override
        protected boolean resolves(Class<?> wanted) {
            return wanted == TestGateway.class;
        }

        @Override
        protected Object resolve(ItCluster c, Class<?> wanted) {
            return c.sharedGateway();
        }
    }
}
