package io.privacygateway.schemas.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.sun.net.httpserver.HttpServer;
import io.privacygateway.schemas.testing.CannedRegistry;
import io.privacygateway.schemas.testing.CannedRegistry.Answer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
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
                SchemaRegistryConfig.BASIC_AUTH_USER_INFO, "gateway:s3cret",
                SchemaRegistryConfig.ALLOW_INSECURE_HTTP_CREDENTIALS, "true"));   // loopback test server
        client.getById(1);
        assertThat(seenHeaders.get(0).get("Authorization"))
                .containsExactly("Basic " + Base64.getEncoder().encodeToString("gateway:s3cret".getBytes(StandardCharsets.UTF_8)));
        assertThat(seenHeaders.get(0).get("Accept").get(0)).contains(SchemaRegistryClient.CONTENT_TYPE);
        assertThat(client.toString()).contains("gateway:***").doesNotContain("s3cret");
    }

    @Test
    void basicAuthFromTheUrlIsMovedToAHeader() {
        SchemaRegistryClient client = SchemaRegistryClient.fromConfigs(Map.of(
                SchemaRegistryConfig.URL, url().replace("http://", "http://ops:p%40ss@"),
                SchemaRegistryConfig.ALLOW_INSECURE_HTTP_CREDENTIALS, true));
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
                SchemaRegistryConfig.ALLOW_INSECURE_HTTP_CREDENTIALS, "TRUE",   // b.example is plain http
                SchemaRegistryConfig.CONNECT_TIMEOUT_MS, 1234,
                SchemaRegistryConfig.REQUEST_TIMEOUT_MS, "5678",
                SchemaRegistryConfig.MISSING_ID_CACHE_TTL_MS, "0",
                SchemaRegistryConfig.LOOKUP_INTERVAL_MS, 1000,
                SchemaRegistryConfig.MAX_ID_LOOKUPS_PER_INTERVAL, "3",
                SchemaRegistryConfig.MISSING_ID_CACHE_SIZE, 50));
        assertThat(config.urls()).extracting(Object::toString)
                .containsExactly("https://a.example:8081", "http://b.example/apis/ccompat/v7");
        assertThat(config.basicAuthUserInfo()).isEqualTo("u:p");
        assertThat(config.allowInsecureHttpCredentials()).isTrue();
        assertThat(config.connectTimeout()).isEqualTo(Duration.ofMillis(1234));
        assertThat(config.requestTimeout()).isEqualTo(Duration.ofMillis(5678));
        assertThat(config.missingIdCacheTtl()).isZero();
        assertThat(config.lookupInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(config.maxIdLookupsPerInterval()).isEqualTo(3);
        assertThat(config.missingIdCacheSize()).isEqualTo(50);

        SchemaRegistryConfig defaults = SchemaRegistryConfig.of("http://r:8081");
        assertThat(defaults.basicAuthUserInfo()).isNull();
        assertThat(defaults.requestTimeout()).isEqualTo(SchemaRegistryConfig.DEFAULT_REQUEST_TIMEOUT);
        assertThat(defaults.lookupInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(defaults.maxIdLookupsPerInterval()).isEqualTo(10);
        assertThat(defaults.missingIdCacheSize()).isEqualTo(10_000);
        assertThat(defaults.allowInsecureHttpCredentials()).isFalse();
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

    @Test
    void anAnswerBodyThatTricklesIsCutAtTheRequestTimeout() {
        try (CannedRegistry slow = CannedRegistry.start()) {
            // Headers at once, then one byte every 50 ms: the whole answer would take over 3 s.
            slow.fallback(Answer.json(200, "{\"schema\": \"\\\"string\\\"\", \"padding\": \"" + "x".repeat(60)
                    + "\"}").trickled(50));
            SchemaRegistryClient client = new SchemaRegistryClient(
                    SchemaRegistryConfig.of(slow.url()).withRequestTimeout(Duration.ofMillis(300)));
            SchemaRegistryException e = catchThrowableOfType(SchemaRegistryException.class, () -> client.getById(1));
            assertThat(e).as("the body was not waited for beyond the timeout").isNotNull();
            assertThat(e.httpStatus()).isEqualTo(SchemaRegistryException.NO_RESPONSE);
            assertThat(e).hasMessageContaining("timed out");
        }
    }

    @Test
    void anOversizedAnswerIsNotRead() {
        try (CannedRegistry big = CannedRegistry.start()) {
            big.fallback(Answer.json(200, "{\"schema\": \"\\\"string\\\"\", \"padding\": \""
                    + "x".repeat(SchemaRegistryClient.MAX_ANSWER_BYTES) + "\"}"));
            SchemaRegistryException e = catchThrowableOfType(SchemaRegistryException.class,
                    () -> SchemaRegistryClient.forUrl(big.url()).getById(1));
            assertThat(e.httpStatus()).isEqualTo(SchemaRegistryException.NO_RESPONSE);
            assertThat(e).hasMessageContaining("larger than");
        }
    }

    @Test
    void unknownIdsAreRememberedInALeastRecentlyUsedCacheBoundedByCount() {
        try (CannedRegistry registry = CannedRegistry.start()) {
            registry.fallback(Answer.json(404, "{\"error_code\": 40403, \"message\": \"Schema not found\"}"));
            AtomicLong now = new AtomicLong();
            SchemaRegistryClient client = new SchemaRegistryClient(SchemaRegistryConfig.of(registry.url())
                    .withLookupLimits(Duration.ofSeconds(5), 1_000).withMissingIdCache(Duration.ofSeconds(30), 3), now::get);
            for (int id : new int[] {1, 2, 3}) {
                assertThat(catchThrowableOfType(SchemaRegistryException.class, () -> client.getById(id))
                        .isSchemaNotFound()).isTrue();
            }
            assertThat(client.requestCount()).isEqualTo(3);
            catchThrowableOfType(SchemaRegistryException.class, () -> client.getById(1));   // 1 is now the most recent
            assertThat(client.requestCount()).as("remembered").isEqualTo(3);
            catchThrowableOfType(SchemaRegistryException.class, () -> client.getById(4));   // evicts 2, the least recent
            assertThat(client.requestCount()).isEqualTo(4);
            catchThrowableOfType(SchemaRegistryException.class, () -> client.getById(1));
            catchThrowableOfType(SchemaRegistryException.class, () -> client.getById(3));
            catchThrowableOfType(SchemaRegistryException.class, () -> client.getById(4));
            assertThat(client.requestCount()).as("1, 3 and 4 still remembered: nothing wiped").isEqualTo(4);
            catchThrowableOfType(SchemaRegistryException.class, () -> client.getById(2));
            assertThat(client.requestCount()).as("2 was evicted").isEqualTo(5);
        }
    }

    @Test
    void lookupsByIdRespectTheirLimitPerIntervalAndResumeAfterIt() {
        try (CannedRegistry registry = CannedRegistry.start()) {
            registry.fallback(Answer.json(404, "{\"error_code\": 40403, \"message\": \"Schema not found\"}"));
            AtomicLong now = new AtomicLong();
            SchemaRegistryClient client = new SchemaRegistryClient(SchemaRegistryConfig.of(registry.url())
                    .withLookupLimits(Duration.ofSeconds(5), 2), now::get);
            assertThat(catchThrowableOfType(SchemaRegistryException.class, () -> client.getById(1)).isSchemaNotFound())
                    .isTrue();
            assertThat(catchThrowableOfType(SchemaRegistryException.class, () -> client.getById(2)).isSchemaNotFound())
                    .isTrue();
            SchemaRegistryException limited = catchThrowableOfType(SchemaRegistryException.class, () -> client.getById(3));
            assertThat(limited.httpStatus()).isEqualTo(SchemaRegistryException.NOT_SENT);
            assertThat(limited.isNotFound()).isFalse();
            assertThat(limited).hasMessageContaining("2 uncached ids");
            assertThat(client.requestCount()).isEqualTo(2);
            now.addAndGet(Duration.ofSeconds(5).toNanos());
            registry.serve("s-value", 3, org.apache.avro.Schema.create(org.apache.avro.Schema.Type.STRING));
            assertThat(client.getById(3)).isEqualTo(org.apache.avro.Schema.create(org.apache.avro.Schema.Type.STRING));
            assertThat(client.requestCount()).isEqualTo(3);
        }
    }

    @Test
    void subjectListingsForUnknownIdsArePacedAndTheIdsSurviveInTheCache() {
        try (CannedRegistry registry = CannedRegistry.start()) {
            org.apache.avro.Schema string = org.apache.avro.Schema.create(org.apache.avro.Schema.Type.STRING);
            registry.serve("s-value", 7, string);
            AtomicLong now = new AtomicLong();
            SchemaRegistryClient client = new SchemaRegistryClient(SchemaRegistryConfig.of(registry.url()), now::get);
            assertThat(client.schemaUnderSubject("s-value", 7)).isEqualTo(string);
            assertThat(registry.paths).containsExactly("/subjects/s-value/versions", "/subjects/s-value/versions/1");
            // 1,000 unknown ids at one instant: each of the first 9 is asked about (a listing that began after the
            // question says "not under this subject"), the other 991 are not asked about (paced), never "absent"
            int absent = 0;
            int paced = 0;
            for (int id = 100; id < 1_100; id++) {
                int i = id;
                SchemaRegistryException e = catchThrowableOfType(SchemaRegistryException.class,
                        () -> assertThat(client.schemaUnderSubject("s-value", i)).isNull());
                if (e == null) {
                    absent++;
                } else {
                    assertThat(e.isPaced()).as(e.getMessage()).isTrue();
                    paced++;
                }
            }
            assertThat(absent).isEqualTo(9);
            assertThat(paced).isEqualTo(991);
            assertThat(client.schemaUnderSubject("s-value", 7)).isEqualTo(string);
            assertThat(client.requestCount()).as("10 listings (the first with version 1)").isEqualTo(11);
            now.addAndGet(Duration.ofMillis(500).toNanos()); // one listing's worth of the allowance is back
            assertThat(client.schemaUnderSubject("s-value", 8)).isNull();
            assertThat(catchThrowableOfType(SchemaRegistryException.class,
                    () -> client.schemaUnderSubject("s-value", 9)).isPaced()).isTrue();
            assertThat(registry.paths).as("listed again, version 1 not fetched again").hasSize(12)
                    .containsOnly("/subjects/s-value/versions", "/subjects/s-value/versions/1");
        }
    }
}
