package io.privacygateway.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import io.privacygateway.schemas.WorkloadSpecRecords;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.RejectionReason;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.avro.WorkloadSpecRecord;
import io.privacygateway.schemas.serde.AvroDeserializer;
import io.privacygateway.schemas.serde.AvroSerializer;
import io.privacygateway.schemas.testing.RegistryFixture;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The topology with TopologyTestDriver (one partition per topic) and a real embedded schema registry. */
class GatewayTopologyTest {
    @RegisterExtension
    static final RegistryFixture registry = RegistryFixture.shared();
    static final long T0 = 1_800_000_000_000L; // a minute boundary
    static final long MINUTE = 60_000;

    static WorkloadSpec spec(String mechanism) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "apps");
        t.put("version", 1);
        t.put("family", "histogram");
        t.put("domain", Map.of("labels", List.of("a", "b", "c", "d")));
        t.put("mechanism", mechanism);
        t.put("epsilonPerReport", 1.0);
        t.put("budget", Map.of("epsilonPerPeriod", 2.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        return WorkloadSpecParser.parse(t);
    }

    /** The gateway topology under test, registered at T0. */
    static GatewayDriver gateway(int localPartitions) {
        return new GatewayDriver(registry.client(), GatewayConfig.builder(localPartitions, localPartitions).applicationId("gateway-test").build(),
                T0);
    }

    static LocalReport report(Workload w, LocalProtocol p, String device, int seq, long eventTime, int value,
            SeededRandomBits secret) {
        long period = Math.floorDiv(eventTime, Duration.ofDays(1).toMillis());
        byte[] payload = p.randomize(value, new ReportCoordinates(device, period, seq), secret);
        return LocalReport.newBuilder().setWorkloadId(w.spec().id()).setWorkloadVersion(w.spec().version())
                .setContentHash(w.contentHash()).setDeviceId(device).setPeriod(period).setSequence(seq)
                .setEventTime(Instant.ofEpochMilli(eventTime)).setMechanism(w.spec().mechanism().wireName())
                .setEpsilon(w.spec().epsilonPerReport().value()).setPayload(ByteBuffer.wrap(payload))
                .setProtocolVersion(w.spec().protocolVersion()).build();
    }

    /** 300 reports of one window; returns the answer released by the topology. */
    static WindowAnswer runWindow(String mechanism, boolean shuffle, long[] stateOut) {
        WorkloadSpec s = spec(mechanism);
        Workload w = Workload.of(s);
        LocalProtocol protocol = LocalPipeline.of(w).protocol();
        SeededRandomBits secret = new SeededRandomBits(42);
        List<LocalReport> reports = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            reports.add(report(w, protocol, "dev-" + i, 0, T0 + 1000 + i * 100, i % 4 == 3 ? 0 : i % 3, secret));
        }
        if (shuffle) {
            Collections.shuffle(reports, new Random(7));
        }
        if (stateOut != null) {
            for (LocalReport r : reports) {
                byte[] payload = new byte[r.getPayload().remaining()];
                r.getPayload().duplicate().get(payload);
                protocol.accumulate(payload, new ReportCoordinates(r.getDeviceId(), r.getPeriod(), r.getSequence()),
                        stateOut);
            }
        }
        try (GatewayDriver g = gateway(1)) {
            g.register(s, T0);
            for (LocalReport r : reports) {
                g.send(r, T0 + 40_000);
            }
            assertThat(g.answers.isEmpty()).isTrue();
            // a report of the next window moves the shard's watermark past end + grace of the first
            g.send(report(w, protocol, "late-comer", 0, T0 + MINUTE + 15_000, 1, secret), T0 + MINUTE + 15_000);
            g.advance(Duration.ofSeconds(2)); // punctuation: progress to the release step
            List<WindowAnswer> out = g.answers.readValuesToList();
            assertThat(out).hasSize(1);
            assertThat(g.rejections.isEmpty()).isTrue();
            return out.get(0);
        }
    }

    @Test
    void releasesOneAnswerPerWindowIdenticalToTheLibraryAndIndependentOfOrder() {
        long[] state = new long[LocalPipeline.of(Workload.of(spec("oue"))).protocol().stateLength()];
        WindowAnswer a = runWindow("oue", false, state);
        WindowAnswer b = runWindow("oue", true, null);
        assertThat(a.getN()).isEqualTo(300);
        assertThat(a.getDelta()).isZero();
        assertThat(a.getEpsilon()).isEqualTo(1.0);
        assertThat(a.getWindowStart()).isEqualTo(Instant.ofEpochMilli(T0));
        assertThat(a.getWindowEnd()).isEqualTo(Instant.ofEpochMilli(T0 + MINUTE));
        assertThat(a.getLabels()).containsExactly("a", "b", "c", "d");
        assertThat(b.getEstimates()).isEqualTo(a.getEstimates()); // bit-for-bit, whatever the arrival order
        Answer direct = LocalPipeline.of(Workload.of(spec("oue"))).release().release(state, 300);
        for (int q = 0; q < 4; q++) {
            assertThat(a.getEstimates().get(q)).isEqualTo(direct.estimates()[q]);
            assertThat(a.getLower().get(q)).isEqualTo(direct.lower()[q]);
        }
    }

    @Test
    void chainingAndProjectionWorkloadsReleaseToo() {
        WindowAnswer a = runWindow("projection", false, null);
        assertThat(a.getMechanism()).isEqualTo("projection");
        double sum = a.getEstimates().stream().mapToDouble(Double::doubleValue).sum();
        assertThat(sum).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9)); // projected onto the simplex
    }

    @Test
    void everyBadRecordBecomesARejectionWithItsReasonAndValidTrafficContinues() {
        WorkloadSpec s = spec("grr");
        Workload w = Workload.of(s);
        LocalProtocol protocol = LocalPipeline.of(w).protocol();
        SeededRandomBits secret = new SeededRandomBits(1);
        try (GatewayDriver g = gateway(1)) {
            g.register(s, T0);
            long t = T0 + 5_000;
            g.local.pipeInput("x".getBytes(), new byte[] {0, 0, 0, 0}, t); // undeserializable
            g.local.pipeInput("x".getBytes(), "not avro at all".getBytes(), t);
            LocalReport ok = report(w, protocol, "d1", 0, t, 1, secret);
            g.send(ok, t);
            g.send(ok, t); // duplicate sequence
            g.send(report(w, protocol, "d1", 1, t, 1, secret), t); // second report: budget allows 2
            g.send(report(w, protocol, "d1", 2, t, 1, secret), t); // sequence out of range (2 reports per period)
            LocalReport unknown = LocalReport.newBuilder(ok).setWorkloadId("nope").build();
            g.send(unknown, t);
            LocalReport wrongEps = LocalReport.newBuilder(report(w, protocol, "d2", 0, t, 0, secret)).setEpsilon(2.0)
                    .build();
            g.send(wrongEps, t);
            LocalReport badPayload = LocalReport.newBuilder(report(w, protocol, "d3", 0, t, 0, secret))
                    .setPayload(ByteBuffer.wrap(new byte[] {(byte) 0xFF})).build();
            g.send(badPayload, t);
            LocalReport skewed = report(w, protocol, "d4", 0, t + 3 * MINUTE, 0, secret);
            g.send(skewed, t);
            // close the first window, then send a late report for it
            g.send(report(w, protocol, "d5", 0, t + MINUTE + 20_000, 0, secret), t + MINUTE + 20_000);
            g.send(report(w, protocol, "d6", 0, t, 0, secret), t + MINUTE + 21_000);
            List<Rejection> rej = g.rejections.readValuesToList();
            assertThat(rej).extracting(Rejection::getReasonCode).containsExactly(RejectionReason.MALFORMED,
                    RejectionReason.MALFORMED, RejectionReason.DUPLICATE, RejectionReason.SEQUENCE_OUT_OF_RANGE,
                    RejectionReason.UNKNOWN_WORKLOAD, RejectionReason.EPSILON_MISMATCH, RejectionReason.BAD_PAYLOAD,
                    RejectionReason.CLOCK_SKEW, RejectionReason.LATE);
            assertThat(rej.get(0).getOriginalValue().array()).containsExactly(0, 0, 0, 0);
            assertThat(rej.get(0).getOriginalTopic()).isEqualTo(g.cfg.localReportsTopic());
            assertThat(rej.get(2).getDeviceId()).isEqualTo("d1");
            assertThat(g.metrics.count("pgw.reports.rejected", "reason", "MALFORMED")).isEqualTo(2);
            assertThat(g.metrics.count("pgw.reports.rejected", "reason", "LATE", "workload", "apps")).isEqualTo(1);
            g.advance(Duration.ofSeconds(2));
            List<WindowAnswer> out = g.answers.readValuesToList();
            assertThat(out).hasSize(1);
            assertThat(out.get(0).getN()).isEqualTo(2); // d1's two valid reports
            assertThat(g.metrics.count("pgw.reports.accepted", "workload", "apps")).isEqualTo(3); // + d5 (next window)
        }
    }

    @Test
    void anIdleShardAdvancesByTheClockSoWindowsStillRelease() {
        WorkloadSpec s = spec("grr");
        Workload w = Workload.of(s);
        LocalProtocol protocol = LocalPipeline.of(w).protocol();
        try (GatewayDriver g = gateway(1)) {
            g.register(s, T0);
            g.send(report(w, protocol, "d1", 0, T0 + 1_000, 2, new SeededRandomBits(3)), T0 + 1_000);
            g.advance(Duration.ofSeconds(5));
            assertThat(g.answers.isEmpty()).isTrue();
            // no more traffic: after idleAfter (10 s) the shard's watermark follows the clock minus 5 s slack
            g.advance(Duration.ofSeconds(90));
            assertThat(g.answers.readValuesToList()).hasSize(1);
            // a report for that window now is late, not silently added to a released window
            g.send(report(w, protocol, "d2", 0, T0 + 2_000, 2, new SeededRandomBits(4)), T0 + 30_000);
            assertThat(g.rejections.readValuesToList()).extracting(Rejection::getReasonCode)
                    .containsExactly(RejectionReason.LATE);
        }
    }

    /**
     * A device's budget entries live with its own partition (default partitioner of its id): a report placed on
     * another partition is refused, so a device cannot multiply its budget by spreading its reports.
     */
    @Test
    void reportsOnAnotherPartitionThanTheirDevicesAreRejected() {
        try (GatewayDriver g = gateway(3)) {
            WorkloadSpec s = spec("grr");
            Workload w = Workload.of(s);
            LocalProtocol protocol = LocalPipeline.of(w).protocol();
            g.register(s, T0);
            List<String> home = new ArrayList<>();
            List<String> away = new ArrayList<>();
            for (int i = 0; home.size() < 3 || away.size() < 3; i++) {
                String d = "dev-" + i;
                int partition = org.apache.kafka.common.utils.Utils.toPositive(
                        org.apache.kafka.common.utils.Utils.murmur2(d.getBytes(java.nio.charset.StandardCharsets.UTF_8))) % 3;
                (partition == 0 ? home : away).add(d);
            }
            for (String d : home.subList(0, 3)) {
                g.send(report(w, protocol, d, 0, T0 + 1_000, 1, new SeededRandomBits(d.hashCode())), T0 + 1_000);
            }
            for (String d : away.subList(0, 3)) {
                g.send(report(w, protocol, d, 0, T0 + 1_000, 1, new SeededRandomBits(d.hashCode())), T0 + 1_000);
            }
            List<Rejection> rejected = g.rejections.readValuesToList();
            assertThat(rejected).extracting(Rejection::getReasonCode).containsOnly(RejectionReason.WRONG_PARTITION)
                    .hasSize(3);
            assertThat(rejected).extracting(Rejection::getDeviceId).containsExactlyElementsOf(away.subList(0, 3));
            assertThat(rejected.get(0).getMessage()).contains("belongs on partition");
            assertThat(g.metrics.count("pgw.reports.accepted", "workload", "apps", "mode", "local")).isEqualTo(3);
        }
    }

    static WorkloadSpec centralSpec() {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "flags");
        t.put("version", 1);
        t.put("family", "histogram");
        t.put("domain", Map.of("labels", List.of("a", "b", "c", "d")));
        t.put("mode", "central");
        t.put("mechanism", "central-projection");
        t.put("central", Map.of("epsilonPerRelease", 1.0, "neighbour", "add-remove", "contributionsPerWindow", 1));
        t.put("budget", Map.of("epsilonPerPeriod", 2.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        t.put("expectedReportsPerWindow", 100);
        return WorkloadSpecParser.parse(t);
    }

    static CentralReport centralReport(Workload w, String device, int seq, long eventTime, String value) {
        return CentralReport.newBuilder().setWorkloadId(w.spec().id()).setWorkloadVersion(w.spec().version())
                .setContentHash(w.contentHash()).setDeviceId(device)
                .setPeriod(Math.floorDiv(eventTime, Duration.ofDays(1).toMillis())).setSequence(seq)
                .setEventTime(Instant.ofEpochMilli(eventTime)).setValue(value).build();
    }

    @Test
    void centralModeCapsContributionsChargesWindowsAndPublishesPureAnswersWithCumulativeEpsilon() {
        WorkloadSpec s = centralSpec();
        Workload w = Workload.of(s);
        try (GatewayDriver g = gateway(1)) {
            g.register(s, T0);
            long t = T0 + 1_000;
            for (int i = 0; i < 100; i++) {
                g.sendCentral(centralReport(w, "d" + i, 0, t, List.of("a", "b", "c", "d").get(i % 4)), t);
            }
            g.sendCentral(centralReport(w, "d0", 0, t + 10, "a"), t + 10); // second contribution to the window (L = 1)
            g.sendCentral(centralReport(w, "x", 0, t, "zz"), t); // not in the domain
            // window 2 and window 3: d1's budget (2.0 / 1.0 per window) covers two windows only
            g.sendCentral(centralReport(w, "d1", 0, t + MINUTE, "b"), t + MINUTE);
            g.sendCentral(centralReport(w, "d1", 0, t + 2 * MINUTE, "b"), t + 2 * MINUTE);
            assertThat(g.rejections.readValuesToList()).extracting(Rejection::getReasonCode).containsExactly(
                    RejectionReason.CONTRIBUTION_LIMIT, RejectionReason.INVALID_VALUE, RejectionReason.BUDGET_EXHAUSTED);
            // central windows close on the broker's clock only (never on report times): window 1 at T0 + 70 s + slack
            g.advance(Duration.ofSeconds(73));
            g.advance(g.cfg.centralReleaseDelay()); // answers are written a fixed delay after their computation
            List<WindowAnswer> out = new ArrayList<>(g.answers.readValuesToList());
            assertThat(out).hasSize(1);
            g.advance(Duration.ofSeconds(60));
            g.advance(g.cfg.centralReleaseDelay());
            out.addAll(g.answers.readValuesToList());
            assertThat(out).hasSize(2);
            assertThat(out.get(0).getLevels().get(0).getRho()).isPositive();
            assertThat(out.get(0).getLevels().get(0).getEpsilon()).isZero();
            WindowAnswer first = out.get(0);
            assertThat(first.getMode()).isEqualTo("central");
            assertThat(first.getDelta()).isZero();
            assertThat(first.getEpsilon()).isEqualTo(1.0);
            assertThat(first.getCumulativeEpsilon()).isEqualTo(1.0);
            assertThat(out.get(1).getCumulativeEpsilon()).isEqualTo(2.0);
            // the release time is the window's close time, not a function of when reports arrived
            assertThat(first.getReleasedAtStreamTime()).isEqualTo(T0 + MINUTE + 10_000);
            double sum = first.getEstimates().stream().mapToDouble(Double::doubleValue).sum();
            assertThat(sum).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-6));
            assertThat(first.getEstimates().get(0)).isBetween(0.0, 0.6); // 25 of 100 values are "a"
        }
    }
}
