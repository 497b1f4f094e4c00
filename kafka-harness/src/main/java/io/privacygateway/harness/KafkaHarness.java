package io.privacygateway.harness;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running single-broker Kafka cluster for tests, the demo and benchmarks: either a Testcontainers
 * {@code apache/kafka} container or an in-JVM {@link EmbeddedKafka}.
 *
 * <p>{@link #start()} chooses: the container when Testcontainers is on the class path and a Docker
 * daemon answers (see {@link DockerProbe}), the embedded broker otherwise. The choice can be forced
 * with the system property or environment variable below. Both kinds are single-node KRaft
 * clusters configured for exactly-once (internal topics with replication factor 1, min ISR 1,
 * no initial rebalance delay), listening on the loopback interface only.
 */
public interface KafkaHarness extends AutoCloseable {

    /** System property choosing the kind: {@code auto} (default), {@code embedded} or {@code docker}. */
    String MODE_PROPERTY = "privacygateway.kafka";
    /** Environment variable consulted when {@link #MODE_PROPERTY} is not set. */
    String MODE_ENV = "PRIVACYGATEWAY_KAFKA";
    /** System property naming the container image (default {@value #DEFAULT_IMAGE}). */
    String IMAGE_PROPERTY = "privacygateway.kafka.image";
    /** The container image: the broker of the same Kafka release as the client and embedded jars. */
    String DEFAULT_IMAGE = "apache/kafka:4.3.1";

    /** Which kind of broker a harness runs. */
    enum Kind {
        /** {@link EmbeddedKafka}: a KRaft broker+controller in this JVM. */
        EMBEDDED,
        /** A Testcontainers {@code org.testcontainers.kafka.KafkaContainer}. */
        CONTAINER
    }

    /** How {@link #start(Mode)} picks the kind. */
    enum Mode {
        /** Container if Docker answers, embedded otherwise. */
        AUTO,
        /** Always {@link EmbeddedKafka}; never touches Docker or Testcontainers. */
        EMBEDDED,
        /** Always a container; fails if Testcontainers is missing or Docker does not answer. */
        DOCKER;

        /** The mode named by {@link #MODE_PROPERTY}, else {@link #MODE_ENV}, else {@link #AUTO}. */
        public static Mode fromEnvironment() {
            String value = System.getProperty(MODE_PROPERTY);
            if (value == null || value.isBlank()) {
                value = System.getenv(MODE_ENV);
            }
            if (value == null || value.isBlank()) {
                return AUTO;
            }
            switch (value.trim().toLowerCase(Locale.ROOT)) {
                case "auto":
                    return AUTO;
                case "embedded":
                    return EMBEDDED;
                case "docker":
                case "container":
                case "testcontainers":
                    return DOCKER;
                default:
                    throw new IllegalArgumentException(MODE_PROPERTY + "/" + MODE_ENV + " must be auto, embedded"
                            + " or docker, not '" + value + "'");
            }
        }
    }

    /** Starts a harness of the kind {@link Mode#fromEnvironment()} asks for. */
    static KafkaHarness start() {
        return start(Mode.fromEnvironment());
    }

    /** Starts a harness; blocks until the broker accepts requests. */
    static KafkaHarness start(Mode mode) {
        HarnessLogging.applyQuietDefaults();
        Logger log = LoggerFactory.getLogger(KafkaHarness.class);
        switch (mode) {
            case EMBEDDED:
                return EmbeddedKafka.start();
            case DOCKER:
                if (!DockerProbe.testcontainersPresent()) {
                    throw new IllegalStateException("Mode DOCKER: Testcontainers (org.testcontainers:testcontainers-kafka)"
                            + " is not on the class path");
                }
                return ContainerKafka.start(System.getProperty(IMAGE_PROPERTY, DEFAULT_IMAGE));
            case AUTO:
            default:
                DockerProbe.Result probe = DockerProbe.probe();
                if (probe.available()) {
                    log.info("Starting Kafka in a container ({})", probe.reason());
                    return ContainerKafka.start(System.getProperty(IMAGE_PROPERTY, DEFAULT_IMAGE));
                }
                log.info("Starting embedded Kafka ({})", probe.reason());
                return EmbeddedKafka.start();
        }
    }

    /** Which kind of broker this is. */
    Kind kind();

    /** {@code host:port} of the broker, for {@code bootstrap.servers}. */
    String bootstrapServers();

    /**
     * Creates a topic with replication factor 1 and waits until every partition has a leader. If
     * the topic exists already with the same number of partitions, does nothing.
     *
     * @param compacted {@code cleanup.policy=compact} if true, the broker default ({@code delete}) if false
     */
    default void createTopic(String name, int partitions, boolean compacted) {
        createTopic(name, partitions, Topics.compactedConfig(compacted));
    }

    /**
     * Creates a topic with the given topic-level configs (e.g. {@code cleanup.policy},
     * {@code retention.ms}); otherwise as {@link #createTopic(String, int, boolean)}. Connects as
     * {@link #clientConfig()} (so with the broker's admin credentials where it has any).
     */
    default void createTopic(String name, int partitions, Map<String, String> topicConfigs) {
        Topics.create(clientConfig(), name, partitions, topicConfigs);
    }

    /** A new mutable client config holding just {@code bootstrap.servers}. */
    default Map<String, Object> clientConfig() {
        Map<String, Object> config = new HashMap<>();
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        return config;
    }

    /** A new admin client for this broker; the caller closes it. */
    default Admin admin() {
        return Admin.create(clientConfig());
    }

    /**
     * Hands closing at JVM exit to the caller: the harness's own exit hook will leave this broker alone, so
     * an application that closes its clients first (in its own shutdown path) is not cut off from a broker
     * that a concurrently running hook already stopped. The caller must then close the harness itself,
     * also on Ctrl-C. (A container is reaped by Testcontainers either way.)
     *
     * @return this harness
     */
    default KafkaHarness closedByCaller() {
        return this;
    }

    /** Stops the broker and removes its data. Idempotent; never throws. */
    @Override
    void close();
}
