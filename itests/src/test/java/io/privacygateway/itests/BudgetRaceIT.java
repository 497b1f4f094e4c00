package io.privacygateway.itests;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.client.WorkloadFiles;
import io.privacygateway.client.Workloads;
import io.privacygateway.itests.support.ItCluster;
import io.privacygateway.itests.support.TestGateway;
import io.privacygateway.itests.support.Timed;
import io.privacygateway.itests.support.ConcurrentReports;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.planner.Planner;
import io.privacygateway.mechanisms.random.SecureRandomBits;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.simulator.Reports;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * <b>Budget races across versions and a period boundary.</b> A workload with a budget of ε = 5 per 6-second period
 * runs version 1 (ε = 1 per report, so sequence numbers 0..4) and then version 2 (ε = 0.5, sequence numbers 0..9).
 * {@value #DEVICES} devices each send, from {@value #THREADS} threads with a producer each, all at once:
 * 1,000 version-1 reports into period k (sequence numbers {@code i mod 3}, fresh payloads: at most ε = 3 can be
 * spent in version 1, so every device's period k always sums charges of both versions) and 1,000 version-2
 * reports, half into the last window of period k and half into the first window of period k+1 (sequence numbers
 * {@code i mod 20}) — while version 2 is registered in the middle of the burst, so which version a report meets
 * is a race. Then, with version 2 active, each device sends 1,000 more version-2 reports over both periods at once
 * (so that whatever the race left, the budget can be filled). From the accepted reports (every sent record without
 * a rejection record for its offset) the test computes, exactly in decimals, the ε admitted per device and period:
 * it equals the budget, 5, for every device in both periods — never more (versions do not get a budget each, a
 * lower ε in version 2 does not reset what version 1 spent), and every record is either accepted or rejected once.
 * <b>Time:</b> about 25 s.
 */
@ExtendWith({ItCluster.Extension.class, Timed.class})
class BudgetRaceIT {
    static final int DEVICES = 4;
    static final int THREADS = 8;
    static final long PERIOD = 6000;
    static final String ID = "it-budget-race";

    static String workload(int version, String epsilon) {
        return """
                id: %s
                version: %d
                family: histogram
                domain: {labels: [a, b, c, d]}
                mechanism: grr
                epsilonPerReport: %s
                budget: {epsilonPerPeriod: 5.0, period: 6s}
                window: {size: 2s, grace: 1s}
                """.formatted(ID, version, epsilon);
    }

    @Test
    void concurrentReportsAcrossTwoVersionsAndAPeriodBoundaryAdmitExactlyTheBudgetPerDeviceAndPeriod(TestGateway g)
            throws Exception {
        WorkloadSpec v1 = g.register(workload(1, "1.0"));
        WorkloadSpec v2 = Planner.resolve(WorkloadFiles.parse(workload(2, "0.5"), "it"));
        ResolvedWorkload r1 = Workloads.resolve(v1);
        ResolvedWorkload r2 = Workloads.resolve(v2);
        assertThat(v1.reportsPerPeriod()).isEqualTo(5);
        assertThat(v2.reportsPerPeriod()).isEqualTo(10);
        long boundary = Math.floorDiv(System.currentTimeMillis() + 6500 + PERIOD - 1, PERIOD) * PERIOD;
        long inV1Window = boundary - PERIOD + 500; // window [B-6 s, B-4 s) of period k
        long lastOfK = boundary - 1000; // window [B-2 s, B) of period k
        long firstOfNext = boundary + 1000; // window [B, B+2 s) of period k+1

        SecureRandomBits secret = new SecureRandomBits();
        List<LocalReport> phase1 = new ArrayList<>();
        for (int d = 0; d < DEVICES; d++) {
            String device = "race-" + d;
            for (int i = 0; i < 1000; i++) {
                phase1.add(report(r1, device, inV1Window, i % 3, secret)); // at most 3 of the 5 in version 1

                phase1.add(report(r2, device, i < 500 ? lastOfK : firstOfNext, i % 20, secret));
            }
        }
        Collections.shuffle(phase1, new Random(1));
        CompletableFuture<Long> registered = new CompletableFuture<>();
        Map<LocalReport, RecordMetadata> sent = ConcurrentReports.send(g, phase1, THREADS, () -> {
            try {
                Thread.sleep(150); // into the burst
                g.register(workload(2, "0.5"));
                registered.complete(System.currentTimeMillis());
            } catch (Exception e) {
                registered.completeExceptionally(e);
            }
        });
        long v2At = registered.get(60, TimeUnit.SECONDS);
        System.out.printf("[race] phase 1: %d reports sent; version 2 active in the gateway at B%+d ms%n",
                phase1.size(), v2At - boundary);

        List<LocalReport> phase2 = new ArrayList<>();
        for (int d = 0; d < DEVICES; d++) {
            for (int i = 0; i < 1000; i++) {
                phase2.add(report(r2, "race-" + d, i < 500 ? lastOfK : firstOfNext, i % 20, secret));
            }
        }
        Collections.shuffle(phase2, new Random(2));
        sent.putAll(ConcurrentReports.send(g, phase2, THREADS));
        System.out.printf("[race] phase 2: %d more version-2 reports sent, %d ms before the last window of period k"
                + " closes%n", phase2.size(), boundary + 1000 - System.currentTimeMillis());
        int total = phase1.size() + phase2.size();
        double processed = TestGateway.awaitAtLeast(() -> g.accepted(ID, "local") + g.rejectedTotal(ID), total,
                Duration.ofSeconds(60));
        assertThat(processed).as("accepted + rejected = sent").isEqualTo(total);
        long rejectedCount = (long) g.rejectedTotal(ID);
        List<Rejection> rejections = g.rejectionsOfDevices("race-", l -> l.size() >= rejectedCount,
                Duration.ofSeconds(60));
        assertThat(rejections).hasSize((int) rejectedCount);
        Map<String, Rejection> rejectedAt = new HashMap<>();
        Map<String, Integer> reasons = new TreeMap<>();
        for (Rejection r : rejections) {
            assertThat(rejectedAt.put(r.getOriginalPartition() + "@" + r.getOriginalOffset(), r)).isNull();
            reasons.merge(r.getReasonCode().name(), 1, Integer::sum);
        }

        // ε admitted per device and period, exactly, from the accepted reports
        Map<String, BigDecimal> spent = new TreeMap<>();
        Map<String, int[]> acceptedByVersion = new TreeMap<>();
        int accepted = 0;
        for (Map.Entry<LocalReport, RecordMetadata> e : sent.entrySet()) {
            RecordMetadata md = e.getValue();
            if (rejectedAt.containsKey(md.partition() + "@" + md.offset())) {
                continue;
            }
            accepted++;
            LocalReport r = e.getKey();
            WorkloadSpec spec = r.getWorkloadVersion() == 1 ? v1 : v2;
            String key = r.getDeviceId() + " period " + (r.getPeriod() == boundary / PERIOD - 1 ? "k" : "k+1");
            spent.merge(key, spec.epsilonPerReport().exact(), BigDecimal::add);
            acceptedByVersion.computeIfAbsent(key, k -> new int[2])[r.getWorkloadVersion() - 1]++;
        }
        spent.forEach((k, eps) -> System.out.printf("[race] %-18s accepted v1 %d, v2 %d: ε %s%n", k,
                acceptedByVersion.get(k)[0], acceptedByVersion.get(k)[1], eps.toPlainString()));
        System.out.printf("[race] %d sent, %d accepted, rejected %s%n", total, accepted, reasons);
        assertThat(accepted).isEqualTo((long) g.accepted(ID, "local"));
        assertThat(spent).hasSize(2 * DEVICES);
        for (Map.Entry<String, BigDecimal> e : spent.entrySet()) {
            assertThat(e.getValue().compareTo(new BigDecimal("5"))).as("ε admitted to %s: %s", e.getKey(),
                    e.getValue().toPlainString()).isZero();
        }
    }

    private static LocalReport report(ResolvedWorkload w, String device, long t, int seq, SecureRandomBits secret) {
        ReportCoordinates c = new ReportCoordinates(device, w.periodOf(t).index(), seq);
        return Reports.local(w, c, t, ((LocalWorkload) w).protocol().randomize(seq % 4, c, secret));
    }
}
