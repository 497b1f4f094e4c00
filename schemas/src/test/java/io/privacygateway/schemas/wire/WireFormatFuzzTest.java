package io.privacygateway.schemas.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.avro.WorkloadSpecRecord;
import io.privacygateway.schemas.testing.SampleRecords;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/**
 * Seeded fuzzing of the decoder: random bytes and mutated valid values must decode or throw a
 * {@link WireFormatException}, never anything else; whatever the bounded decoder accepts, Avro's
 * own decoder reads to the same value (the bounded decoder is only ever stricter).
 */
class WireFormatFuzzTest {

    static final List<Class<? extends SpecificRecord>> TYPES = List.of(LocalReport.class, CentralReport.class,
            WindowAnswer.class, Rejection.class, WorkloadSpecRecord.class);
    /** Schema id i + 1 is TYPES.get(i). */
    static final WireFormat.SchemaLookup LOOKUP = id -> id >= 1 && id <= TYPES.size()
            ? SpecificData.get().getSchema(TYPES.get(id - 1)) : null;

    /** Decodes as every type; returns how many decodings succeeded. Fails on a foreign exception. */
    static int decodeAsEveryType(byte[] data, Map<WireFormatException.Reason, Integer> reasons) {
        int ok = 0;
        for (Class<? extends SpecificRecord> type : TYPES) {
            SpecificData model = SpecificData.getForClass(type);
            try {
                Object value = WireFormat.decode(data, LOOKUP, model.getSchema(type), model);
                assertThat(value).isInstanceOf(type);
                ok++;
                checkAvroAgrees(data);
            } catch (WireFormatException e) {
                reasons.merge(e.reason(), 1, Integer::sum);
            } catch (Throwable t) {
                fail("decoding " + java.util.HexFormat.of().formatHex(data) + " as " + type.getSimpleName()
                        + " threw " + t, t);
            }
        }
        return ok;
    }

    /** Avro's BinaryDecoder must read the same generic value from a body the bounded decoder accepted. */
    static void checkAvroAgrees(byte[] data) throws IOException {
        int id = WireFormat.schemaId(data);
        Schema writer = LOOKUP.schemaById(id);
        GenericDatumReader<Object> reader = new GenericDatumReader<>(writer, writer, GenericData.get());
        Object ours = WireFormat.decodeBody(data, id, reader);
        BinaryDecoder avro = DecoderFactory.get().binaryDecoder(data, WireFormat.HEADER_LENGTH,
                data.length - WireFormat.HEADER_LENGTH, null);
        Object theirs = reader.read(null, avro);
        assertThat(avro.isEnd()).isTrue();
        assertThat(ours).isEqualTo(theirs);
    }

    @Test
    void randomBytesOnlyEverThrowWireFormatException() {
        Random random = new Random(0x5eed_0001L);
        Map<WireFormatException.Reason, Integer> reasons = new EnumMap<>(WireFormatException.Reason.class);
        int decoded = 0;
        for (int i = 0; i < 4000; i++) {
            byte[] data = new byte[random.nextInt(i % 4 == 0 ? 8 : 120)];
            random.nextBytes(data);
            if (i % 2 == 0 && data.length >= WireFormat.HEADER_LENGTH) {
                // A valid header with a known id, so that the random body reaches the Avro decoder.
                data[0] = 0;
                java.nio.ByteBuffer.wrap(data).putInt(1, 1 + random.nextInt(TYPES.size()));
            }
            decoded += decodeAsEveryType(data, reasons);
        }
        System.out.println("random bytes: " + decoded + " decodings succeeded; failures " + reasons);
        assertThat(reasons).containsKeys(WireFormatException.Reason.TOO_SHORT, WireFormatException.Reason.BAD_MAGIC,
                WireFormatException.Reason.AVRO_DECODE_FAILURE, WireFormatException.Reason.INCOMPATIBLE_SCHEMA);
    }

    @Test
    void mutatedValidValuesOnlyEverThrowWireFormatException() {
        Random random = new Random(0x5eed_0002L);
        List<byte[]> valid = new ArrayList<>();
        for (SpecificRecord r : SampleRecords.all()) {
            valid.add(WireFormat.encode(1 + TYPES.indexOf(r.getClass()), r));
        }
        for (int i = 0; i < 20; i++) {
            valid.add(WireFormat.encode(1, SampleRecords.randomLocalReport(random)));
            valid.add(WireFormat.encode(3, SampleRecords.randomWindowAnswer(random)));
        }
        Map<WireFormatException.Reason, Integer> reasons = new EnumMap<>(WireFormatException.Reason.class);
        int decoded = 0;
        for (int i = 0; i < 4000; i++) {
            byte[] original = valid.get(random.nextInt(valid.size()));
            byte[] data = mutate(original, random);
            decoded += decodeAsEveryType(data, reasons);
        }
        System.out.println("mutations: " + decoded + " decodings succeeded; failures " + reasons);
        assertThat(decoded).isPositive();
        assertThat(reasons).containsKeys(WireFormatException.Reason.AVRO_DECODE_FAILURE,
                WireFormatException.Reason.TRAILING_BYTES);
    }

    private static byte[] mutate(byte[] original, Random random) {
        byte[] data = original.clone();
        switch (random.nextInt(5)) {
            case 0 -> { // flip bits in the body
                for (int k = 1 + random.nextInt(3); k > 0; k--) {
                    int at = WireFormat.HEADER_LENGTH + random.nextInt(data.length - WireFormat.HEADER_LENGTH);
                    data[at] ^= (byte) (1 << random.nextInt(8));
                }
            }
            case 1 -> { // overwrite one body byte with a random one
                int at = WireFormat.HEADER_LENGTH + random.nextInt(data.length - WireFormat.HEADER_LENGTH);
                data[at] = (byte) random.nextInt(256);
            }
            case 2 -> data = java.util.Arrays.copyOf(data, random.nextInt(data.length)); // truncate
            case 3 -> { // append garbage
                byte[] tail = new byte[1 + random.nextInt(8)];
                random.nextBytes(tail);
                data = java.util.Arrays.copyOf(data, data.length + tail.length);
                System.arraycopy(tail, 0, data, original.length, tail.length);
            }
            default -> { // delete a run of body bytes
                int at = WireFormat.HEADER_LENGTH + random.nextInt(data.length - WireFormat.HEADER_LENGTH);
                int n = Math.min(1 + random.nextInt(4), data.length - at);
                byte[] shorter = new byte[data.length - n];
                System.arraycopy(data, 0, shorter, 0, at);
                System.arraycopy(data, at + n, shorter, at, data.length - at - n);
                data = shorter;
            }
        }
        return data;
    }

    @Test
    void randomValidRecordsRoundTripThroughTheBoundedDecoder() throws IOException {
        Random random = new Random(0x5eed_0003L);
        for (int i = 0; i < 300; i++) {
            LocalReport report = SampleRecords.randomLocalReport(random);
            byte[] bytes = WireFormat.encode(1, report);
            assertThat(WireFormat.<LocalReport>decode(bytes, LOOKUP, LocalReport.getClassSchema(),
                    SpecificData.getForClass(LocalReport.class))).isEqualTo(report);
            checkAvroAgrees(bytes);

            WindowAnswer answer = SampleRecords.randomWindowAnswer(random);
            byte[] answerBytes = WireFormat.encode(3, answer);
            assertThat(WireFormat.<WindowAnswer>decode(answerBytes, LOOKUP, WindowAnswer.getClassSchema(),
                    SpecificData.getForClass(WindowAnswer.class))).isEqualTo(answer);
            checkAvroAgrees(answerBytes);
        }
    }
}
