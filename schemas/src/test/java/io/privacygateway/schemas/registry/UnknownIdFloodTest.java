package io.privacygateway.schemas.registry;

import io.privacygateway.harness.testing.RealRegistry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.serde.AvroDeserializer;
import io.privacygateway.schemas.serde.AvroSerializer;
import io.privacygateway.schemas.testing.SampleRecords;
import io.privacygateway.schemas.wire.WireFormat;
import io.privacygateway.schemas.wire.WireFormatException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A flood of records with distinct schema ids that are not registered under the topic's subject,
 * against a real registry: the deserializer rejects them as the record's fault, the registry
 * sees a bounded number of requests, and a schema version registered during the flood is
 * accepted once the subject's list is fetched again. Time is a fake monotonic clock.
 */
class UnknownIdFloodTest {

    /** The default lookup interval (schema.registry.lookup.interval.ms). */
    static final Duration INTERVAL = Duration.ofSeconds(5);

    @RegisterExtension
    static final RealRegistry registry = RealRegistry.perClass();

    /** LocalReport plus an optional field: a compatible next version of the reports' schema. */
    static final Schema LOCAL_REPORT_V2 = new Schema.Parser().parse(LocalReport.getClassSchema().toString()
            .replaceFirst("]}$", ",{\"name\":\"appVersion\",\"type\":[\"null\",\"string\"],\"default\":null}]}"));

    static GenericRecord asV2(LocalReport r) {
        GenericData.Record v2 = new GenericData.Record(LOCAL_REPORT_V2);
        for (Schema.Field f : LocalReport.getClassSchema().getFields()) {
            Object value = r.get(f.pos());
            v2.put(f.name(), value instanceof java.time.Instant t ? t.toEpochMilli() : value);
        }
        v2.put("appVersion", "2.0.1");
        return v2;
    }

    static byte[] withId(byte[] value, int id) {
        byte[] copy = value.clone();
        ByteBuffer.wrap(copy).putInt(1, id);
        return copy;
    }

    @Test
    void distinctUnknownIdsCostABoundedNumberOfRequestsAndANewVersionIsStillAccepted() {
        String topic = "flood.reports";
        SchemaRegistryClient writer = SchemaRegistryClient.forUrl(registry.ccompatUrl());
        LocalReport report = SampleRecords.localReport();
        byte[] good = new AvroSerializer<LocalReport>(writer).serialize(topic, report);
        // A schema registered under another subject: its id is real, but not one of this topic's.
        byte[] otherTopic = new AvroSerializer<WindowAnswer>(writer).serialize("flood.answers",
                SampleRecords.windowAnswer());
        int goodId = WireFormat.schemaId(good);

        AtomicLong now = new AtomicLong(123_456_789L);
        SchemaRegistryClient reader = new SchemaRegistryClient(SchemaRegistryConfig.of(registry.ccompatUrl()), now::get);
        AvroDeserializer<LocalReport> deserializer = new AvroDeserializer<>(LocalReport.class, reader);
        assertThat(deserializer.deserialize(topic, good)).isEqualTo(report);
        long afterFirst = reader.requestCount();

        // 1. 600 distinct ids at one instant: no request at all (the subject was just listed).
        Map<WireFormatException.Reason, Integer> reasons = new EnumMap<>(WireFormatException.Reason.class);
        for (int i = 0; i < 600; i++) {
            int id = i == 0 ? WireFormat.schemaId(otherTopic) : 1_000_000 + 7919 * i;
            byte[] bad = i == 0 ? otherTopic : withId(good, id);
            WireFormatException e = catchThrowableOfType(WireFormatException.class,
                    () -> deserializer.deserialize(topic, bad));
            assertThat(e).as("id %d", id).isNotNull();
            assertThat(e.isRecordFault()).as("id %d: %s", id, e.getMessage()).isTrue();
            reasons.merge(e.reason(), 1, Integer::sum);
        }
        long burst = reader.requestCount() - afterFirst;
        System.out.println("flood at one instant: " + reasons + ", registry requests " + burst);
        assertThat(burst).isLessThanOrEqualTo(1);

        // 2. 600 more distinct ids over 60 s (one every 100 ms): one listing per 5 s interval at most.
        long beforeSpread = reader.requestCount();
        for (int i = 0; i < 600; i++) {
            now.addAndGet(Duration.ofMillis(100).toNanos());
            byte[] bad = withId(good, 2_000_000 + 104_729 * i);
            WireFormatException e = catchThrowableOfType(WireFormatException.class,
                    () -> deserializer.deserialize(topic, bad));
            assertThat(e.isRecordFault()).as(e.getMessage()).isTrue();
        }
        long spread = reader.requestCount() - beforeSpread;
        System.out.println("flood over 60 s: registry requests " + spread);
        assertThat(spread).isLessThanOrEqualTo(60_000 / INTERVAL.toMillis() + 1);

        // Valid records of the known version never needed the registry.
        assertThat(deserializer.deserialize(topic, good)).isEqualTo(report);
        assertThat(goodId).isPositive();

        // 3. A new version is registered (by a producer) during the flood.
        byte[] v2Bytes = new AvroSerializer<GenericRecord>(writer).serialize(topic, asV2(report));
        assertThat(WireFormat.schemaId(v2Bytes)).isNotEqualTo(goodId);
        // Documented bound: within one interval of the last listing an id outside it is rejected...
        WireFormatException early = catchThrowableOfType(WireFormatException.class,
                () -> deserializer.deserialize(topic, v2Bytes));
        assertThat(early).isNotNull();
        assertThat(early.isRecordFault()).isTrue();
        // ...and once an interval has passed, the next unknown id lists the subject again and finds it.
        now.addAndGet(INTERVAL.toNanos());
        long beforeNew = reader.requestCount();
        assertThat(deserializer.deserialize(topic, v2Bytes)).as("v2 read as v1").isEqualTo(report);
        assertThat(reader.requestCount() - beforeNew).as("list + the new version").isEqualTo(2);
        assertThat(deserializer.deserialize(topic, v2Bytes)).isEqualTo(report);
        assertThat(reader.requestCount() - beforeNew).isEqualTo(2);
    }
}
