package io.privacygateway.schemas.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.serde.AvroDeserializer;
import io.privacygateway.schemas.testing.CannedRegistry;
import io.privacygateway.schemas.testing.CannedRegistry.Answer;
import io.privacygateway.schemas.testing.SampleRecords;
import io.privacygateway.schemas.wire.WireFormat;
import io.privacygateway.schemas.wire.WireFormatException;
import io.privacygateway.schemas.wire.WireFormatException.Reason;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a registry failure means for a record, through the deserializers (with the subject check,
 * the default for generated classes, and by id, the generic reader's path), against a canned HTTP
 * server: only the registry's own "not found" codes make a record's id unknown; anything else is
 * unavailability, which is never remembered and never a rejection. Time is a fake monotonic clock.
 */
class RegistryFailureClassificationTest {

    static final String TOPIC = "pgw.reports.local";
    static final String SUBJECT = TOPIC + "-value";
    static final int ID = 41;
    /** The default lookup interval, and a step beyond it. */
    static final Duration INTERVAL = Duration.ofSeconds(5);
    static final long PAST_INTERVAL = INTERVAL.plusSeconds(1).toNanos();

    final CannedRegistry server = CannedRegistry.start();
    final AtomicLong now = new AtomicLong(-987_654_321L);   // nanoTime may be negative
    final byte[] value = WireFormat.encode(ID, SampleRecords.localReport());

    @AfterEach
    void stop() {
        server.close();
    }

    SchemaRegistryClient client() {
        return new SchemaRegistryClient(SchemaRegistryConfig.of(server.url()), now::get);
    }

    static WireFormatException failure(Deserializer<?> d, byte[] data) {
        WireFormatException e = catchThrowableOfType(WireFormatException.class, () -> d.deserialize(TOPIC, data));
        assertThat(e).as("a WireFormatException").isNotNull();
        return e;
    }

    static Stream<Answer> registryTrouble() {
        return Stream.of(
                Answer.empty(404),                                                           // bare 404 (wrong path)
                Answer.text(404, "text/html", "<html><body><h1>404 Not Found</h1>nginx</body></html>"),
                Answer.json(404, "{\"message\": \"HTTP 404 Not Found\"}"),                  // JSON, no error code
                Answer.json(404, "{\"error_code\": \"40403\", \"message\": \"not a number\"}"),
                Answer.json(404, "{\"error_code\": 404, \"message\": \"RESTEASY003210: no resource\"}"),
                Answer.json(500, "{\"error_code\": 40403, \"message\": \"a 500 is never not-found\"}"),
                Answer.text(502, "text/html", "<html>Bad Gateway</html>"),
                Answer.json(503, "{\"error_code\": 50003, \"message\": \"Error while forwarding\"}"),
                Answer.json(401, "{\"error_code\": 401, \"message\": \"Unauthorized\"}"),
                Answer.text(200, "text/html", "<html>a login page</html>"));
    }

    @ParameterizedTest
    @MethodSource("registryTrouble")
    void registryTroubleIsUnavailableNeverRememberedAndNeverARejection(Answer trouble) {
        server.fallback(trouble);
        // One client each: a failure pauses a client's lookups for an interval, and each path must ask.
        AvroDeserializer<LocalReport> bySubject = new AvroDeserializer<>(LocalReport.class, client());
        AvroDeserializer<GenericRecord> byId = AvroDeserializer.generic(null, client());
        for (int attempt = 0; attempt < 3; attempt++) {
            for (Deserializer<?> d : List.of(bySubject, byId)) {
                WireFormatException e = failure(d, value);
                assertThat(e.reason()).as("attempt %d: %s", attempt, e.getMessage()).isEqualTo(Reason.REGISTRY_UNAVAILABLE);
                assertThat(e.isRecordFault()).isFalse();
            }
            now.addAndGet(PAST_INTERVAL);   // within the 30 s a "not found" would be remembered
        }
        assertThat(server.paths).as("asked again every time, nothing remembered").hasSize(6);
        server.serve(SUBJECT, ID, LocalReport.getClassSchema());
        assertThat(bySubject.deserialize(TOPIC, value)).isEqualTo(SampleRecords.localReport());
        assertThat(byId.deserialize(TOPIC, value).get("deviceId").toString()).isEqualTo("device-0042");
    }

    @Test
    void onlyTheRegistrysOwnNotFoundCodesMakeAnIdUnknown() {
        server.route("/schemas/ids/" + ID, Answer.json(404, "{\"error_code\": 40403, \"message\": \"Schema not found\"}"))
                .route("/subjects/" + SUBJECT + "/versions",
                        Answer.json(404, "{\"error_code\": 40401, \"message\": \"Subject not found\"}"));
        SchemaRegistryClient client = client();
        WireFormatException bySubject = failure(new AvroDeserializer<>(LocalReport.class, client), value);
        assertThat(bySubject.isRecordFault()).isTrue();
        assertThat(bySubject.reason().name()).isEqualTo("SCHEMA_NOT_IN_SUBJECT");
        WireFormatException byId = failure(AvroDeserializer.generic(null, client), value);
        assertThat(byId.reason()).isEqualTo(Reason.UNKNOWN_SCHEMA_ID);
        assertThat(byId.isRecordFault()).isTrue();
    }

    @Test
    void aHangingRegistryCostsOneRequestTimeoutPerInterval() {
        server.fallback(Answer.json(200, "[1]").delayed(5_000));
        SchemaRegistryClient client = new SchemaRegistryClient(
                SchemaRegistryConfig.of(server.url()).withRequestTimeout(Duration.ofMillis(200)), now::get);
        AvroDeserializer<LocalReport> deserializer = new AvroDeserializer<>(LocalReport.class, client);
        for (int round = 1; round <= 2; round++) {
            for (int i = 0; i < 50; i++) {
                byte[] data = value.clone();
                ByteBuffer.wrap(data).putInt(1, 5_000 + 13 * i + 1_000 * round);
                WireFormatException e = failure(deserializer, data);
                assertThat(e.reason()).as(e.getMessage()).isEqualTo(Reason.REGISTRY_UNAVAILABLE);
            }
            // One request waited (and timed out); the other 49 records were answered at once.
            assertThat(client.requestCount()).as("round %d", round).isEqualTo(round);
            now.addAndGet(PAST_INTERVAL);
        }
    }

    @Test
    void lookupsByIdOfUnknownIdsAreRateLimited() {
        server.fallback(Answer.json(404, "{\"error_code\": 40403, \"message\": \"Schema not found\"}"));
        SchemaRegistryClient client = client();
        AvroDeserializer<GenericRecord> deserializer = AvroDeserializer.generic(null, client);
        int rejected = 0;
        int notAsked = 0;
        for (int i = 0; i < 500; i++) {
            byte[] data = value.clone();
            ByteBuffer.wrap(data).putInt(1, 70_000 + i);
            WireFormatException e = failure(deserializer, data);
            if (e.isRecordFault()) {
                rejected++;
            } else {
                notAsked++;
            }
        }
        System.out.println("500 unknown ids by id: " + rejected + " rejected after asking, " + notAsked
                + " not asked (unavailable), " + client.requestCount() + " requests");
        assertThat(client.requestCount()).isLessThanOrEqualTo(10);
        assertThat(rejected).isEqualTo((int) client.requestCount());
    }
}
