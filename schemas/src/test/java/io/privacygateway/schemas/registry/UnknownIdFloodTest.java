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
 * against a real registry: the deserializer refuses them without stalling, the registry sees a
 * bounded, paced number of requests, and a schema version registered during the flood, or just
 * after a listing that did not have it, is never refused as "not in the subject". Time is a fake
 * monotonic clock.
 */
class UnknownIdFloodTest {

    /** The default lookup interval (schema.registry.lookup.interval.ms). */
    static final Duration INTERVAL = Duration.ofSeconds(5);
    /** The default listings per interval (schema.registry.max.id.lookups.per.interval). */
    static final int MAX = 10;

    @RegisterExtension
    static final RealRegistry registry = RealRegistry.perClass();

    /** LocalReport plus an optional field: a compatible next version of the reports' schema. */
    static final Schema LOCAL_REPORT_V2 = withOptionalField("appVersion");

    static Schema withOptionalField(String name) {
        return new Schema.Parser().parse(LocalReport.getClassSchema().toString().replaceFirst("]}$",
                ",{\"name\":\"" + name + "\",\"type\":[\"null\",\"string\"],\"default\":null}]}"));
    }

    static GenericRecord asVersion(Schema schema, LocalReport r) {
        GenericData.Record v = new GenericData.Record(schema);
        for (Schema.Field f : LocalReport.getClassSchema().getFields()) {
            Object value = r.get(f.pos());
            v.put(f.name(), value instanceof java.time.Instant t ? t.toEpochMilli() : value);
        }
        return v;
    }

    static byte[] withId(byte[] value, int id) {
        byte[] copy = value.clone();
        ByteBuffer.wrap(copy).putInt(1, id);
        return copy;
    }

    /** The reason {@code bytes} is refused (never a record of this subject). */
    static WireFormatException.Reason refused(AvroDeserializer<LocalReport> d, String topic, byte[] bytes) {
        WireFormatException e = catchThrowableOfType(WireFormatException.class, () -> d.deserialize(topic, bytes));
        assertThat(e).isNotNull();
        assertThat(e.reason()).as(e.getMessage()).isIn(WireFormatException.Reason.SCHEMA_NOT_IN_SUBJECT,
                WireFormatException.Reason.SCHEMA_NOT_CHECKED);
        return e.reason();
    }

    /**
     * Issue 27, item 12: a version registered within an interval of a listing triggered by an unknown id was refused
     * SCHEMA_NOT_IN_SUBJECT for the rest of the interval (and an attacker could keep listings fresh).
     */
    @Test
    void aVersionRegisteredJustAfterAnUnknownIdListingIsAcceptedAtOnce() {
        String topic = "fresh.reports";
        SchemaRegistryClient writer = SchemaRegistryClient.forUrl(registry.ccompatUrl());
        LocalReport report = SampleRecords.localReport();
        byte[] good = new AvroSerializer<LocalReport>(writer).serialize(topic, report);
        AtomicLong now = new AtomicLong(77_000_000L);
        SchemaRegistryClient reader = new SchemaRegistryClient(SchemaRegistryConfig.of(registry.ccompatUrl()), now::get);
        AvroDeserializer<LocalReport> deserializer = new AvroDeserializer<>(LocalReport.class, reader);
        assertThat(deserializer.deserialize(topic, good)).isEqualTo(report);
        now.addAndGet(Duration.ofMillis(200).toNanos());
        assertThat(refused(deserializer, topic, withId(good, 9_999_999)))
                .isEqualTo(WireFormatException.Reason.SCHEMA_NOT_IN_SUBJECT); // a listing, made for this record
        now.addAndGet(Duration.ofSeconds(1).toNanos());
        byte[] v2 = new AvroSerializer<GenericRecord>(writer).serialize(topic, asVersion(LOCAL_REPORT_V2, report));
        now.addAndGet(Duration.ofSeconds(1).toNanos());
        assertThat(deserializer.deserialize(topic, v2)).as("v2 read as v1").isEqualTo(report);
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
        assertThat(reader.config().maxIdLookupsPerInterval()).isEqualTo(MAX);
        AvroDeserializer<LocalReport> deserializer = new AvroDeserializer<>(LocalReport.class, reader);
        assertThat(deserializer.deserialize(topic, good)).isEqualTo(report);
        long afterFirst = reader.requestCount();

        // 1. 600 distinct ids at one instant: the allowance's listings (one request each), the rest not asked about.
        Map<WireFormatException.Reason, Integer> reasons = new EnumMap<>(WireFormatException.Reason.class);
        for (int i = 0; i < 600; i++) {
            int id = i == 0 ? WireFormat.schemaId(otherTopic) : 1_000_000 + 7919 * i;
            reasons.merge(refused(deserializer, topic, i == 0 ? otherTopic : withId(good, id)), 1, Integer::sum);
        }
        long burst = reader.requestCount() - afterFirst;
        System.out.println("flood at one instant: " + reasons + ", registry requests " + burst);
        assertThat(burst).isLessThanOrEqualTo(MAX);
        assertThat(reasons.get(WireFormatException.Reason.SCHEMA_NOT_IN_SUBJECT)).isEqualTo((int) burst);

        // 2. 600 more distinct ids over 60 s (one every 100 ms): one listing per refill (interval / MAX) at most.
        long beforeSpread = reader.requestCount();
        for (int i = 0; i < 600; i++) {
            now.addAndGet(Duration.ofMillis(100).toNanos());
            refused(deserializer, topic, withId(good, 2_000_000 + 104_729 * i));
        }
        long spread = reader.requestCount() - beforeSpread;
        System.out.println("flood over 60 s: registry requests " + spread);
        assertThat(spread).isLessThanOrEqualTo(60_000 / (INTERVAL.toMillis() / MAX) + MAX);

        // Valid records of the known version never needed the registry.
        assertThat(deserializer.deserialize(topic, good)).isEqualTo(report);
        assertThat(goodId).isPositive();

        // 3. A new version is registered (by a producer) during the flood: never refused as not in the subject; the
        // next listing, whichever unknown id triggers it (here the attacker's), finds it.
        byte[] v2Bytes = new AvroSerializer<GenericRecord>(writer).serialize(topic, asVersion(LOCAL_REPORT_V2, report));
        assertThat(WireFormat.schemaId(v2Bytes)).isNotEqualTo(goodId);
        WireFormatException early = catchThrowableOfType(WireFormatException.class,
                () -> deserializer.deserialize(topic, v2Bytes));
        if (early != null) {
            assertThat(early.reason()).as(early.getMessage()).isEqualTo(WireFormatException.Reason.SCHEMA_NOT_CHECKED);
        }
        now.addAndGet(INTERVAL.toNanos() / MAX);
        refused(deserializer, topic, withId(good, 3_000_001));
        long beforeNew = reader.requestCount();
        assertThat(deserializer.deserialize(topic, v2Bytes)).as("v2 read as v1").isEqualTo(report);
        assertThat(deserializer.deserialize(topic, v2Bytes)).isEqualTo(report);
        assertThat(reader.requestCount() - beforeNew).as("found by the attacker's listing").isZero();
    }
}
