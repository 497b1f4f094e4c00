package io.privacygateway.schemas.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The HTTP layer of the client (headers, timeouts, error bodies) and its configuration, against a
 * tiny JDK HTTP server on loopback that answers canned bodies. Registry behaviour itself is
 * tested against the real registry in {@link SchemaRegistryClientTest}.
 */
class SchemaRegistryClientHttpTest {

    HttpServer server;
    final List<Map<String, List<String>>> seenHeaders = new CopyOnWriteArrayList<>();
    volatile int status = 200;
    volatile String body = "{\"schema\": \"\\\"string\\\"\"}";
    volatile long delayMillis;

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            seenHeaders.add(Map.copyOf(exchange.getRequestHeaders()));
            try {
                Thread.sleep(delayMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Test
    void basicAuthFromUserInfoConfig() {
        SchemaRegistryClient client = SchemaRegistryClient.fromConfigs(Map.of(
                SchemaRegistryConfig.URL, url(),
                SchemaRegistryConfig.BASIC_AUTH_CREDENTIALS_SOURCE, "USER_INFO",
                SchemaRegistryConfig.BASIC_AUTH_USER_INFO, "gateway:s3cret"));
        client.getById(1);
        assertThat(seenHeaders.get(0).get("Authorization"))
                .containsExactly("Basic " + Base64.getEncoder().encodeToString("gateway:s3cret".getBytes(StandardCharsets.UTF_8)));
        assertThat(seenHeaders.get(0).get("Accept").get(0)).contains(SchemaRegistryClient.CONTENT_TYPE);
        assertThat(client.toString()).contains("gateway:***").doesNotContain("s3cret");
    }

    @Test
    void basicAuthFromTheUrlIsMovedToAHeader() {
        SchemaRegistryClient client = SchemaRegistryClient.forUrl(url().replace("http://", "http://ops:p%40ss@"));
        client.getById(1);
        assertThat(seenHeaders.get(0).get("Authorization"))
                .containsExactly("Basic " + Base64.getEncoder().encodeToString("ops:p@ss".getBytes(StandardCharsets.UTF_8)));
        assertThat(client.config().urls().get(0).getRawUserInfo()).isNull();
    }

    @Test
    void noAuthorizationHeaderWithoutCredentials() {
        SchemaRegistryClient.forUrl(url()).getById(1);
        assertThat(seenHeaders.get(0)).doesNotContainKey("Authorization");
    }

    @Test
    void aSlowAnswerHitsTheRequestTimeout() {
        delayMillis = 3_000;
        SchemaRegistryClient client = SchemaRegistryClient.fromConfigs(Map.of(
                SchemaRegistryConfig.URL, url(), SchemaRegistryConfig.REQUEST_TIMEOUT_MS, 200));
        long start = System.nanoTime();
        SchemaRegistryException e = catchThrowableOfType(SchemaRegistryException.class, () -> client.getById(1));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(2_500));
        assertThat(e.httpStatus()).isEqualTo(SchemaRegistryException.NO_RESPONSE);
        assertThat(e).hasMessageContaining("timed out");
    }

    @Test
    void errorsCarryStatusCodeAndMessage() {
        status = 422;
        body = "{\"error_code\": 42201, \"message\": \"Invalid schema\"}";
        SchemaRegistryException e = catchThrowableOfType(SchemaRegistryException.class,
                () -> SchemaRegistryClient.forUrl(url()).getById(5));
        assertThat(e.httpStatus()).isEqualTo(422);
        assertThat(e.errorCode()).isEqualTo(42201);
        assertThat(e.registryMessage()).isEqualTo("Invalid schema");
        assertThat(e).hasMessage("GET /schemas/ids/5 at " + url() + " -> HTTP 422, error_code 42201: Invalid schema");

        status = 502;
        body = "<html>Bad Gateway</html>";
        SchemaRegistryException proxy = catchThrowableOfType(SchemaRegistryException.class,
                () -> SchemaRegistryClient.forUrl(url()).getById(5));
        assertThat(proxy.httpStatus()).isEqualTo(502);
        assertThat(proxy.errorCode()).isZero();
        assertThat(proxy.registryMessage()).contains("Bad Gateway");
    }

    @Test
    void malformedSuccessfulAnswersAreErrorsNotSurprises() {
        body = "not json";
        assertThat(catchThrowableOfType(SchemaRegistryException.class,
                () -> SchemaRegistryClient.forUrl(url()).getById(1))).hasMessageContaining("not JSON");
        body = "{\"something\": 1}";
        assertThat(catchThrowableOfType(SchemaRegistryException.class,
                () -> SchemaRegistryClient.forUrl(url()).getById(2))).hasMessageContaining("lacks \"schema\"");
        body = "{\"schema\": \"{not avro\"}";
        assertThat(catchThrowableOfType(SchemaRegistryException.class,
                () -> SchemaRegistryClient.forUrl(url()).getById(3))).hasMessageContaining("Avro cannot parse");
    }

    @Test
    void configFromMap() {
        SchemaRegistryConfig config = SchemaRegistryConfig.fromMap(Map.of(
                SchemaRegistryConfig.URL, " https://a.example:8081/ , http://b.example/apis/ccompat/v7",
                SchemaRegistryConfig.BASIC_AUTH_USER_INFO_ALIAS, "u:p",
                SchemaRegistryConfig.CONNECT_TIMEOUT_MS, 1234,
                SchemaRegistryConfig.REQUEST_TIMEOUT_MS, "5678",
                SchemaRegistryConfig.MISSING_ID_CACHE_TTL_MS, "0"));
        assertThat(config.urls()).extracting(Object::toString)
                .containsExactly("https://a.example:8081", "http://b.example/apis/ccompat/v7");
        assertThat(config.basicAuthUserInfo()).isEqualTo("u:p");
        assertThat(config.connectTimeout()).isEqualTo(Duration.ofMillis(1234));
        assertThat(config.requestTimeout()).isEqualTo(Duration.ofMillis(5678));
        assertThat(config.missingIdCacheTtl()).isZero();

        SchemaRegistryConfig defaults = SchemaRegistryConfig.of("http://r:8081");
        assertThat(defaults.basicAuthUserInfo()).isNull();
        assertThat(defaults.requestTimeout()).isEqualTo(SchemaRegistryConfig.DEFAULT_REQUEST_TIMEOUT);
    }

    @Test
    void badConfigNamesTheKey() {
        assertThatThrownBy(() -> SchemaRegistryConfig.fromMap(Map.of()))
                .hasMessageContaining(SchemaRegistryConfig.URL);
        assertThatThrownBy(() -> SchemaRegistryConfig.of("ftp://r"))
                .hasMessageContaining(SchemaRegistryConfig.URL);
        assertThatThrownBy(() -> SchemaRegistryConfig.fromMap(Map.of(SchemaRegistryConfig.URL, "http://r",
                SchemaRegistryConfig.REQUEST_TIMEOUT_MS, "soon"))).hasMessageContaining(SchemaRegistryConfig.REQUEST_TIMEOUT_MS);
        assertThatThrownBy(() -> SchemaRegistryConfig.fromMap(Map.of(SchemaRegistryConfig.URL, "http://r",
                SchemaRegistryConfig.BASIC_AUTH_CREDENTIALS_SOURCE, "USER_INFO")))
                .hasMessageContaining(SchemaRegistryConfig.BASIC_AUTH_USER_INFO);
        assertThatThrownBy(() -> SchemaRegistryConfig.fromMap(Map.of(SchemaRegistryConfig.URL, "http://r",
                SchemaRegistryConfig.BASIC_AUTH_CREDENTIALS_SOURCE, "SASL_INHERIT")))
                .hasMessageContaining(SchemaRegistryConfig.BASIC_AUTH_CREDENTIALS_SOURCE);
    }
}
