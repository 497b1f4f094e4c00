package io.privacygateway.harness;

import java.time.Duration;
import java.util.Map;

import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The Testcontainers kind of {@link KafkaHarness}. This is the only class that names Testcontainers
 * types; it is loaded only once {@link DockerProbe} has found Testcontainers on the class path.
 */
final class ContainerKafka implements KafkaHarness {

    static {
        HarnessLogging.applyQuietDefaults();
    }

    private static final Logger LOG = LoggerFactory.getLogger(ContainerKafka.class);
    /** The client port {@code KafkaContainer} exposes. */
    private static final int KAFKA_PORT = 9092;

    private final KafkaContainer container;
    private final String bootstrapServers;
    private boolean closed;

    private ContainerKafka(KafkaContainer container) {
        this.container = container;
        this.bootstrapServers = container.getBootstrapServers();
    }

    /** Testcontainers' own check; only called after {@link DockerProbe} found a live daemon. */
    static boolean dockerAvailable() {
        return DockerClientFactory.instance().isDockerAvailable();
    }

    /** Starts an {@code apache/kafka} container (single KRaft node) and waits until it serves. */
    static KafkaHarness start(String image) {
        long t0 = System.nanoTime();
        @SuppressWarnings("resource") // closed by close()
        KafkaContainer container = configure(image, localDaemon());
        try {
            container.start();
        } catch (RuntimeException e) {
            container.close();
            throw new IllegalStateException("Kafka container " + image + " did not start: " + e, e);
        }
        ContainerKafka kafka = new ContainerKafka(container);
        LOG.info("Kafka container {} up at {} in {} ms", image, kafka.bootstrapServers,
                (System.nanoTime() - t0) / 1_000_000);
        return kafka;
    }

    /** The container, not started (building it does not contact Docker). */
    static KafkaContainer configure(String image, boolean publishOnLoopbackOnly) {
        DockerImageName name = DockerImageName.parse(image).asCompatibleSubstituteFor("apache/kafka");
        // KafkaContainer already sets the offsets/transaction-log replication factors, min ISR of
        // the transaction log and the initial rebalance delay; these complete the single-broker
        // exactly-once set that EmbeddedKafka uses.
        Map<String, String> env = Map.of(
                "KAFKA_MIN_INSYNC_REPLICAS", "1",
                "KAFKA_DEFAULT_REPLICATION_FACTOR", "1",
                "KAFKA_SHARE_COORDINATOR_STATE_TOPIC_REPLICATION_FACTOR", "1",
                "KAFKA_SHARE_COORDINATOR_STATE_TOPIC_MIN_ISR", "1",
                "KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0",
                "KAFKA_HEAP_OPTS", "-Xms256m -Xmx512m");
        KafkaContainer container = new KafkaContainer(name)
                .withEnv(env)
                .withStartupTimeout(Duration.ofMinutes(3));
        if (publishOnLoopbackOnly) {
            // Publish the client port on the loopback interface only (Docker's default is 0.0.0.0).
            container.withCreateContainerCmdModifier(cmd -> {
                HostConfig hostConfig = cmd.getHostConfig();
                if (hostConfig != null) {
                    hostConfig.withPortBindings(new PortBinding(Ports.Binding.bindIp("127.0.0.1"),
                            ExposedPort.tcp(KAFKA_PORT)));
                }
            });
        }
        return container;
    }

    private static boolean localDaemon() {
        try {
            return "unix".equals(DockerClientFactory.instance().getTransportConfig().getDockerHost().getScheme());
        } catch (RuntimeException e) {
            return false;
        }
    }

    @Override
    public Kind kind() {
        return Kind.CONTAINER;
    }

    @Override
    public synchronized String bootstrapServers() {
        if (closed) {
            throw new IllegalStateException("Kafka container is stopped");
        }
        return bootstrapServers;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            container.stop();
        } catch (RuntimeException e) {
            LOG.warn("Stopping the Kafka container failed", e);
        }
    }

    @Override
    public String toString() {
        return "ContainerKafka[" + bootstrapServers + (closed ? ", closed" : "") + "]";
    }
}
