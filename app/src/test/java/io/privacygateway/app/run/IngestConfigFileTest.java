package io.privacygateway.app.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.privacygateway.ingest.IngestSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IngestConfigFileTest {
    static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);

    static Map<?, ?> yaml(String text) throws Exception {
        return new ObjectMapper(new YAMLFactory()).readValue(text, Map.class);
    }

    @Test
    void theExampleFileLoads() {
        IngestConfigFile.Loaded l = IngestConfigFile.load(Path.of("../examples/ingest.yaml"),
                Map.of("PGW_ENROLLMENT_KEY", KEY));
        IngestSettings s = l.settings();
        assertThat(s.bootstrapServers()).isEqualTo("127.0.0.1:9092");
        assertThat(s.port()).isEqualTo(8443);
        assertThat(s.enrollmentKeys()).containsOnlyKeys("k1");
        assertThat(s.openIdentities()).isFalse();
        assertThat(s.limits().perCredential()).isEqualTo(new IngestSettings.Rate(20, 500));
        assertThat(s.limits().produceTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(l.metricsPort()).isEqualTo(9465);
    }

    @Test
    void badValuesFailNamingTheField() throws Exception {
        Map<String, String> env = Map.of("K", KEY);
        String base = "bootstrapServers: b:9092\nschemaRegistryUrl: http://r\ndevices: {enrollment: required, keys: {k1: \"${K}\"}}\n";
        assertThatThrownBy(() -> IngestConfigFile.parse(yaml(base + "listen: {host: 0.0.0.0}\n"), env))
                .hasMessageContaining("tls:");
        assertThatThrownBy(() -> IngestConfigFile.parse(yaml(base + "limits: {perAddress: {perSecond: -1}}\n"), env))
                .hasMessageStartingWith("limits.perAddress:");
        assertThatThrownBy(() -> IngestConfigFile.parse(yaml(base + "limits: {maxReportsPerBatch: 100000}\n"), env))
                .hasMessageContaining("limits.maxReportsPerBatch");
        assertThatThrownBy(() -> IngestConfigFile.parse(yaml(base + "limits: {nope: 1}\n"), env))
                .hasMessageStartingWith("limits.nope:");
        assertThatThrownBy(() -> IngestConfigFile.parse(yaml(base + "tls: {keystore: /nonexistent, password: p}\n"),
                env)).hasMessageContaining("tls.keystore");
        assertThatThrownBy(() -> IngestConfigFile.parse(yaml(
                "bootstrapServers: b:9092\nschemaRegistryUrl: http://r\n"), env)).hasMessageContaining("devices.keys");
        assertThatThrownBy(() -> IngestConfigFile.parse(yaml(base + "devices: {revocationFile: /nonexistent}\n"
                .replace("devices", "devicez")), env)).hasMessageStartingWith("devicez:");
        assertThat(IngestConfigFile.parse(yaml(base + "listen: {host: 0.0.0.0}\ntrustedProxies: [10.0.0.2]\n"), env)
                .settings().trustedProxies()).containsExactly("10.0.0.2");
        assertThatThrownBy(() -> IngestConfigFile.parse(yaml(base + "cors: {allowedOrigins: [\"https://a.example/x\"]}\n"),
                env)).hasMessageContaining("cors.allowedOrigins");
        assertThatThrownBy(() -> IngestConfigFile.parse(yaml(base + "cors: {origins: [x]}\n"), env))
                .hasMessageStartingWith("cors.origins:");
        assertThat(IngestConfigFile.parse(yaml(base + "cors: {allowedOrigins: [\"https://a.example\"]}\n"), env)
                .settings().corsOrigins()).containsExactly("https://a.example");
    }
}
