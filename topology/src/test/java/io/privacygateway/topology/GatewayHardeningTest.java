package io.privacygateway.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.RejectionReason;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.identity.DeviceCredential;
import io.privacygateway.schemas.serde.AvroSerializer;
import io.privacygateway.topology.identity.DeviceAuthentication;
import io.privacygateway.topology.ingest.Rejections;
import io.privacygateway.schemas.testing.RegistryFixture;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The attack and failure paths of the reliability review, each reproduced against the topology: every test
 * here failed (or did not compile: the defence did not exist) on the gateway before the rebuild.
 */
class GatewayHardeningTest {
    @RegisterExtension
    static final RegistryFixture registry = RegistryFixture.shared();
    static final long T0 = 1_800_000_000_000L; // an hour boundary
    static final long MINUTE = 60_000;

    static WorkloadSpec local(String id, int version, double eps, double budget, String period, String window) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", id);
        t.put("version", version);
        t.put("family", "histogram");
        t.put("domain", Map.of("labels", List.of("a", "b", "c", "d")));
        t.put("mechanism", "grr");
        t.put("epsilonPerReport", eps);
        t.put("budget", Map.of("epsilonPerPeriod", budget, "period", period));
        t.put("window", Map.of("size", window, "grace", "10s"));
        return WorkloadSpecParser.parse(t);
    }

    static GatewayDriver driver(GatewayConfig.Builder b) {
        return new GatewayDriver(registry.client(), b.applicationId("hardening").build(), T0);
    }

    static LocalReport report(WorkloadSpec s, String device, int seq, long eventTime, int value) {
        Workload w = Workload.of(s);
        LocalProtocol p = LocalPipeline.of(w).protocol();
        long period = Math.floorDiv(eventTime, s.budget().periodMillis());
        byte[] payload = p.randomize(value, new ReportCoordinates(device, period, seq), new SeededRandomBits(device.hashCode()));
        return LocalReport.newBuilder().setWorkloadId(s.id()).setWorkloadVersion(s.version())
                .setContentHash(w.contentHash()).setDeviceId(device).setPeriod(period).setSequence(seq)
                .setEventTime(Instant.ofEpochMilli(eventTime)).setMechanism(s.mechanism().wireName())
                .setEpsilon(s.epsilonPerReport().value()).setPayload(ByteBuffer.wrap(payload))
                .setProtocolVersion(s.protocolVersion()).build();
    }

    static List<RejectionReason> reasons(GatewayDriver g) {
        return g.rejections.readValuesToList().stream().map(Rejection::getReasonCode).toList();
    }

    static int size(Rejection r) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
        new SpecificDatumWriter<>(Rejection.class).write(r, enc);
        enc.flush();
        return out.size();
    }

    /** 8.1: one oversized record used to become a 1.4 MB rejection, fatal for the producer, re-read forever. */
    @Test
    void anOversizedRecordBecomesABoundedRejectionAndTrafficContinues() throws Exception {
        WorkloadSpec s = local("apps", 1, 1, 2, "1d", "1m");
        try (GatewayDriver g = driver(GatewayConfig.builder(1, 1))) {
            g.register(s, T0);
            byte[] hugeKey = new byte[2_000_000];
            byte[] hugeValue = new byte[1_000_000];
            new Random(1).nextBytes(hugeValue);
            g.local.pipeInput(hugeKey, hugeValue, T0 + 1_000);
            LocalReport tooLong = LocalReport.newBuilder(report(s, "d1", 0, T0 + 1_000, 1))
                    .setDeviceId("x".repeat(300_000)).build();
            g.local.pipeInput(tooLong.getDeviceId().getBytes(StandardCharsets.UTF_8),
                    new AvroSerializer<LocalReport>(registry.client()).serialize(g.cfg.localReportsTopic(), tooLong), T0 + 1_000);
            g.send(report(s, "d2", 0, T0 + 2_000, 1), T0 + 2_000);
            List<TestRecord<byte[], Rejection>> rejections = g.rejections.readRecordsToList();
            assertThat(rejections).hasSize(2);
            for (TestRecord<byte[], Rejection> r : rejections) {
                assertThat(r.getValue().getReasonCode()).isEqualTo(RejectionReason.MALFORMED);
                assertThat(size(r.getValue())).isLessThan(Rejections.MAX_RECORD_BYTES);
                assertThat(r.getKey().length).isLessThanOrEqualTo(Rejections.MAX_KEY_BYTES);
            }
            Rejection first = rejections.get(0).getValue();
            assertThat(first.getOriginalValueSize()).isEqualTo(1_000_000);
            assertThat(first.getOriginalKeySize()).isEqualTo(2_000_000);
            assertThat(first.getOriginalValue().remaining()).isEqualTo(Rejections.MAX_VALUE_BYTES);
            assertThat(g.metrics.count("pgw.reports.accepted", "workload", "apps")).isEqualTo(1);
        }
    }

    /** 8.1: an exception that repeats on one record used to replace the stream thread forever. */
    @Test
    void aRecordThatFailsProcessingIsSetAsideWithAReasonAndTheRestIsAnswered() {
        WorkloadSpec poison = local("poison", 1, 1, 2, "1d", "1m");
        WorkloadSpec fine = local("fine", 1, 1, 2, "1d", "1m");
        // a defect stand-in: meters for the workload "poison" cannot be created
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        meters.config().meterFilter(new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                if ("poison".equals(id.getTag("workload"))) {
                    throw new IllegalStateException("meter registration failed");
                }
                return id;
            }
        });
        GatewayConfig cfg = GatewayConfig.builder(1, 1).applicationId("hardening").build();
        try (GatewayDriver g = new GatewayDriver(registry.client(), cfg, T0, new GatewayMetrics(meters))) {
            g.register(poison, T0);
            g.register(fine, T0);
            g.send(report(poison, "d1", 0, T0 + 1_000, 1), T0 + 1_000);
            g.send(report(fine, "d1", 0, T0 + 1_000, 1), T0 + 1_000);
            g.send(report(fine, "d2", 0, T0 + 2_000, 2), T0 + 2_000);
            assertThat(reasons(g)).containsExactly(RejectionReason.PROCESSING_ERROR);
            g.advance(Duration.ofSeconds(73));
            List<WindowAnswer> answers = g.answers.readValuesToList();
            assertThat(answers).filteredOn(a -> a.getWorkloadId().equals("fine")).hasSize(1)
                    .allSatisfy(a -> assertThat(a.getN()).isEqualTo(2));
            // nothing of the poisoned report was counted
            assertThat(answers).filteredOn(a -> a.getWorkloadId().equals("poison"))
                    .allSatisfy(a -> assertThat(a.getN()).isZero());
        }
    }

    /** 8.2: with period 1 min and window 1 h the same report bytes were accepted 7 times into one window. */
    @Test
    void aReplayIsRefusedForAsLongAsItsWindowIsOpenWhateverThePeriod() {
        WorkloadSpec s = local("replays", 1, 1, 1, "1m", "1h");
        try (GatewayDriver g = driver(GatewayConfig.builder(1, 1))) {
            g.register(s, T0);
            LocalReport original = report(s, "victim", 0, T0 + 30_000, 2);
            g.send(original, T0 + 30_000);
            for (int i = 1; i <= 10; i++) {
                long t = T0 + i * 5 * MINUTE;
                g.send(report(s, "other-" + i, 0, t, 1), t); // time passes: the watermark moves, periods end
                g.advance(Duration.ofMillis(200)); // punctuation: budget expiry runs
                g.send(original, t + 1); // the same bytes again, within the window and its grace
            }
            List<RejectionReason> r = reasons(g);
            assertThat(r).hasSize(10).containsOnly(RejectionReason.DUPLICATE);
            g.advance(Duration.ofMinutes(70));
            List<WindowAnswer> answers = g.answers.readValuesToList();
            assertThat(answers).filteredOn(a -> a.getWindowStart().toEpochMilli() == T0).singleElement()
                    .satisfies(a -> assertThat(a.getN()).isEqualTo(11)); // the victim once, 10 others
        }
    }

    /** 8.3: every distinct workload id a record named used to register a meter: 2,000 records, 2,000 meters. */
    @Test
    void attackerChosenIdsCreateNoMeters() {
        WorkloadSpec s = local("apps", 1, 1, 2, "1d", "1m");
        try (GatewayDriver g = driver(GatewayConfig.builder(1, 1))) {
            g.register(s, T0);
            g.send(report(s, "warm", 0, T0 + 1_000, 1), T0 + 1_000);
            int before = g.metrics.registry().getMeters().size();
            for (int i = 0; i < 2_000; i++) {
                LocalReport r = LocalReport.newBuilder(report(s, "d" + i, 0, T0 + 1_000, 1)).setWorkloadId("forged-" + i)
                        .build();
                g.send(r, T0 + 1_000);
            }
            assertThat(g.rejections.readValuesToList()).hasSize(2_000);
            assertThat(g.metrics.registry().getMeters().size() - before).isLessThanOrEqualTo(2);
            assertThat(g.metrics.count("pgw.reports.rejected", "reason", "UNKNOWN_WORKLOAD", "workload", "unknown"))
                    .isEqualTo(2_000);
        }
    }

    /** 8.5: a malformed message on the partials topic used to crash-loop the release step. */
    @Test
    void malformedPartialsAreCountedAndSkipped() {
        WorkloadSpec s = local("apps", 1, 1, 2, "1d", "1m");
        try (GatewayDriver g = driver(GatewayConfig.builder(1, 1))) {
            g.register(s, T0);
            g.send(report(s, "d1", 0, T0 + 1_000, 1), T0 + 1_000);
            g.partials.pipeInput("apps", new byte[] {2, 1, 1, 0, 0, 0, 0, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff});
            g.partials.pipeInput("apps", "garbage".getBytes(StandardCharsets.UTF_8));
            g.partials.pipeInput("apps", new byte[] {2, 2, 1, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 1}); // partition 9
            g.partials.pipeInput("x".repeat(500), new byte[] {2});
            assertThat(g.metrics.count("pgw.partials.invalid")).isEqualTo(4);
            g.advance(Duration.ofSeconds(73));
            assertThat(g.answers.readValuesToList()).filteredOn(a -> a.getN() == 1).hasSize(1);
        }
    }

    /** 8.7: v1 (ε = 1, budget 2) then v2 (ε = 0.5) let a device spend ε 3.0 against 2.0. */
    @Test
    void aLowerEpsilonInANewVersionCannotOverspend() {
        WorkloadSpec v1 = local("apps", 1, 1, 2, "1d", "1m");
        WorkloadSpec v2 = local("apps", 2, 0.5, 2, "1d", "1m");
        try (GatewayDriver g = driver(GatewayConfig.builder(1, 1))) {
            g.register(v1, T0);
            g.send(report(v1, "d1", 0, T0 + 1_000, 1), T0 + 1_000);
            g.send(report(v1, "d1", 1, T0 + 2_000, 1), T0 + 2_000);
            g.register(v2, T0 + 3_000);
            for (int seq = 0; seq < 4; seq++) {
                g.send(report(v2, "d1", seq, T0 + 4_000 + seq, 1), T0 + 4_000 + seq);
            }
            // a report of version 2 is another report than version 1's with the same sequence number (its own
            // release); each is refused because the period's budget is spent, whatever its sequence number
            assertThat(reasons(g)).containsExactly(RejectionReason.BUDGET_EXHAUSTED, RejectionReason.BUDGET_EXHAUSTED,
                    RejectionReason.BUDGET_EXHAUSTED, RejectionReason.BUDGET_EXHAUSTED);
            assertThat(g.metrics.count("pgw.epsilon.charged", "workload", "apps")).isEqualTo(2.0);
        }
    }

    /** 8.9: a broker outage longer than the idle timeout pushed watermarks by the wall clock: the backlog was LATE. */
    @Test
    void idleWatermarksStandStillWhileTheBrokerCannotBeRead() {
        WorkloadSpec s = local("apps", 1, 1, 2, "1d", "1m");
        try (GatewayDriver g = driver(GatewayConfig.builder(1, 1))) {
            g.register(s, T0);
            g.send(report(s, "d1", 0, T0 + 1_000, 1), T0 + 1_000);
            g.brokerReachable.set(false);
            g.advance(Duration.ofMinutes(5)); // the gateway's clock runs on; the broker cannot be read
            assertThat(g.answers.readValuesToList()).isEmpty();
            g.send(report(s, "d2", 0, T0 + 5_000, 2), T0 + 5_000); // the backlog arrives after the outage
            assertThat(g.rejections.readValuesToList()).isEmpty();
            g.brokerReachable.set(true);
            g.advance(Duration.ofMillis(200));
            List<WindowAnswer> answers = g.answers.readValuesToList();
            assertThat(answers).filteredOn(a -> a.getWindowStart().toEpochMilli() == T0).singleElement()
                    .satisfies(a -> assertThat(a.getN()).isEqualTo(2));
        }
    }

    /** 8.10: the record key was ignored and any device id trusted. */
    @Test
    void theKeyMustBeTheDeviceIdAndEnrolledDevicesMustProveIt() {
        WorkloadSpec s = local("apps", 1, 1, 2, "1d", "1m");
        byte[] key = new byte[32];
        new Random(5).nextBytes(key);
        DeviceAuthentication enrolled = new DeviceAuthentication.Enrolled(Map.of("k1", key));
        try (GatewayDriver g = driver(GatewayConfig.builder(1, 1).authentication(enrolled))) {
            g.register(s, T0);
            AvroSerializer<LocalReport> ser = new AvroSerializer<>(registry.client());
            LocalReport victim = report(s, "victim", 0, T0 + 1_000, 1);
            byte[] bytes = ser.serialize(g.cfg.localReportsTopic(), victim);
            g.local.pipeInput("attacker".getBytes(StandardCharsets.UTF_8), bytes, T0 + 1_000); // key ≠ device id
            g.local.pipeInput("victim".getBytes(StandardCharsets.UTF_8), bytes, T0 + 1_000); // no credential
            RecordHeaders wrong = new RecordHeaders();
            wrong.add(DeviceCredential.HEADER, DeviceCredential.issue("k1", key, "attacker").getBytes(StandardCharsets.UTF_8));
            g.local.pipeInput(new TestRecord<>("victim".getBytes(StandardCharsets.UTF_8), bytes, wrong,
                    Instant.ofEpochMilli(T0 + 1_000)));
            RecordHeaders right = new RecordHeaders();
            right.add(DeviceCredential.HEADER, DeviceCredential.issue("k1", key, "victim").getBytes(StandardCharsets.UTF_8));
            g.local.pipeInput(new TestRecord<>("victim".getBytes(StandardCharsets.UTF_8), bytes, right,
                    Instant.ofEpochMilli(T0 + 1_000)));
            assertThat(reasons(g)).containsExactly(RejectionReason.KEY_MISMATCH, RejectionReason.UNAUTHENTICATED,
                    RejectionReason.UNAUTHENTICATED);
            assertThat(g.metrics.count("pgw.reports.accepted", "workload", "apps")).isEqualTo(1);
        }
    }

    static WorkloadSpec central(String id) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", id);
        t.put("version", 1);
        t.put("family", "histogram");
        t.put("domain", Map.of("labels", List.of("a", "b", "c", "d")));
        t.put("mode", "central");
        t.put("mechanism", "laplace");
        t.put("central", Map.of("epsilonPerRelease", 1.0, "neighbour", "add-remove", "contributionsPerWindow", 1));
        t.put("budget", Map.of("epsilonPerPeriod", 10.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        return WorkloadSpecParser.parse(t);
    }

    /**
     * 7.2: a central window existed only once a report arrived, so whether an answer was published revealed
     * whether one device contributed. Every window from activation on is answered, at its close time.
     */
    @Test
    void centralWorkloadsAnswerEveryWindowWhetherOrNotAnyoneReported() {
        WorkloadSpec s = central("flags");
        Workload w = Workload.of(s);
        try (GatewayDriver g = driver(GatewayConfig.builder(1, 1))) {
            g.register(s, T0 + 5_000);
            long t = T0 + 2 * MINUTE + 1_000; // one report, in the third window only
            g.sendCentral(CentralReport.newBuilder().setWorkloadId("flags").setWorkloadVersion(1)
                    .setContentHash(w.contentHash()).setDeviceId("d1").setPeriod(t / 86_400_000L).setSequence(0)
                    .setEventTime(Instant.ofEpochMilli(t)).setValue("a").build(), t);
            for (int i = 0; i < 5; i++) {
                g.advance(Duration.ofMinutes(1));
                g.advance(g.cfg.centralReleaseDelay()); // central answers are written a fixed delay after computing
            }
            List<WindowAnswer> answers = g.answers.readValuesToList();
            assertThat(answers).extracting(a -> a.getWindowStart().toEpochMilli())
                    .startsWith(T0, T0 + MINUTE, T0 + 2 * MINUTE, T0 + 3 * MINUTE);
            for (WindowAnswer a : answers) {
                assertThat(a.getMode()).isEqualTo("central");
                assertThat(a.getReleasedAtStreamTime()).isEqualTo(a.getWindowEnd().toEpochMilli() + 10_000);
                assertThat(a.getEstimates()).hasSize(4);
            }
        }
    }

    /**
     * 7.1: the time a central answer appears must not depend on how long its (data-dependent) computation took:
     * answers are computed when due and written a fixed delay after the computation started.
     */
    @Test
    void centralAnswersAreWrittenAFixedDelayAfterTheirComputationStarted() {
        WorkloadSpec s = central("timed");
        try (GatewayDriver g = driver(GatewayConfig.builder(1, 1).centralReleaseDelay(Duration.ofSeconds(1)))) {
            g.register(s, T0);
            g.advance(Duration.ofSeconds(73)); // window [T0, T0 + 1 min) is due: computed now
            assertThat(g.answers.readValuesToList()).isEmpty();
            g.advance(Duration.ofMillis(900)); // not yet: 0.9 s after the computation started
            assertThat(g.answers.readValuesToList()).isEmpty();
            g.advance(Duration.ofMillis(200));
            assertThat(g.answers.readValuesToList()).hasSize(1);
        }
    }

    @Test
    void localWindowsWithoutReportsAreAnsweredWithNZero() {
        WorkloadSpec s = local("apps", 1, 1, 2, "1d", "1m");
        try (GatewayDriver g = driver(GatewayConfig.builder(1, 1))) {
            g.register(s, T0);
            g.send(report(s, "d1", 0, T0 + 1_000, 1), T0 + 1_000);
            g.advance(Duration.ofMinutes(3));
            List<WindowAnswer> answers = g.answers.readValuesToList();
            assertThat(answers).hasSizeGreaterThanOrEqualTo(2);
            assertThat(answers.get(0).getN()).isEqualTo(1);
            assertThat(answers.get(1).getN()).isZero();
            assertThat(answers.get(1).getEstimates()).isEmpty();
            assertThat(answers.get(1).getLabels()).containsExactly("a", "b", "c", "d");
        }
    }

    /** 8.12: a deleted workload left its open windows unreleased. */
    @Test
    void aDeletedWorkloadStillReleasesItsOpenWindowsAndNothingAfter() {
        WorkloadSpec s = local("apps", 1, 1, 2, "1d", "1m");
        try (GatewayDriver g = driver(GatewayConfig.builder(1, 1))) {
            g.register(s, T0);
            g.send(report(s, "d1", 0, T0 + 1_000, 1), T0 + 1_000);
            g.delete("apps", T0 + 30_000);
            g.send(report(s, "d2", 0, T0 + 31_000, 1), T0 + 31_000);
            assertThat(reasons(g)).containsExactly(RejectionReason.UNKNOWN_WORKLOAD);
            g.advance(Duration.ofMinutes(5));
            List<WindowAnswer> answers = g.answers.readValuesToList();
            assertThat(answers).singleElement().satisfies(a -> {
                assertThat(a.getWindowStart().toEpochMilli()).isEqualTo(T0);
                assertThat(a.getN()).isEqualTo(1);
            });
        }
    }

    /** 8.8: the range family over ~200 buckets produced answers over 1 MiB, fatal for the producer. */
    @Test
    void aWorkloadWhoseRecordsWouldNotFitIsRefused() {
        Map<String, Object> t = WorkloadSpecParser.tree();
        List<Integer> edges = new ArrayList<>();
        for (int i = 0; i <= 250; i++) {
            edges.add(i);
        }
        t.put("id", "ranges");
        t.put("version", 1);
        t.put("family", "range");
        t.put("domain", Map.of("buckets", edges));
        t.put("mechanism", "oue");
        t.put("epsilonPerReport", 1.0);
        t.put("budget", Map.of("epsilonPerPeriod", 1.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        WorkloadSpec s = WorkloadSpecParser.parse(t);
        try (GatewayDriver g = driver(GatewayConfig.builder(1, 1))) {
            g.register(s, T0);
            assertThat(g.metrics.count("pgw.workloads.invalid")).isEqualTo(1);
            assertThat(g.catalog.current("ranges")).isNull();
        }
    }

    static WorkloadSpec grouped(String id, int version, double eps, String group, double groupBudget) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", id);
        t.put("version", version);
        t.put("family", "histogram");
        t.put("domain", Map.of("labels", List.of("a", "b", "c", "d")));
        t.put("mechanism", "grr");
        t.put("epsilonPerReport", eps);
        t.put("budget", group == null ? Map.of("epsilonPerPeriod", 4.0, "period", "1d")
                : Map.of("epsilonPerPeriod", 4.0, "period", "1d", "group",
                        Map.of("name", group, "epsilonPerPeriod", groupBudget)));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        return WorkloadSpecParser.parse(t);
    }

    /** 14.1: one budget per device across a group's workloads, never reset by a change of membership. */
    @Test
    void aBudgetGroupCapsADevicesSpendingAcrossItsWorkloads() {
        WorkloadSpec a = grouped("wa", 1, 1, "telemetry", 3);
        WorkloadSpec b = grouped("wb", 1, 1, "telemetry", 3);
        try (GatewayDriver g = driver(GatewayConfig.builder(1, 1))) {
            g.register(a, T0);
            g.register(b, T0);
            for (int seq = 0; seq < 3; seq++) {
                g.send(report(a, "d1", seq, T0 + 1_000 + seq, 1), T0 + 1_000 + seq);
                g.send(report(b, "d1", seq, T0 + 2_000 + seq, 1), T0 + 2_000 + seq);
            }
            assertThat(reasons(g)).containsExactly(RejectionReason.GROUP_BUDGET_EXHAUSTED,
                    RejectionReason.GROUP_BUDGET_EXHAUSTED, RejectionReason.GROUP_BUDGET_EXHAUSTED);
            assertThat(g.metrics.count("pgw.epsilon.charged")).isEqualTo(3.0);
            // workload b leaves the group (version 2): its own budget (4 per day, 1 already spent on b) applies,
            // and the group's spending stays: a's reports are still refused
            g.register(grouped("wb", 2, 1, null, 0), T0 + 10_000);
            WorkloadSpec b2 = grouped("wb", 2, 1, null, 0);
            g.send(report(b2, "d1", 3, T0 + 11_000, 1), T0 + 11_000);
            g.send(report(a, "d1", 3, T0 + 11_000, 1), T0 + 11_000);
            assertThat(reasons(g)).containsExactly(RejectionReason.GROUP_BUDGET_EXHAUSTED);
            // a member declaring another budget for the group is registered, and every declaration binds: the
            // strictest (3) still caps the group, so wc's report is refused too
            WorkloadSpec c = grouped("wc", 1, 1, "telemetry", 5);
            g.register(c, T0 + 12_000);
            assertThat(g.catalog.current("wc")).isNotNull();
            g.send(report(c, "d1", 0, T0 + 12_500, 1), T0 + 12_500);
            assertThat(reasons(g)).containsExactly(RejectionReason.GROUP_BUDGET_EXHAUSTED);

            // device d2 spends 2 on workload wd before wd joins the group (budget 3): from then on the group
            // counts those 2, so d2 has 1 left for all the group's workloads, not 3
            WorkloadSpec d1 = grouped("wd", 1, 1, null, 0);
            g.register(d1, T0 + 13_000);
            g.send(report(d1, "d2", 0, T0 + 14_000, 1), T0 + 14_000);
            g.send(report(d1, "d2", 1, T0 + 14_001, 1), T0 + 14_001);
            g.register(grouped("wd", 2, 1, "telemetry", 3), T0 + 15_000);
            g.send(report(a, "d2", 0, T0 + 16_000, 1), T0 + 16_000);
            g.send(report(a, "d2", 1, T0 + 16_001, 1), T0 + 16_001);
            WorkloadSpec d2 = grouped("wd", 2, 1, "telemetry", 3);
            g.send(report(d2, "d2", 2, T0 + 16_002, 1), T0 + 16_002);
            assertThat(reasons(g)).containsExactly(RejectionReason.GROUP_BUDGET_EXHAUSTED,
                    RejectionReason.GROUP_BUDGET_EXHAUSTED);
            // and a renamed group starts from what its members spent, not from zero
            g.register(grouped("wa", 2, 1, "telemetry-v2", 3), T0 + 17_000);
            g.register(grouped("wd", 3, 1, "telemetry-v2", 3), T0 + 17_000);
            g.send(report(grouped("wa", 2, 1, "telemetry-v2", 3), "d2", 2, T0 + 18_000, 1), T0 + 18_000);
            assertThat(reasons(g)).containsExactly(RejectionReason.GROUP_BUDGET_EXHAUSTED);
        }
    }
}
