package io.privacygateway.client.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.client.DeviceReport;
import io.privacygateway.client.ReportEnvelope;
import io.privacygateway.client.WorkloadFiles;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.schemas.ReportRecords;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.LocalReport;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/**
 * The device SDK hand-encodes the HTTPS envelope without Avro; this checks it against Avro's own encoder and decoder
 * on the gateway's record schemas, in both directions (docs/wire-format.md, "Report envelope over HTTPS").
 */
class ReportEnvelopeAvroTest {
    static final Schema BATCH = SchemaBuilder.record("ReportBatch").namespace("io.privacygateway.schemas.avro")
            .fields().requiredInt("envelopeVersion")
            .name("reports").type(Schema.createArray(Schema.createUnion(LocalReport.getClassSchema(),
                    CentralReport.getClassSchema()))).noDefault()
            .endRecord();
    static final Schema RESULTS = SchemaBuilder.record("ReportResults").namespace("io.privacygateway.schemas.avro")
            .fields().requiredInt("envelopeVersion")
            .name("results").type().array().items(SchemaBuilder.record("ReportResult").fields()
                    .name("status").type().enumeration("ResultStatus")
                    .symbols("ACCEPTED", "DUPLICATE", "REJECTED", "RETRY").noDefault()
                    .requiredString("reason").requiredLong("retryAfterMillis").endRecord()).noDefault()
            .endRecord();

    static {
        io.privacygateway.schemas.wire.AvroClassTrust.trustPackage(
                io.privacygateway.schemas.wire.AvroClassTrust.PROJECT_PACKAGE);
    }

    static List<DeviceReport> reports() {
        return List.of(
                DeviceReport.local("w-1", 3, "ab".repeat(32), new ReportCoordinates("device-é", 20_833, 0),
                        1_800_000_000_123L, "grr", 0.5, new byte[] {1, (byte) 0xFF, 0, 42}, 1),
                DeviceReport.central("w-2", 1, "cd".repeat(32), new ReportCoordinates("d", 0, 0), 0L, "b"),
                DeviceReport.local("w-3", Integer.MAX_VALUE, "ef".repeat(32),
                        new ReportCoordinates("x", Long.MAX_VALUE / 1000, Integer.MAX_VALUE - 1), Long.MAX_VALUE / 2,
                        "prefix-tree-sketch", 1e-300, new byte[1000], Integer.MAX_VALUE),
                DeviceReport.local("w-4", 1, "00".repeat(32), new ReportCoordinates("y", 1, 1), 1L, "olh",
                        Double.MIN_VALUE, new byte[0], 0));
    }

    @Test
    void avroDecodesTheSdksBodyIntoTheGatewaysRecords() throws Exception {
        byte[] body = ReportEnvelope.encode(reports());
        SpecificDatumReader<GenericRecord> reader = new SpecificDatumReader<>(BATCH, BATCH, SpecificData.get());
        var decoder = DecoderFactory.get().binaryDecoder(body, null);
        GenericRecord batch = reader.read(null, decoder);
        assertThat(decoder.isEnd()).isTrue();
        assertThat(batch.get("envelopeVersion")).isEqualTo(1);
        List<Object> expected = new ArrayList<>();
        reports().forEach(r -> expected.add(KafkaReports.record(r)));
        List<Object> actual = new ArrayList<>((List<?>) batch.get("reports"));
        assertThat(actual).containsExactlyElementsOf(expected);
    }

    @Test
    void theSdkDecodesWhatAvroEncodes() throws Exception {
        GenericData.Record batch = new GenericData.Record(BATCH);
        batch.put("envelopeVersion", 1);
        List<SpecificRecord> records = new ArrayList<>();
        reports().forEach(r -> records.add(KafkaReports.record(r)));
        batch.put("reports", records);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
        new SpecificDatumWriter<GenericRecord>(BATCH, SpecificData.get()).write(batch, enc);
        enc.flush();
        assertThat(out.toByteArray()).isEqualTo(ReportEnvelope.encode(reports()));
        assertThat(ReportEnvelope.decode(out.toByteArray())).containsExactlyElementsOf(reports());
    }

    @Test
    void resultsAgreeWithAvroBothWays() throws Exception {
        List<ReportEnvelope.Result> results = List.of(new ReportEnvelope.Result(ReportEnvelope.Status.ACCEPTED, "", 0),
                new ReportEnvelope.Result(ReportEnvelope.Status.DUPLICATE, "", 0),
                new ReportEnvelope.Result(ReportEnvelope.Status.REJECTED, "PROTOCOL_MISMATCH", 0),
                new ReportEnvelope.Result(ReportEnvelope.Status.RETRY, "", 30_000));
        byte[] sdk = ReportEnvelope.encodeResults(results);
        GenericRecord decoded = new GenericDatumReader<GenericRecord>(RESULTS)
                .read(null, DecoderFactory.get().binaryDecoder(sdk, null));
        List<?> items = (List<?>) decoded.get("results");
        assertThat(items).hasSize(4);
        GenericRecord third = (GenericRecord) items.get(2);
        assertThat(third.get("status").toString()).isEqualTo("REJECTED");
        assertThat(third.get("reason").toString()).isEqualTo("PROTOCOL_MISMATCH");
        assertThat(((GenericRecord) items.get(3)).get("retryAfterMillis")).isEqualTo(30_000L);

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(RESULTS).write(decoded, enc);
        enc.flush();
        assertThat(ReportEnvelope.decodeResults(out.toByteArray())).isEqualTo(results);
    }

    @Test
    void theKafkaRecordOfADeviceReportIsTheRecordReportRecordsMakesForTheWorkload() {
        ResolvedWorkload w = ResolvedWorkload.of(WorkloadFiles.parse("""
                id: kafka-rec
                version: 2
                family: histogram
                domain: {labels: [a, b, c]}
                mechanism: grr
                epsilonPerReport: 0.5
                budget: {epsilonPerPeriod: 1.0, period: 1d}
                window: {size: 1m}
                """, "test"));
        ReportCoordinates c = new ReportCoordinates("d-1", 3, 1);
        byte[] payload = {2};
        DeviceReport r = DeviceReport.local(w.id(), w.spec().version(), w.contentHash(), c, 42L,
                w.spec().mechanism().wireName(), w.spec().epsilonPerReport().value(), payload, w.spec().protocolVersion());
        assertThat(KafkaReports.record(r)).isEqualTo(ReportRecords.local(w, c, 42L, payload));
    }
}
