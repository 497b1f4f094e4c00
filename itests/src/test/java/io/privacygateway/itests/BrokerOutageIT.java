package io.privacygateway.itests;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.client.GatewayTopics;
import io.privacygateway.client.ReportProducers;
import io.privacygateway.harness.EmbeddedKafka;
import io.privacygateway.itests.support.ChildGateway;
import io.privacygateway.itests.support.FaultRig;
import io.privacygateway.itests.support.FaultWorkloads;
import io.privacygateway.itests.support.ItCluster;
import io.privacygateway.itests.support.Timed;
import io.privacygateway.itests.support.Windows;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.random.SecureRandomBits;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.simulator.Reports;
import io.privacygateway.harness.testing.TopicReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * <b>A broker outage longer than the idle slack.</b> A gateway (child JVM, watermark slack {@value #SLACK_MS} ms)
 * on a broker of its own serves a local workload (2-second windows, 12 s grace) and a central one (2-second
 * windows, 1 s grace: central windows close on the broker's clock only). {@value #DEVICES} devices report into
 * window W on time; then the broker is stopped for {@value #OUTAGE_MS} ms (the slack + 6 s), during which
 * {@value #DEVICES} more devices send reports for W that their producer buffers; right after the restart,
 * {@value #DEVICES} more devices write reports with event times in W. While the broker cannot be read the
 * gateway's idle watermarks must stand still, so the backlog is judged by broker time, not by a clock that kept
 * running. The test proves:
 * <ul>
 *   <li>local: every report (on time, buffered, written after the restart) is accepted: W's answer has n = 3 ×
 *       {@value #DEVICES}, no rejection;
 *   <li>central: W was not closed during the outage: all 3 × {@value #DEVICES} reports are accepted (none
 *       rejected), n = 3 × {@value #DEVICES} (replace-one: the count is exact), and the whole backlog reached the
 *       broker before the gateway's first clock probe after the restart (read from its clock topic). (A LATE
 *       rejection would be checked against the documented rule: only for a report that arrived after that probe,
 *       with W's close time before the probe's broker time minus the slack.)
 * </ul>
 * The figures (outage, probe times, how many central reports landed before the first probe) are printed.
 * <b>Time:</b> about 35 s.
 */
@ExtendWith({ItCluster.Extension.class, Timed.class})
class BrokerOutageIT {
    static final int DEVICES = 40;
    static final long SLACK_MS = 1000;
    static final long OUTAGE_MS = SLACK_MS + 5000;

    record Sent(String group, SpecificRecord report, Future<RecordMetadata> delivery) {}

    @Test
    void aBacklogAfterAnOutageLongerThanTheSlackIsJudgedByBrokerTimeNotRejectedLate(ItCluster c) throws Exception {
        long t0 = System.nanoTime();
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            FaultRig rig = FaultRig.create("outage", kafka.clientConfig(), kafka.bootstrapServers(),
                    c.registry.ccompatUrl(), c.registryClient, c.workDir(), "local=2", "central=2",
                    "slackMs=" + SLACK_MS, "punctuateMs=100");
            ChildGateway g = rig.start("outage", "outage");
            try {
                g.awaitReady(Duration.ofSeconds(120));
                FaultRig.Served served = rig.serve(FaultWorkloads.local("outage-local", "2s", "12s"),
                        FaultWorkloads.central("outage-central", "2s", "1s", "laplace", "replace-one"), g); // n is exact
                ResolvedWorkload local = served.local();
                ResolvedWorkload central = served.central();
                long w = Windows.nextWindowStart(2000, 1000);
                Map<String, Object> p = kafka.clientConfig();
                p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000);
                p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 120_000);
                p.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 50);
                p.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 20);
                List<Sent> sent = new ArrayList<>();
                long restartedAt;
                long stoppedAt;
                long resumedAt;
                try (Producer<String, SpecificRecord> buffering = ReportProducers.avro(p, c.registryClient)) {
                    Thread.sleep(Math.max(0, w + 200 - System.currentTimeMillis()));
                    send(buffering, rig.topics, local, central, "on-time", w, sent);
                    buffering.flush();
                    stoppedAt = System.currentTimeMillis();
                    kafka.stop();
                    // sent while the broker is down: held by the device's producer (send() itself may block on
                    // metadata, so from another thread)
                    List<Sent> buffered = java.util.Collections.synchronizedList(new ArrayList<>());
                    Thread device = new Thread(() -> send(buffering, rig.topics, local, central, "buffered", w,
                            buffered), "buffering-devices");
                    device.start();
                    Thread.sleep(Math.max(0, stoppedAt + OUTAGE_MS - System.currentTimeMillis()));
                    // The gateway lived through the whole outage; it is paused only from here until the backlog is
                    // on the broker, so that its first clock probe after the restart comes after the backlog
                    // (otherwise a race between device producers and that probe decides, see the class comment).
                    g.pause();
                    kafka.restart();
                    restartedAt = System.currentTimeMillis();
                    try (Producer<String, SpecificRecord> fresh = ReportProducers.avro(p, c.registryClient)) {
                        send(fresh, rig.topics, local, central, "after-restart", w, sent);
                        fresh.flush();
                    }
                    device.join(120_000);
                    buffering.flush();
                    sent.addAll(buffered);
                    g.resume();
                    resumedAt = System.currentTimeMillis();
                }
                System.out.printf("[outage] W = [%d, +2 s); broker stopped at W%+d ms for %d ms (slack %d ms), the"
                        + " gateway paused from 0 to %d ms after the restart; the local window closes at W+14 s,"
                        + " the central one at W+3 s%n", w, stoppedAt - w, restartedAt - stoppedAt, SLACK_MS,
                        resumedAt - restartedAt);
                assertThat(restartedAt - stoppedAt).isGreaterThanOrEqualTo(OUTAGE_MS);

                WindowAnswer la = single(rig.answersFor(local.id(), List.of(w), Duration.ofSeconds(60)).get(w));
                WindowAnswer ca = single(rig.answersFor(central.id(), List.of(w), Duration.ofSeconds(60)).get(w));
                Thread.sleep(1000);
                Map<String, Rejection> rejectedAt = new HashMap<>();
                for (Rejection r : rig.rejections()) {
                    rejectedAt.put(r.getOriginalTopic() + "/" + r.getOriginalPartition() + "@" + r.getOriginalOffset(), r);
                }
                // the gateway's first clock probe the broker stamped after the restart
                long firstProbe = TopicReader.read(kafka.clientConfig(), rig.app + "-clock",
                        r -> r.timestamp() >= restartedAt - 2000, l -> !l.isEmpty(), Duration.ofSeconds(30)).stream()
                        .mapToLong(ConsumerRecord::timestamp).filter(t -> t >= stoppedAt).min().orElseThrow();
                Map<String, int[]> counts = new java.util.TreeMap<>();
                long centralAccepted = 0;
                int centralBeforeProbe = 0;
                for (Sent s : sent) {
                    RecordMetadata md = s.delivery().get(60, TimeUnit.SECONDS);
                    Rejection r = rejectedAt.get(md.topic() + "/" + md.partition() + "@" + md.offset());
                    boolean isLocal = md.topic().equals(rig.topics.localReports());
                    String key = (isLocal ? "local " : "central ") + s.group();
                    int[] k = counts.computeIfAbsent(key, x -> new int[3]);
                    k[r == null ? 0 : 1]++;
                    if (isLocal) {
                        assertThat(r).as("rejection of a %s local report: %s", s.group(),
                                r == null ? "" : r.getReasonCode() + " " + r.getMessage()).isNull();
                        continue;
                    }
                    boolean beforeProbe = md.timestamp() <= firstProbe;
                    k[2] += beforeProbe ? 1 : 0;
                    centralBeforeProbe += beforeProbe && !s.group().equals("on-time") ? 1 : 0;
                    if (r == null) {
                        centralAccepted++;
                    } else {
                        assertThat(r.getReasonCode().name()).isEqualTo("LATE");
                        assertThat(beforeProbe).as("a central report that reached the broker (at %d) before the gateway"
                                + " could read the broker's clock again (%d) was rejected LATE", md.timestamp(),
                                firstProbe).isFalse();
                        assertThat(central.window().closesAt(w)).as("LATE only once the probe's time minus the slack"
                                + " passed the close time").isLessThanOrEqualTo(firstProbe - SLACK_MS);
                    }
                }
                counts.forEach((k, v) -> System.out.printf("[outage] %-24s accepted %d, rejected %d%s%n", k, v[0],
                        v[1], k.startsWith("central") ? ", reached the broker before the first probe " + v[2] : ""));
                System.out.printf("[outage] first clock probe after the restart at restart%+d ms; answers: local n = %d,"
                        + " central n = %d; %.1f s%n", firstProbe - restartedAt, la.getN(), ca.getN(),
                        (System.nanoTime() - t0) / 1e9);
                assertThat(la.getN()).isEqualTo(3L * DEVICES);
                assertThat(ca.getN()).isEqualTo(centralAccepted);
                assertThat(centralBeforeProbe).as("central backlog that reached the broker before the gateway's first"
                        + " probe after the restart (all of it: the gateway was paused)").isEqualTo(2 * DEVICES);
                assertThat(rejectedAt).as("rejections").isEmpty();
            } finally {
                g.close();
            }
        }
    }

    /** One local report (sequence = its group's index) and one central report per device of a group, into W. */
    private static void send(Producer<String, SpecificRecord> p, GatewayTopics topics, ResolvedWorkload local,
            ResolvedWorkload central, String group, long w, List<Sent> out) {
        SecureRandomBits secret = new SecureRandomBits();
        for (int i = 0; i < DEVICES; i++) {
            String device = "outage-" + group + "-" + i;
            long t = w + 300 + i * 30L;
            ReportCoordinates lc = new ReportCoordinates(device, local.periodOf(t).index(), 0);
            SpecificRecord lr = Reports.local(local, lc, t, ((LocalWorkload) local).protocol().randomize(i % 8, lc,
                    secret));
            out.add(new Sent(group, lr, p.send(new ProducerRecord<>(topics.localReports(), device, lr))));
            ReportCoordinates cc = new ReportCoordinates(device, central.periodOf(t).index(), 0);
            SpecificRecord cr = Reports.central(central, cc, t, central.workload().queryLabels().get(i % 8));
            out.add(new Sent(group, cr, p.send(new ProducerRecord<>(topics.centralReports(), device, cr))));
        }
    }

    private static WindowAnswer single(List<WindowAnswer> l) {
        assertThat(l).hasSize(1);
        return l.get(0);
    }
}
