package io.privacygateway.app.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.privacygateway.harness.KafkaHarness;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.wire.WireFormat;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * The answers reader on a real broker (in-JVM KRaft): bad records on the answers topic are skipped and
 * counted by reason, and the answers after them still reach the dashboard. Before this was fixed, the reader
 * thread died on the first record it could not deserialize and the board stayed frozen. The schema registry
 * here is a stand-in that serves one schema id, refuses another as unknown, and is unavailable for its first
 * two requests, so the reader must read that record again rather than drop it.
 */
class DashboardAnswerBoardTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOPIC = "answers";

    @Test
    void badRecordsAreSkippedAndCountedAndTheAnswersAfterThemArrive() throws Exception {
        List<WindowAnswer> good = new RealAnswers(3).window(0, 300);
        AtomicInteger schemaRequests = new AtomicInteger();
        HttpServer registry = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        registry.createContext("/schemas/ids/7", ex -> {
            if (schemaRequests.incrementAndGet() <= 2) {
                reply(ex, 503, "{\"error_code\":50301,\"message\":\"warming up\"}");
            } else {
                reply(ex, 200, JSON.createObjectNode().put("schema", WindowAnswer.getClassSchema().toString()).toString());
            }
        });
        // the reader accepts only ids registered under the topic's subject: one version, id 7
        registry.createContext("/subjects/" + TOPIC + "-value/versions", ex -> {
            if (ex.getRequestURI().getPath().endsWith("/versions")) {
                if (schemaRequests.incrementAndGet() <= 2) {
                    reply(ex, 503, "{\"error_code\":50301,\"message\":\"warming up\"}");
                } else {
                    reply(ex, 200, "[1]");
                }
            } else {
                reply(ex, 200, JSON.createObjectNode().put("subject", TOPIC + "-value").put("version", 1).put("id", 7)
                        .put("schema", WindowAnswer.getClassSchema().toString()).toString());
            }
        });
        registry.createContext("/schemas/ids/99", ex -> reply(ex, 404, "{\"error_code\":40403,\"message\":\"Schema not found\"}"));
        registry.start();
        AnswerHistory history = new AnswerHistory(10, Clock.systemUTC());
        AtomicInteger heard = new AtomicInteger();
        try (KafkaHarness kafka = KafkaHarness.start(KafkaHarness.Mode.EMBEDDED)) {
            kafka.createTopic(TOPIC, 1, false);
            try (KafkaProducer<String, byte[]> p = new KafkaProducer<>(kafka.clientConfig(), new StringSerializer(),
                    new ByteArraySerializer())) {
                p.send(new ProducerRecord<>(TOPIC, "a", "not an answer".getBytes(StandardCharsets.UTF_8))).get();
                p.send(new ProducerRecord<>(TOPIC, "b", WireFormat.encode(99, good.get(0)))).get();
                p.send(new ProducerRecord<>(TOPIC, "c", null)).get(); // a tombstone: ignored, not counted
                p.send(new ProducerRecord<>(TOPIC, "d", WireFormat.encode(7, good.get(0)))).get();
                p.send(new ProducerRecord<>(TOPIC, "e", WireFormat.encode(7, good.get(1)))).get();
            }
            SchemaRegistryClient client = SchemaRegistryClient.forUrl("http://127.0.0.1:" + registry.getAddress().getPort());
            try (AnswerBoard board = new AnswerBoard(kafka.bootstrapServers(), Map.of(), client, TOPIC, history, a -> {
                if (heard.incrementAndGet() == 1) {
                    throw new IllegalStateException("a listener that fails must not stop the reader");
                }
            })) {
                long deadline = System.nanoTime() + 60_000_000_000L;
                while (System.nanoTime() < deadline && history.snapshot().answers() < 2) {
                    Thread.sleep(100);
                }
                AnswerHistory.Snapshot snap = history.snapshot();
                assertThat(snap.answers()).as("answers after the bad records").isEqualTo(2);
                assertThat(snap.workloads()).extracting(AnswerHistory.WorkloadHistory::workloadId)
                        .containsExactlyInAnyOrder(good.get(0).getWorkloadId(), good.get(1).getWorkloadId());
                assertThat(snap.skipped()).containsExactlyInAnyOrderEntriesOf(Map.of("BAD_MAGIC", 1L, "SCHEMA_NOT_IN_SUBJECT", 1L));
                assertThat(schemaRequests.get()).as("the unavailable registry was asked again").isGreaterThanOrEqualTo(3);
                assertThat(heard.get()).isEqualTo(2);
                assertThat(board.isRunning()).isTrue();
            }
        } finally {
            registry.stop(0);
        }
    }

    private static void reply(HttpExchange ex, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/vnd.schemaregistry.v1+json");
        ex.sendResponseHeaders(status, b.length);
        ex.getResponseBody().write(b);
        ex.close();
    }
}
