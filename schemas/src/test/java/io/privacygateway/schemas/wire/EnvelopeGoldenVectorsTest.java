package io.privacygateway.schemas.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.privacygateway.schemas.ProjectTopic;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.identity.DeviceCredential;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/**
 * The JSON golden vectors of the report envelope ({@code docs/test-vectors/envelope.json}, docs/wire-format.md §17):
 * each case's fields are encoded with the production Avro classes and {@link WireFormat} and must give
 * {@code avroHex} and {@code framedHex}; the bytes are also re-derived by an independent encoder written from the
 * specification (zig-zag varints, length-prefixed strings, little-endian doubles), and decoded back. With
 * {@code -Dgolden.write=true}, {@link #generate} rewrites the file from the definitions below.
 */
class EnvelopeGoldenVectorsTest {
    static final Path FILE = Path.of("..", "docs", "test-vectors", "envelope.json");
    static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    static final HexFormat HEX = HexFormat.of();
    /** A 32-byte enrollment key 00 01 … 1f, for the credential header of one case. */
    static final byte[] KEY = new byte[32];

    static {
        for (int i = 0; i < KEY.length; i++) {
            KEY[i] = (byte) i;
        }
    }

    @Test
    void everyVectorIsReproduced() throws IOException {
        JsonNode doc = MAPPER.readTree(Files.readString(FILE));
        int n = 0;
        for (JsonNode c : doc.get("cases")) {
            String what = c.get("name").asText();
            SpecificRecord record = record(c.get("record").asText(), c.get("fields"));
            int id = c.get("schemaId").asInt();
            byte[] framed = WireFormat.encode(id, record);
            assertThat(HEX.formatHex(framed)).as(what).isEqualTo(c.get("framedHex").asText());
            byte[] body = Arrays.copyOfRange(framed, WireFormat.HEADER_LENGTH, framed.length);
            assertThat(HEX.formatHex(body)).as(what).isEqualTo(c.get("avroHex").asText());
            assertThat(HEX.formatHex(bySpec(id, c.get("record").asText(), c.get("fields")))).as(what + " by the spec")
                    .isEqualTo(c.get("framedHex").asText());
            assertThat(WireFormat.schemaId(framed)).isEqualTo(id);
            Object decoded = WireFormat.decodeBody(framed, id,
                    new org.apache.avro.specific.SpecificDatumReader<>(record.getSchema()));
            assertThat(decoded).as(what + " decodes back").isEqualTo(record);
            JsonNode kafka = c.get("kafka");
            boolean local = record instanceof LocalReport;
            assertThat(kafka.get("topic").asText()).isEqualTo(
                    (local ? ProjectTopic.LOCAL_REPORTS : ProjectTopic.CENTRAL_REPORTS).defaultName());
            assertThat(kafka.get("keyHex").asText()).isEqualTo(
                    HEX.formatHex(c.get("fields").get("deviceId").asText().getBytes(StandardCharsets.UTF_8)));
            for (JsonNode h : kafka.get("headers")) {
                assertThat(h.get("key").asText()).isEqualTo(DeviceCredential.HEADER);
                assertThat(h.get("valueHex").asText()).isEqualTo(HEX.formatHex(DeviceCredential.issue(
                        c.get("credentialKeyId").asText(), HEX.parseHex(c.get("credentialKeyHex").asText()),
                        c.get("fields").get("deviceId").asText()).getBytes(StandardCharsets.UTF_8)));
            }
            n++;
        }
        assertThat(n).isPositive();
    }

    @Test
    void fileMatchesItsDefinitions() throws IOException {
        if (Boolean.getBoolean("golden.write")) {
            return;
        }
        assertThat(MAPPER.readTree(Files.readString(FILE))).isEqualTo(MAPPER.readTree(text(build())));
    }

    @Test
    void generate() throws IOException {
        if (Boolean.getBoolean("golden.write")) {
            Files.writeString(FILE, text(build()) + "\n");
        }
    }

    static String text(Object tree) throws IOException {
        return MAPPER.writeValueAsString(tree).replace(" : ", ": ");
    }

    // ------------------------------------------------------------------ records

    static SpecificRecord record(String type, JsonNode f) {
        if (type.equals("LocalReport")) {
            return LocalReport.newBuilder()
                    .setWorkloadId(f.get("workloadId").asText())
                    .setWorkloadVersion(f.get("workloadVersion").asInt())
                    .setContentHash(f.get("contentHash").asText())
                    .setDeviceId(f.get("deviceId").asText())
                    .setPeriod(f.get("period").asLong())
                    .setSequence(f.get("sequence").asInt())
                    .setEventTime(Instant.ofEpochMilli(f.get("eventTime").asLong()))
                    .setMechanism(f.get("mechanism").asText())
                    .setEpsilon(f.get("epsilon").asDouble())
                    .setPayload(ByteBuffer.wrap(HEX.parseHex(f.get("payload").asText())))
                    .setProtocolVersion(f.get("protocolVersion").asInt())
                    .build();
        }
        return CentralReport.newBuilder()
                .setWorkloadId(f.get("workloadId").asText())
                .setWorkloadVersion(f.get("workloadVersion").asInt())
                .setContentHash(f.get("contentHash").asText())
                .setDeviceId(f.get("deviceId").asText())
                .setPeriod(f.get("period").asLong())
                .setSequence(f.get("sequence").asInt())
                .setEventTime(Instant.ofEpochMilli(f.get("eventTime").asLong()))
                .setValue(f.get("value").asText())
                .build();
    }

    /** The framed bytes by docs/wire-format.md §17 alone, without Avro. */
    static byte[] bySpec(int schemaId, String type, JsonNode f) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0);
        out.writeBytes(ByteBuffer.allocate(4).putInt(schemaId).array());
        string(out, f.get("workloadId").asText());
        varint(out, f.get("workloadVersion").asLong());
        string(out, f.get("contentHash").asText());
        string(out, f.get("deviceId").asText());
        varint(out, f.get("period").asLong());
        varint(out, f.get("sequence").asLong());
        varint(out, f.get("eventTime").asLong());
        if (type.equals("LocalReport")) {
            string(out, f.get("mechanism").asText());
            long bits = Double.doubleToRawLongBits(f.get("epsilon").asDouble());
            for (int i = 0; i < 8; i++) {
                out.write((int) (bits >>> (8 * i)));
            }
            byte[] p = HEX.parseHex(f.get("payload").asText());
            varint(out, p.length);
            out.writeBytes(p);
            varint(out, f.get("protocolVersion").asLong());
        } else {
            string(out, f.get("value").asText());
        }
        return out.toByteArray();
    }

    static void varint(ByteArrayOutputStream out, long v) {
        long z = (v << 1) ^ (v >> 63);
        while ((z & ~0x7FL) != 0) {
            out.write((int) ((z & 0x7F) | 0x80));
            z >>>= 7;
        }
        out.write((int) z);
    }

    static void string(ByteArrayOutputStream out, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        varint(out, b.length);
        out.writeBytes(b);
    }

    // ------------------------------------------------------------------ definitions

    static Map<String, Object> local(String workloadId, int version, String hash, String device, long period,
            int sequence, long eventTime, String mechanism, double epsilon, String payloadHex, int protocolVersion) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("workloadId", workloadId);
        f.put("workloadVersion", version);
        f.put("contentHash", hash);
        f.put("deviceId", device);
        f.put("period", period);
        f.put("sequence", sequence);
        f.put("eventTime", eventTime);
        f.put("mechanism", mechanism);
        f.put("epsilon", epsilon);
        f.put("payload", payloadHex);
        f.put("protocolVersion", protocolVersion);
        return f;
    }

    static Map<String, Object> build() throws IOException {
        List<Object[]> defs = new ArrayList<>();
        // name, record type, schema id, fields, credential key id (or null)
        defs.add(new Object[] {"local grr report (grr.json, first case), schema id 1", "LocalReport", 1,
                local("vectors-labels-2-eps1", 1, "a5b166a12b20a8b3e396a6c79af38ee6a5eb096757119304878779375856422d",
                        "device-42", 19876, 3, 1717286400123L, "grr", 1.0, "01", 1), null});
        defs.add(new Object[] {"local oue report, ε 0.1 (the double below one tenth), multi-byte schema id and"
                + " non-ASCII device id", "LocalReport", 257,
                local("vectors-labels-70-eps0.1", 12, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
                        "ünïcødé-device", 20000, 0, 0L, "oue", Math.nextDown(0.1), "d316bf57e8838c3a2e", 1), null});
        defs.add(new Object[] {"local tree report (protocol version 2) with a large period, sequence and event time; a credential header",
                "LocalReport", 0x7FFFFFFF,
                local("w", 2_000_000, "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", "d",
                        Long.MAX_VALUE / 2, Integer.MAX_VALUE, 4_102_444_800_000L, "tree", 40.0, "00ff", 2), "k1"});
        Map<String, Object> central = new LinkedHashMap<>();
        central.put("workloadId", "central");
        central.put("workloadVersion", 3);
        central.put("contentHash", "9396c230604a26990840326b267fec6cf68743826aeff3041b0c3a18f39195ae");
        central.put("deviceId", "device-7");
        central.put("period", 20001);
        central.put("sequence", 1);
        central.put("eventTime", 1728000000000L);
        central.put("value", "y");
        defs.add(new Object[] {"central report (canonical-form.json, central case), schema id 2", "CentralReport", 2,
                central, null});
        List<Object> cases = new ArrayList<>();
        for (Object[] d : defs) {
            @SuppressWarnings("unchecked")
            Map<String, Object> fields = (Map<String, Object>) d[3];
            JsonNode f = MAPPER.readTree(MAPPER.writeValueAsString(fields));
            SpecificRecord r = record((String) d[1], f);
            byte[] framed = WireFormat.encode((Integer) d[2], r);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", d[0]);
            m.put("record", d[1]);
            m.put("schemaId", d[2]);
            m.put("fields", fields);
            m.put("avroHex", HEX.formatHex(Arrays.copyOfRange(framed, WireFormat.HEADER_LENGTH, framed.length)));
            m.put("framedHex", HEX.formatHex(framed));
            Map<String, Object> kafka = new LinkedHashMap<>();
            String device = (String) fields.get("deviceId");
            kafka.put("topic", (d[1].equals("LocalReport") ? ProjectTopic.LOCAL_REPORTS : ProjectTopic.CENTRAL_REPORTS)
                    .defaultName());
            kafka.put("keyHex", HEX.formatHex(device.getBytes(StandardCharsets.UTF_8)));
            List<Object> headers = new ArrayList<>();
            if (d[4] != null) {
                m.put("credentialKeyId", d[4]);
                m.put("credentialKeyHex", HEX.formatHex(KEY));
                String credential = DeviceCredential.issue((String) d[4], KEY, device);
                m.put("credential", credential);
                Map<String, Object> header = new LinkedHashMap<>();
                header.put("key", DeviceCredential.HEADER);
                header.put("valueHex", HEX.formatHex(credential.getBytes(StandardCharsets.UTF_8)));
                headers.add(header);
            }
            kafka.put("headers", headers);
            m.put("kafka", kafka);
            cases.add(m);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("protocol", "envelope");
        out.put("specSection", "docs/wire-format.md §17");
        out.put("generator", "schemas/src/test/java/io/privacygateway/schemas/wire/EnvelopeGoldenVectorsTest.java"
                + " (-Dgolden.write=true)");
        out.put("cases", cases);
        return out;
    }
}
