package io.privacygateway.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.privacygateway.client.ReportEnvelope;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS from a keystore, HTTP/2 by ALPN, and the rule that plain HTTP is served only on loopback or behind a declared
 * proxy. No broker: the service starts without one (not ready) and says so.
 */
class IngestTlsTest {
    static final Map<String, byte[]> KEYS = Map.of("k1", new byte[32]);

    static Path keystore(Path dir) throws Exception {
        Path ks = dir.resolve("ingest.p12");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "ingest", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
                "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2", "-storetype", "PKCS12", "-keystore",
                ks.toString(), "-storepass", "changeit", "-keypass", "changeit").redirectErrorStream(true).start();
        assertThat(p.waitFor()).as(new String(p.getInputStream().readAllBytes())).isZero();
        return ks;
    }

    static SSLContext trustAll() throws Exception {
        SSLContext c = SSLContext.getInstance("TLS");
        c.init(null, new TrustManager[] {new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {}

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {}

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        }}, new SecureRandom());
        return c;
    }

    @Test
    void servesHttp2OverTlsFromTheKeystoreAndIsNotReadyWithoutKafka(@TempDir Path dir) throws Exception {
        IngestSettings base = IngestSettings.loopback("127.0.0.1:1", "http://127.0.0.1:1", KEYS);
        IngestSettings s = new IngestSettings(base.bootstrapServers(), base.schemaRegistryUrl(), "pgw.", Map.of(),
                "127.0.0.1", 0, new IngestSettings.Tls(keystore(dir), "changeit", "PKCS12"), List.of(), KEYS, false,
                null, IngestSettings.Limits.defaults(), Duration.ofMinutes(1), Duration.ofHours(1));
        try (IngestService service = IngestService.start(s, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                null, 0)) {
            assertThat(service.base().toString()).startsWith("https://127.0.0.1:");
            HttpClient http = HttpClient.newBuilder().sslContext(trustAll()).version(HttpClient.Version.HTTP_2).build();
            HttpResponse<String> live = http.send(HttpRequest.newBuilder(service.base().resolve("/health/live"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(live.statusCode()).isEqualTo(200);
            assertThat(live.version()).isEqualTo(HttpClient.Version.HTTP_2);
            HttpResponse<String> ready = http.send(HttpRequest.newBuilder(service.base().resolve("/health/ready"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(ready.statusCode()).isEqualTo(503);
            assertThat(ready.body()).contains("catalog");
            HttpResponse<String> post = http.send(HttpRequest.newBuilder(service.base().resolve("/v1/reports"))
                    .header("Content-Type", ReportEnvelope.REPORTS_CONTENT_TYPE).header("Authorization", "Bearer x")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[] {2, 0})).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(post.statusCode()).isEqualTo(503);
            assertThat(post.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(post.body()).startsWith("NOT_READY");
        }
    }

    @Test
    void plainHttpOnlyOnLoopbackOrBehindADeclaredProxy() {
        IngestSettings base = IngestSettings.loopback("127.0.0.1:1", "http://127.0.0.1:1", KEYS);
        assertThatThrownBy(() -> new IngestSettings(base.bootstrapServers(), base.schemaRegistryUrl(), "pgw.",
                Map.of(), "0.0.0.0", 8443, null, List.of(), KEYS, false, null, IngestSettings.Limits.defaults(),
                Duration.ofMinutes(1), Duration.ofHours(1))).hasMessageStartingWith("tls:");
        assertThat(new IngestSettings(base.bootstrapServers(), base.schemaRegistryUrl(), "pgw.", Map.of(), "0.0.0.0",
                8443, null, List.of("10.0.0.2"), KEYS, false, null, IngestSettings.Limits.defaults(),
                Duration.ofMinutes(1), Duration.ofHours(1)).trustedProxies()).containsExactly("10.0.0.2");
        assertThatThrownBy(() -> IngestSettings.loopback("127.0.0.1:1", "http://x", Map.of("k1", new byte[8])))
                .hasMessageStartingWith("devices.keys.k1:");
    }
}
