package io.privacygateway.itests;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.simulator.Reports;
import io.privacygateway.client.Workloads;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.itests.support.ItCluster;
import io.privacygateway.itests.support.TestGateway;
import io.privacygateway.itests.support.Timed;
import io.privacygateway.itests.support.Windows;
import io.privacygateway.itests.support.ConcurrentReports;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.random.SecureRandomBits;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.WindowAnswer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * <b>Budget enforcement under concurrency.</b> A device whose budget pays for k = 5 reports per period
 * (ε = 1, 5 per day) sends 1,000 reports for one window at once, built by hand so the SDK's own budget
 * does not stop them, from 8 threads with a producer each: sequence numbers 0..599 once each, and 400
 * more that repeat sequence numbers 0..9 (half byte-identical copies, half re-randomized payloads). The
 * test proves that exactly k are accepted (the {@code pgw.reports.accepted} metric and the answer's n),
 * that they are one report for each sequence number 0..4, and that each of the other 995 records is
 * rejected (one rejection record each, found by topic, partition and offset) with
 * SEQUENCE_OUT_OF_RANGE (exactly the 795 with sequence ≥ 5) or DUPLICATE / BUDGET_EXHAUSTED; then the
 * same for 12 devices at once (12,000 reports, n = 60). Deterministic (no statistics).
 *
 * <p>A third test shows that a device whose reports reach several partitions still gets only k accepted
 * (the others are WRONG_PARTITION).
 *
 * <p><b>Time:</b> about 20 s (two windows of 3 s with a 2 s lead and 1 s grace).
 */
@ExtendWith({ItCluster.Extension.class, Timed.class})
class BudgetEnforcementIT {
    static final int K = 5;
    static final int REPORTS_PER_DEVICE = 1000;
    static final int THREADS = 8;

    static String workload(String id) {
        return """
                id: %s
                version: 1
                family: histogram
                domain: {labels: [a, b, c, d]}
                mechanism: grr
                epsilonPerReport: 1.0
                budget: {epsilonPerPeriod: 5.0, period: 1d}
                window: {size: 3s, grace: 1s}
                """.formatted(id);
    }

    @Test
    void oneDeviceSendingAThousandReportsConcurrentlyGetsExactlyItsFiveAccepted(TestGateway g) throws Exception {
        enforce(g, "it-budget-solo", List.of("budget-solo-0"));
    }

    @Test
    void twelveDevicesSendingAThousandReportsEachConcurrentlyGetExactlyFiveAcceptedEach(TestGateway g)
            throws Exception {
        List<String> devices = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            devices.add("budget-fleet-" + i);
        }
        enforce(g, "it-budget-fleet", devices);
    }

    private void enforce(TestGateway g, String workloadId, List<String> devices) throws Exception {
        WorkloadSpec spec = g.register(workload(workloadId));
        assertThat(spec.reportsPerPeriod()).isEqualTo(K);
        ResolvedWorkload w = Workloads.resolve(spec);
        long windowStart = Windows.nextWindowStart(3000, 2000);
        long t = windowStart + 1000;
        List<LocalReport> all = new ArrayList<>();
        for (String device : devices) {
            all.addAll(thousandReports(w, device, t));
        }
        Collections.shuffle(all, new Random(42));
        long t0 = System.nanoTime();
        Map<LocalReport, RecordMetadata> sent = ConcurrentReports.send(g, all, THREADS);
        System.out.printf("[budget] %d reports of %d device(s) sent from %d threads in %.1f s, %d ms before the"
                + " window closes%n", all.size(), devices.size(), THREADS, (System.nanoTime() - t0) / 1e9,
                windowStart + 3000 + 1000 - System.currentTimeMillis());

        int expectedAccepted = K * devices.size();
        int expectedRejected = all.size() - expectedAccepted;
        List<WindowAnswer> answers = g.answersFor(workloadId, windowStart, Duration.ofSeconds(60));
        assertThat(answers).hasSize(1);
        assertThat(answers.get(0).getN()).isEqualTo(expectedAccepted);
        String prefix = devices.get(0).substring(0, devices.get(0).lastIndexOf('-') + 1);
        List<Rejection> rejections = g.rejectionsOfDevices(prefix, l -> l.size() >= expectedRejected,
                Duration.ofSeconds(30));
        assertThat(rejections).hasSize(expectedRejected);
        assertThat(g.accepted(workloadId, "local")).isEqualTo(expectedAccepted);
        Map<String, Double> byReason = g.rejectedByReason(workloadId);
        long outOfRange = all.stream().filter(r -> r.getSequence() >= K).count();
        assertThat(byReason.get("SEQUENCE_OUT_OF_RANGE")).isEqualTo((double) outOfRange);
        assertThat(byReason.keySet()).isSubsetOf("SEQUENCE_OUT_OF_RANGE", "DUPLICATE", "BUDGET_EXHAUSTED");
        assertThat(byReason.values().stream().mapToDouble(Double::doubleValue).sum()).isEqualTo(expectedRejected);
        System.out.println("[budget] rejected by reason: " + byReason);

        // Which records were accepted: every sent record without a rejection record for its offset.
        Map<String, Rejection> rejectedAt = new HashMap<>();
        for (Rejection r : rejections) {
            assertThat(rejectedAt.put(r.getOriginalPartition() + "@" + r.getOriginalOffset(), r)).isNull();
            assertThat(r.getReasonCode().name()).isIn("SEQUENCE_OUT_OF_RANGE", "DUPLICATE", "BUDGET_EXHAUSTED");
        }
        Map<String, Set<Integer>> acceptedSequences = new TreeMap<>();
        for (Map.Entry<LocalReport, RecordMetadata> e : sent.entrySet()) {
            RecordMetadata md = e.getValue();
            Rejection r = rejectedAt.get(md.partition() + "@" + md.offset());
            LocalReport rep = e.getKey();
            if (r == null) {
                assertThat(acceptedSequences.computeIfAbsent(rep.getDeviceId(), k -> new HashSet<>())
                        .add(rep.getSequence())).as("sequence accepted twice").isTrue();
            } else {
                assertThat(r.getDeviceId()).isEqualTo(rep.getDeviceId());
                if (rep.getSequence() >= K) {
                    assertThat(r.getReasonCode().name()).isEqualTo("SEQUENCE_OUT_OF_RANGE");
                }
            }
        }
        for (String device : devices) {
            assertThat(acceptedSequences.get(device)).as(device).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
        }
    }

    /**
     * 1,000 reports of one device: sequence numbers 0..599 once, then 400 reports with sequence numbers
     * {@code i mod 10}, even ones byte-identical copies of the first report with that sequence number, odd
     * ones randomized again (another payload, same coordinates).
     */
    static List<LocalReport> thousandReports(ResolvedWorkload w, String device, long t) {
        SecureRandomBits secret = new SecureRandomBits();
        Random values = new Random(device.hashCode());
        List<LocalReport> out = new ArrayList<>();
        for (int i = 0; i < REPORTS_PER_DEVICE; i++) {
            int seq = i < 600 ? i : i % 10;
            if (i >= 600 && i % 2 == 0) {
                out.add(LocalReport.newBuilder(out.get(seq)).build());
                continue;
            }
            ReportCoordinates c = new ReportCoordinates(device, w.periodOf(t).index(), seq);
            out.add(Reports.local(w, c, t, ((LocalWorkload) w).protocol().randomize(values.nextInt(4), c, secret)));
        }
        return out;
    }

    /**
     * A device cannot multiply its budget by placing reports on several partitions itself (its own id as
     * key, partitions chosen explicitly; equally keyless records or other keys): the budget entries live with the
     * partition of its device id, and reports that arrive elsewhere are rejected {@code WRONG_PARTITION}.
     * With 3 local partitions and k = 5 reports sent to each: exactly 5 accepted (n = 5), 10 rejected
     * WRONG_PARTITION. (This was a gateway bug, found by this test: each partition had its own budget entries and
     * the device got 15 reports accepted.)
     */
    @Test
    void aDeviceCannotMultiplyItsBudgetBySendingToSeveralPartitions(TestGateway g) throws Exception {
        String workloadId = "it-budget-partitions";
        WorkloadSpec spec = g.register(workload(workloadId));
        ResolvedWorkload w = Workloads.resolve(spec);
        long windowStart = Windows.nextWindowStart(3000, 2000);
        long t = windowStart + 1000;
        String device = "budget-partitions-0";
        SecureRandomBits secret = new SecureRandomBits();
        String topic = g.topics().localReports();
        for (int partition = 0; partition < g.config.localPartitions(); partition++) {
            for (int seq = 0; seq < K; seq++) {
                ReportCoordinates c = new ReportCoordinates(device, w.periodOf(t).index(), seq);
                LocalReport r = Reports.local(w, c, t, ((LocalWorkload) w).protocol().randomize(seq % 4, c, secret));
                g.reports.send(new ProducerRecord<>(topic, partition, device, r)).get(30, TimeUnit.SECONDS);
            }
        }
        List<WindowAnswer> answers = g.answersFor(workloadId, windowStart, Duration.ofSeconds(60));
        assertThat(answers).hasSize(1);
        List<Rejection> rejections = g.rejectionsOfDevices("budget-partitions-", l -> l.size() >= 10,
                Duration.ofSeconds(10));
        System.out.printf("[budget] one device, %d partitions: n = %d, rejections %s%n", g.config.localPartitions(),
                answers.get(0).getN(), rejections.stream().map(r -> r.getReasonCode().name())
                        .collect(Collectors.groupingBy(s -> s, Collectors.counting())));
        assertThat(answers.get(0).getN()).as("reports accepted from a device whose budget pays for 5").isEqualTo(K);
        assertThat(rejections).hasSize(2 * K).extracting(r -> r.getReasonCode().name()).containsOnly("WRONG_PARTITION");
    }
}
