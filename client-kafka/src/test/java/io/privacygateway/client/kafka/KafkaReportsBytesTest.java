package io.privacygateway.client.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.client.DeviceReport;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.serde.AvroDeserializer;
import io.privacygateway.schemas.serde.AvroSerializer;
import io.privacygateway.schemas.testing.RegistryFixture;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link KafkaReports#valueBytes} writes report values without Avro's record objects; its bytes must be exactly the
 * project's Avro serializer's (real registry, real schema ids) for varied reports: short and long strings, non-ASCII
 * and unpaired surrogates, extreme ints and longs (every varint length), negative zero, NaN and infinite ε, empty and
 * long payloads, both record kinds.
 */
class KafkaReportsBytesTest {
    @RegisterExtension
    static final RegistryFixture registry = RegistryFixture.shared();

    static final String[] STRINGS = {"", "a", "grr", "bench-device-17", "x".repeat(63), "y".repeat(64),
        "z".repeat(200), "ü-é-日本-😀", "broken-\uD800-surrogate", "\uDC00", "0123456789abcdef".repeat(4)};
    static final long[] LONGS = {0, 1, -1, 63, 64, -64, -65, 8191, 8192, Integer.MAX_VALUE, Integer.MIN_VALUE,
        Long.MAX_VALUE, Long.MIN_VALUE, 1_764_000_000_000L, -1_764_000_000_000L};
    static final int[] INTS = {0, 1, -1, 63, 64, -65, 1 << 20, Integer.MAX_VALUE, Integer.MIN_VALUE};
    static final double[] DOUBLES = {0.1, 0.0, -0.0, 1e-300, Double.MAX_VALUE, Double.NaN,
        Double.longBitsToDouble(0x7ff8_0000_dead_beefL), Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};

    static List<DeviceReport> reports() {
        SplittableRandom rnd = new SplittableRandom(29);
        List<DeviceReport> out = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            String workload = STRINGS[rnd.nextInt(STRINGS.length)];
            String hash = STRINGS[rnd.nextInt(STRINGS.length)];
            // coordinates as a report can carry them: a non-blank device id, period and sequence >= 0
            ReportCoordinates c = new ReportCoordinates(STRINGS[1 + rnd.nextInt(STRINGS.length - 1)],
                    Math.abs(LONGS[rnd.nextInt(LONGS.length)] % Long.MAX_VALUE),
                    Math.abs(INTS[rnd.nextInt(INTS.length)] % Integer.MAX_VALUE));
            int version = INTS[rnd.nextInt(INTS.length)];
            long time = LONGS[rnd.nextInt(LONGS.length)];
            if (i % 3 == 2) {
                out.add(DeviceReport.central(workload, version, hash, c, time, STRINGS[rnd.nextInt(STRINGS.length)]));
            } else {
                byte[] payload = new byte[new int[] {0, 1, 4, 63, 64, 300}[rnd.nextInt(6)]];
                for (int k = 0; k < payload.length; k++) {
                    payload[k] = (byte) rnd.nextInt(256);
                }
                out.add(DeviceReport.local(workload, version, hash, c, time, STRINGS[rnd.nextInt(STRINGS.length)],
                        DOUBLES[rnd.nextInt(DOUBLES.length)], payload,
                        Math.abs(INTS[rnd.nextInt(INTS.length)] % Integer.MAX_VALUE)));
            }
        }
        return out;
    }

    @Test
    void theBytesAreTheAvroSerializersForEveryKindOfReport() {
        AvroSerializer<SpecificRecord> avro = new AvroSerializer<>(registry.client());
        int localId = registry.client().register("bytes.local-value", LocalReport.getClassSchema());
        int centralId = registry.client().register("bytes.central-value", CentralReport.getClassSchema());
        int locals = 0;
        int centrals = 0;
        for (DeviceReport r : reports()) {
            boolean local = r.kind() == DeviceReport.Kind.LOCAL;
            String topic = local ? "bytes.local" : "bytes.central";
            byte[] expected = avro.serialize(topic, KafkaReports.record(r));
            assertThat(KafkaReports.valueBytes(local ? localId : centralId, r)).as("%s", r).isEqualTo(expected);
            if (local) {
                locals++;
            } else {
                centrals++;
            }
        }
        assertThat(locals).isGreaterThan(100);
        assertThat(centrals).isGreaterThan(100);
    }

    @Test
    void theGatewaysDeserializerReadsThemBackAsTheSameRecord() {
        int localId = registry.client().register("bytes.local-value", LocalReport.getClassSchema());
        DeviceReport r = DeviceReport.local("bench-ingest", 1, "ab".repeat(32), new ReportCoordinates("device-1",
                20_416, 3), 1_764_000_000_000L, "grr", 0.1, new byte[] {2}, 1);
        try (AvroDeserializer<LocalReport> gateway = new AvroDeserializer<>(LocalReport.class, registry.client())) {
            assertThat(gateway.deserialize("bytes.local", KafkaReports.valueBytes(localId, r)))
                    .isEqualTo(KafkaReports.record(r));
        }
    }
}
