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
        assertThat(s.gateway().punctuateEvery()).isEqualTo(Duration.ofMillis(100));
        assertThat(s.gateway().watermarkSlack()).isEqualTo(Duration.ofSeconds(2));
        assertThat(s.gateway().centralReleaseDelay()).isEqualTo(Duration.ofMillis(200));
        assertThat(s.processingGuarantee()).isEqualTo("exactly_once_v2");
        assertThat(l.dashboardPort()).isEqualTo(8080);
        assertThat(l.answers().port()).isEqualTo(8082);
        assertThat(s.gateway().answersRetentionMs()).as("kept forever").isEqualTo(-1);
        assertThat(s.gateway().exactCentralCounts()).as("off by default").isFalse();

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

    @Test
    void rocksDbMemoryIsReadWithDefaultsAndABadValueNamesItsField() throws Exception {
        String base = "bootstrapServers: b:9092\nschemaRegistryUrl: http://r:8081\n";
        assertThat(GatewayConfigFile.parse(yaml(base)).settings().gateway().rocksDbMemory())
                .isEqualTo(io.privacygateway.topology.state.RocksDbMemory.DEFAULTS);
        assertThat(GatewayConfigFile.parse(yaml(base + "rocksdb: {blockCache: 1GiB, writeBuffers: 128MiB,"
                + " strictCapacity: false}")).settings().gateway().rocksDbMemory())
                .isEqualTo(new io.privacygateway.topology.state.RocksDbMemory(1L << 30, 128L << 20, false));
        assertThatThrownBy(() -> GatewayConfigFile.parse(yaml(base + "rocksdb: {blockCache: lots}")))
                .hasMessageStartingWith("rocksdb.blockCache: ");
        assertThatThrownBy(() -> GatewayConfigFile.parse(yaml(base + "rocksdb: {blockCache: 1MiB}")))
                .hasMessageStartingWith("rocksdb.blockCache: ");
        assertThatThrownBy(() -> GatewayConfigFile.parse(yaml(base + "rocksdb: {writeBuffers: 200MiB}")))
                .hasMessageStartingWith("rocksdb.writeBuffers: ");
        assertThatThrownBy(() -> GatewayConfigFile.parse(yaml(base + "rocksdb: {strictCapacity: maybe}")))
                .hasMessageStartingWith("rocksdb.strictCapacity: ");
        assertThatThrownBy(() -> GatewayConfigFile.parse(yaml(base + "rocksdb: {blockcache: 1GiB}")))
                .hasMessageStartingWith("rocksdb.blockcache: unknown setting");
    }

    @Test
    void secretsComeFromTheEnvironment() throws Exception {
        String key = java.util.Base64.getEncoder().encodeToString(new byte[32]);
        GatewayConfigFile.Loaded l = GatewayConfigFile.parse(yaml("""
                bootstrapServers: ${BROKERS:-localhost:9092}
                schemaRegistryUrl: https://r
                instanceId: ${POD_NAME}
                kafka: {sasl.jaas.config: "x username=\\"${USER_NAME}\\" password=\\"${PASSWORD}\\";"}
                devices: {enrollment: required, keys: {k1: "${ENROLL_KEY}"}}
                metrics: {port: 9464, host: 0.0.0.0, exactCentralCounts: "${EXACT:-false}"}
                """), java.util.Map.of("POD_NAME", "gateway-2", "USER_NAME", "gw", "PASSWORD", "s3cret", "ENROLL_KEY", key));
        assertThat(l.settings().bootstrapServers()).isEqualTo("localhost:9092");
        assertThat(l.settings().kafkaProperties()).containsEntry("group.instance.id", "gateway-2")
                .containsEntry("sasl.jaas.config", "x username=\"gw\" password=\"s3cret\";");
        assertThat(l.settings().gateway().authentication())
                .isInstanceOf(io.privacygateway.topology.identity.DeviceAuthentication.Enrolled.class);
        assertThat(l.metricsPort()).isEqualTo(9464);
        assertThat(l.metricsHost()).isEqualTo("0.0.0.0");
        assertThat(l.settings().gateway().exactCentralCounts()).isFalse();
        assertThat(GatewayConfigFile.parse(yaml("""
                bootstrapServers: b
                schemaRegistryUrl: https://r
                metrics: {exactCentralCounts: true}
                """)).settings().gateway().exactCentralCounts()).isTrue();
    }

    @Test
    void theAnswersApiAndTheAnswersRetentionAreConfigured() throws Exception {
        GatewayConfigFile.Loaded off = GatewayConfigFile.parse(yaml("bootstrapServers: b\nschemaRegistryUrl: http://r\n"));
        assertThat(off.answers()).isNull();
        assertThat(off.settings().gateway().answersStore()).isFalse();
        assertThat(off.settings().gateway().answersRetentionMs()).isEqualTo(-1);
        GatewayConfigFile.Loaded on = GatewayConfigFile.parse(yaml("""
                bootstrapServers: b
                schemaRegistryUrl: http://r
                retention: {answers: 400d}
                answers: {port: 8082, host: 0.0.0.0, defaultLimit: 50, maxLimit: 500}
                """));
        assertThat(on.answers().port()).isEqualTo(8082);
        assertThat(on.answers().host()).isEqualTo("0.0.0.0");
        assertThat(on.answers().defaultLimit()).isEqualTo(50);
        assertThat(on.answers().maxLimit()).isEqualTo(500);
        assertThat(on.settings().gateway().answersStore()).isTrue();
        assertThat(on.settings().gateway().answersRetentionMs()).isEqualTo(Duration.ofDays(400).toMillis());
        assertThat(GatewayConfigFile.parse(yaml("bootstrapServers: b\nschemaRegistryUrl: http://r\n"
                + "retention: {answers: forever}\n")).settings().gateway().answersRetentionMs()).isEqualTo(-1);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "schemaRegistryUrl: http://r                                   | bootstrapServers: is required",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\nbrokers: x          | brokers: unknown setting",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\npartitions: {local: 0} | partitions.local: must be >= 1, got 0",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\npartitions: {remote: 2} | partitions.remote: unknown setting",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\ntiming: {punctuateEvery: soon} | timing.punctuateEvery: must be a duration",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\ntiming: {punctuateEvery: 0s} | punctuateEvery must be a positive duration",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\ntiming: {idleAfter: 10s} | timing.idleAfter: unknown setting",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\ntiming: {centralReleaseDelay: later} | timing.centralReleaseDelay: must be a duration",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\ndevices: {enrollment: maybe} | devices.enrollment: must be open or required",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\ndevices: {enrollment: required, keys: {k1: c2hvcnQ=}} | devices.keys: enrollment key k1 must have at least 32 bytes",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\ninstanceId: 'pod 1' | instanceId: must match",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\nmetrics: {port: -1} | metrics.port: must be in [0, 65535], got -1",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\nmetrics: {exactCentralCounts: yes please} | metrics.exactCentralCounts: must be true or false, got yes please",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\nmetrics: {exactCounts: true} | metrics.exactCounts: unknown setting",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\nregistry: {basic.auth.user.inf: x} | basic.auth.user.inf",
        "bootstrapServers: ${PGW_TEST_UNSET_VARIABLE}\\nschemaRegistryUrl: r | bootstrapServers: refers to the environment variable PGW_TEST_UNSET_VARIABLE, which is not set",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\nstreamThreads: 0     | streamThreads: must be >= 1, got 0",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\nstreamThreads: two   | streamThreads: must be an integer, got two",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\nprocessingGuarantee: exactly_once | processingGuarantee: must be"
                + " exactly_once_v2 or at_least_once, got exactly_once",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\nreplicationFactor: 0 | replicationFactor: must be in [1, 32767], got 0",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\ndashboard: {port: 70000} | dashboard.port: must be in [0, 65535], got 70000",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\ntopicPrefix: 'a b'    | topicPrefix must match",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\nretention: {answers: never} | retention.answers: must be a duration",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\nretention: {answers: 0s} | retention.answers: must be forever or a positive duration",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\nanswers: {port: 70000} | answers.port: must be in [0, 65535], got 70000",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\nanswers: {port: 8082, maxLimit: 0} | answers.maxLimit: must be in [1, 100000], got 0",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\nanswers: {port: 8082, defaultLimit: 500, maxLimit: 100} | answers.defaultLimit: must be in [1, answers.maxLimit = 100], got 500",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\nanswers: {port: 8082, maxResponseBytes: 10} | answers.maxResponseBytes: must be in",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\nanswers: {port: 8082, limit: 10} | answers.limit: unknown setting",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\nanswers: {port: 8082, host: ''} | answers.host: must not be empty",
        "bootstrapServers: b\\nschemaRegistryUrl: http://r\\nanswers: {maxLimit: 10} | answers.port: must be set",
    })
    void aBadSettingFailsWithAMessageNamingTheField(String text, String message) {
        assertThatThrownBy(() -> GatewayConfigFile.parse(yaml(text.replace("\\n", "\n").strip())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message.strip());
    }
}
