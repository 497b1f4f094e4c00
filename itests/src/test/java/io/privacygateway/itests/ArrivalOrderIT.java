package io.privacygateway.itests;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.client.ReportProducers;
import io.privacygateway.client.Workloads;
import io.privacygateway.itests.support.Answers;
import io.privacygateway.itests.support.FaultWorkloads;
import io.privacygateway.itests.support.ItCluster;
import io.privacygateway.itests.support.Oracle;
import io.privacygateway.itests.support.Registrations;
import io.privacygateway.itests.support.SeededCentralReleaser;
import io.privacygateway.itests.support.TestGateway;
import io.privacygateway.itests.support.Timed;
import io.privacygateway.itests.support.Windows;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.random.SecureRandomBits;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.simulator.Reports;
import io.privacygateway.topology.GatewayConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * <b>Arrival order and partitioning do not change an answer.</b> One fixed set of reports — {@value #DEVICES}
 * devices, each with 3 local reports and 1 central report in window W1 and 2 local reports and 1 central report
 * in W2 — goes to four gateways (in this JVM, seeded central releaser), each in another seeded shuffle of the
 * whole set (W2's reports may arrive before W1's): 1 partition, 3 partitions (two different orders) and 6
 * partitions (local and central alike). The test proves that every gateway's answers for the windows from its
 * activation through W2 are exactly one per window and bit for bit the offline {@link Oracle}'s — so the answers
 * of the four gateways are identical (central ones up to their cumulative ε, which counts the windows each gateway
 * released since its own activation) — and that nothing was rejected. <b>Time:</b> about 30 s.
 */
@ExtendWith({ItCluster.Extension.class, Timed.class})
class ArrivalOrderIT {
    static final int DEVICES = 150;

    record Layout(String name, int partitions, long shuffleSeed) {}

    @Test
    void theSameReportsInShuffledOrdersOverOneThreeAndSixPartitionsGiveBitIdenticalAnswers(ItCluster c)
            throws Exception {
        long t0 = System.nanoTime();
        String run = Long.toString(System.currentTimeMillis(), 36);
        List<Layout> layouts = List.of(new Layout("p1", 1, 11), new Layout("p3a", 3, 22), new Layout("p3b", 3, 33),
                new Layout("p6", 6, 44));
        List<TestGateway> gateways = new ArrayList<>();
        try {
            for (Layout l : layouts) {
                GatewayConfig cfg = GatewayConfig.builder(l.partitions(), l.partitions())
                        .topicPrefix("it.order." + l.name() + "." + run + ".").applicationId("it-order-" + l.name() + "-"
                                + run).watermarkSlack(Duration.ofMillis(500)).build();
                gateways.add(TestGateway.start(c, cfg, SeededCentralReleaser.INSTANCE));
            }
            WorkloadSpec localSpec = null;
            WorkloadSpec centralSpec = null;
            for (TestGateway g : gateways) {
                localSpec = g.register(FaultWorkloads.local("order-local", "2s", "2s"));
                centralSpec = g.register(FaultWorkloads.central("order-central", "2s", "2s", "central-projection"));
            }
            ResolvedWorkload local = Workloads.resolve(localSpec);
            ResolvedWorkload central = Workloads.resolve(centralSpec);
            System.out.printf("[order] 4 gateways running with both workloads after %.1f s%n",
                    (System.nanoTime() - t0) / 1e9);

            long w1 = Windows.nextWindowStart(2000, 500);
            long w2 = w1 + 2000;
            List<SpecificRecord> reports = reports(local, central, w1, w2);
            for (int i = 0; i < gateways.size(); i++) {
                List<SpecificRecord> order = new ArrayList<>(reports);
                Collections.shuffle(order, new Random(layouts.get(i).shuffleSeed()));
                send(c, gateways.get(i), order);
            }
            System.out.printf("[order] %d reports sent to each gateway, %d ms before W1 closes%n", reports.size(),
                    w1 + 4000 - System.currentTimeMillis());

            List<NavigableMap<Long, List<WindowAnswer>>> localAnswers = new ArrayList<>();
            List<NavigableMap<Long, List<WindowAnswer>>> centralAnswers = new ArrayList<>();
            for (int i = 0; i < gateways.size(); i++) {
                TestGateway g = gateways.get(i);
                String who = layouts.get(i).name();
                Oracle lo = new Oracle(local, activatedAt(c, g, localSpec)).addAll(reports);
                Oracle co = new Oracle(central, activatedAt(c, g, centralSpec)).addAll(reports);
                g.answersFor(local.id(), List.of(w1, w2), Duration.ofSeconds(60));
                g.answersFor(central.id(), List.of(w1, w2), Duration.ofSeconds(60));
                localAnswers.add(g.allAnswers(local.id()));
                centralAnswers.add(g.allAnswers(central.id()));
                int lw = lo.verify(localAnswers.get(i), w2, who);
                int cw = co.verify(centralAnswers.get(i), w2, who);
                assertThat(lo.n(w1)).isEqualTo(3L * DEVICES);
                assertThat(co.n(w2)).isEqualTo(DEVICES);
                assertThat(g.rejectedTotal(local.id()) + g.rejectedTotal(central.id())).as(who).isZero();
                System.out.printf("[order] %s (%d partitions): %d local and %d central windows bit for bit the"
                        + " oracle's; W1 n = %d / %d, W2 n = %d / %d%n", who, layouts.get(i).partitions(), lw, cw,
                        localAnswers.get(i).get(w1).get(0).getN(), centralAnswers.get(i).get(w1).get(0).getN(),
                        localAnswers.get(i).get(w2).get(0).getN(), centralAnswers.get(i).get(w2).get(0).getN());
            }
            for (int i = 1; i < gateways.size(); i++) {
                for (long s : List.of(w1, w2)) {
                    assertThat(Answers.bits(localAnswers.get(i).get(s).get(0)))
                            .isEqualTo(Answers.bits(localAnswers.get(0).get(s).get(0)));
                    assertThat(Answers.bits(noCumulative(centralAnswers.get(i).get(s).get(0))))
                            .isEqualTo(Answers.bits(noCumulative(centralAnswers.get(0).get(s).get(0))));
                }
            }
            System.out.printf("[order] W1 and W2 identical across 1, 3, 3 and 6 partitions and 4 orders; %.1f s%n",
                    (System.nanoTime() - t0) / 1e9);
        } finally {
            gateways.forEach(TestGateway::close);
        }
    }

    private static long activatedAt(ItCluster c, TestGateway g, WorkloadSpec spec) {
        return Registrations.activatedAt(c.kafkaConfig(), c.registryClient, g.config.workloadsTopic(), spec.id(),
                CanonicalForm.contentHash(spec));
    }

    private static WindowAnswer noCumulative(WindowAnswer a) {
        return WindowAnswer.newBuilder(a).setCumulativeEpsilon(0).build();
    }

    /** The fixed input: per device 3 local + 1 central report in W1, 2 local + 1 central in W2. */
    static List<SpecificRecord> reports(ResolvedWorkload local, ResolvedWorkload central, long w1, long w2) {
        SecureRandomBits secret = new SecureRandomBits();
        Random values = new Random(5);
        List<String> labels = local.workload().queryLabels();
        List<SpecificRecord> out = new ArrayList<>();
        for (int d = 0; d < DEVICES; d++) {
            String device = "order-dev-" + d;
            int seq = 0;
            for (long w : List.of(w1, w2)) {
                for (int j = 0; j < (w == w1 ? 3 : 2); j++) {
                    long t = w + 100 + (d * 13L + j * 500L) % 1800;
                    ReportCoordinates lc = new ReportCoordinates(device, local.periodOf(t).index(), seq++);
                    LocalReport lr = Reports.local(local, lc, t, ((LocalWorkload) local).protocol().randomize(
                            values.nextInt(labels.size()), lc, secret));
                    out.add(lr);
                }
                long t = w + 200 + (d * 7L) % 1700;
                ReportCoordinates cc = new ReportCoordinates(device, central.periodOf(t).index(), 0);
                CentralReport cr = Reports.central(central, cc, t, labels.get(values.nextInt(labels.size())));
                out.add(cr);
            }
        }
        return out;
    }

    private static void send(ItCluster c, TestGateway g, List<SpecificRecord> order) throws Exception {
        List<Future<?>> f = new ArrayList<>();
        try (Producer<String, SpecificRecord> p = ReportProducers.avro(c.kafkaConfig(), c.registryClient)) {
            for (SpecificRecord r : order) {
                boolean isLocal = r instanceof LocalReport;
                String device = isLocal ? ((LocalReport) r).getDeviceId() : ((CentralReport) r).getDeviceId();
                f.add(p.send(new ProducerRecord<>(isLocal ? g.topics().localReports() : g.topics().centralReports(),
                        device, r)));
            }
            p.flush();
            for (Future<?> x : f) {
                x.get(30, TimeUnit.SECONDS);
            }
        }
    }
}
