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
import io.privacygateway.mechanisms.random.SecureRandomBits;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.harness.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * <b>Late records.</b> 80 devices report into window W1, which is answered (n = 80). Then, interleaved:
 * 40 new devices report through the SDK with event times in W1 (devices that buffered too long), the 80
 * devices report again into W1 (their second report of the period), 30 hand-built reports name an older
 * window W0 that never had traffic, and 50 devices report on time into a later window W2. The test proves
 * that all 150 late reports are rejected LATE (one rejection record each, and the
 * {@code pgw.reports.rejected{reason=LATE}} metric), that the on-time ones are counted (W2 answered with
 * n = 50), that W1 keeps its single answer and W0 gets none, and that nothing is silently dropped:
 * accepted + rejected equals the 280 reports sent, in the metrics and on the rejections topic.
 * Deterministic. <b>Time:</b> about 15 s (two 2-second windows, each with a 2 s lead and 1 s grace).
 */
@ExtendWith({ItCluster.Extension.class, Timed.class})
class LateRecordsIT {
    static final String WORKLOAD = """
            id: it-late
            version: 1
            family: histogram
            domain: {labels: [a, b, c, d]}
            mechanism: grr
            epsilonPerReport: 1.0
            budget: {epsilonPerPeriod: 10.0, period: 1d}
            window: {size: 2s, grace: 1s}
            """;
    static final String[] LABELS = {"a", "b", "c", "d"};

    @Test
    void reportsForClosedWindowsAreRejectedLateAndCountedAndNothingIsDropped(TestGateway g) throws Exception {
        WorkloadSpec spec = g.register(WORKLOAD);
        ResolvedWorkload w = Workloads.resolve(spec);
        long w1 = Windows.nextWindowStart(2000, 2000);
        MutableClock early = new MutableClock(w1 + 500);
        List<DeviceClient> first = new ArrayList<>();
        List<CompletableFuture<?>> sent = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
            DeviceClient d = DeviceClient.builder("late-a-" + i, spec).producer(g.reports).clock(early)
                    .topics(g.topics()).build();
            first.add(d);
            sent.add(sentOk(d.report(LABELS[i % 4])));
        }
        await(sent);
        List<WindowAnswer> answers = g.answersFor(spec.id(), w1, Duration.ofSeconds(60));
        assertThat(answers).hasSize(1);
        assertThat(answers.get(0).getN()).isEqualTo(80);

        // W1 is closed and answered. Late and on-time traffic, interleaved.
        long w2 = Windows.nextWindowStart(2000, 2000);
        long w0 = w1 - 10_000;
        MutableClock onTime = new MutableClock(w2 + 500);
        SecureRandomBits secret = new SecureRandomBits();
        List<Future<?>> more = new ArrayList<>();
        early.set(w1 + 700);
        for (int i = 0; i < 80; i++) {
            more.add(sentOk(first.get(i).report(LABELS[(i + 1) % 4]))); // second report of the period, into W1: late
            if (i < 40) {
                DeviceClient buffered = DeviceClient.builder("late-b-" + i, spec).producer(g.reports).clock(early)
                        .topics(g.topics()).build();
                more.add(sentOk(buffered.report(LABELS[i % 4]))); // a new device, its report into W1: late
            }
            if (i < 30) {
                ReportCoordinates c = new ReportCoordinates("late-c-" + i, w.periodOf(w0 + 500).index(), 0);
                LocalReport old = Reports.local(w, c, w0 + 500, ((LocalWorkload) w).protocol().randomize(i % 4, c, secret));
                more.add(g.reports.send(new ProducerRecord<>(g.topics().localReports(), c.deviceId(), old)));
            }
            if (i < 50) {
                DeviceClient punctual = DeviceClient.builder("late-d-" + i, spec).producer(g.reports).clock(onTime)
                        .topics(g.topics()).build();
                more.add(sentOk(punctual.report(LABELS[i % 4]))); // into W2: on time
            }
        }
        for (Future<?> f : more) {
            f.get(30, TimeUnit.SECONDS);
        }
        int total = 80 + more.size();
        assertThat(total).isEqualTo(280);

        // every window from the activation on is answered; W0 lies before it and gets no answer
        Map<Long, List<WindowAnswer>> byWindow = g.answersFor(spec.id(), List.of(w1, w2), Duration.ofSeconds(60));
        assertThat(g.allAnswers(spec.id())).doesNotContainKey(w0);
        answers = new ArrayList<>(byWindow.get(w1));
        answers.addAll(byWindow.get(w2));
        assertThat(answers).hasSize(2);
        assertThat(answers.get(0).getWindowStart()).isEqualTo(Instant.ofEpochMilli(w1));
        assertThat(answers.get(0).getN()).isEqualTo(80);
        assertThat(answers.get(1).getWindowStart()).isEqualTo(Instant.ofEpochMilli(w2));
        assertThat(answers.get(1).getN()).isEqualTo(50);

        List<Rejection> rejections = g.rejectionsOfDevices("late-", l -> l.size() >= 150, Duration.ofSeconds(30));
        assertThat(rejections).hasSize(150);
        assertThat(rejections).allSatisfy(r -> assertThat(r.getReasonCode().name()).isEqualTo("LATE"));
        assertThat(rejections.stream().filter(r -> r.getDeviceId().startsWith("late-c-"))).hasSize(30);
        assertThat(rejections.stream().filter(r -> r.getDeviceId().startsWith("late-d-"))).isEmpty();

        double accepted = TestGateway.awaitAtLeast(() -> g.accepted(spec.id(), "local"), 130, Duration.ofSeconds(10));
        Map<String, Double> rejected = g.rejectedByReason(spec.id());
        System.out.printf("[late] sent %d, accepted %.0f, rejected %s%n", total, accepted, rejected);
        assertThat(accepted).isEqualTo(130);
        assertThat(rejected).isEqualTo(Map.of("LATE", 150.0));
        assertThat(accepted + g.rejectedTotal(spec.id())).as("accepted + rejected = sent").isEqualTo(total);
        assertThat(accepted + rejections.size()).isEqualTo(total);
    }

    private static CompletableFuture<?> sentOk(Outcome o) {
        assertThat(o.status()).isEqualTo(Outcome.Status.SENT);
        return o.delivery();
    }

    private static void await(List<CompletableFuture<?>> futures) throws Exception {
        CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
    }
}
