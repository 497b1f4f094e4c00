package io.privacygateway.schemas.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.testing.SampleRecords;
import io.privacygateway.schemas.wire.WireFormatException.Reason;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/** The Confluent wire format: golden bytes, header validation, typed failures. No registry. */
class WireFormatTest {

    static final Schema TINY = new Schema.Parser().parse("""
            {"type": "record", "name": "Tiny", "namespace": "io.privacygateway.test",
             "fields": [{"name": "n", "type": "long"}, {"name": "s", "type": "string"}]}""");

    static final Map<Integer, Schema> SCHEMAS = Map.of(
            7, TINY,
            11, LocalReport.getClassSchema(),
            12, WindowAnswer.getClassSchema(),
            13, Rejection.getClassSchema());
    static final WireFormat.SchemaLookup LOOKUP = SCHEMAS::get;

    static <T extends SpecificRecord> T decodeSpecific(byte[] data, Class<T> type) {
        SpecificData model = SpecificData.getForClass(type);
        return WireFormat.decode(data, LOOKUP, model.getSchema(type), model);
    }

    @Test
    void goldenBytesOfATinyRecord() {
        GenericData.Record tiny = new GenericData.Record(TINY);
        tiny.put("n", -3L);
        tiny.put("s", "hi");

        byte[] bytes = WireFormat.encode(7, tiny);

        // magic 00 | id 7 big-endian | n = -3 zigzag 5 | "hi" = length 2 (zigzag 4), 'h', 'i'
        assertThat(HexFormat.of().formatHex(bytes)).isEqualTo("00" + "00000007" + "05" + "04" + "6869");
        GenericData.Record back = WireFormat.decodeGeneric(bytes, LOOKUP);
        assertThat(back.get("n")).isEqualTo(-3L);
        assertThat(back.get("s").toString()).isEqualTo("hi");
    }

    @Test
    void goldenBytesOfALocalReport() {
        LocalReport report = LocalReport.newBuilder()
                .setWorkloadId("w").setWorkloadVersion(1).setContentHash("ab").setDeviceId("d")
                .setPeriod(3).setSequence(0).setEventTime(Instant.ofEpochMilli(1000)).setMechanism("grr")
                .setEpsilon(1.0).setPayload(ByteBuffer.wrap(new byte[] {0x0d, 0x01}))
                .build();

        byte[] bytes = WireFormat.encode(42, report);

        String expected = "00" + "0000002a"  // magic, schema id 42
                + "02" + "77"                // workloadId "w"
                + "02"                       // workloadVersion 1
                + "04" + "6162"              // contentHash "ab"
                + "02" + "64"                // deviceId "d"
                + "06"                       // period 3
                + "00"                       // sequence 0
                + "d00f"                     // eventTime 1000 ms: zigzag 2000 = 0x7d0 as varint
                + "06" + "677272"            // mechanism "grr"
                + "000000000000f03f"         // epsilon 1.0, little-endian IEEE double
                + "04" + "0d01"              // payload: 2 bytes
                + "00";                      // protocolVersion 0 (the default: no version set)
        assertThat(HexFormat.of().formatHex(bytes)).isEqualTo(expected);
        assertThat(WireFormat.schemaId(bytes)).isEqualTo(42);
    }

    @Test
    void everyRecordTypeRoundTripsWithoutARegistry() {
        Map<Integer, Schema> schemas = new java.util.HashMap<>();
        int id = 100;
        for (SpecificRecord record : SampleRecords.all()) {
            schemas.put(++id, record.getSchema());
            byte[] bytes = WireFormat.encode(id, record);
            SpecificData model = SpecificData.getForClass(record.getClass());
            Object back = WireFormat.decode(bytes, schemas::get, record.getSchema(), model);
            assertThat(back).isEqualTo(record);
            assertThat(WireFormat.schemaId(bytes)).isEqualTo(id);
        }
    }

    @Test
    void schemaIdsUseAllFourBytesBigEndian() {
        GenericData.Record tiny = new GenericData.Record(TINY);
        tiny.put("n", 0L);
        tiny.put("s", "");
        byte[] bytes = WireFormat.encode(0x01020304, tiny);
        assertThat(HexFormat.of().formatHex(bytes, 0, 5)).isEqualTo("0001020304");
        assertThat(WireFormat.schemaId(bytes)).isEqualTo(0x01020304);
    }

    @Test
    void nullAndShortValuesAreTooShort() {
        for (String hex : new String[] {"", "00", "0000", "000000", "00000000"}) {
            byte[] data = HexFormat.of().parseHex(hex);
            assertThat(reasonOf(data)).as(hex).isEqualTo(Reason.TOO_SHORT);
        }
        assertThat(reasonOf(null)).isEqualTo(Reason.TOO_SHORT);
    }

    @Test
    void aWrongMagicByteIsBadMagic() {
        byte[] good = WireFormat.encode(11, SampleRecords.localReport());
        for (int magic : new int[] {1, 0x7f, 0x80, 0xff, 'O'}) {
            byte[] bad = good.clone();
            bad[0] = (byte) magic;
            WireFormatException e = catchThrowableOfType(WireFormatException.class,
                    () -> decodeSpecific(bad, LocalReport.class));
            assertThat(e.reason()).isEqualTo(Reason.BAD_MAGIC);
            assertThat(e.isRecordFault()).isTrue();
        }
        // A one-byte value is too short before its magic byte is judged.
        assertThat(reasonOf(new byte[] {1})).isEqualTo(Reason.TOO_SHORT);
    }

    @Test
    void unknownAndNonPositiveSchemaIdsAreUnknown() {
        byte[] good = WireFormat.encode(11, SampleRecords.localReport());
        for (int id : new int[] {0, -1, Integer.MIN_VALUE, 12345, Integer.MAX_VALUE}) {
            byte[] bad = good.clone();
            ByteBuffer.wrap(bad).putInt(1, id);
            WireFormatException e = catchThrowableOfType(WireFormatException.class,
                    () -> decodeSpecific(bad, LocalReport.class));
            assertThat(e.reason()).as("id %d", id).isEqualTo(Reason.UNKNOWN_SCHEMA_ID);
            assertThat(e.schemaId()).isEqualTo(id);
        }
    }

    @Test
    void aFailingLookupIsRegistryUnavailableNotTheRecordsFault() {
        byte[] good = WireFormat.encode(11, SampleRecords.localReport());
        WireFormatException e = catchThrowableOfType(WireFormatException.class,
                () -> WireFormat.decodeGeneric(good, id -> {
                    throw new IllegalStateException("connection refused");
                }));
        assertThat(e.reason()).isEqualTo(Reason.REGISTRY_UNAVAILABLE);
        assertThat(e.isRecordFault()).isFalse();
        assertThat(e).hasMessageContaining("connection refused");
    }

    @Test
    void everyTruncationIsTooShortOrAnAvroDecodeFailure() {
        for (SpecificRecord record : new SpecificRecord[] {SampleRecords.localReport(), SampleRecords.windowAnswer(),
                SampleRecords.rejection()}) {
            int id = SCHEMAS.entrySet().stream().filter(en -> en.getValue().equals(record.getSchema()))
                    .findFirst().orElseThrow().getKey();
            byte[] good = WireFormat.encode(id, record);
            for (int length = 0; length < good.length; length++) {
                byte[] cut = java.util.Arrays.copyOf(good, length);
                Reason expected = length < WireFormat.HEADER_LENGTH ? Reason.TOO_SHORT : Reason.AVRO_DECODE_FAILURE;
                assertThat(reasonOfSpecific(cut, record.getClass())).as("%s cut to %d of %d bytes", record.getSchema().getName(), length,
                        good.length).isEqualTo(expected);
            }
        }
    }

    @Test
    void bytesAfterTheDatumAreTrailingBytes() {
        byte[] good = WireFormat.encode(11, SampleRecords.localReport());
        byte[] longer = java.util.Arrays.copyOf(good, good.length + 1);
        WireFormatException e = catchThrowableOfType(WireFormatException.class,
                () -> decodeSpecific(longer, LocalReport.class));
        assertThat(e.reason()).isEqualTo(Reason.TRAILING_BYTES);
        assertThat(e).hasMessageContaining("1 bytes remain");
    }

    @Test
    void aWriterSchemaOfAnotherRecordIsIncompatible() {
        byte[] report = WireFormat.encode(11, SampleRecords.localReport());
        WireFormatException e = catchThrowableOfType(WireFormatException.class,
                () -> decodeSpecific(report, WindowAnswer.class));
        assertThat(e.reason()).isEqualTo(Reason.INCOMPATIBLE_SCHEMA);
        assertThat(e).hasMessageContaining("LocalReport").hasMessageContaining("WindowAnswer");
    }

    @Test
    void hostileLengthsFailFastWithoutAllocating() {
        // workloadId declares 2^54 bytes, 2^31 - 1 bytes, a negative length: the body has 4 more bytes.
        for (String lengthVarint : new String[] {"8080808080808040", "feffffff0f", "ffffffffffffffff7f"}) {
            byte[] data = HexFormat.of().parseHex("000000000b" + lengthVarint + "00000000");
            WireFormatException e = catchThrowableOfType(WireFormatException.class,
                    () -> decodeSpecific(data, LocalReport.class));
            assertThat(e.reason()).as(lengthVarint).isEqualTo(Reason.AVRO_DECODE_FAILURE);
        }
        // A window answer whose labels array declares 2^30 items in a 3-byte body.
        byte[] answer = WireFormat.encode(12, SampleRecords.windowAnswer());
        int labelsAt = labelsOffset(answer);
        byte[] hostile = java.util.Arrays.copyOf(answer, labelsAt + 5);
        System.arraycopy(HexFormat.of().parseHex("8080808008"), 0, hostile, labelsAt, 5);
        WireFormatException e = catchThrowableOfType(WireFormatException.class,
                () -> decodeSpecific(hostile, WindowAnswer.class));
        assertThat(e.reason()).isEqualTo(Reason.AVRO_DECODE_FAILURE);
        assertThat(e).hasMessageContaining("declares");
    }

    /** LocalReport plus fields a v1 reader skips: bytes, an array of strings. */
    static final Schema LOCAL_REPORT_WITH_EXTRAS = new Schema.Parser().parse(LocalReport.getClassSchema().toString()
            .replaceFirst("]}$", ",{\"name\":\"blob\",\"type\":\"bytes\",\"default\":\"\"},"
                    + "{\"name\":\"tags\",\"type\":{\"type\":\"array\",\"items\":\"string\"},\"default\":[]}]}"));

    /** A newer LocalReport writer: writer-only fields of every kind before, among and after the reader's. */
    static final Schema LOCAL_REPORT_EVOLVED = evolved();

    private static Schema evolved() {
        String extra = "{\"name\":\"%s\",\"type\":%s,\"default\":%s}";
        List<String> fields = new java.util.ArrayList<>();
        fields.add(String.format(extra, "note", "\"string\"", "\"\""));
        for (Schema.Field f : LocalReport.getClassSchema().getFields()) {
            fields.add(String.format("{\"name\":\"%s\",\"type\":%s}", f.name(), f.schema().toString()));
            if (f.name().equals("deviceId")) {
                fields.add(String.format(extra, "blobInside", "\"bytes\"", "\"\""));
            }
        }
        fields.add(String.format(extra, "tags", "{\"type\":\"array\",\"items\":\"string\"}", "[]"));
        fields.add(String.format(extra, "attrs", "{\"type\":\"map\",\"values\":\"bytes\"}", "{}"));
        fields.add(String.format(extra, "maybe", "[\"null\",\"string\"]", "null"));
        return new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"LocalReport\",\"namespace\":"
                + "\"io.privacygateway.schemas.avro\",\"fields\":[" + String.join(",", fields) + "]}");
    }

    @Test
    void writerOnlyFieldsAreSkippedExactlyAsAvroSkipsThem() throws Exception {
        java.util.Random random = new java.util.Random(0x5eed_0006L);
        SpecificData model = SpecificData.getForClass(LocalReport.class);
        for (int i = 0; i < 300; i++) {
            LocalReport base = SampleRecords.randomLocalReport(random);
            GenericData.Record newer = new GenericData.Record(LOCAL_REPORT_EVOLVED);
            for (Schema.Field f : LocalReport.getClassSchema().getFields()) {
                Object v = base.get(f.pos());
                newer.put(f.name(), v instanceof Instant t ? t.toEpochMilli() : v);
            }
            newer.put("note", randomText(random));
            newer.put("blobInside", ByteBuffer.wrap(randomText(random).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            List<String> tags = new java.util.ArrayList<>();
            for (int t = random.nextInt(4); t > 0; t--) {
                tags.add(randomText(random));
            }
            newer.put("tags", tags);
            Map<String, ByteBuffer> attrs = new java.util.HashMap<>();
            for (int a = random.nextInt(3); a > 0; a--) {
                attrs.put(randomText(random), ByteBuffer.wrap(new byte[random.nextInt(200)]));
            }
            newer.put("attrs", attrs);
            newer.put("maybe", random.nextBoolean() ? null : randomText(random));
            byte[] data = WireFormat.encode(31, newer);

            LocalReport bounded = WireFormat.decode(data, id -> LOCAL_REPORT_EVOLVED, LocalReport.getClassSchema(), model);
            org.apache.avro.io.BinaryDecoder avroDecoder = org.apache.avro.io.DecoderFactory.get()
                    .binaryDecoder(data, WireFormat.HEADER_LENGTH, data.length - WireFormat.HEADER_LENGTH, null);
            LocalReport avro = new org.apache.avro.specific.SpecificDatumReader<LocalReport>(LOCAL_REPORT_EVOLVED,
                    LocalReport.getClassSchema(), model).read(null, avroDecoder);
            assertThat(avroDecoder.isEnd()).isTrue();
            assertThat(bounded).as("record %d", i).isEqualTo(avro).isEqualTo(base);
        }
    }

    /** Text of 0 to 299 characters, some outside ASCII, so that length prefixes take one or two bytes. */
    private static String randomText(java.util.Random random) {
        StringBuilder sb = new StringBuilder();
        for (int n = random.nextInt(300); n > 0; n--) {
            sb.append(random.nextInt(10) == 0 ? 'é' : (char) ('a' + random.nextInt(26)));
        }
        return sb.toString();
    }

    /** Avro's zig-zag varint of {@code n}. */
    static String varint(long n) {
        long z = (n << 1) ^ (n >> 63);
        StringBuilder hex = new StringBuilder();
        while ((z & ~0x7FL) != 0) {
            hex.append(String.format("%02x", (z & 0x7F) | 0x80));
            z >>>= 7;
        }
        return hex.append(String.format("%02x", z)).toString();
    }

    @Test
    void declaredLengthsNeverDriveAllocation() {
        java.lang.management.ThreadMXBean bean = java.lang.management.ManagementFactory.getThreadMXBean();
        org.junit.jupiter.api.Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean t
                && t.isThreadAllocatedMemorySupported() && t.isThreadAllocatedMemoryEnabled(),
                "this JVM does not count allocated bytes per thread");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
        long thread = Thread.currentThread().getId();

        // A LocalReport's body up to (not including) its payload; the payload is 2 bytes: length 04, 0d 01, then
        // the protocol version (1 byte).
        byte[] report = WireFormat.encode(11, SampleRecords.localReport());
        String head = HexFormat.of().formatHex(report, 5, report.length - 4);
        String tail = "00000000";   // 4 more bytes: far less than any declared length below
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put("payload bytes of 2^31 - 1", "0000000b" + head + varint(Integer.MAX_VALUE) + tail);
        cases.put("payload bytes of 2^62", "0000000b" + head + varint(1L << 62) + tail);
        // Written with extra fields, read as LocalReport: Avro skips them through the decoder's skip methods.
        String v2 = "00000015" + head + "040d01" + HexFormat.of().formatHex(report, report.length - 1, report.length);
        cases.put("skipped bytes of 2^31 - 1", v2 + varint(Integer.MAX_VALUE) + tail);
        cases.put("skipped array of 2^30 strings", v2 + "00" + varint(1 << 30) + tail);
        cases.put("skipped array block of -1 items in 2^40 bytes", v2 + "00" + varint(-1) + varint(1L << 40) + tail);
        cases.put("skipped string of 2^31 - 1 in the array", v2 + "00" + varint(1) + varint(Integer.MAX_VALUE) + tail);
        Map<Integer, Schema> writers = Map.of(11, LocalReport.getClassSchema(), 21, LOCAL_REPORT_WITH_EXTRAS);
        SpecificData model = SpecificData.getForClass(LocalReport.class);

        for (Map.Entry<String, String> c : cases.entrySet()) {
            byte[] data = HexFormat.of().parseHex("00" + c.getValue());
            int rounds = 50;
            long before = threads.getThreadAllocatedBytes(thread);
            for (int i = 0; i < rounds; i++) {
                WireFormatException e = catchThrowableOfType(WireFormatException.class,
                        () -> WireFormat.decode(data, writers::get, LocalReport.getClassSchema(), model));
                assertThat(e).as(c.getKey()).isNotNull();
                assertThat(e.reason()).as(c.getKey()).isEqualTo(Reason.AVRO_DECODE_FAILURE);
            }
            long perDecode = (threads.getThreadAllocatedBytes(thread) - before) / rounds;
            System.out.printf("hostile %s in a %d-byte value: %d bytes allocated per decode%n", c.getKey(),
                    data.length, perDecode);
            // Exceptions, messages and Avro's resolver cost some kilobytes; a declared length of at
            // least 2^30 taken at its word would cost at least a gigabyte.
            assertThat(perDecode).as(c.getKey()).isLessThan(1L << 20);
        }
    }

    /** Offset of the labels array of an encoded WindowAnswer: re-encode the prefix fields. */
    private static int labelsOffset(byte[] encoded) {
        WindowAnswer a = SampleRecords.windowAnswer();
        WindowAnswer empty = WindowAnswer.newBuilder(a).setLabels(java.util.List.of()).build();
        byte[] withEmpty = WireFormat.encode(12, empty);
        // The two encodings agree up to the labels array's first block count.
        int i = 0;
        while (encoded[i] == withEmpty[i]) {
            i++;
        }
        return i;
    }

    @Test
    void invalidUtf8IsRejectedNotReplaced() {
        GenericData.Record tiny = new GenericData.Record(TINY);
        tiny.put("n", 1L);
        tiny.put("s", "ab");
        byte[] bytes = WireFormat.encode(7, tiny);
        bytes[bytes.length - 1] = (byte) 0xC3;   // a lead byte with no continuation byte
        WireFormatException e = catchThrowableOfType(WireFormatException.class,
                () -> WireFormat.decodeGeneric(bytes, LOOKUP));
        assertThat(e.reason()).isEqualTo(Reason.AVRO_DECODE_FAILURE);
        assertThat(e).hasMessageContaining("UTF-8");
    }

    @Test
    void outOfRangeEnumAndUnionIndexesAreDecodeFailures() {
        byte[] good = WireFormat.encode(13, SampleRecords.rejection());
        // Byte 5 is the reasonCode enum index (BUDGET_EXHAUSTED = 11, zigzag 22 = 0x16).
        assertThat(good[5]).isEqualTo((byte) 0x16);
        byte[] badEnum = good.clone();
        badEnum[5] = 0x7e;   // index 63
        assertThat(reasonOfSpecific(badEnum, Rejection.class)).isEqualTo(Reason.AVRO_DECODE_FAILURE);
        byte[] negativeEnum = good.clone();
        negativeEnum[5] = 0x01;   // index -1
        assertThat(reasonOfSpecific(negativeEnum, Rejection.class)).isEqualTo(Reason.AVRO_DECODE_FAILURE);

        // The union index of workloadId follows reasonCode and the message string.
        int unionAt = 6 + 1 + SampleRecords.rejection().getMessage().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        assertThat(good[unionAt]).isEqualTo((byte) 0x02);   // branch 1: string
        for (byte branch : new byte[] {0x04, 0x06, 0x03, 0x7f}) {
            byte[] badUnion = good.clone();
            badUnion[unionAt] = branch;
            assertThat(reasonOfSpecific(badUnion, Rejection.class)).as("branch byte %02x", branch)
                    .isEqualTo(Reason.AVRO_DECODE_FAILURE);
        }
    }

    @Test
    void encodingAnIncompleteRecordIsAnIllegalArgument() {
        LocalReport report = SampleRecords.localReport();
        report.setDeviceId(null);
        assertThatThrownBy(() -> WireFormat.encode(11, report))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("LocalReport");
    }

    static Reason reasonOf(byte[] data) {
        WireFormatException e = catchThrowableOfType(WireFormatException.class,
                () -> decodeSpecific(data, LocalReport.class));
        assertThat(e).as("expected a WireFormatException").isNotNull();
        return e.reason();
    }

    static Reason reasonOfSpecific(byte[] data, Class<? extends SpecificRecord> type) {
        WireFormatException e = catchThrowableOfType(WireFormatException.class, () -> decodeSpecific(data, type));
        assertThat(e).as("expected a WireFormatException").isNotNull();
        return e.reason();
    }
}
