package io.privacygateway.app.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.privacygateway.topology.GatewaySettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class GatewayConfigFileTest {

    static Map<?, ?> yaml(String text) throws Exception {
        return new ObjectMapper(new YAMLFactory()).readValue(text, Map.class);
    }

    @Test
    void theExampleFileLoadsWithItsValuesAndPassesClientSettingsThrough() throws Exception {
        GatewayConfigFile.Loaded l = GatewayConfigFile.load(Path.of("../examples/gateway.yaml"));
        GatewaySettings s = l.settings();
        assertThat(s.bootstrapServers()).isEqualTo("127.0.0.1:9092");
        assertThat(s.gateway().topicPrefix()).isEqualTo("pgw.");
        assertThat(s.gateway().localPartitions()).isEqualTo(3);
        assertThat(s.gateway().idleAfter()).isEqualTo(Duration.ofSeconds(10));
        assertThat(s.processingGuarantee()).isEqualTo("exactly_once_v2");
        assertThat(l.dashboardPort()).isEqualTo(8080);

        GatewayConfigFile.Loaded sec = GatewayConfigFile.parse(yaml("""
                bootstrapServers: b:9093
                schemaRegistryUrl: https://r
                kafka: {security.protocol: SASL_SSL, sasl.mechanism: PLAIN, commit.interval.ms: 250}
                registry: {basic.auth.user.info: "u:p"}
                """));
        assertThat(sec.settings().kafkaProperties()).containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("commit.interval.ms", "250");
        assertThat(sec.settings().registryProperties()).containsEntry("basic.auth.user.info", "u:p");
        assertThat(sec.dashboardPort()).isZero();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "schemaRegistryUrl: http://r                                   | bootstrapServers: is required",
        "bootstrapServers: b\\nschemaRegistryUrl: r\\nbrokers: x          | brokers: unknown setting",
        "bootstrapServers: b\\nschemaRegistryUrl: r\\npartitions: {local: 0} | partitions.local: must be >= 1, got 0",
        "bootstrapServers: b\\nschemaRegistryUrl: r\\npartitions: {remote: 2} | partitions.remote: unknown setting",
        "bootstrapServers: b\\nschemaRegistryUrl: r\\ntiming: {idleAfter: soon} | timing.idleAfter: must be a duration",
        "bootstrapServers: b\\nschemaRegistryUrl: r\\ntiming: {idleAfter: 0s} | idleAfter must be a positive duration",
        "bootstrapServers: b\\nschemaRegistryUrl: r\\nstreamThreads: 0     | streamThreads: must be >= 1, got 0",
        "bootstrapServers: b\\nschemaRegistryUrl: r\\nstreamThreads: two   | streamThreads: must be an integer, got two",
        "bootstrapServers: b\\nschemaRegistryUrl: r\\nprocessingGuarantee: exactly_once | processingGuarantee: must be"
                + " exactly_once_v2 or at_least_once, got exactly_once",
        "bootstrapServers: b\\nschemaRegistryUrl: r\\nreplicationFactor: 0 | replicationFactor: must be in [1, 32767], got 0",
        "bootstrapServers: b\\nschemaRegistryUrl: r\\ndashboard: {port: 70000} | dashboard.port: must be in [0, 65535], got 70000",
        "bootstrapServers: b\\nschemaRegistryUrl: r\\ntopicPrefix: 'a b'    | topicPrefix must match",
    })
    void aBadSettingFailsWithAMessageNamingTheField(String text, String message) {
        assertThatThrownBy(() -> GatewayConfigFile.parse(yaml(text.replace("\\n", "\n").strip())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message.strip());
    }
}
