package io.privacygateway.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.fail;

import io.privacygateway.schemas.ProjectTopic;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.avro.WorkloadSpecRecord;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.registry.SchemaRegistryConfig;
import io.privacygateway.schemas.testing.SampleRecords;
import io.privacygateway.schemas.wire.WireFormat;
import io.privacygateway.schemas.wire.WireFormatException;
import io.privacygateway.schemas.wire.WireFormatException.Reason;
import io.privacygateway.schemas.testing.RegistryFixture;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Every record type through AvroSerializer → bytes → AvroDeserializer, against a real registry. */
class AvroSerdeRoundTripTest {

    @RegisterExtension
    static final RegistryFixture registry = RegistryFixture.perClass();

    static String topicOf(SpecificRecord record, String suffix) {
        for (ProjectTopic t : ProjectTopic.values()) {
            if (t.valueType() == record.getClass()) {
                return t.defaultName() + suffix;
            }
        }
        throw new IllegalArgumentException(record.getClass().getName());
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    @Test
    void everyRecordTypeRoundTripsThroughTheSerdes() {
        for (SpecificRecord record : SampleRecords.all()) {
            String topic = topicOf(record, ".roundtrip");
            AvroSerde serde = AvroSerdes.specific((Class) record.getClass(), registry.client());

            byte[] bytes = serde.serializer().serialize(topic, record);

            assertThat(bytes[0]).isEqualTo(WireFormat.MAGIC_BYTE);
            int id = WireFormat.schemaId(bytes);
            assertThat(registry.client().latest(topic + "-value").id()).isEqualTo(id);
            Object back = serde.deserializer().deserialize(topic, bytes);
            assertThat(back).isInstanceOf(record.getClass()).isEqualTo(record);
        }
    }

    @Test
    void serdesConfiguredFromAKafkaConfigMap() {
        Map<String, Object> configs = Map.of(
                SchemaRegistryConfig.URL, registry.ccompatUrl(),
                AvroSerdeConfig.SPECIFIC_AVRO_VALUE_TYPE, LocalReport.class.getName());
        try (AvroSerializer<LocalReport> serializer = new AvroSerializer<>();
                AvroDeserializer<LocalReport> deserializer = new AvroDeserializer<>()) {
            serializer.configure(configs, false);
            deserializer.configure(configs, false);
            LocalReport report = SampleRecords.localReport();
            byte[] bytes = serializer.serialize("pgw.reports.local.configured", report);
            assertThat(deserializer.deserialize("pgw.reports.local.configured", bytes)).isEqualTo(report);
            assertThat(deserializer.specificType()).isEqualTo(LocalReport.class);
        }
        AvroSerde<CentralReport> serde = AvroSerdes.specific(CentralReport.class, Map.of(
                SchemaRegistryConfig.URL, registry.ccompatUrl()));
        CentralReport report = SampleRecords.centralReport();
        assertThat(serde.deserializer().deserialize("t", serde.serializer().serialize("t", report))).isEqualTo(report);
        serde.close();
    }

    @Test
    void nullIsATombstoneBothWays() {
        AvroSerde<WorkloadSpecRecord> serde = AvroSerdes.specific(WorkloadSpecRecord.class, registry.client());
        assertThat(serde.serializer().serialize("pgw.workloads", null)).isNull();
        assertThat(serde.deserializer().deserialize("pgw.workloads", null)).isNull();
    }

    @Test
    void withoutAutoRegisterAnUnregisteredSchemaFailsAndARegisteredOneWorks() {
        String topic = "pgw.rejections.noauto";
        AvroSerializer<Rejection> serializer = new AvroSerializer<>(SchemaRegistryClient.forUrl(registry.ccompatUrl()),
                false);
        SerializationException e = catchThrowableOfType(SerializationException.class,
                () -> serializer.serialize(topic, SampleRecords.rejection()));
        assertThat(e).hasMessageContaining("look up").hasMessageContaining(topic + "-value").hasMessageContaining("404");

        int id = registry.client().register(topic + "-value", Rejection.getClassSchema());
        byte[] bytes = serializer.serialize(topic, SampleRecords.rejection());
        assertThat(WireFormat.schemaId(bytes)).isEqualTo(id);
        assertThat(registry.client().versions(topic + "-value")).containsExactly(1);
    }

    @Test
    void keySerializersUseTheKeySubject() {
        AvroSerializer<WorkloadSpecRecord> serializer = new AvroSerializer<>(registry.client());
        serializer.configure(Map.of(), true);
        serializer.serialize("pgw.keys", SampleRecords.workloadSpecRecord());
        assertThat(registry.client().subjects()).contains("pgw.keys-key");
    }

    @Test
    void steadyStateSerializationAndDeserializationMakeNoHttpRequests() {
        String topic = "pgw.answers.cache";
        SchemaRegistryClient writerClient = SchemaRegistryClient.forUrl(registry.ccompatUrl());
        SchemaRegistryClient readerClient = SchemaRegistryClient.forUrl(registry.ccompatUrl());
        AvroSerializer<WindowAnswer> serializer = new AvroSerializer<>(writerClient);
        AvroDeserializer<WindowAnswer> deserializer = new AvroDeserializer<>(WindowAnswer.class, readerClient);
        Random random = new Random(7);

        WindowAnswer first = SampleRecords.randomWindowAnswer(random);
        byte[] firstBytes = serializer.serialize(topic, first);
        assertThat(writerClient.requestCount()).as("one registration").isEqualTo(1);
        assertThat(deserializer.deserialize(topic, firstBytes)).isEqualTo(first);
        assertThat(readerClient.requestCount()).as("the subject's versions, then version 1").isEqualTo(2);

        for (int i = 0; i < 1000; i++) {
            WindowAnswer answer = SampleRecords.randomWindowAnswer(random);
            assertThat(deserializer.deserialize(topic, serializer.serialize(topic, answer))).isEqualTo(answer);
        }
        assertThat(writerClient.requestCount()).isEqualTo(1);
        assertThat(readerClient.requestCount()).isEqualTo(2);

        // Without the subject check: one fetch by id.
        SchemaRegistryClient byIdClient = SchemaRegistryClient.forUrl(registry.ccompatUrl());
        AvroDeserializer<WindowAnswer> byId = new AvroDeserializer<>(WindowAnswer.class, byIdClient).subjectCheck(false);
        for (int i = 0; i < 100; i++) {
            WindowAnswer answer = SampleRecords.randomWindowAnswer(random);
            assertThat(byId.deserialize(topic, serializer.serialize(topic, answer))).isEqualTo(answer);
        }
        assertThat(byIdClient.requestCount()).isEqualTo(1);
    }

    @Test
    void deserializerFailuresAreTypedWithTheRightReason() {
        String topic = "pgw.reports.local.bad";
        AvroDeserializer<LocalReport> deserializer = new AvroDeserializer<>(LocalReport.class,
                SchemaRegistryClient.forUrl(registry.ccompatUrl()));
        byte[] good = new AvroSerializer<LocalReport>(registry.client()).serialize(topic, SampleRecords.localReport());

        assertThat(reason(deserializer, topic, new byte[0])).isEqualTo(Reason.TOO_SHORT);
        assertThat(reason(deserializer, topic, new byte[] {0})).isEqualTo(Reason.TOO_SHORT);
        byte[] magic = good.clone();
        magic[0] = 1;
        assertThat(reason(deserializer, topic, magic)).isEqualTo(Reason.BAD_MAGIC);
        byte[] unknown = good.clone();
        ByteBuffer.wrap(unknown).putInt(1, 999_999);
        assertThat(reason(deserializer, topic, unknown)).isEqualTo(Reason.SCHEMA_NOT_IN_SUBJECT);
        ByteBuffer.wrap(unknown).putInt(1, 0);
        assertThat(reason(deserializer, topic, unknown)).isEqualTo(Reason.UNKNOWN_SCHEMA_ID);
        assertThat(reason(deserializer, topic, java.util.Arrays.copyOf(good, good.length - 1)))
                .isEqualTo(Reason.AVRO_DECODE_FAILURE);
        assertThat(reason(deserializer, topic, java.util.Arrays.copyOf(good, good.length + 3)))
                .isEqualTo(Reason.TRAILING_BYTES);

        // A record of another topic: its id is real but not under this topic's subject.
        byte[] answer = new AvroSerializer<WindowAnswer>(registry.client()).serialize("pgw.answers.bad", SampleRecords.windowAnswer());
        assertThat(reason(deserializer, topic, answer)).isEqualTo(Reason.SCHEMA_NOT_IN_SUBJECT);
        // The same schema registered under this subject too (the registry's level allows it): incompatible.
        registry.client().register(topic + "-value", WindowAnswer.getClassSchema());
        AvroDeserializer<LocalReport> fresh = new AvroDeserializer<>(LocalReport.class,
                SchemaRegistryClient.forUrl(registry.ccompatUrl()));
        assertThat(reason(fresh, topic, answer)).isEqualTo(Reason.INCOMPATIBLE_SCHEMA);
        assertThat(reason(fresh, topic, answer)).as("remembered, same answer").isEqualTo(Reason.INCOMPATIBLE_SCHEMA);

        // Without the subject check, ids are looked up by id.
        AvroDeserializer<LocalReport> byId = new AvroDeserializer<>(LocalReport.class,
                SchemaRegistryClient.forUrl(registry.ccompatUrl())).subjectCheck(false);
        ByteBuffer.wrap(unknown).putInt(1, 999_999);
        assertThat(reason(byId, topic, unknown)).isEqualTo(Reason.UNKNOWN_SCHEMA_ID);
        assertThat(reason(byId, "pgw.answers.bad", answer)).isEqualTo(Reason.INCOMPATIBLE_SCHEMA);
    }

    @Test
    void garbageWithUnknownIdsCostsABoundedNumberOfRegistryRequests() {
        SchemaRegistryClient fresh = new SchemaRegistryClient(SchemaRegistryConfig.of(registry.ccompatUrl()),
                () -> 42L); // one instant
        AvroDeserializer<LocalReport> deserializer = new AvroDeserializer<>(LocalReport.class, fresh);
        byte[] garbage = {0, 0, 0x7f, 0x12, 0x34, 1, 2, 3};
        java.util.Map<Reason, Integer> reasons = new java.util.EnumMap<>(Reason.class);
        for (int i = 0; i < 200; i++) {
            ByteBuffer.wrap(garbage).putInt(1, 0x7f1234 + i);
            reasons.merge(reason(deserializer, "pgw.garbage", garbage), 1, Integer::sum);
        }
        int max = fresh.config().maxIdLookupsPerInterval();
        assertThat(reasons).containsExactlyInAnyOrderEntriesOf(java.util.Map.of(Reason.SCHEMA_NOT_IN_SUBJECT, max,
                Reason.SCHEMA_NOT_CHECKED, 200 - max));
        assertThat(fresh.requestCount()).as("one listing (of a subject that does not exist) per id asked about")
                .isEqualTo(max);

        // By id, one id: remembered as unknown for the TTL.
        SchemaRegistryClient byIdClient = SchemaRegistryClient.forUrl(registry.ccompatUrl());
        AvroDeserializer<LocalReport> byId = new AvroDeserializer<>(LocalReport.class, byIdClient).subjectCheck(false);
        for (int i = 0; i < 200; i++) {
            assertThat(reason(byId, "pgw.garbage", garbage)).isEqualTo(Reason.UNKNOWN_SCHEMA_ID);
        }
        assertThat(byIdClient.requestCount()).isEqualTo(1);
    }

    @Test
    void registryTroubleIsNotTheRecordsFault() throws Exception {
        byte[] good = new AvroSerializer<LocalReport>(registry.client()).serialize("pgw.reports.local.trouble",
                SampleRecords.localReport());
        int deadPort;
        try (ServerSocket s = new ServerSocket(0)) {
            deadPort = s.getLocalPort();
        }
        for (String url : List.of("http://127.0.0.1:" + deadPort, registry.baseUrl() + "/wrong/path")) {
            AvroDeserializer<LocalReport> deserializer = new AvroDeserializer<>(LocalReport.class,
                    SchemaRegistryClient.fromConfigs(Map.of(SchemaRegistryConfig.URL, url,
                            SchemaRegistryConfig.CONNECT_TIMEOUT_MS, 2000)));
            WireFormatException e = catchThrowableOfType(WireFormatException.class,
                    () -> deserializer.deserialize("t", good));
            assertThat(e.reason()).as(url).isEqualTo(Reason.REGISTRY_UNAVAILABLE);
            assertThat(e.isRecordFault()).isFalse();
        }
    }

    @Test
    void randomGarbageThroughTheDeserializerOnlyThrowsWireFormatException() {
        // Real ids of every project schema, so random bodies reach the Avro decoder.
        int[] ids = SampleRecords.all().stream()
                .mapToInt(r -> registry.client().register(topicOf(r, ".fuzz") + "-value", r.getSchema())).toArray();
        // By id, so that bodies written with every schema reach the decoder.
        AvroDeserializer<WindowAnswer> deserializer = new AvroDeserializer<>(WindowAnswer.class, registry.client())
                .subjectCheck(false);
        Random random = new Random(0x5eed_0004L);
        Map<Reason, Integer> reasons = new EnumMap<>(Reason.class);
        for (int i = 0; i < 2000; i++) {
            byte[] data = new byte[random.nextInt(64)];
            random.nextBytes(data);
            if (i % 3 != 0 && data.length >= 5) {
                data[0] = 0;
                ByteBuffer.wrap(data).putInt(1, ids[random.nextInt(ids.length)]);
            }
            try {
                deserializer.deserialize("pgw.answers", data);
            } catch (WireFormatException e) {
                reasons.merge(e.reason(), 1, Integer::sum);
            } catch (Throwable t) {
                fail("deserializing " + java.util.HexFormat.of().formatHex(data) + " threw " + t, t);
            }
        }
        System.out.println("deserializer garbage: " + reasons);
        assertThat(reasons.keySet()).doesNotContain(Reason.REGISTRY_UNAVAILABLE);
    }

    static Reason reason(AvroDeserializer<?> deserializer, String topic, byte[] data) {
        WireFormatException e = catchThrowableOfType(WireFormatException.class,
                () -> deserializer.deserialize(topic, data));
        assertThat(e).as("a WireFormatException").isNotNull();
        return e.reason();
    }
}
