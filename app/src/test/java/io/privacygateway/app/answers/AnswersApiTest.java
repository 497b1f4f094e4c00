package io.privacygateway.app.answers;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.privacygateway.app.dashboard.RealAnswers;
import io.privacygateway.harness.EmbeddedKafka;
import io.privacygateway.harness.testing.RealRegistry;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.serde.AvroSerializer;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.service.GatewayService;
import io.privacygateway.topology.GatewaySettings;
import io.privacygateway.topology.release.CentralReleaser;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The answers API on a real broker (in-JVM KRaft), a real registry (Apicurio) and a running gateway with its answers
 * store: real answer records (made by the release code, {@link RealAnswers}) written to the answers topic in the
 * Confluent wire format are served as self-contained rows in JSON, CSV and NDJSON, filtered by window start, paged by
 * cursor with pages bounded in rows and bytes; bad parameters are 400 naming the parameter. The answers topic the
 * gateway creates keeps answers forever by default, or for the configured retention.
 */
class AnswersApiTest {
    @RegisterExtension
    static final RealRegistry registry = RealRegistry.shared();
    static EmbeddedKafka kafka;
    static GatewayService gateway;
    static AnswersServer api;
    static final List<WindowAnswer> published = new ArrayList<>();
    static final int WINDOWS = 6;
    static long window;
    static long t0;
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newHttpClient();
    @TempDir
    static Path state;

    @BeforeAll
    static void start() throws Exception {
        kafka = EmbeddedKafka.start();
        GatewayConfig config = GatewayConfig.builder(1, 1).applicationId("answers-api-test").answersStore(true).build();
        GatewaySettings s = new GatewaySettings(kafka.bootstrapServers(), registry.ccompatUrl(), config, (short) 1, 1,
                state, "exactly_once_v2", Map.of(), Map.of());
        gateway = GatewayService.start(s, new SimpleMeterRegistry(), CentralReleaser.secure(), Duration.ofMinutes(2));
        api = AnswersServer.start(AnswersOptions.onPort(0), gateway::answers, id -> false);
        RealAnswers real = new RealAnswers(11);
        window = real.windowMillis();
        t0 = Instant.parse("2026-11-29T09:00:00Z").toEpochMilli();
        for (int w = 0; w < WINDOWS; w++) {
            published.addAll(real.window(t0 + w * window, 300));
        }
        SchemaRegistryClient client = SchemaRegistryClient.forUrl(registry.ccompatUrl());
        try (KafkaProducer<String, WindowAnswer> p = new KafkaProducer<>(kafka.clientConfig(), new StringSerializer(),
                new AvroSerializer<>(client))) {
            for (WindowAnswer a : published) {
                p.send(new ProducerRecord<>(config.answersTopic(), a.getWorkloadId(), a)).get(30, TimeUnit.SECONDS);
            }
        }
        // the store reads the topic on the gateway's global thread: wait until the last answer is served
        WindowAnswer last = published.get(published.size() - 1);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (rows(get(last.getWorkloadId() + "?from=" + last.getWindowStart().toEpochMilli(), null)).isEmpty()
                && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
    }

    @AfterAll
    static void stop() {
        if (api != null) {
            api.close();
        }
        if (gateway != null) {
            gateway.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    static HttpResponse<String> get(String pathAndQuery, String accept) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(api.base().resolve("v1/answers/" + pathAndQuery));
        if (accept != null) {
            b.header("Accept", accept);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static List<JsonNode> rows(HttpResponse<String> r) throws Exception {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        List<JsonNode> out = new ArrayList<>();
        JSON.readTree(r.body()).get("rows").forEach(out::add);
        return out;
    }

    static List<WindowAnswer> of(String workload) {
        return published.stream().filter(a -> a.getWorkloadId().equals(workload)).toList();
    }

    @Test
    void everyRowIsOneCoordinateWithItsBarsPrivacyAndGuarantee() throws Exception {
        List<WindowAnswer> answers = of("screen-usage");
        List<JsonNode> rows = rows(get("screen-usage", null));
        assertThat(rows).hasSize(answers.stream().mapToInt(a -> a.getLabels().size()).sum());
        int k = 0;
        for (WindowAnswer a : answers) {
            for (int i = 0; i < a.getLabels().size(); i++, k++) {
                JsonNode r = rows.get(k);
                assertThat(r.get("workload").asText()).isEqualTo("screen-usage");
                assertThat(r.get("version").asInt()).isEqualTo(a.getWorkloadVersion());
                assertThat(r.get("windowStart").asText()).isEqualTo(a.getWindowStart().toString());
                assertThat(r.get("windowEnd").asText()).isEqualTo(a.getWindowEnd().toString());
                assertThat(r.get("index").asInt()).isEqualTo(i);
                assertThat(r.get("label").asText()).isEqualTo(a.getLabels().get(i));
                assertThat(r.get("estimate").asDouble()).isEqualTo(a.getEstimates().get(i));
                assertThat(r.get("lower").asDouble()).isEqualTo(a.getLower().get(i));
                assertThat(r.get("upper").asDouble()).isEqualTo(a.getUpper().get(i));
                assertThat(r.get("epsilon").asDouble()).isEqualTo(a.getEpsilon());
                assertThat(r.get("delta").asDouble()).isEqualTo(a.getDelta());
                assertThat(r.get("n").asLong()).isEqualTo(a.getN());
                assertThat(r.get("confidence").asDouble()).isEqualTo(a.getConfidence());
                assertThat(r.get("mechanism").asText()).isEqualTo(a.getMechanism());
                assertThat(r.get("guaranteeKind").asText()).isEqualTo("pure");
                assertThat(r.get("amplifiedEpsilon").asDouble()).isEqualTo(a.getAmplified().getEpsilon());
                assertThat(r.get("amplifiedCrowd").asText()).isEqualTo("enrolled-devices");
                assertThat(r.get("guarantee").asText()).contains("-DP (pure, δ = 0) per report")
                        .contains("against observers of the answers only");
                assertThat(r.get("horizon").isNull()).isTrue();
            }
        }
        // a central workload's rows: noise added by the gateway, no amplified figure
        JsonNode central = rows(get("session-length", null)).get(0);
        assertThat(central.get("mode").asText()).isEqualTo("central");
        assertThat(central.get("guarantee").asText()).contains("per release, noise added by the gateway");
        assertThat(central.get("amplifiedEpsilon").isNull()).isTrue();
        // heavy hitters: one row per string found
        List<JsonNode> hh = rows(get("top-crash-signatures", null));
        assertThat(hh).isNotEmpty().allSatisfy(r -> assertThat(r.get("label").asText()).isNotEmpty());
    }

    @Test
    void fromAndToSelectWindowsByStart() throws Exception {
        long second = t0 + window;
        List<JsonNode> iso = rows(get("screen-usage?from=" + Instant.ofEpochMilli(second) + "&to="
                + Instant.ofEpochMilli(second + window), null));
        List<JsonNode> millis = rows(get("screen-usage?from=" + second + "&to=" + (second + window), null));
        assertThat(iso).isNotEmpty().isEqualTo(millis)
                .allSatisfy(r -> assertThat(r.get("windowStart").asText()).isEqualTo(Instant.ofEpochMilli(second)
                        .toString()));
        assertThat(rows(get("screen-usage?from=" + (t0 + WINDOWS * window), null))).isEmpty();
        assertThat(rows(get("screen-usage?to=" + t0, null))).isEmpty();
    }

    @Test
    void pagesFollowTheirNextLinksToTheWholeHistory() throws Exception {
        List<JsonNode> all = rows(get("latency-cdf", null));
        assertThat(all.size()).isGreaterThan(7);
        List<JsonNode> paged = new ArrayList<>();
        String next = "latency-cdf?limit=7";
        int pages = 0;
        while (next != null) {
            HttpResponse<String> r = get(next, null);
            List<JsonNode> page = rows(r);
            assertThat(page.size()).isLessThanOrEqualTo(7);
            paged.addAll(page);
            JsonNode n = JSON.readTree(r.body()).get("next");
            next = n.isNull() ? null : n.asText().substring("/v1/answers/".length());
            assertThat(r.headers().firstValue("Link").isPresent()).isEqualTo(next != null);
            pages++;
        }
        assertThat(paged).isEqualTo(all);
        assertThat(pages).isEqualTo((all.size() + 6) / 7);
        // the same in NDJSON through the Link header
        List<String> lines = new ArrayList<>();
        String link = "latency-cdf?limit=5&format=ndjson";
        while (link != null) {
            HttpResponse<String> r = get(link, null);
            assertThat(r.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/x-ndjson");
            r.body().lines().forEach(lines::add);
            link = r.headers().firstValue("Link").map(l -> l.substring(l.indexOf("/v1/answers/") + 12,
                    l.indexOf('>'))).orElse(null);
        }
        assertThat(lines).hasSize(all.size());
        for (int i = 0; i < lines.size(); i++) {
            assertThat(JSON.readTree(lines.get(i))).isEqualTo(all.get(i));
        }
    }

    @Test
    void csvAndNdjsonByAcceptOrFormat() throws Exception {
        List<JsonNode> all = rows(get("feature-flags", "application/json"));
        HttpResponse<String> csv = get("feature-flags", "text/csv");
        assertThat(csv.statusCode()).isEqualTo(200);
        assertThat(csv.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/csv");
        List<String> lines = csv.body().lines().toList();
        assertThat(lines.get(0)).isEqualTo(String.join(",", AnswerRow.COLUMNS));
        assertThat(lines).hasSize(all.size() + 1);
        assertThat(get("feature-flags?format=csv", "application/json").body()).isEqualTo(csv.body());
        HttpResponse<String> nd = get("feature-flags", "application/x-ndjson");
        assertThat(nd.body().lines().count()).isEqualTo(all.size());
        assertThat(JSON.readTree(nd.body().lines().findFirst().orElseThrow())).isEqualTo(all.get(0));
        assertThat(get("feature-flags", "text/html, */*;q=0.1").headers().firstValue("Content-Type").orElseThrow())
                .startsWith("application/json");
    }

    @Test
    void badParametersAre400NamingTheParameter() throws Exception {
        assertRefused(get("screen-usage?from=yesterday", null), 400, "from must be an ISO-8601 instant");
        assertRefused(get("screen-usage?to=2026-13-01", null), 400, "to must be");
        assertRefused(get("screen-usage?from=2000&to=1000", null), 400, "from must be before to");
        assertRefused(get("screen-usage?limit=0", null), 400, "limit must be an integer in [1, 10000]");
        assertRefused(get("screen-usage?limit=10001", null), 400, "limit must be");
        assertRefused(get("screen-usage?size=3", null), 400, "unknown parameter \\\"size\\\"");
        assertRefused(get("screen-usage?limit=3&limit=4", null), 400, "limit is given more than once");
        assertRefused(get("screen-usage?format=xml", null), 400, "format must be json, csv or ndjson");
        assertRefused(get("screen-usage?cursor=AAAA", null), 400, "cursor is not a cursor of this query");
        assertRefused(get("bad%20id", null), 400, "workload in the path");
        assertRefused(get("screen-usage", "image/png"), 406, "available: application/json, text/csv");
        assertRefused(get("no-such-workload", null), 404, "not registered and has no answers");
        // a cursor of one workload is refused for another, and outside its query's range
        String next = JSON.readTree(get("latency-cdf?limit=1", null).body()).get("next").asText();
        String cursor = next.substring(next.indexOf("cursor=") + 7);
        assertRefused(get("screen-usage?cursor=" + cursor, null), 400, "cursor");
        assertRefused(get("latency-cdf?from=" + (t0 + window) + "&cursor=" + cursor, null), 400, "cursor");
        HttpResponse<String> post = HTTP.send(HttpRequest.newBuilder(api.answersUrl("screen-usage"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(405);
    }

    static void assertRefused(HttpResponse<String> r, int status, String message) throws Exception {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        assertThat(r.headers().firstValue("Content-Type").orElseThrow()).isEqualTo("application/json");
        JsonNode e = JSON.readTree(r.body());
        assertThat(e.get("status").asInt()).isEqualTo(status);
        assertThat(JSON.writeValueAsString(e.get("message"))).contains(message);
    }

    @Test
    void aPageStopsAtItsByteBoundWithANextLink() throws Exception {
        String widest = published.stream().max((a, b) -> Integer.compare(AnswerRow.count(a), AnswerRow.count(b)))
                .orElseThrow().getWorkloadId();
        List<JsonNode> all = rows(get(widest + "?limit=10000", null));
        int oneRow = JSON.writeValueAsBytes(all.get(0)).length;
        int total = get(widest + "?limit=10000", null).body().getBytes(StandardCharsets.UTF_8).length;
        try (AnswersServer small = AnswersServer.start(AnswersOptions.onPort(0).withPaging(1000, 10000, 64 * 1024),
                gateway::answers, id -> false)) {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(small.answersUrl(widest + "?limit=10000"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            int bytes = r.body().getBytes(StandardCharsets.UTF_8).length;
            assertThat(bytes).isLessThanOrEqualTo(64 * 1024 + 2 * oneRow + 512);
            assertThat(total).as("the widest workload's history exceeds one bounded page").isGreaterThan(64 * 1024);
            assertThat(r.headers().firstValue("Link")).isPresent();
        }
    }

    @Test
    void theOpenApiDocumentIsServedAndCommitted() throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(api.base().resolve("v1/openapi.json")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode doc = JSON.readTree(r.body());
        assertThat(doc.get("openapi").asText()).startsWith("3.");
        assertThat(doc.at("/paths/~1v1~1answers~1{workload}/get/parameters").size()).isEqualTo(6);
        List<String> properties = new ArrayList<>();
        doc.at("/components/schemas/AnswerRow/properties").fieldNames().forEachRemaining(properties::add);
        assertThat(properties).isEqualTo(AnswerRow.COLUMNS);
        assertThat(r.body()).isEqualTo(Files.readString(Path.of("../docs/answers-openapi.json")));
    }

    @Test
    void theAnswersTopicKeepsAnswersForeverOrForTheConfiguredRetention() throws Exception {
        Properties p = new Properties();
        p.putAll(kafka.clientConfig());
        try (Admin admin = Admin.create(p)) {
            assertThat(topicConfig(admin, "pgw.answers").get("retention.ms").value()).isEqualTo("-1");
            assertThat(topicConfig(admin, "pgw.answers").get("cleanup.policy").value()).isEqualTo("delete");
            GatewayConfig thirtyDays = GatewayConfig.builder(1, 1).topicPrefix("r30.").applicationId("answers-r30")
                    .answersRetentionMs(Duration.ofDays(30).toMillis()).build();
            GatewayService.ensureTopics(new GatewaySettings(kafka.bootstrapServers(), registry.ccompatUrl(),
                    thirtyDays, (short) 1, 1, state, "exactly_once_v2", Map.of(), Map.of()));
            assertThat(topicConfig(admin, "r30.answers").get("retention.ms").value()).isEqualTo("2592000000");
        }
    }

    /**
     * The notebook example (examples/python/answers_dataframe.py) against this broker, registry and API with Debian's
     * Python: a DataFrame from the API and one from the topic with the Confluent client, which agree. Skips, saying
     * what is missing, without /usr/bin/python3 or its pandas, requests, confluent_kafka and avro packages (.ci/run
     * installs them).
     */
    @Test
    void thePythonExampleBuildsTheSameDataFrameFromTheApiAndFromTheTopic() throws Exception {
        String python = System.getProperty("privacygateway.python", "/usr/bin/python3");
        Assumptions.assumeTrue(Files.isExecutable(Path.of(python)), python + " is missing: the Python example is not run");
        Process check = new ProcessBuilder(python, "-c", "import pandas, requests, confluent_kafka, avro.io")
                .redirectErrorStream(true).start();
        String missing = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        Assumptions.assumeTrue(check.waitFor(60, TimeUnit.SECONDS) && check.exitValue() == 0, python
                + " lacks a package of the example (Debian: python3-pandas python3-requests python3-confluent-kafka"
                + " python3-avro): " + missing.lines().reduce((a, b) -> b).orElse(""));
        Path script = Path.of("../examples/python/answers_dataframe.py").toAbsolutePath().normalize();
        Process run = new ProcessBuilder(python, script.toString(), "--api", api.base().toString(), "--workload",
                "latency-cdf", "--limit", "7", "--bootstrap", kafka.bootstrapServers(), "--registry",
                registry.ccompatUrl(), "--topic", "pgw.answers").redirectErrorStream(true).start();
        String out = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(run.waitFor(120, TimeUnit.SECONDS)).as("the example finished").isTrue();
        int rows = rows(get("latency-cdf?limit=10000", null)).size();
        assertThat(run.exitValue()).as(out).isZero();
        assertThat(out).contains("api rows: " + rows + ", windows: " + WINDOWS).contains("topic rows: " + rows)
                .contains("api and topic agree: True");
    }

    static Config topicConfig(Admin admin, String topic) throws Exception {
        ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        return admin.describeConfigs(List.of(r)).all().get(30, TimeUnit.SECONDS).get(r);
    }
}
