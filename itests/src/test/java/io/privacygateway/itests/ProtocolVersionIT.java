package io.privacygateway.itests;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.itests.support.ItCluster;
import io.privacygateway.itests.support.TestGateway;
import io.privacygateway.itests.support.Timed;
import io.privacygateway.itests.support.Windows;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.ReportRecords;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.WindowAnswer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * <b>Versioned protocols on the real broker</b> (issue 28 §4). A CDF over 32 buckets at ε = 1 with mechanism tree:
 * protocol version 1 derives branching factor B = 6, version 2 (current) B = 2, under specs that differ only in
 * {@code protocolVersion}. Devices running tree/1 send 3,000 reports and devices from before protocol versions (B = 6,
 * no version) 500; against the workload registered with its default (tree/2) every one is rejected
 * {@code PROTOCOL_MISMATCH} (rejection record naming both versions, metric), none is decoded (on the code before
 * versions, 2,499 of such 3,000 B = 6 reports were accepted and decoded as B = 2, 501 refused BAD_PAYLOAD). The same workload is then registered again with {@code protocolVersion: 1} (what an operator does during a
 * rollout); the same devices' reports are accepted and the published answer of their window holds the true CDF within
 * its bars. Deterministic (scripted device randomness). <b>Time:</b> a few seconds (two 2-second windows).
 */
@ExtendWith({ItCluster.Extension.class, Timed.class})
class ProtocolVersionIT {
    static final int DEVICES = 3000;
    static final int BUCKETS = 32;
    static final int LEGACY = 500;

    static String workload(int version, String protocolVersion) {
        String edges = IntStream.rangeClosed(0, BUCKETS).mapToObj(i -> Integer.toString(10 * i))
                .collect(Collectors.joining(", "));
        return """
                id: it-protocol-tree
                version: %d
                family: cdf
                domain: {buckets: [%s]}
                mechanism: tree
                epsilonPerReport: 1.0
                budget: {epsilonPerPeriod: 10.0, period: 1d}
                window: {size: 2s, grace: 1s}
                expectedReportsPerWindow: 3000
                %s
                """.formatted(version, edges, protocolVersion == null ? "" : "protocolVersion: " + protocolVersion);
    }

    /** A skewed, fixed population: device i holds bucket ⌊32·u²⌋ for u = (i + 0.5)/DEVICES. */
    static int valueOf(int device) {
        double u = (device + 0.5) / DEVICES;
        return Math.min(BUCKETS - 1, (int) (BUCKETS * u * u));
    }

    /** Every device's report for a device holding {@code deviceSpec}, at event time {@code t}. */
    static List<LocalReport> reports(WorkloadSpec deviceSpec, String prefix, long t) {
        LocalWorkload device = (LocalWorkload) ResolvedWorkload.of(deviceSpec);
        List<LocalReport> out = new ArrayList<>();
        for (int i = 0; i < DEVICES; i++) {
            ReportCoordinates c = new ReportCoordinates(prefix + i, device.periodOf(t).index(), 0);
            byte[] payload = device.protocol().randomize(valueOf(i), c, new SeededRandomBits(1000L + i)); // test only
            out.add(ReportRecords.local(device, c, t, payload));
        }
        return out;
    }

    static List<Future<?>> send(TestGateway g, List<LocalReport> reports) {
        List<Future<?>> sent = new ArrayList<>();
        for (LocalReport r : reports) {
            sent.add(g.reports.send(new ProducerRecord<>(g.topics().localReports(), r.getDeviceId(), r)));
        }
        return sent;
    }

    static void await(List<Future<?>> sent) throws Exception {
        for (Future<?> f : sent) {
            f.get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aPreviousVersionDeviceIsRejectedUntilTheWorkloadServesItsVersion(TestGateway g) throws Exception {
        // 1. the gateway serves tree/2; the fleet still runs tree/1
        WorkloadSpec current = g.register(workload(1, null));
        assertThat(current.protocolVersion()).isEqualTo(2);
        WorkloadSpec oldDevices = current.toBuilder().protocolVersion(1).build();
        long w1 = Windows.nextWindowStart(2000, 1500);
        List<LocalReport> first = reports(oldDevices, "proto-a-", w1 + 500);
        assertThat(first).allSatisfy(r -> assertThat(r.getProtocolVersion()).isEqualTo(1));
        // and builds from before protocol versions (B = 6, no version: the Avro default), 500 of them
        List<LocalReport> legacy = reports(oldDevices, "proto-l-", w1 + 500).subList(0, LEGACY).stream()
                .map(r -> LocalReport.newBuilder(r).setProtocolVersion(0).build()).toList();
        List<Future<?>> sent = send(g, first);
        sent.addAll(send(g, legacy));
        await(sent);
        List<Rejection> rejections = g.rejectionsOfDevices("proto-a-", l -> l.size() >= DEVICES,
                Duration.ofSeconds(60));
        assertThat(rejections).hasSize(DEVICES);
        assertThat(rejections).allSatisfy(r -> {
            assertThat(r.getReasonCode().name()).isEqualTo("PROTOCOL_MISMATCH");
            assertThat(r.getMessage()).isEqualTo("report protocol tree/1, the workload serves tree/2");
        });
        List<Rejection> legacyRejections = g.rejectionsOfDevices("proto-l-", l -> l.size() >= LEGACY,
                Duration.ofSeconds(60));
        assertThat(legacyRejections).hasSize(LEGACY).allSatisfy(r -> {
            assertThat(r.getReasonCode().name()).isEqualTo("PROTOCOL_MISMATCH");
            assertThat(r.getMessage()).startsWith("report protocol tree/legacy, the workload serves tree/2");
        });
        assertThat(g.rejectedByReason(current.id())).containsEntry("PROTOCOL_MISMATCH", (double) DEVICES + LEGACY);
        assertThat(g.accepted(current.id(), "local")).isZero();

        // 2. rollout: the operator registers the workload with the fleet's version; the same devices are served
        WorkloadSpec served = g.register(workload(2, "1"));
        assertThat(served.protocolVersion()).isEqualTo(1);
        WorkloadSpec devices = served; // what devices now load; tree/1 as their build derives it
        long w2 = Windows.nextWindowStart(2000, 1500);
        List<LocalReport> second = reports(devices, "proto-b-", w2 + 500);
        await(send(g, second));
        WindowAnswer a = g.answerFor(served.id(), w2, Duration.ofSeconds(60));
        assertThat(a.getN()).isEqualTo(DEVICES);
        assertThat(a.getWorkloadVersion()).isEqualTo(2);
        // decoded with tree/1's rules: exactly the answer tree/1 computes from these reports
        LocalWorkload reference = (LocalWorkload) ResolvedWorkload.of(served);
        long[] state = new long[reference.accumulator().stateLength()];
        for (LocalReport r : second) {
            byte[] p = new byte[r.getPayload().remaining()];
            r.getPayload().duplicate().get(p);
            assertThat(reference.accumulator().accumulate(p, r.getDeviceId(), r.getPeriod(), r.getSequence(), state))
                    .isTrue();
        }
        double[] expected = reference.release(state, DEVICES).estimates();
        for (int q = 0; q < expected.length; q++) {
            assertThat(a.getEstimates().get(q)).as("estimate %d", q).isEqualTo(expected[q]);
        }

        long[] counts = new long[BUCKETS];
        for (int i = 0; i < DEVICES; i++) {
            counts[valueOf(i)]++;
        }
        double[] truth = io.privacygateway.mechanisms.analytics.WindowStatistics.trueAnswer(((LocalWorkload) ResolvedWorkload.of(served)).workload(), counts);
        int inside = 0;
        double sq = 0;
        for (int q = 0; q < truth.length; q++) {
            if (a.getLower().get(q) <= truth[q] && truth[q] <= a.getUpper().get(q)) {
                inside++;
            }
            double e = a.getEstimates().get(q) - truth[q];
            sq += e * e;
        }
        double rms = Math.sqrt(sq / truth.length);
        System.out.printf("[protocol] tree/1 served: %d of %d true values inside the bars, RMS %.4f (published"
                + " expected RMS %.4f, bound %.4f); rejected %s%n", inside, truth.length, rms,
                a.getExpectedRmsError(), a.getRmsErrorBoundAtConfidence(), g.rejectedByReason(served.id()));
        assertThat(rms).isLessThanOrEqualTo(a.getRmsErrorBoundAtConfidence());
        // one realization of correlated noise: over 60 seeds of this population, 24 to 31 of the 31 true values fell
        // inside and the RMS error stayed at most 0.106 against a bound of 0.162; decoded as tree/2, the issue saw 8
        assertThat(inside).isGreaterThanOrEqualTo(22);
        assertThat(g.rejectedByReason(served.id())).isEqualTo(Map.of("PROTOCOL_MISMATCH", (double) DEVICES + LEGACY));
    }
}
