package io.privacygateway.topology;

import java.nio.file.Path;
import java.util.Map;

/**
 * How to run the gateway against a cluster and a registry.
 *
 * @param bootstrapServers Kafka bootstrap servers
 * @param schemaRegistryUrl a Confluent-API schema registry (e.g. Apicurio's {@code /apis/ccompat/v7})
 * @param gateway topic names, application id (consumer group, internal topic prefix) and timing of the topology
 * @param replicationFactor replication of the topics the gateway creates (and of Streams' changelogs)
 * @param streamThreads stream threads of this instance
 * @param stateDir where state stores live
 * @param processingGuarantee {@code exactly_once_v2} (default) or {@code at_least_once}
 * @param kafkaProperties extra client properties passed through to every Kafka client (TLS, SASL, ...)
 * @param registryProperties extra registry client properties (basic auth, timeouts)
 */
public record GatewaySettings(String bootstrapServers, String schemaRegistryUrl, GatewayConfig gateway, short replicationFactor, int streamThreads, Path stateDir, String processingGuarantee,
        Map<String, String> kafkaProperties, Map<String, String> registryProperties) {

    public GatewaySettings {
        require("bootstrapServers", bootstrapServers);
        require("schemaRegistryUrl", schemaRegistryUrl);
        if (gateway == null) {
            throw new IllegalArgumentException("gateway is required");
        }
        if (replicationFactor < 1) {
            throw new IllegalArgumentException("replicationFactor must be >= 1, got " + replicationFactor);
        }
        if (streamThreads < 1) {
            throw new IllegalArgumentException("streamThreads must be >= 1, got " + streamThreads);
        }
        if (!"exactly_once_v2".equals(processingGuarantee) && !"at_least_once".equals(processingGuarantee)) {
            throw new IllegalArgumentException("processingGuarantee must be exactly_once_v2 or at_least_once, got "
                    + processingGuarantee);
        }
        kafkaProperties = Map.copyOf(kafkaProperties == null ? Map.of() : kafkaProperties);
        registryProperties = Map.copyOf(registryProperties == null ? Map.of() : registryProperties);
    }

    /** The Kafka Streams application id (the gateway config's). */
    public String applicationId() {
        return gateway.applicationId();
    }

    private static void require(String field, String v) {
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException(field + " is required");
        }
    }
}
