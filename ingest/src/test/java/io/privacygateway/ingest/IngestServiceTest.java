package io.privacygateway.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.client.Client;
import io.privacygateway.client.ClientConfig;
import io.privacygateway.client.DeviceReport;
import io.privacygateway.client.ReportEnvelope;
import io.privacygateway.client.ReportEnvelope.Result;
import io.privacygateway.client.ReportEnvelope.Status;
import io.privacygateway.client.ReportOutcome;
import io.privacygateway.client.Workloads;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.WindowAnswer;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ingestion service on the real broker, registry and gateway (enrolled devices): reports in, per-report results,
 * retries counted once, hostile clients refused, revocation, the workload documents, two instances, the SDK end to
 * end, and (last) a broker outage.
 */
@ExtendWith(IngestFixture.Extension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class IngestServiceTest {
    static final String WORKLOAD = """
            id: ingest-hist
            version: 1
            family: histogram
            domain: {labels: [a, b, c]}
            mechanism: grr
            epsilonPerReport: 0.25
            budget: {epsilonPerPeriod: 40.0, period: 1d}
            window: {size: 2s, grace: 1s}
            expectedReportsPerWindow: 10
            """;
    static IngestFixture g;
    static WorkloadSpec spec;
    static IngestService a;
    static IngestService b;
    static Path revoked;
    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void start(IngestFixture fixture, @TempDir Path dir) throws Exception {
        g = fixture;
        spec = g.register(WORKLOAD);
        revoked = dir.resolve("revoked.txt");
        Files.writeString(revoked, "# revoked devices\n");
        a = g.start(g.settings().withRevocationFile(revoked));
        b = g.start(g.settings());
        awaitReady(a);
        awaitReady(b);
    }

    @AfterAll
    static void stop() {
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
    }

    static void awaitReady(IngestService s) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!(s.ready() && s.metrics() != null && workloadKnown(s)) && System.nanoTime() < end) {
            Thread.sleep(50);
        }
        assertThat(s.ready()).as(s.readiness()).isTrue();
    }

    static boolean workloadKnown(IngestService s) {
        try {
            return get(s, "/v1/workloads/" + spec.id(), Map.of()).statusCode() == 200;
        } catch (Exception e) {
            return false;
        }
    }

    static List<DeviceReport> reports(String device, int n, int firstSequence, long eventTime) {
        int bytes = ((LocalWorkload) Workloads.resolve(spec)).accumulator().payloadBytes();
        List<DeviceReport> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(DeviceReport.local(spec.id(), spec.version(), CanonicalForm.contentHash(spec),
                    new ReportCoordinates(device, spec.budget().periodOf(eventTime), firstSequence + i), eventTime,
                    spec.mechanism().wireName(), spec.epsilonPerReport().value(), new byte[bytes],
                    spec.protocolVersion()));
        }
        return out;
    }

    /** Waits for the start of the next 2-second window (the version answers windows from the one after it). */
    static long nextWindow() throws InterruptedException {
        long windowStart = (Math.floorDiv(System.currentTimeMillis() + 1000, 2000) + 1) * 2000;
        while (System.currentTimeMillis() < windowStart + 50) {
            Thread.sleep(10);
        }
        return windowStart;
    }

    static HttpResponse<byte[]> post(IngestService s, byte[] body, String type, String credential) throws Exception {
        try {
            return post1(s, body, type, credential);
        } catch (java.io.IOException e) {
            // a kept-alive connection the server closed (request timeout) as the client reused it: a real client
            // (the SDK) resends on a connection error, and so does the test, once
            return post1(s, body, type, credential);
        }
    }

    static HttpResponse<byte[]> post1(IngestService s, byte[] body, String type, String credential) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(s.base().resolve("/v1/reports"))
                .timeout(Duration.ofSeconds(20)).header("Content-Type", type)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (credential != null) {
            r.header("Authorization", "Bearer " + credential);
        }
        return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    static List<Result> postBatch(IngestService s, List<DeviceReport> batch, String credential) throws Exception {
        HttpResponse<byte[]> r = post(s, ReportEnvelope.encode(batch), ReportEnvelope.REPORTS_CONTENT_TYPE, credential);
        assertThat(r.statusCode()).as(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo(200);
        return ReportEnvelope.decodeResults(r.body());
    }

    static HttpResponse<byte[]> get(IngestService s, String path, Map<String, String> headers) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(s.base().resolve(path)).timeout(Duration.ofSeconds(10)).GET();
        headers.forEach(r::header);
        return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    static List<Status> statuses(List<Result> rs) {
        return rs.stream().map(Result::status).toList();
    }

    static List<LocalReport> onTopic(String device, int atLeast) {
        return g.readUntil(g.topics().localReports(), LocalReport.class, r -> r.getDeviceId().equals(device),
                l -> l.size() >= atLeast, Duration.ofSeconds(atLeast == 0 ? 3 : 20));
    }

    @Test
    @Order(1)
    void acceptedReportsAppearOnceAndARetriedBatchIsCountedOnce() throws Exception {
        long windowStart = nextWindow();
        long t = windowStart + 50;
        int total = 0;
        // every post first, inside the 2-second window (the window closes on the wall clock: reading the topic
        // between posts let a loaded machine close it before the last device's reports arrived)
        for (int d = 0; d < 4; d++) { // devices on both partitions, so that the window closes everywhere
            String dev = "dev-once-" + d;
            List<DeviceReport> batch = reports(dev, 2 + d, 0, t);
            String cred = g.credential(dev);
            total += batch.size();
            assertThat(statuses(postBatch(a, batch, cred))).containsOnly(Status.ACCEPTED).hasSize(batch.size());
            // the same batch again to the same instance: answered DUPLICATE at the edge, not written again
            assertThat(statuses(postBatch(a, batch, cred))).containsOnly(Status.DUPLICATE).hasSize(batch.size());
            // and to another instance, which has not seen it: written again; the gateway's ledger refuses the copies
            assertThat(statuses(postBatch(b, batch, cred))).containsOnly(Status.ACCEPTED).hasSize(batch.size());
        }
        for (int d = 0; d < 4; d++) {
            int copies = 2 * (2 + d);
            assertThat(onTopic("dev-once-" + d, copies)).hasSize(copies);
        }
        List<WindowAnswer> answers = g.readUntil(g.config.answersTopic(), WindowAnswer.class,
                w -> w.getWorkloadId().equals(spec.id()) && w.getWindowStart().toEpochMilli() == windowStart,
                l -> !l.isEmpty(), Duration.ofSeconds(30));
        assertThat(answers).hasSize(1);
        assertThat(answers.get(0).getN()).isEqualTo(total); // every retried batch counted once
        assertThat(a.metrics().reportCount("DUPLICATE", "")).isEqualTo(total);
    }

    @Test
    @Order(2)
    void jsonBodiesAndPerReportRejectionsWithTheGatewaysReasons() throws Exception {
        long t = System.currentTimeMillis();
        List<DeviceReport> ok = reports("dev-json", 1, 0, t);
        DeviceReport r = ok.get(0);
        DeviceReport wrongVersion = new DeviceReport(r.kind(), r.workloadId(), 2, "00", r.deviceId(), r.period(), 1,
                t, r.mechanism(), r.epsilon(), r.payload(), null,
                r.protocolVersion());
        DeviceReport wrongEpsilon = new DeviceReport(r.kind(), r.workloadId(), r.workloadVersion(), r.contentHash(),
                r.deviceId(), r.period(), 2, t, r.mechanism(), 0.5, r.payload(), null, r.protocolVersion());
        DeviceReport skewed = reports("dev-json", 1, 3, t + 3_600_000).get(0);
        DeviceReport unknown = new DeviceReport(r.kind(), "nope", 1, "00", r.deviceId(), r.period(), 4, t,
                r.mechanism(), r.epsilon(), r.payload(), null,
                r.protocolVersion());
        DeviceReport badPayload = new DeviceReport(r.kind(), r.workloadId(), r.workloadVersion(), r.contentHash(),
                r.deviceId(), r.period(), 5, t, r.mechanism(), r.epsilon(), new byte[r.payload().length + 3], null,
                r.protocolVersion());
        DeviceReport otherDevice = reports("dev-other", 1, 0, t).get(0);
        DeviceReport otherProtocol = new DeviceReport(r.kind(), r.workloadId(), r.workloadVersion(), r.contentHash(),
                r.deviceId(), r.period(), 6, t, r.mechanism(), r.epsilon(), r.payload(), null, r.protocolVersion() + 98);
        List<DeviceReport> batch = List.of(r, wrongVersion, wrongEpsilon, skewed, unknown, badPayload, otherDevice,
                otherProtocol);
        HttpResponse<byte[]> resp = post(a, ReportEnvelope.toJson(batch).getBytes(StandardCharsets.UTF_8),
                ReportEnvelope.REPORTS_JSON_CONTENT_TYPE, g.credential("dev-json"));
        String body = new String(resp.body(), StandardCharsets.UTF_8);
        assertThat(resp.statusCode()).as(body).isEqualTo(200);
        assertThat(resp.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(body).startsWith("{\"envelopeVersion\":1,\"results\":[{\"status\":\"ACCEPTED\"")
                .contains("\"reason\":\"VERSION_MISMATCH\"", "\"reason\":\"EPSILON_MISMATCH\"",
                        "\"reason\":\"CLOCK_SKEW\"", "\"reason\":\"UNKNOWN_WORKLOAD\"", "\"reason\":\"BAD_PAYLOAD\"",
                        "\"reason\":\"UNAUTHENTICATED\"", "\"reason\":\"PROTOCOL_MISMATCH\"");
        assertThat(onTopic("dev-json", 1)).hasSize(1);
    }

    @Test
    @Order(3)
    void reportsAreKeyedAndCarryTheCredentialAsTheGatewayExpects() throws Exception {
        long t = System.currentTimeMillis();
        Map<String, DeviceReport> sent = new java.util.HashMap<>();
        for (int d = 0; d < 8; d++) {
            String dev = "dev-key-" + d;
            List<DeviceReport> one = reports(dev, 1, 0, t);
            sent.put(dev, one.get(0));
            assertThat(statuses(postBatch(d % 2 == 0 ? a : b, one, g.credential(dev))))
                    .containsExactly(Status.ACCEPTED);
        }
        // the record bytes on the topic are exactly what the Avro serializer writes for the report's Avro record
        // under the registered schema (the service writes them directly, KafkaReports.valueBytes)
        String topic = g.topics().localReports();
        List<org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]>> records =
                io.privacygateway.harness.testing.TopicReader.read(g.kafkaConfig(), topic,
                        r -> r.key() != null && new String(r.key(), StandardCharsets.UTF_8).startsWith("dev-key-"),
                        l -> l.size() >= sent.size(), Duration.ofSeconds(20));
        assertThat(records).hasSize(sent.size());
        try (io.privacygateway.schemas.serde.AvroSerializer<org.apache.avro.specific.SpecificRecord> avro =
                new io.privacygateway.schemas.serde.AvroSerializer<>(g.registryClient, false)) {
            for (var r : records) {
                DeviceReport report = sent.get(new String(r.key(), StandardCharsets.UTF_8));
                assertThat(r.value()).isEqualTo(avro.serialize(topic,
                        io.privacygateway.client.kafka.KafkaReports.record(report)));
            }
        }
        // the gateway rejects WRONG_PARTITION, KEY_MISMATCH and UNAUTHENTICATED on its topic; none of these came
        List<io.privacygateway.schemas.avro.Rejection> rejections = g.readUntil(g.config.rejectionsTopic(),
                io.privacygateway.schemas.avro.Rejection.class, x -> x.getOriginalKey() != null
                        && io.privacygateway.harness.testing.TopicReader.string(io.privacygateway.harness.testing
                        .TopicReader.bytes(x.getOriginalKey())).startsWith("dev-key-"), l -> false,
                Duration.ofSeconds(3));
        assertThat(rejections).isEmpty();
    }

    @Test
    @Order(4)
    void credentialsAreRequiredAndARevokedOneIsRefused() throws Exception {
        long t = System.currentTimeMillis();
        byte[] body = ReportEnvelope.encode(reports("dev-rev", 1, 0, t));
        assertThat(post(a, body, ReportEnvelope.REPORTS_CONTENT_TYPE, null).statusCode()).isEqualTo(401);
        HttpResponse<byte[]> wrong = post(a, body, ReportEnvelope.REPORTS_CONTENT_TYPE, g.credential("someone-else"));
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(new String(wrong.body(), StandardCharsets.UTF_8)).contains("UNAUTHENTICATED");
        assertThat(post(a, body, ReportEnvelope.REPORTS_CONTENT_TYPE, g.credential("dev-rev")).statusCode())
                .isEqualTo(200);
        Files.writeString(revoked, "# revoked devices\ndev-rev\n");
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        HttpResponse<byte[]> r;
        do {
            Thread.sleep(200);
            r = post(a, ReportEnvelope.encode(reports("dev-rev", 1, 1, t)), ReportEnvelope.REPORTS_CONTENT_TYPE,
                    g.credential("dev-rev"));
        } while (r.statusCode() != 403 && System.nanoTime() < end);
        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(new String(r.body(), StandardCharsets.UTF_8)).contains("REVOKED");
        assertThat(a.metrics().refusedCount("REVOKED")).isGreaterThanOrEqualTo(1);
        Files.writeString(revoked, "key:k1\n");
        Thread.sleep(1200);
        assertThat(post(a, body, ReportEnvelope.REPORTS_CONTENT_TYPE, g.credential("dev-any")).statusCode())
                .isEqualTo(403);
        Files.writeString(revoked, "# none\n");
        end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        do {
            Thread.sleep(200);
            r = post(a, body, ReportEnvelope.REPORTS_CONTENT_TYPE, g.credential("dev-rev"));
        } while (r.statusCode() == 403 && System.nanoTime() < end);
        assertThat(r.statusCode()).isEqualTo(200);
    }

    @Test
    @Order(5)
    void hostileBodiesAreRefusedClearlyAndTheServiceKeepsServing() throws Exception {
        long t = System.currentTimeMillis();
        String cred = g.credential("dev-hostile");
        byte[] good = ReportEnvelope.encode(reports("dev-hostile", 2, 0, t));
        // truncated
        HttpResponse<byte[]> r = post(a, Arrays.copyOf(good, good.length - 3), ReportEnvelope.REPORTS_CONTENT_TYPE,
                cred);
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(new String(r.body(), StandardCharsets.UTF_8)).startsWith("MALFORMED: truncated");
        // oversized body
        r = post(a, new byte[ReportEnvelope.MAX_BODY_BYTES + 1], ReportEnvelope.REPORTS_CONTENT_TYPE, cred);
        assertThat(r.statusCode()).isEqualTo(413);
        // wrong JSON types
        String json = ReportEnvelope.toJson(reports("dev-hostile", 1, 0, t)).replace("\"period\":", "\"period\":\"x\",\"p\":");
        r = post(a, json.getBytes(StandardCharsets.UTF_8), ReportEnvelope.REPORTS_JSON_CONTENT_TYPE, cred);
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(new String(r.body(), StandardCharsets.UTF_8)).contains("MALFORMED");
        String wrongType = ReportEnvelope.toJson(reports("dev-hostile", 1, 0, t)).replace("\"sequence\":0",
                "\"sequence\":\"0\"");
        r = post(a, wrongType.getBytes(StandardCharsets.UTF_8), ReportEnvelope.REPORTS_JSON_CONTENT_TYPE, cred);
        assertThat(new String(r.body(), StandardCharsets.UTF_8)).contains("sequence must be an integer");
        // a 1 MB field
        String big = "x".repeat(1_000_000);
        String bigJson = ReportEnvelope.toJson(reports("dev-hostile", 1, 0, t)).replace("\"workloadId\":\"ingest-hist\"",
                "\"workloadId\":\"" + big + "\"");
        r = post(a, bigJson.getBytes(StandardCharsets.UTF_8), ReportEnvelope.REPORTS_JSON_CONTENT_TYPE, cred);
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(new String(r.body(), StandardCharsets.UTF_8)).contains("workloadId is longer than 1024 bytes");
        // 10^5 reports in one batch: a real body of 10^5 copies of the smallest valid report this credential may
        // send (about 10 MB). The client sends its first 64 KiB and then waits for the answer: the refusal must come
        // from what was read so far, not after the service buffered the whole body.
        byte[] smallest = ReportEnvelope.encode(reports("dev-hostile", 1, 0, t));
        assertThat(ReportEnvelope.decode(smallest)).hasSize(1);
        byte[] one = Arrays.copyOfRange(smallest, 2, smallest.length - 1); // without version, count 1 and the end
        ByteArrayOutputStream many = new ByteArrayOutputStream();
        many.write(2);
        long z = 100_000L << 1;
        while ((z & ~0x7F) != 0) {
            many.write((int) ((z & 0x7F) | 0x80));
            z >>>= 7;
        }
        many.write((int) z);
        for (int i = 0; i < 100_000; i++) {
            many.write(one);
        }
        many.write(0);
        byte[] huge = many.toByteArray();
        assertThat(huge.length).isGreaterThan(10 * ReportEnvelope.MAX_BODY_BYTES / 2);
        String head = "POST /v1/reports HTTP/1.1\r\nHost: x\r\nContent-Type: " + ReportEnvelope.REPORTS_CONTENT_TYPE
                + "\r\nAuthorization: Bearer " + cred + "\r\n";
        // with its length declared: refused from the head, naming the size
        String refusal = sendPartly(a, head + "Content-Length: " + huge.length + "\r\n\r\n", huge, false);
        assertThat(refusal).startsWith("HTTP/1.1 413").contains("BODY_TOO_LARGE: body of " + huge.length + " bytes");
        // streamed without a length (chunked): refused from the count in its first bytes
        refusal = sendPartly(a, head + "Transfer-Encoding: chunked\r\n\r\n", huge, true);
        assertThat(refusal).startsWith("HTTP/1.1 413")
                .contains("TOO_MANY_REPORTS: the batch declares 100000 reports, more than 500 in one batch");
        // a body that is not a batch at all, and a wrong content type
        r = post(a, "hello".getBytes(StandardCharsets.UTF_8), ReportEnvelope.REPORTS_JSON_CONTENT_TYPE, cred);
        assertThat(r.statusCode()).isEqualTo(400);
        r = post(a, good, "text/plain", cred);
        assertThat(r.statusCode()).isEqualTo(415);
        // slowloris: a request head that trickles is cut off at the request timeout
        try (Socket s = new Socket("127.0.0.1", a.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write("POST /v1/reports HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            long start = System.nanoTime();
            boolean closed = false;
            while (System.nanoTime() - start < TimeUnit.SECONDS.toNanos(8)) {
                try {
                    out.write("X-a: b\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                } catch (java.io.IOException e) {
                    closed = true;
                    break;
                }
                Thread.sleep(200);
            }
            if (!closed) {
                closed = in.read() < 0;
            }
            assertThat(closed).as("the slow connection was closed").isTrue();
        }
        // a slow body is cut off too, with 408
        try (Socket s = new Socket("127.0.0.1", a.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("POST /v1/reports HTTP/1.1\r\nHost: x\r\nContent-Type: " + ReportEnvelope.REPORTS_CONTENT_TYPE
                    + "\r\nAuthorization: Bearer " + cred + "\r\nContent-Length: " + good.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(good, 0, 3);
            out.flush();
            String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertThat(answer).startsWith("HTTP/1.1 408");
        }
        // and it still serves
        assertThat(statuses(postBatch(a, reports("dev-hostile", 2, 0, t), cred))).containsOnly(Status.ACCEPTED);
        assertThat(a.metrics().refusedCount("MALFORMED")).isGreaterThanOrEqualTo(3);
        assertThat(a.metrics().refusedCount("BODY_TOO_LARGE")).isGreaterThanOrEqualTo(2);
        assertThat(a.metrics().refusedCount("TOO_MANY_REPORTS")).isGreaterThanOrEqualTo(1);
        assertThat(a.metrics().refusedCount("REQUEST_TIMEOUT")).isGreaterThanOrEqualTo(1);
    }

    /**
     * Sends a request head and the first 64 KiB of {@code body} (as one chunk if {@code chunked}), then reads the
     * answer without sending more: the service has to answer from what it has.
     */
    static String sendPartly(IngestService s, String head, byte[] body, boolean chunked) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", s.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            int first = 64 * 1024;
            if (chunked) {
                out.write((Integer.toHexString(first) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            }
            out.write(body, 0, first);
            if (chunked) {
                out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            out.flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        }
    }

    @Test
    @Order(5)
    void http2InTheClearWorksByPriorKnowledgeAndByUpgrade() throws Exception {
        long t = System.currentTimeMillis();
        String cred = g.credential("dev-h2c");
        // by upgrade (HTTP/1.1 Upgrade: h2c), as the JDK client does on http://
        HttpClient h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        HttpResponse<byte[]> doc = h2.send(HttpRequest.newBuilder(a.base().resolve("/v1/workloads/" + spec.id()))
                .GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(doc.statusCode()).isEqualTo(200);
        HttpResponse<byte[]> r = h2.send(HttpRequest.newBuilder(a.base().resolve("/v1/reports"))
                .header("Content-Type", ReportEnvelope.REPORTS_CONTENT_TYPE).header("Authorization", "Bearer " + cred)
                .POST(HttpRequest.BodyPublishers.ofByteArray(ReportEnvelope.encode(reports("dev-h2c", 2, 0, t))))
                .build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(r.statusCode()).as(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo(200);
        assertThat(statuses(ReportEnvelope.decodeResults(r.body()))).containsOnly(Status.ACCEPTED);
        // by prior knowledge (the connection starts with the HTTP/2 preface), as h2load and gRPC-style clients do
        io.vertx.core.Vertx vx = io.vertx.core.Vertx.vertx();
        try {
            io.vertx.core.http.HttpClient pk = vx.createHttpClient(new io.vertx.core.http.HttpClientOptions()
                    .setProtocolVersion(io.vertx.core.http.HttpVersion.HTTP_2).setHttp2ClearTextUpgrade(false));
            byte[] body = ReportEnvelope.encode(reports("dev-h2c", 2, 2, t));
            io.vertx.core.http.HttpClientResponse[] resp = new io.vertx.core.http.HttpClientResponse[1];
            io.vertx.core.buffer.Buffer answer = pk.request(io.vertx.core.http.HttpMethod.POST, a.port(), "127.0.0.1",
                    "/v1/reports").compose(req -> req.putHeader("Content-Type", ReportEnvelope.REPORTS_CONTENT_TYPE)
                    .putHeader("Authorization", "Bearer " + cred).send(io.vertx.core.buffer.Buffer.buffer(body)))
                    .compose(res -> {
                        resp[0] = res;
                        return res.body();
                    }).await(20, TimeUnit.SECONDS);
            assertThat(resp[0].version()).isEqualTo(io.vertx.core.http.HttpVersion.HTTP_2);
            assertThat(resp[0].statusCode()).as(answer.toString()).isEqualTo(200);
            assertThat(statuses(ReportEnvelope.decodeResults(answer.getBytes()))).containsOnly(Status.ACCEPTED);
            // a slow HTTP/2 body is cut off with 408, as on HTTP/1.1 (the stream; the connection stays usable)
            io.vertx.core.Future<io.vertx.core.http.HttpClientResponse> slow = pk.request(
                    io.vertx.core.http.HttpMethod.POST, a.port(), "127.0.0.1", "/v1/reports").compose(req -> {
                        req.putHeader("Content-Type", ReportEnvelope.REPORTS_CONTENT_TYPE)
                                .putHeader("Authorization", "Bearer " + cred)
                                .putHeader("Content-Length", Integer.toString(body.length));
                        req.write(io.vertx.core.buffer.Buffer.buffer(Arrays.copyOf(body, 3)));
                        return req.response();
                    });
            assertThat(slow.await(20, TimeUnit.SECONDS).statusCode()).isEqualTo(408);
        } finally {
            vx.close().await(10, TimeUnit.SECONDS);
        }
        assertThat(onTopic("dev-h2c", 4)).hasSize(4);
    }

    /** The HTTP/2 connection preface a client sends first (RFC 9113, 3.4). */
    static final byte[] H2_PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    /** An empty SETTINGS frame: length 0, type 4, flags 0, stream 0. */
    static final byte[] H2_SETTINGS = {0, 0, 0, 4, 0, 0, 0, 0, 0};
    /** A PING frame: length 8, type 6, flags 0, stream 0, 8 bytes of data. */
    static final byte[] H2_PING = {0, 0, 8, 6, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8};

    /**
     * Writes {@code pieces} one every {@code pauseMillis} (then keeps writing the last one) for up to 8 s and tells
     * whether the service closed the connection meanwhile.
     */
    static boolean closedWhileTrickling(IngestService s, List<byte[]> pieces, long pauseMillis) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", s.port())) {
            socket.setSoTimeout(200);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            byte[] sink = new byte[4096];
            long start = System.nanoTime();
            int i = 0;
            while (System.nanoTime() - start < TimeUnit.SECONDS.toNanos(8)) {
                try {
                    out.write(pieces.get(Math.min(i++, pieces.size() - 1)));
                    out.flush();
                } catch (java.io.IOException e) {
                    return true;
                }
                try {
                    if (in.read(sink) < 0) { // the service's SETTINGS/PING answers are read and dropped
                        return true;
                    }
                } catch (java.net.SocketTimeoutException e) {
                    // nothing to read
                } catch (java.io.IOException e) {
                    return true;
                }
                Thread.sleep(pauseMillis);
            }
            return false;
        }
    }

    @Test
    @Order(5)
    void aSlowHttp2ClientIsCutOffAtTheRequestTimeout() throws Exception {
        double before = a.metrics().refusedCount("REQUEST_TIMEOUT");
        // the preface and SETTINGS trickled a byte at a time (Vert.x reads 24 bytes to choose HTTP/1.1 or HTTP/2 and
        // hands an HTTP/2 connection over after SETTINGS: about 10 s at this pace, longer than the 2 s timeout)
        List<byte[]> bytes = new ArrayList<>();
        for (byte b : H2_PREFACE) {
            bytes.add(new byte[] {b});
        }
        for (byte b : H2_SETTINGS) {
            bytes.add(new byte[] {b});
        }
        bytes.add(H2_PING);
        assertThat(closedWhileTrickling(a, bytes, 300)).as("a trickled HTTP/2 preface was cut off").isTrue();
        // a complete preface, then only PINGs (which keep the idle timer from firing), never a request
        List<byte[]> pings = new ArrayList<>(List.of(H2_PREFACE, H2_SETTINGS));
        pings.add(H2_PING);
        assertThat(closedWhileTrickling(a, pings, 200)).as("an HTTP/2 connection without a request was cut off")
                .isTrue();
        assertThat(a.metrics().refusedCount("REQUEST_TIMEOUT")).isGreaterThanOrEqualTo(before + 2);
        // and it still serves, over HTTP/1.1 and HTTP/2
        long t = System.currentTimeMillis();
        assertThat(statuses(postBatch(a, reports("dev-h2-slow", 1, 0, t), g.credential("dev-h2-slow"))))
                .containsOnly(Status.ACCEPTED);
    }

    @Test
    @Order(6)
    void rateLimitsPerAddressAndPerCredentialAnswer429WithRetryAfter() throws Exception {
        IngestSettings s = g.settings();
        try (IngestService limited = g.start(s.withLimits(s.limits().withRates(new IngestSettings.Rate(1, 2),
                new IngestSettings.Rate(1, 4))))) {
            awaitReadyQuietly(limited);
            long t = System.currentTimeMillis();
            String cred = g.credential("dev-rate");
            // per credential: 4 reports, then refused
            assertThat(postBatch(limited, reports("dev-rate", 3, 0, t), cred)).hasSize(3);
            HttpResponse<byte[]> r = post(limited, ReportEnvelope.encode(reports("dev-rate", 3, 3, t)),
                    ReportEnvelope.REPORTS_CONTENT_TYPE, cred);
            assertThat(r.statusCode()).isEqualTo(429);
            assertThat(r.headers().firstValue("Retry-After")).isPresent();
            assertThat(new String(r.body(), StandardCharsets.UTF_8)).startsWith("RATE_LIMITED_CREDENTIAL");
            // per address: the third request within a second is refused whatever the credential
            r = post(limited, new byte[] {1}, ReportEnvelope.REPORTS_CONTENT_TYPE, cred);
            assertThat(r.statusCode()).isEqualTo(429);
            assertThat(new String(r.body(), StandardCharsets.UTF_8)).startsWith("RATE_LIMITED_ADDRESS");
            assertThat(get(limited, "/v1/workloads", Map.of()).statusCode()).isEqualTo(429); // the same bucket
        }
    }

    static void awaitReadyQuietly(IngestService s) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!(s.ready() && s.metrics() != null) && System.nanoTime() < end) {
            Thread.sleep(50);
        }
        // the catalog: wait without spending rate-limit tokens (ready() means the topic was read to its end)
        assertThat(s.ready()).as(s.readiness()).isTrue();
    }

    @Test
    @Order(7)
    void workloadDocumentsCarryStrongETagsAndCacheHeaders() throws Exception {
        HttpResponse<byte[]> one = get(a, "/v1/workloads/" + spec.id(), Map.of());
        assertThat(one.statusCode()).isEqualTo(200);
        String body = new String(one.body(), StandardCharsets.UTF_8);
        assertThat(body).contains("\"contentHash\":\"" + CanonicalForm.contentHash(spec) + "\"",
                "\"protocolVersion\":" + spec.protocolVersion() + ",", "\"protocol\":\"",
                "\"canonicalFormVersion\":\"" + CanonicalForm.PROTOCOL_VERSION + "\"", "\"canonicalForm\":",
                "\"window\":", "\"period\":");
        String etag = one.headers().firstValue("ETag").orElseThrow();
        assertThat(etag).startsWith("\"").doesNotStartWith("W/");
        assertThat(one.headers().firstValue("Cache-Control")).hasValue(IngestService.WORKLOADS_CACHE_CONTROL);
        HttpResponse<byte[]> again = get(a, "/v1/workloads/" + spec.id(), Map.of("If-None-Match", etag));
        assertThat(again.statusCode()).isEqualTo(304);
        assertThat(again.body()).isEmpty();
        // both instances serve the same document with the same ETag (stateless)
        assertThat(get(b, "/v1/workloads/" + spec.id(), Map.of()).headers().firstValue("ETag")).hasValue(etag);
        HttpResponse<byte[]> all = get(a, "/v1/workloads", Map.of());
        assertThat(all.statusCode()).isEqualTo(200);
        assertThat(new String(all.body(), StandardCharsets.UTF_8)).startsWith("[").contains(spec.id());
        assertThat(get(a, "/v1/workloads/unknown", Map.of()).statusCode()).isEqualTo(404);
        assertThat(get(a, "/health/ready", Map.of()).statusCode()).isEqualTo(200);
        HttpResponse<byte[]> metrics = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + a.opsPort()
                + "/metrics")).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(new String(metrics.body(), StandardCharsets.UTF_8)).contains("pgw_ingest_refused_total",
                "pgw_ingest_reports_total");
    }

    @Test
    @Order(8)
    void theSdkClientOverHttpReachesAPublishedAnswer(@TempDir Path dir) throws Exception {
        long windowStart = nextWindow();
        int devices = 6;
        List<Client> clients = new ArrayList<>();
        try {
            for (int d = 0; d < devices; d++) {
                String id = "sdk-dev-" + d;
                IngestService via = d % 2 == 0 ? a : b; // two instances behind the same topics
                clients.add(Client.create(ClientConfig.builder(id, Files.createDirectories(dir.resolve(id)))
                        .workload(spec).endpoint(via.base().toString(), g.credential(id))
                        .secretRandomness(new SeededRandomBits(d + 1)).build()));
            }
            List<ReportOutcome> outcomes = new ArrayList<>();
            for (Client c : clients) {
                c.ready().get(30, TimeUnit.SECONDS);
                outcomes.add(c.report(spec.id(), "b").get(30, TimeUnit.SECONDS));
            }
            assertThat(outcomes).extracting(ReportOutcome::status).containsOnly(ReportOutcome.Status.ACCEPTED);
        } finally {
            clients.forEach(Client::close);
        }
        List<WindowAnswer> answers = g.readUntil(g.config.answersTopic(), WindowAnswer.class,
                w -> w.getWorkloadId().equals(spec.id()) && w.getWindowStart().toEpochMilli() == windowStart,
                l -> !l.isEmpty(), Duration.ofSeconds(30));
        assertThat(answers).hasSize(1);
        assertThat(answers.get(0).getN()).isEqualTo(devices);
    }

    @Test
    @Order(9)
    void theSameReportsOverHttpAndOverKafkaGiveTheSameAnswer() throws Exception {
        byte[][] payloads = {{0}, {1}, {2}, {0}, {1}, {1}, {2}, {0}};
        var producer = io.privacygateway.client.ReportProducers.avro(g.kafkaConfig(), g.registryClient);
        long kafkaWindow = nextWindow();
        try {
            for (int i = 0; i < payloads.length; i++) { // over Kafka, as a server-side device (KafkaTransport)
                String dev = "eq-kafka-" + i;
                DeviceReport r = withPayload(reports(dev, 1, 0, kafkaWindow + 50).get(0), payloads[i]);
                try (var t = new io.privacygateway.client.kafka.KafkaTransport(producer, g.topics(), g.credential(dev),
                        Duration.ofSeconds(20), false)) {
                    assertThat(statuses(t.send(List.of(r)))).containsExactly(Status.ACCEPTED);
                }
            }
        } finally {
            producer.close();
        }
        long httpWindow = nextWindow();
        for (int i = 0; i < payloads.length; i++) { // the same payloads over HTTPS, half through each instance
            String dev = "eq-http-" + i;
            DeviceReport r = withPayload(reports(dev, 1, 0, httpWindow + 50).get(0), payloads[i]);
            assertThat(statuses(postBatch(i % 2 == 0 ? a : b, List.of(r), g.credential(dev))))
                    .containsExactly(Status.ACCEPTED);
        }
        List<WindowAnswer> answers = g.readUntil(g.config.answersTopic(), WindowAnswer.class,
                w -> w.getWorkloadId().equals(spec.id()) && (w.getWindowStart().toEpochMilli() == kafkaWindow
                        || w.getWindowStart().toEpochMilli() == httpWindow), l -> l.size() >= 2, Duration.ofSeconds(30));
        assertThat(answers).hasSize(2);
        assertThat(answers.get(0).getN()).isEqualTo(payloads.length);
        assertThat(answers.get(1).getN()).isEqualTo(answers.get(0).getN());
        assertThat(answers.get(1).getEstimates()).isEqualTo(answers.get(0).getEstimates());
        assertThat(answers.get(1).getLower()).isEqualTo(answers.get(0).getLower());
    }

    static DeviceReport withPayload(DeviceReport r, byte[] payload) {
        return new DeviceReport(r.kind(), r.workloadId(), r.workloadVersion(), r.contentHash(), r.deviceId(),
                r.period(), r.sequence(), r.eventTime(), r.mechanism(), r.epsilon(), payload, null, r.protocolVersion());
    }

    @Test
    @Order(100)
    void aBrokerOutageGives503sAndEveryAcknowledgedReportReachesAnAnswerAfterTheRestart() throws Exception {
        String cred = g.credential("dev-outage");
        List<DeviceReport> acked = new ArrayList<>();
        long t = System.currentTimeMillis();
        List<DeviceReport> first = reports("dev-outage", 3, 0, t);
        assertThat(statuses(postBatch(a, first, cred))).containsOnly(Status.ACCEPTED);
        acked.addAll(first);
        g.kafka.stop();
        IngestService late = null;
        try {
            late = g.start(g.settings()); // an instance started while Kafka is down becomes ready once it is back
            int seq = 3;
            int refused = 0;
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (refused < 3 && System.nanoTime() < end) {
                List<DeviceReport> batch = reports("dev-outage", 2, seq, System.currentTimeMillis());
                seq += 2;
                HttpResponse<byte[]> r = post(a, ReportEnvelope.encode(batch), ReportEnvelope.REPORTS_CONTENT_TYPE,
                        cred);
                if (r.statusCode() == 503) {
                    refused++;
                    assertThat(r.headers().firstValue("Retry-After")).isPresent();
                } else {
                    assertThat(r.statusCode()).isEqualTo(200);
                    List<Result> rs = ReportEnvelope.decodeResults(r.body());
                    for (int i = 0; i < rs.size(); i++) {
                        if (rs.get(i).status() == Status.ACCEPTED) {
                            acked.add(batch.get(i));
                        }
                    }
                }
            }
            assertThat(refused).isEqualTo(3);
            Thread.sleep(6000); // longer than the late instance's first look for the workloads topic may wait
            assertThat(a.ready()).isFalse();
            assertThat(get(a, "/health/ready", Map.of()).statusCode()).isEqualTo(503);
        } finally {
            g.kafka.restart();
        }
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!a.ready() && System.nanoTime() < end) {
            Thread.sleep(100);
        }
        assertThat(a.ready()).as(a.readiness()).isTrue();
        try (IngestService c = late) {
            awaitReady(c);
            assertThat(statuses(postBatch(c, reports("dev-late", 1, 0, System.currentTimeMillis()),
                    g.credential("dev-late")))).containsExactly(Status.ACCEPTED);
        }
        List<DeviceReport> after = reports("dev-outage", 2, 100, System.currentTimeMillis());
        assertThat(statuses(postBatch(a, after, cred))).containsOnly(Status.ACCEPTED);
        acked.addAll(after);
        List<LocalReport> topic = onTopic("dev-outage", acked.size());
        List<Integer> sequences = topic.stream().map(LocalReport::getSequence).toList();
        for (DeviceReport r : acked) {
            assertThat(sequences).contains(r.sequence());
        }
        // and every acknowledged report reaches an answer once the broker is back (a report whose answer was lost
        // to the outage may have landed too: at least the acknowledged ones are counted)
        java.util.Set<Long> windows = new java.util.TreeSet<>();
        acked.forEach(r -> windows.add(Math.floorDiv(r.eventTime(), 2000L) * 2000));
        List<WindowAnswer> answers = g.readUntil(g.config.answersTopic(), WindowAnswer.class,
                w -> w.getWorkloadId().equals(spec.id()) && windows.contains(w.getWindowStart().toEpochMilli()),
                l -> l.size() >= windows.size(), Duration.ofSeconds(60));
        assertThat(answers).hasSize(windows.size());
        assertThat(answers.stream().mapToLong(WindowAnswer::getN).sum()).isGreaterThanOrEqualTo(acked.size());
    }
}
