package io.privacygateway.itests;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.harness.EmbeddedKafka;
import io.privacygateway.itests.support.ChildGateway;
import io.privacygateway.itests.support.FaultRig;
import io.privacygateway.itests.support.FaultWorkloads;
import io.privacygateway.itests.support.ItCluster;
import io.privacygateway.itests.support.Oracle;
import io.privacygateway.itests.support.Timed;
import io.privacygateway.itests.support.Traffic;
import io.privacygateway.itests.support.Windows;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.schemas.avro.Rejection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * <b>Broker bounce.</b> A broker of its own ({@link EmbeddedKafka}, in this JVM) is stopped and restarted on the same
 * log directories and the same port 3 times while a gateway (child JVM, exactly-once v2) serves a local and a
 * central workload (2-second windows, 5 s grace) and {@value #DEVICES} devices send one local and one central
 * report into every window; the devices' idempotent producer buffers through each bounce. Bounces happen at seeded
 * random points (one right after a burst), each with the broker down 0.5–2 s. The test proves, against the offline
 * {@link Oracle}: every window from the activation through the window after the traffic is answered exactly once
 * and bit for bit as without bounces (nothing lost, nothing doubled), no report is rejected, and the gateway
 * process is still running. <b>Time:</b> about 45 s.
 */
@ExtendWith({ItCluster.Extension.class, Timed.class})
class BrokerBounceIT {
    static final int BOUNCES = 3;
    static final int DEVICES = 50;
    static final long WINDOW = 2000;

    @Test
    void aBrokerBouncedThreeTimesLosesAndDoublesNothing(ItCluster c) throws Exception {
        long seed = Long.getLong("it.seed", System.nanoTime());
        Random rnd = new Random(seed);
        long t0 = System.nanoTime();
        List<String> log = new ArrayList<>();
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            FaultRig rig = FaultRig.create("bounce", kafka.clientConfig(), kafka.bootstrapServers(),
                    c.registry.ccompatUrl(), c.registryClient, c.workDir(), "local=3", "central=3", "slackMs=500",
                    "punctuateMs=100");
            ChildGateway g = rig.start("bounce", "bounce");
            Traffic traffic = null;
            try {
                g.awaitReady(Duration.ofSeconds(120));
                FaultRig.Served served = rig.serve(FaultWorkloads.local("bounce-local", "2s", "5s"),
                        FaultWorkloads.central("bounce-central", "2s", "5s"), g);
                ResolvedWorkload local = served.local();
                ResolvedWorkload central = served.central();
                traffic = new Traffic(kafka.clientConfig(), c.registryClient, rig.topics, local, central, DEVICES,
                        "bounce-dev-", seed).start(Windows.nextWindowStart(WINDOW, 0));
                for (int b = 0; b < BOUNCES; b++) {
                    long delay;
                    if (b == 0) {
                        traffic.awaitBurst(Duration.ofSeconds(30));
                        delay = rnd.nextInt(100);
                    } else {
                        delay = 1500 + rnd.nextInt(2500);
                    }
                    Thread.sleep(delay);
                    long down = 500 + rnd.nextInt(1500);
                    long s0 = System.nanoTime();
                    kafka.stop();
                    Thread.sleep(down);
                    kafka.restart();
                    log.add(String.format("bounce %d: %d ms after %s, broker down %d ms (stop + wait + restart %d ms)",
                            b + 1, delay, b == 0 ? "a burst" : "the previous bounce", down,
                            (System.nanoTime() - s0) / 1_000_000));
                }
                for (int i = 0; i < 3; i++) {
                    traffic.awaitBurst(Duration.ofSeconds(60));
                }
                List<SpecificRecord> sent = traffic.stop();
                long last = traffic.lastWindow() + WINDOW;

                int[] checked = rig.verify(served, sent, last, WINDOW, "bounced broker");
                int lw = checked[0];
                int cw = checked[1];
                List<Rejection> rejected = rig.rejections();
                log.forEach(l -> System.out.println("[bounce] " + l));
                System.out.printf("[bounce] seed %d: %d reports in %d bursts; %d local and %d central windows checked,"
                        + " each answered once and bit for bit the oracle's; rejections %d; gateway states %s; %.1f s%n",
                        seed, sent.size(), traffic.bursts(), lw, cw, rejected.size(), g.states(),
                        (System.nanoTime() - t0) / 1e9);
                assertThat(kafka.restarts()).isEqualTo(BOUNCES);
                assertThat(rejected).isEmpty();
                assertThat(g.isAlive()).isTrue();
                assertThat(g.lastMetrics()).startsWith("METRICS state=RUNNING");
            } finally {
                if (traffic != null) {
                    traffic.close();
                }
                g.close();
            }
        }
    }
}
