package io.privacygateway.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Browsers call the device endpoints from a web page only where the operator allows the page's origin
 * ({@code cors.allowedOrigins}): the preflight of an allowed origin is answered with the methods and headers the SDK
 * sends, the answers carry {@code Access-Control-Allow-Origin} and expose {@code ETag}/{@code Retry-After}; any other
 * origin (and every origin when none is configured) is refused, so a page elsewhere cannot read the answers. (Kafka is
 * not needed for any of this: the service runs without a reachable cluster.)
 */
class IngestCorsTest {
    private static final Map<String, byte[]> KEYS = Map.of("k1", new byte[32]);
    private static final String APP = "https://app.example.com";
    private final HttpClient http = HttpClient.newHttpClient();

    private static IngestService start(List<String> origins) throws Exception {
        IngestSettings s = IngestSettings.loopback("127.0.0.1:1", "http://127.0.0.1:1", KEYS).withCorsOrigins(origins);
        return IngestService.start(s, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), null, 0);
    }

    private HttpResponse<String> preflight(URI base, String path, String origin, String method) throws Exception {
        return http.send(HttpRequest.newBuilder(base.resolve(path)).method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", origin).header("Access-Control-Request-Method", method)
                .header("Access-Control-Request-Headers", "authorization, content-type").build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void anAllowedOriginGetsItsPreflightAndReadableAnswers() throws Exception {
        try (IngestService service = start(List.of(APP))) {
            HttpResponse<String> p = preflight(service.base(), "/v1/reports", APP, "POST");
            assertThat(p.statusCode()).isEqualTo(204);
            assertThat(p.headers().firstValue("Access-Control-Allow-Origin")).hasValue(APP);
            assertThat(p.headers().firstValue("Access-Control-Allow-Methods")).hasValue("POST");
            assertThat(p.headers().firstValue("Access-Control-Allow-Headers").orElse(""))
                    .contains("Authorization", "Content-Type", "Content-Encoding");
            assertThat(p.headers().firstValue("Access-Control-Allow-Credentials")).isEmpty();
            HttpResponse<String> w = preflight(service.base(), "/v1/workloads", APP, "GET");
            assertThat(w.statusCode()).isEqualTo(204);
            assertThat(w.headers().firstValue("Access-Control-Allow-Headers").orElse("")).contains("If-None-Match");

            HttpResponse<String> get = http.send(HttpRequest.newBuilder(service.base().resolve("/v1/workloads"))
                    .header("Origin", APP).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(get.statusCode()).isEqualTo(503); // no catalog without Kafka: the page can read why and when
            assertThat(get.headers().firstValue("Access-Control-Allow-Origin")).hasValue(APP);
            assertThat(get.headers().firstValue("Access-Control-Expose-Headers").orElse("")).contains("Retry-After",
                    "ETag");
            assertThat(get.headers().firstValue("Vary").orElse("")).contains("Origin");
        }
    }

    @Test
    void anyOtherOriginAndEveryOriginByDefaultIsRefused() throws Exception {
        try (IngestService service = start(List.of(APP))) {
            HttpResponse<String> p = preflight(service.base(), "/v1/reports", "https://elsewhere.example", "POST");
            assertThat(p.statusCode()).isEqualTo(403);
            assertThat(p.body()).startsWith("CORS_ORIGIN");
            assertThat(p.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
            HttpResponse<String> get = http.send(HttpRequest.newBuilder(service.base().resolve("/v1/workloads"))
                    .header("Origin", "https://elsewhere.example").build(), HttpResponse.BodyHandlers.ofString());
            assertThat(get.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
        }
        try (IngestService service = start(List.of())) {
            assertThat(preflight(service.base(), "/v1/reports", APP, "POST").statusCode()).isEqualTo(403);
        }
    }

    @Test
    void anyOriginWhenTheOperatorSaysSoAndABadOriginFailsAtStart() throws Exception {
        try (IngestService service = start(List.of("*"))) {
            HttpResponse<String> p = preflight(service.base(), "/v1/reports", "https://anywhere.example", "POST");
            assertThat(p.statusCode()).isEqualTo(204);
            assertThat(p.headers().firstValue("Access-Control-Allow-Origin")).hasValue("*");
        }
        assertThatThrownBy(() -> IngestSettings.loopback("127.0.0.1:1", "http://x", KEYS)
                .withCorsOrigins(List.of("https://app.example.com/page"))).hasMessageStartingWith("cors.allowedOrigins:");
    }
}
