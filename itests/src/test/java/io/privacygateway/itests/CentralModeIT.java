package io.privacygateway.itests;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.client.kafka.DeviceClient;
import io.privacygateway.client.Outcome;
import io.privacygateway.simulator.Reports;
import io.privacygateway.client.Workloads;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.itests.support.ItCluster;
import io.privacygateway.itests.support.TestGateway;
import io.privacygateway.itests.support.Timed;
import io.privacygateway.itests.support.Windows;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.harness.testing.MutableClock;
import io.privacygateway.harness.testing.TopicReader;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * <b>Central mode.</b> A central workload (histogram over 3 values, Laplace mechanism, ε = 1 per release,
 * L = 2 contributions per device and window, budget 2 per hour: a device may contribute to 2 windows per
 * period) on the gateway with {@code CentralReleaser.secure()}. 30 devices contribute twice to W1 and
 * twice to W2 through the SDK (which itself refuses their third contribution to W1 and any contribution to
 * W3), 20 more contribute once to W3; hand-built reports from 10 devices contribute 3 times to W1 (slots
 * 0, 1, 0; a slot outside [0, L) would be SEQUENCE_OUT_OF_RANGE) and from
 * 10 others once to each of W1, W2, W3 (central reports carry their contribution slot in [0, L) of the
 * window as their sequence number). The test proves:
 * <ul>
 *   <li>the three windows are answered, each with δ = 0 and ε = 1 (the declared ε per release), and the
 *       workload's cumulative ε grows by 1 per release (every window from the activation on is released,
 *       noise-only when empty, so W1's cumulative ε is 1 + the number of windows released before it, and W2's
 *       and W3's follow by 1 each); every window from the activation through W3 has exactly one answer;
 *   <li>the third contributions to W1 are rejected CONTRIBUTION_LIMIT and the W3 contributions of devices
 *       that paid for W1 and W2 are rejected BUDGET_EXHAUSTED (10 each, in the metrics and on the topic), and
 *       the other 180 contributions are accepted;
 *   <li>rejected central reports carry no original value bytes (raw values never reach the rejections
 *       topic) but do name the record (topic, partition, offset, key).
 * </ul>
 * Deterministic (the noise is not looked at). A second test guards against the per-partition budget bug
 * of {@code BudgetEnforcementIT} for the contribution limit. <b>Time:</b> about 12 s.
 */
@ExtendWith({ItCluster.Extension.class, Timed.class})
class CentralModeIT {
    static String workload(String id) {
        return """
                id: %s
                version: 1
                family: histogram
                domain: {labels: [low, mid, high]}
                mode: central
                mechanism: laplace
                central: {epsilonPerRelease: 1.0, neighbour: add-remove, contributionsPerWindow: 2}
                budget: {epsilonPerPeriod: 2.0, period: 1h}
                window: {size: 2s, grace: 1s}
                """.formatted(id);
    }

    static final String[] VALUES = {"low", "mid", "high"};
    static final long HOUR = 3_600_000;

    @Test
    void centralAnswersArePureEpsilonAndContributionLimitAndBudgetAreEnforcedWithoutLeakingValues(TestGateway g)
            throws Exception {
        WorkloadSpec spec = g.register(workload("it-central"));
        ResolvedWorkload w = Workloads.resolve(spec);
        long w1 = Windows.nextWindowStart(2000, 2000);
        if (Math.floorDiv(w1, HOUR) != Math.floorDiv(w1 + 6000, HOUR)) {
            w1 = (Math.floorDiv(w1, HOUR) + 1) * HOUR; // keep the three windows in one budget period
        }
        long[] windows = {w1, w1 + 2000, w1 + 4000};
        MutableClock clock = new MutableClock(w1);
        List<Future<?>> sent = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            DeviceClient d = DeviceClient.builder("central-ok-" + i, spec).producer(g.reports).clock(clock)
                    .topics(g.topics()).build();
            for (int win = 0; win < 2; win++) {
                clock.set(windows[win] + 500);
                sent.add(sentOk(d.report(VALUES[i % 3])));
                sent.add(sentOk(d.report(VALUES[(i + win) % 3])));
                assertThat(d.report("low").status()).isEqualTo(Outcome.Status.CONTRIBUTION_LIMIT);
            }
            clock.set(windows[2] + 500);
            assertThat(d.report("high").status()).isEqualTo(Outcome.Status.BUDGET_EXHAUSTED);
        }
        clock.set(windows[2] + 500);
        for (int i = 0; i < 20; i++) {
            DeviceClient d = DeviceClient.builder("central-w3-" + i, spec).producer(g.reports).clock(clock)
                    .topics(g.topics()).build();
            sent.add(sentOk(d.report(VALUES[i % 3])));
        }
        for (int i = 0; i < 10; i++) {
            String overL = "central-over-limit-" + i;
            for (int seq = 0; seq < 3; seq++) { // three contributions to W1 in slots 0, 1, 0: L = 2
                sent.add(send(g, Reports.central(w, new ReportCoordinates(overL, w.periodOf(windows[0]).index(), seq % 2),
                        windows[0] + 700, VALUES[seq])));
            }
            String overBudget = "central-over-budget-" + i;
            for (int win = 0; win < 3; win++) { // one contribution (slot 0) to each window: the budget pays for 2
                sent.add(send(g, Reports.central(w, new ReportCoordinates(overBudget, w.periodOf(windows[win]).index(), 0),
                        windows[win] + 700, VALUES[win])));
            }
        }
        for (Future<?> f : sent) {
            f.get(30, TimeUnit.SECONDS);
        }
        assertThat(sent).hasSize(200);

        // Every window from the activation on is released (noise only when empty), each at ε = 1: the cumulative
        // ε of W1 counts the windows released before it.
        long firstWindow = Math.floorDiv(g.activeSince(spec.id()), 2000L) * 2000L;
        assertThat(firstWindow).isLessThanOrEqualTo(w1);
        long releasedBeforeW1 = (w1 - firstWindow) / 2000;
        Map<Long, List<WindowAnswer>> byWindow = g.answersFor(spec.id(), List.of(windows[0], windows[1], windows[2]),
                Duration.ofSeconds(60));
        List<WindowAnswer> answers = new ArrayList<>();
        byWindow.values().forEach(answers::addAll);
        answers.sort(Comparator.comparing(WindowAnswer::getWindowStart));
        assertThat(answers).hasSize(3);
        for (int i = 0; i < 3; i++) {
            WindowAnswer a = answers.get(i);
            System.out.printf("[central] window %d: n %d, estimates %s, epsilon %s, delta %s, cumulative %s%n", i + 1,
                    a.getN(), a.getEstimates(), a.getEpsilon(), a.getDelta(), a.getCumulativeEpsilon());
            assertThat(a.getWindowStart()).isEqualTo(Instant.ofEpochMilli(windows[i]));
            assertThat(a.getMode()).isEqualTo("central");
            assertThat(a.getMechanism()).isEqualTo("laplace");
            assertThat(a.getDelta()).isEqualTo(0.0);
            assertThat(a.getEpsilon()).isEqualTo(1.0);
            assertThat(a.getCumulativeEpsilon()).isEqualTo(releasedBeforeW1 + i + 1.0);
        }

        List<Rejection> rejections = g.rejectionsOfDevices("central-", l -> l.size() >= 20, Duration.ofSeconds(30));
        assertThat(rejections).hasSize(20);
        for (Rejection r : rejections) {
            String expected = r.getDeviceId().startsWith("central-over-limit-") ? "CONTRIBUTION_LIMIT" : "BUDGET_EXHAUSTED";
            assertThat(r.getReasonCode().name()).as(r.getDeviceId()).isEqualTo(expected);
            assertThat(r.getDeviceId()).matches("central-over-(limit|budget)-\\d+");
            assertThat(r.getWorkloadId()).isEqualTo(spec.id());
            assertThat(r.getOriginalValue()).as("raw central value in the rejections topic").isNull();
            assertThat(TopicReader.string(TopicReader.bytes(r.getOriginalKey()))).isEqualTo(r.getDeviceId());
            assertThat(r.getOriginalTopic()).isEqualTo(g.config.centralReportsTopic());
            assertThat(r.getOriginalOffset()).isNotNegative();
            assertThat(r.getMessage()).doesNotContain("low", "mid", "high");
        }
        assertThat(g.accepted(spec.id(), "central")).isEqualTo(180);
        assertThat(g.rejectedByReason(spec.id())).isEqualTo(Map.of("CONTRIBUTION_LIMIT", 10.0, "BUDGET_EXHAUSTED", 10.0));
        // one answer per window, from the activation through W3 (and not more: W3's is the last one read)
        Map<Long, List<WindowAnswer>> all = g.allAnswers(spec.id());
        for (long s = firstWindow; s <= windows[2]; s += 2000) {
            assertThat(all.get(s)).as("answers of the window starting at %d", s).hasSize(1);
        }
        assertThat(g.count("pgw.answers.published", "workload", spec.id(), "mode", "central"))
                .isGreaterThanOrEqualTo(releasedBeforeW1 + 3);
    }

    /**
     * The central-mode face of {@code BudgetEnforcementIT}'s partition test: a device that sends L = 2
     * contributions to each of the 2 central partitions gets exactly L accepted (on its own partition); the
     * others are rejected WRONG_PARTITION, so the sensitivity the release's noise is calibrated to holds.
     * (This was a gateway bug, found by this test: 4 contributions were accepted.)
     */
    @Test
    void aDeviceCannotExceedItsContributionLimitBySendingToSeveralPartitions(TestGateway g) throws Exception {
        WorkloadSpec spec = g.register(workload("it-central-partitions"));
        ResolvedWorkload w = Workloads.resolve(spec);
        long windowStart = Windows.nextWindowStart(2000, 2000);
        long t = windowStart + 500;
        String device = "partitions-central-0";
        for (int partition = 0; partition < g.config.centralPartitions(); partition++) {
            for (int slot = 0; slot < 2; slot++) { // central reports carry their window slot in [0, L)
                CentralReport r = Reports.central(w, new ReportCoordinates(device, w.periodOf(t).index(), slot), t, "high");
                g.reports.send(new ProducerRecord<>(g.topics().centralReports(), partition, device, r))
                        .get(30, TimeUnit.SECONDS);
            }
        }
        List<WindowAnswer> answers = g.answersFor(spec.id(), windowStart, Duration.ofSeconds(60));
        assertThat(answers).hasSize(1);
        double accepted = g.accepted(spec.id(), "central");
        System.out.printf("[central] one device, %d partitions, L = 2: %.0f contributions accepted, rejected %s%n",
                g.config.centralPartitions(), accepted, g.rejectedByReason(spec.id()));
        assertThat(accepted).as("contributions accepted from one device to one window, L = 2").isEqualTo(2);
        // every partition but the device's own refuses both of its slots
        assertThat(g.rejectedByReason(spec.id())).isEqualTo(Map.of("WRONG_PARTITION",
                2.0 * (g.config.centralPartitions() - 1)));
    }

    private static Future<?> sentOk(Outcome o) {
        assertThat(o.status()).isEqualTo(Outcome.Status.SENT);
        return o.delivery();
    }

    private static Future<?> send(TestGateway g, CentralReport r) {
        return g.reports.send(new ProducerRecord<>(g.topics().centralReports(), r.getDeviceId(), r));
    }
}
