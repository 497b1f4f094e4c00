package io.privacygateway.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The hand-written Avro encoding of the HTTPS envelope (its agreement with Avro itself: client-kafka's test). */
class ReportEnvelopeTest {
    static DeviceReport local(int seq) {
        return DeviceReport.local("w-1", 3, "ab".repeat(32), new ReportCoordinates("device-é", 20_833, seq),
                1_800_000_000_123L, "grr", 0.5, new byte[] {1, (byte) 0xFF, 0, 42}, 1);
    }

    static DeviceReport central() {
        return DeviceReport.central("w-2", 1, "cd".repeat(32), new ReportCoordinates("d", 0, 0), 0L, "b");
    }

    @Test
    void aBatchRoundTripsAndStartsWithTheVersionAndTheCount() throws Exception {
        List<DeviceReport> batch = List.of(local(0), central(), local(Integer.MAX_VALUE - 1));
        byte[] body = ReportEnvelope.encode(batch);
        assertThat(body[0]).isEqualTo((byte) 2); // zig-zag 1
        assertThat(body[1]).isEqualTo((byte) 6); // zig-zag 3
        assertThat(body[body.length - 1]).isEqualTo((byte) 0); // end of the array
        assertThat(ReportEnvelope.decode(body)).containsExactlyElementsOf(batch);
    }

    /** The example of docs/wire-format.md, "Report envelope over HTTPS". */
    @Test
    void repeatedAndChangingStringsWithinABatchDecodeToTheirOwnValues() throws Exception {
        // the decoder reuses a string whose bytes repeat the previous report's: same-length different values,
        // alternating values, a non-ASCII one and an empty mechanism must each come back as sent
        String[] ids = {"w-a", "w-b", "w-a", "w-a", "wü", "w-b", "w-b"};
        String[] hashes = {"h1", "h1", "h2", "h2", "h1", "h\u00e9", "h1"};
        String[] mechanisms = {"grr", "olh", "olh", "", "grr", "grr", "olh"};
        List<DeviceReport> batch = new ArrayList<>();
        for (int i = 0; i < ids.length; i++) {
            batch.add(DeviceReport.local(ids[i], 1 + i % 2, hashes[i],
                    new ReportCoordinates("d" + i, 3, i), 1_000L * i, mechanisms[i], 0.5, new byte[] {(byte) i}, 1));
            if (i == 3) {
                batch.add(central());
            }
        }
        List<DeviceReport> back = ReportEnvelope.decode(ReportEnvelope.encode(batch));
        assertThat(back).isEqualTo(batch);
        assertThat(back.get(3).workloadId()).isSameAs(back.get(2).workloadId()); // read once, not copied again
    }

    @Test
    void theDocumentedExampleBytes() throws Exception {
        DeviceReport r = DeviceReport.local("w", 1, "h", new ReportCoordinates("d", 1, 0), 0L, "grr", 1.0,
                new byte[] {1}, 1);
        String hex = java.util.HexFormat.ofDelimiter(" ").formatHex(ReportEnvelope.encode(List.of(r)));
        assertThat(hex).isEqualTo("02 02 00 02 77 02 02 68 02 64 02 00 00 06 67 72 72 00 00 00 00 00 00 f0 3f 02 01 02 00");
        String doc = java.nio.file.Files.readString(java.nio.file.Path.of("..", "docs", "wire-format.md"));
        assertThat(doc).contains(hex);
    }

    @Test
    void resultsRoundTrip() throws Exception {
        List<ReportEnvelope.Result> r = List.of(new ReportEnvelope.Result(ReportEnvelope.Status.ACCEPTED, "", 0),
                new ReportEnvelope.Result(ReportEnvelope.Status.REJECTED, "VERSION_MISMATCH", 0),
                new ReportEnvelope.Result(ReportEnvelope.Status.RETRY, "", 2_000));
        assertThat(ReportEnvelope.decodeResults(ReportEnvelope.encodeResults(r))).isEqualTo(r);
    }

    @Test
    void malformedBodiesAreRefusedNamingTheProblem() {
        byte[] ok = ReportEnvelope.encode(List.of(local(1)));
        for (int cut = 0; cut < ok.length; cut++) { // every truncation
            byte[] t = Arrays.copyOf(ok, cut);
            assertThatThrownBy(() -> ReportEnvelope.decode(t)).isInstanceOf(ReportEnvelope.Malformed.class);
        }
        byte[] trailing = Arrays.copyOf(ok, ok.length + 1);
        assertThatThrownBy(() -> ReportEnvelope.decode(trailing)).hasMessageContaining("trailing");
        byte[] version = ok.clone();
        version[0] = 4;
        assertThatThrownBy(() -> ReportEnvelope.decode(version)).hasMessageContaining("envelopeVersion 2");
        byte[] branch = ok.clone();
        branch[2] = 4; // union branch 2
        assertThatThrownBy(() -> ReportEnvelope.decode(branch)).hasMessageContaining("branch 2");
        byte[] huge = {2, (byte) 0xD2, 0x0F, 0}; // count 1001
        assertThatThrownBy(() -> ReportEnvelope.decode(huge)).hasMessageContaining("more than 500");
        byte[] longLength = {2, 2, 0, (byte) 0xFE, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F}; // id of 2^31-1 bytes
        assertThatThrownBy(() -> ReportEnvelope.decode(longLength)).hasMessageContaining("workloadId length");
        byte[] varint = {2, 2, 0, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80,
                (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 1};
        assertThatThrownBy(() -> ReportEnvelope.decode(varint)).isInstanceOf(ReportEnvelope.Malformed.class);
        assertThatThrownBy(() -> ReportEnvelope.decode(new byte[] {2, 0})).hasMessageContaining("at least one");
        // strings are strict UTF-8 (ASCII read directly, anything else through a reporting decoder)
        byte[] badUtf8 = {2, 2, 0, 2, (byte) 0xC3};
        assertThatThrownBy(() -> ReportEnvelope.decode(badUtf8)).hasMessageContaining("workloadId is not valid UTF-8");
        byte[] latin1 = {2, 2, 0, 2, (byte) 0xE9}; // é in Latin-1: not UTF-8
        assertThatThrownBy(() -> ReportEnvelope.decode(latin1)).hasMessageContaining("workloadId is not valid UTF-8");
        assertThatThrownBy(() -> ReportEnvelope.decode(new byte[] {2, 2, 0, (byte) 0x80}))
                .hasMessageContaining("truncated at workloadId length");
    }

    @Test
    void batchesAreBounded() {
        List<DeviceReport> many = new ArrayList<>();
        for (int i = 0; i <= ReportEnvelope.MAX_REPORTS; i++) {
            many.add(local(i));
        }
        assertThatThrownBy(() -> ReportEnvelope.encode(many)).hasMessageContaining("1 to 500");
        assertThatThrownBy(() -> ReportEnvelope.encode(List.of())).hasMessageContaining("1 to 500");
    }

    @Test
    void theJsonFormCarriesTheSameFieldsAndABase64Payload() {
        String json = ReportEnvelope.toJson(List.of(local(7), central()));
        assertThat(json).startsWith("{\"envelopeVersion\":1,\"reports\":[{\"type\":\"local\",\"workloadId\":\"w-1\"")
                .contains("\"sequence\":7", "\"payload\":\"Af8AKg==\"", "\"type\":\"central\"", "\"value\":\"b\"",
                        "\"deviceId\":\"device-é\"");
    }

    @Test
    void toStringNeverShowsThePayloadOrTheValue() {
        assertThat(central().toString()).doesNotContain("value").doesNotContain("=b");
        assertThat(local(1).toString()).doesNotContain("payload");
    }

    @Test
    void theJsonBodyRoundTripsThroughTheSameRules() throws Exception {
        List<DeviceReport> batch = List.of(local(0), central(), local(7));
        byte[] json = ReportEnvelope.toJson(batch).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(ReportEnvelope.fromJson(json)).containsExactlyElementsOf(batch);
        String doc = "{\"envelopeVersion\": 1, \"reports\": [{\"type\": \"local\", \"workloadId\": \"w\", "
                + "\"workloadVersion\": 1, \"contentHash\": \"h\", \"deviceId\": \"d\", \"period\": 1, "
                + "\"sequence\": 0, \"eventTime\": 0, \"mechanism\": \"grr\", \"epsilon\": 1.0, \"payload\": \"AQ==\", \"protocolVersion\": 1}]}";
        DeviceReport r = ReportEnvelope.fromJson(doc.getBytes(java.nio.charset.StandardCharsets.UTF_8)).get(0);
        assertThat(ReportEnvelope.encode(List.of(r))).isEqualTo(new byte[] {0x02, 0x02, 0x00, 0x02, 0x77, 0x02, 0x02,
                0x68, 0x02, 0x64, 0x02, 0x00, 0x00, 0x06, 0x67, 0x72, 0x72, 0, 0, 0, 0, 0, 0, (byte) 0xf0, 0x3f, 0x02,
                0x01, 0x02, 0x00}); // the example of docs/wire-format.md, from its JSON form
        assertThat(ReportEnvelope.resultsToJson(List.of(new ReportEnvelope.Result(ReportEnvelope.Status.REJECTED,
                "LATE", 0)))).isEqualTo("{\"envelopeVersion\":1,\"results\":[{\"status\":\"REJECTED\","
                + "\"reason\":\"LATE\",\"retryAfterMillis\":0}]}");
    }

    @Test
    void hostileJsonIsMalformedWithTheProblemNamed() {
        String ok = ReportEnvelope.toJson(List.of(local(0)));
        java.util.Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put(ok.substring(0, ok.length() - 5), "truncated");
        cases.put(ok.replace("\"sequence\":0", "\"sequence\":\"0\""), "sequence must be an integer");
        cases.put(ok.replace("\"sequence\":0", "\"sequence\":0.5"), "sequence must be an integer");
        cases.put(ok.replace("\"sequence\":0,", ""), "sequence is missing");
        cases.put(ok.replace("\"sequence\":0", "\"sequence\":0,\"extra\":1"), "unknown field extra");
        cases.put(ok.replace("\"sequence\":0", "\"sequence\":0,\"sequence\":1"), "duplicate field sequence");
        cases.put(ok.replace("\"type\":\"local\"", "\"type\":\"other\""), "type must be");
        cases.put(ok.replace("\"workloadId\":\"w-1\"", "\"workloadId\":\"" + "x".repeat(2000) + "\""),
                "workloadId is longer than 1024 bytes");
        cases.put(ok.replace("\"payload\":\"", "\"payload\":\"!"), "payload is not standard base64");
        cases.put(ok.replace("\"envelopeVersion\":1", "\"envelopeVersion\":2"), "envelopeVersion 2");
        cases.put(ok + " x", "trailing characters");
        cases.put("{\"envelopeVersion\":1,\"reports\":[[[[1]]]]}", "nested too deep");
        cases.put("{\"envelopeVersion\":1,\"reports\":[]}", "at least one report");
        cases.put("{\"envelopeVersion\":1,\"reports\":[" + "1,".repeat(600) + "1]}", "more than 500");
        cases.forEach((body, problem) -> assertThatThrownBy(() -> ReportEnvelope.fromJson(body.getBytes(
                java.nio.charset.StandardCharsets.UTF_8))).as(problem).isInstanceOf(ReportEnvelope.Malformed.class)
                .hasMessageContaining(problem));
        assertThatThrownBy(() -> ReportEnvelope.fromJson(new byte[] {'{', (byte) 0xC3})).hasMessageContaining("UTF-8");
    }
}
