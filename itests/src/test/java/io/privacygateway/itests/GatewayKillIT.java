package io.privacygateway.itests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.itests.support.ChildGateway;
import io.privacygateway.itests.support.FaultRig;
import io.privacygateway.itests.support.FaultWorkloads;
import io.privacygateway.itests.support.GatewayMain;
import io.privacygateway.itests.support.ItCluster;
import io.privacygateway.itests.support.Oracle;
import io.privacygateway.itests.support.Timed;
import io.privacygateway.itests.support.Traffic;
import io.privacygateway.itests.support.Windows;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.WindowAnswer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.Random;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * <b>kill -9, six times, local and central mode.</b> A gateway in a child JVM ({@code GatewayMain}, exactly-once v2,
 * 3 local and 2 central partitions, the test-only seeded central releaser) serves a local and a central workload
 * (2-second windows, 1 s grace) while {@value #DEVICES} devices send one local and one central report into every
 * window ({@link Traffic}). The process is killed with SIGKILL {@value #KILLS} times at seeded random points of
 * three kinds, two of each: 0–150 ms after a burst of reports reached the broker (the gateway is processing and
 * committing it), at a random moment 0.5–3 s after it became ready, and during start-up (0.8–2.5 s after the
 * restart, while it restores its state or rejoins the group); after a random 0–1.5 s it is restarted with the same
 * application id and state directory.
 *
 * <p>The offline {@link Oracle} computes what an uninterrupted gateway publishes from the reports sent. The test
 * proves, for both workloads and every window from the activation through the window after the last burst:
 * exactly one answer, bit for bit the oracle's (so n equals the reports sent: none counted twice or lost, and the
 * release is the same); and the rejections topic is empty (no DUPLICATE or BUDGET_EXHAUSTED: no budget charged
 * twice). As a control of the check's power, an oracle missing a single local (or central) report must disagree
 * with the published answers. The seed, kill points and figures are printed. <b>Time:</b> about 75 s.
 */
@ExtendWith({ItCluster.Extension.class, Timed.class})
class GatewayKillIT {
    static final int KILLS = 6;
    static final int DEVICES = 60;
    static final long WINDOW = 2000;

    enum Kind { AFTER_BURST, RANDOM, DURING_STARTUP }

    @Test
    void aGatewayKilledSixTimesPublishesEveryWindowOnceBitForBitAsAnUninterruptedOne(ItCluster c) throws Exception {
        long seed = Long.getLong("it.seed", System.nanoTime());
        Random rnd = new Random(seed);
        long t0 = System.nanoTime();
        FaultRig rig = FaultRig.create("kill", c, "local=3", "central=3", "slackMs=500", "punctuateMs=100");
        ChildGateway g = rig.start("kill-0", "kill");
        List<String> log = new ArrayList<>();
        Traffic traffic = null;
        try {
            g.awaitReady(Duration.ofSeconds(120));
            FaultRig.Served served = rig.serve(FaultWorkloads.local("kill-local", "2s", "1s"),
                    FaultWorkloads.central("kill-central", "2s", "1s"), g);
            ResolvedWorkload local = served.local();
            ResolvedWorkload central = served.central();
            traffic = new Traffic(c.kafkaConfig(), c.registryClient, rig.topics, local, central, DEVICES, "kill-dev-",
                    seed).start(Windows.nextWindowStart(WINDOW, 0));

            Kind[] kinds = {Kind.AFTER_BURST, Kind.RANDOM, Kind.DURING_STARTUP, Kind.AFTER_BURST, Kind.RANDOM,
                    Kind.DURING_STARTUP};
            boolean ready = true;
            for (int k = 0; k < KILLS; k++) {
                long delay;
                if (kinds[k] == Kind.DURING_STARTUP) {
                    delay = 800 + rnd.nextInt(1700);
                    Thread.sleep(delay);
                } else {
                    if (!ready) {
                        g.awaitReady(Duration.ofSeconds(120));
                    }
                    if (kinds[k] == Kind.AFTER_BURST) {
                        traffic.awaitBurst(Duration.ofSeconds(30));
                        delay = rnd.nextInt(151);
                    } else {
                        delay = 500 + rnd.nextInt(2501);
                    }
                    Thread.sleep(delay);
                }
                String state = g.lastMetrics();
                boolean wasReady = g.printed(GatewayMain.READY);
                g.kill();
                long down = rnd.nextInt(1501);
                log.add(String.format("kill %d (%s +%d ms, %s): %s; down %d ms", k + 1, kinds[k], delay,
                        wasReady ? "running" : "before ready", state.replaceAll(" heap\\w+=\\d+", ""), down));
                Thread.sleep(down);
                g = rig.start("kill-" + (k + 1), "kill");
                ready = false;
                if (k + 1 < KILLS && kinds[k + 1] != Kind.DURING_STARTUP) {
                    double s = g.awaitReady(Duration.ofSeconds(120));
                    log.add(String.format("restart %d ready after %.1f s", k + 1, s));
                    ready = true;
                }
            }
            double s = g.awaitReady(Duration.ofSeconds(120));
            log.add(String.format("last restart ready after %.1f s", s));
            traffic.awaitBurst(Duration.ofSeconds(30));
            traffic.awaitBurst(Duration.ofSeconds(30));
            List<SpecificRecord> sent = traffic.stop();
            long last = traffic.lastWindow() + WINDOW; // one empty window after the traffic, too

            int[] checked = rig.verify(served, sent, last, WINDOW, "killed gateway");
            int lw = checked[0];
            int cw = checked[1];
            // the check's power: an oracle that misses a single report (as if one had been lost, or counted
            // twice by the gateway) disagrees with the published answers
            NavigableMap<Long, List<WindowAnswer>> published = rig.answers(local.id());
            assertThatThrownBy(() -> new Oracle(local, rig.activatedAt(served.localSpec()))
                    .addAll(sent.subList(1, sent.size()))
                    .verify(published, last, "control")).isInstanceOf(AssertionError.class);
            NavigableMap<Long, List<WindowAnswer>> publishedCentral = rig.answers(central.id());
            List<SpecificRecord> withoutOneCentral = new ArrayList<>(sent);
            withoutOneCentral.remove(withoutOneCentral.stream().filter(r -> r instanceof CentralReport).findFirst()
                    .orElseThrow());
            assertThatThrownBy(() -> new Oracle(central, rig.activatedAt(served.centralSpec())).addAll(withoutOneCentral)
                    .verify(publishedCentral, last, "control")).isInstanceOf(AssertionError.class);
            List<Rejection> rejected = rig.rejections();
            log.forEach(l -> System.out.println("[kill] " + l));
            System.out.printf("[kill] seed %d: %d kills; %d reports sent (%d bursts of %d local + %d central);"
                    + " %d local and %d central windows checked, each answered once and bit for bit the oracle's;"
                    + " rejections %d; %.1f s%n", seed, KILLS, sent.size(), traffic.bursts(), DEVICES, DEVICES, lw, cw,
                    rejected.size(), (System.nanoTime() - t0) / 1e9);
            assertThat(rejected).as("rejections of valid reports (DUPLICATE, BUDGET_EXHAUSTED, ...)").isEmpty();
            assertThat(lw).isGreaterThanOrEqualTo(10);
        } finally {
            if (traffic != null) {
                traffic.close();
            }
            g.close();
        }
    }
}
