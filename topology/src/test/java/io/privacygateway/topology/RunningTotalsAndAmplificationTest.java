package io.privacygateway.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.amplification.AmplificationBound;
import io.privacygateway.topology.identity.DeviceAuthentication;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.RejectionReason;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.topology.release.AnswerRecords;
import io.privacygateway.schemas.testing.RegistryFixture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 14 end to end through the topology: central running totals over declared horizons (the continual-release
 * tree), charged to devices and to the workload's account on top of the window answers; and the amplified central
 * (ε, δ) on local answers whose mechanism reads payloads alone.
 */
class RunningTotalsAndAmplificationTest {
    @RegisterExtension
    static final RegistryFixture registry = RegistryFixture.shared();
    static final long T0 = 1_800_000_000_000L; // an hour boundary
    static final long MINUTE = 60_000;

    static WorkloadSpec central() {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "totals");
        t.put("version", 1);
        t.put("family", "histogram");
        t.put("domain", Map.of("labels", List.of("a", "b", "c")));
        t.put("mode", "central");
        t.put("mechanism", "laplace");
        t.put("central", Map.of("epsilonPerRelease", 1.0, "neighbour", "add-remove", "contributionsPerWindow", 1,
                "epsilonPerRunningTotal", 0.5));
        t.put("budget", Map.of("epsilonPerPeriod", 2.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s", "horizons", List.of("5m", "since-activation")));
        return WorkloadSpecParser.parse(t);
    }

    @Test
    void centralRunningTotalsFollowEveryWindowAndAreChargedOnTopOfTheWindowAnswer() {
        WorkloadSpec s = central();
        Workload w = Workload.of(s);
        try (GatewayDriver g = new GatewayDriver(registry.client(), GatewayConfig.builder(1, 1).applicationId("totals").build(),
                T0)) {
            g.register(s, T0);
            for (int window = 0; window < 7; window++) {
                for (int i = 0; i < 20; i++) {
                    long t = T0 + window * MINUTE + 1000 + i;
                    g.sendCentral(GatewayTopologyTest.centralReport(w, "d-" + window + "-" + i, 0, t, "b"), t);
                }
            }
            // one device contributes to two windows: 1.5 + 1.5 > 2 (it would fit 2 if only the window answer's ε
            // were charged)
            g.sendCentral(GatewayTopologyTest.centralReport(w, "twice", 0, T0 + 1000, "a"), T0 + 1000);
            g.sendCentral(GatewayTopologyTest.centralReport(w, "twice", 0, T0 + MINUTE + 1000, "a"), T0 + MINUTE + 1000);
            assertThat(g.rejections.readValuesToList()).extracting(r -> r.getReasonCode())
                    .containsExactly(RejectionReason.BUDGET_EXHAUSTED);
            for (int i = 0; i < 9; i++) {
                g.advance(Duration.ofMinutes(1));
                g.advance(g.cfg.centralReleaseDelay());
            }
            List<WindowAnswer> out = g.answers.readValuesToList();
            List<WindowAnswer> windows = out.stream().filter(a -> a.getHorizon() == null).toList();
            List<WindowAnswer> totals = out.stream().filter(a -> a.getHorizon() != null).toList();
            assertThat(windows.size()).isGreaterThanOrEqualTo(7);
            assertThat(totals).hasSize(2 * windows.size());
            for (int k = 0; k < windows.size(); k++) {
                WindowAnswer win = windows.get(k);
                long end = win.getWindowEnd().toEpochMilli();
                // after each window: its answer, then one running total per horizon ending with it
                WindowAnswer five = totals.get(2 * k);
                WindowAnswer all = totals.get(2 * k + 1);
                assertThat(five.getHorizon()).isEqualTo("PT5M");
                assertThat(all.getHorizon()).isEqualTo("since-activation");
                assertThat(five.getWindowEnd().toEpochMilli()).isEqualTo(end);
                assertThat(all.getWindowEnd().toEpochMilli()).isEqualTo(end);
                assertThat(five.getWindowStart().toEpochMilli()).isEqualTo(Math.floorDiv(end - 1, 5 * MINUTE) * 5 * MINUTE);
                assertThat(all.getWindowStart().toEpochMilli()).isEqualTo(T0);
                assertThat(five.getMechanism()).isEqualTo(AnswerRecords.RUNNING_TOTAL_MECHANISM);
                assertThat(five.getDelta()).isZero();
                assertThat(five.getCost().getKind()).isEqualTo("pure");
                assertThat(five.getEstimates()).hasSize(3);
                assertThat(five.getLower()).hasSize(3);
                // the workload's account: the window answer and the running totals, 1.5 per window
                assertThat(win.getCumulativeEpsilon()).isEqualTo(1.5 * (k + 1));
                assertThat(all.getCumulativeEpsilon()).isEqualTo(1.5 * (k + 1));
            }
            // the running total since activation sees every window: its count grows (noisy) with the windows
            WindowAnswer last = totals.get(totals.size() - 1);
            assertThat(last.getN()).isGreaterThan(100);
        }
    }

    static WorkloadSpec local(String mechanism) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "amp-" + mechanism);
        t.put("version", 1);
        t.put("family", "histogram");
        t.put("domain", Map.of("labels", List.of("a", "b", "c", "d")));
        t.put("mechanism", mechanism);
        t.put("epsilonPerReport", 2.0);
        t.put("amplification", Map.of("delta", 1e-6));
        t.put("budget", Map.of("epsilonPerPeriod", 2.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s", "horizons", List.of("2m")));
        return WorkloadSpecParser.parse(t);
    }

    @Test
    void localAnswersCarryTheAmplifiedGuaranteeWhereTheMechanismReadsPayloadsAlone() {
        Map<String, List<WindowAnswer>> byMechanism = new HashMap<>();
        for (String mechanism : List.of("grr", "olh")) {
            WorkloadSpec s = local(mechanism);
            Workload w = Workload.of(s);
            var protocol = LocalPipeline.of(w).protocol();
            SeededRandomBits secret = new SeededRandomBits(3);
            try (GatewayDriver g = new GatewayDriver(registry.client(), GatewayConfig.builder(1, 1).applicationId("amp-" + mechanism)
                    .authentication(new DeviceAuthentication.Open(HONEST)).build(), T0)) {
                g.register(s, T0);
                for (int window = 0; window < 2; window++) {
                    for (int i = 0; i < 400; i++) {
                        long t = T0 + window * MINUTE + 100 + i;
                        LocalReport r = GatewayTopologyTest.report(w, protocol, "d-" + window + "-" + i, 0, t, i % 4,
                                secret);
                        g.send(r, t);
                    }
                }
                LocalReport mover = GatewayTopologyTest.report(w, protocol, "mover", 0, T0 + 2 * MINUTE + 15_000, 1,
                        secret);
                g.send(mover, T0 + 2 * MINUTE + 15_000);
                g.advance(Duration.ofSeconds(2));
                byMechanism.put(mechanism, new ArrayList<>(g.answers.readValuesToList()));
            }
        }
        LocalWorkload grr = (LocalWorkload) ResolvedWorkload.of(local("grr"));
        List<WindowAnswer> grrAnswers = byMechanism.get("grr");
        assertThat(grrAnswers).hasSize(3); // two windows and the 2-minute rollup
        for (WindowAnswer a : grrAnswers) {
            long span = a.getHorizon() == null ? MINUTE : 2 * MINUTE;
            // the crowd is the operator's declared lower bound on honest reports, not every accepted report
            var expected = AmplificationBound.amplified(grr.spec().epsilonPerReport(), HONEST,
                    grr.maxReportsPerDeviceIn(span), 1e-6);
            assertThat(a.getAmplified()).as("GRR answers are functions of the multiset of payloads").isNotNull();
            assertThat(a.getAmplified().getCrowd()).isEqualTo("declared-honest-reports");
            assertThat(a.getAmplified().getCrowdReports()).isEqualTo(HONEST);
            assertThat(a.getAmplified().getEpsilon()).isEqualTo(expected.epsilon());
            assertThat(a.getAmplified().getDelta()).isEqualTo(1e-6);
            assertThat(a.getAmplified().getMethod()).isEqualTo(expected.method());
            // against readers of answers only, the guarantee is far smaller than a report's ε
            assertThat(a.getAmplified().getEpsilon()).isLessThan(a.getEpsilon());
            assertThat(a.getEpsilon()).isEqualTo(2.0); // the local ε per report, unchanged
        }
        // OLH reads reports with coins derived from the device: no amplified guarantee may be published
        assertThat(byMechanism.get("olh")).isNotEmpty().allSatisfy(a -> assertThat(a.getAmplified()).isNull());
    }

    static final long HONEST = 300;

    /**
     * Issue 27 item 6: with open identities an attacker can send most of a window's reports under fresh ids and
     * then isolate the victim's; so an amplified figure is published only over a crowd something vouches for. Open
     * identities without a declaration publish none; a declaration larger than the answer's n publishes none for
     * it; enrolled devices count every report.
     */
    @Test
    void amplifiedFiguresCountOnlyACrowdTheIdentityVouchesFor() {
        WorkloadSpec s = local("grr");
        Workload w = Workload.of(s);
        var protocol = LocalPipeline.of(w).protocol();
        byte[] key = new byte[32];
        java.util.Arrays.fill(key, (byte) 7);
        DeviceAuthentication enrolled = new DeviceAuthentication.Enrolled(Map.of("k1", key));
        Map<String, List<WindowAnswer>> answers = new HashMap<>();
        Map<String, DeviceAuthentication> identities = new java.util.LinkedHashMap<>();
        identities.put("open", DeviceAuthentication.OPEN);
        identities.put("declared-above-n", new DeviceAuthentication.Open(10_000));
        identities.put("enrolled", enrolled);
        for (var e : identities.entrySet()) {
            SeededRandomBits secret = new SeededRandomBits(3);
            try (GatewayDriver g = new GatewayDriver(registry.client(), GatewayConfig.builder(1, 1)
                    .applicationId("crowd-" + e.getKey()).authentication(e.getValue()).build(), T0)) {
                g.register(s, T0);
                for (int i = 0; i < 400; i++) {
                    long t = T0 + 100 + i;
                    LocalReport r = GatewayTopologyTest.report(w, protocol, "d-" + i, 0, t, i % 4, secret);
                    org.apache.kafka.common.header.internals.RecordHeaders h =
                            new org.apache.kafka.common.header.internals.RecordHeaders();
                    h.add(io.privacygateway.schemas.identity.DeviceCredential.HEADER,
                            io.privacygateway.schemas.identity.DeviceCredential.issue("k1", key, "d-" + i)
                                    .getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    g.local.pipeInput(new org.apache.kafka.streams.test.TestRecord<>(("d-" + i).getBytes(),
                            new io.privacygateway.schemas.serde.AvroSerializer<LocalReport>(registry.client())
                                    .serialize(g.cfg.localReportsTopic(), r), h, java.time.Instant.ofEpochMilli(t)));
                }
                g.advance(Duration.ofMinutes(2));
                answers.put(e.getKey(), new ArrayList<>(g.answers.readValuesToList()));
            }
        }
        assertThat(answers.get("open")).isNotEmpty().allSatisfy(a -> assertThat(a.getAmplified()).isNull());
        assertThat(answers.get("declared-above-n")).isNotEmpty()
                .allSatisfy(a -> assertThat(a.getAmplified()).isNull());
        WindowAnswer first = answers.get("enrolled").get(0);
        assertThat(first.getN()).isEqualTo(400);
        assertThat(first.getAmplified()).isNotNull();
        assertThat(first.getAmplified().getCrowd()).isEqualTo("enrolled-devices");
        assertThat(first.getAmplified().getCrowdReports()).isEqualTo(400);
    }
}
