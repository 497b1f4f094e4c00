package io.privacygateway.schemas.testing;

import io.privacygateway.schemas.avro.AnswerLevel;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.RejectionReason;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.avro.WorkloadSpecRecord;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.apache.avro.specific.SpecificRecord;

/** One filled-in record of every project type, and random ones for property tests. */
public final class SampleRecords {
    private SampleRecords() {}

    public static final String HASH = "3b1f0e5c9a7d2e4f6a8b0c1d2e3f405162738495a6b7c8d9eafb0c1d2e3f4a5b";

    public static LocalReport localReport() {
        return LocalReport.newBuilder()
                .setWorkloadId("screen-usage")
                .setWorkloadVersion(1)
                .setContentHash(HASH)
                .setDeviceId("device-0042")
                .setPeriod(20_000L)
                .setSequence(3)
                .setEventTime(Instant.ofEpochMilli(1_728_000_000_123L))
                .setMechanism("chaining")
                .setEpsilon(1.0)
                .setPayload(ByteBuffer.wrap(new byte[] {0x0d, 0x01}))
                .build();
    }

    public static CentralReport centralReport() {
        return CentralReport.newBuilder()
                .setWorkloadId("feature-flags")
                .setWorkloadVersion(2)
                .setContentHash(HASH)
                .setDeviceId("device-ü-7")
                .setPeriod(20_000L)
                .setSequence(0)
                .setEventTime(Instant.ofEpochMilli(1_728_000_000_456L))
                .setValue("1,0,1,1,0,0")
                .build();
    }

    public static WindowAnswer windowAnswer() {
        return WindowAnswer.newBuilder()
                .setWorkloadId("screen-usage")
                .setWorkloadVersion(1)
                .setContentHash(HASH)
                .setMode("local")
                .setWindowStart(Instant.ofEpochMilli(1_728_000_000_000L))
                .setWindowEnd(Instant.ofEpochMilli(1_728_000_060_000L))
                .setMechanism("chaining")
                .setEpsilon(1.0)
                .setDelta(0.0)
                .setN(20_000L)
                .setConfidence(0.95)
                .setLabels(List.of("social", "video", "games"))
                .setEstimates(List.of(0.5, 0.3, 0.2))
                .setLower(List.of(0.45, 0.25, 0.15))
                .setUpper(List.of(0.55, 0.35, 0.25))
                .setStandardErrors(List.of(0.02, 0.02, 0.021))
                .setUnprojected(List.of(0.52, 0.31, 0.17))
                .setExpectedRmsError(0.021)
                .setRmsErrorBoundAtConfidence(0.04)
                .setLevels(List.of(
                        new AnswerLevel(0, 0.4, 1.0, 0.05, 1.7, 8, 0.0, 0.0, null, 0.0),
                        new AnswerLevel(1, 0.6, 0.5, 0.03, 2.1, 64, 1e-9, 0.0, null, 1e-9)))
                .setCumulativeEpsilon(0.0)
                .setReleasedAtStreamTime(1_728_000_070_000L)
                .build();
    }

    public static Rejection rejection() {
        return Rejection.newBuilder()
                .setReasonCode(RejectionReason.BUDGET_EXHAUSTED)
                .setMessage("device-0042 has spent 4.0 of 4.0 in period 20000")
                .setWorkloadId("screen-usage")
                .setDeviceId(null)
                .setOriginalTopic("pgw.reports.local")
                .setOriginalPartition(2)
                .setOriginalOffset(123_456_789L)
                .setOriginalKey(ByteBuffer.wrap("device-0042".getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .setOriginalValue(null)
                .setRejectedAtStreamTime(1_728_000_070_001L)
                .build();
    }

    public static WorkloadSpecRecord workloadSpecRecord() {
        return WorkloadSpecRecord.newBuilder()
                .setId("screen-usage")
                .setVersion(1)
                .setContentHash(HASH)
                .setMode("local")
                .setMechanism("chaining")
                .setSpecJson("{\"id\":\"screen-usage\"}")
                .build();
    }

    /** One of each type. */
    public static List<SpecificRecord> all() {
        return List.of(localReport(), centralReport(), windowAnswer(), rejection(), workloadSpecRecord());
    }

    /** A random local report (random strings, lengths, payloads) for property tests. */
    public static LocalReport randomLocalReport(Random random) {
        byte[] payload = new byte[random.nextInt(40)];
        random.nextBytes(payload);
        return LocalReport.newBuilder()
                .setWorkloadId(randomString(random, 1 + random.nextInt(30)))
                .setWorkloadVersion(random.nextInt())
                .setContentHash(randomString(random, random.nextInt(70)))
                .setDeviceId(randomString(random, random.nextInt(200)))
                .setPeriod(random.nextLong())
                .setSequence(random.nextInt())
                .setEventTime(Instant.ofEpochMilli(random.nextLong() >> 20))
                .setMechanism(randomString(random, random.nextInt(20)))
                .setEpsilon(random.nextDouble() * 10)
                .setPayload(ByteBuffer.wrap(payload))
                .build();
    }

    /** A random window answer with m coordinates and some levels. */
    public static WindowAnswer randomWindowAnswer(Random random) {
        int m = random.nextInt(300);
        List<String> labels = new java.util.ArrayList<>();
        List<Double> values = new java.util.ArrayList<>();
        for (int i = 0; i < m; i++) {
            labels.add(randomString(random, random.nextInt(12)));
            values.add(random.nextGaussian());
        }
        List<AnswerLevel> levels = new java.util.ArrayList<>();
        for (int j = random.nextInt(5); j > 0; j--) {
            levels.add(new AnswerLevel(j, random.nextDouble(), random.nextDouble(), random.nextDouble(),
                    random.nextDouble(), random.nextInt(1000), random.nextDouble(), random.nextDouble(), null, null));
        }
        WindowAnswer a = windowAnswer();
        a.setLabels(labels);
        a.setEstimates(values);
        a.setLower(values);
        a.setUpper(values);
        a.setStandardErrors(values);
        a.setUnprojected(values);
        a.setLevels(levels);
        a.setN(random.nextLong());
        return a;
    }

    /** Random text including non-ASCII and supplementary characters. */
    public static String randomString(Random random, int length) {
        StringBuilder sb = new StringBuilder();
        while (sb.length() < length) {
            int kind = random.nextInt(10);
            if (kind < 6) {
                sb.append((char) ('a' + random.nextInt(26)));
            } else if (kind < 8) {
                sb.append((char) (0xA0 + random.nextInt(0x2000)));
            } else if (kind < 9) {
                sb.appendCodePoint(0x1F600 + random.nextInt(80));
            } else {
                sb.append((char) random.nextInt(0x80));
            }
        }
        return sb.toString();
    }
}
