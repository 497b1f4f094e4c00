package io.privacygateway.itests;

import static org.assertj.core.api.Assertions.assertThat;

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
 * <b>Scale-out.</b> Three gateway instances in child JVMs — one application id, each with its own state directory
 * and static-membership instance id — share 6 local and 6 central report partitions (and 6 partials partitions:
 * every instance runs shards and release tasks). While {@value #DEVICES} devices send one local and one central
 * report into every 2-second window, one instance is killed with SIGKILL mid-window (its partitions wait for its
 * session to expire, then move) and a fourth instance is started (another rebalance), so tasks move between
 * instances while windows are open. The test proves, against the offline {@link Oracle} (what a single
 * uninterrupted instance publishes): every window of both workloads, from the activation through the window after
 * the traffic, is answered exactly once and bit for bit as by a single instance; no report was rejected. The
 * instances' state changes (REBALANCING …) are printed. <b>Time:</b> about 60 s.
 */
@ExtendWith({ItCluster.Extension.class, Timed.class})
class ScaleOutIT {
    static final int DEVICES = 60;
    static final long WINDOW = 2000;

    @Test
    void threeInstancesLosingOneAndGainingAFourthAnswerEveryWindowOnceAsASingleInstanceWould(ItCluster c)
            throws Exception {
        long seed = Long.getLong("it.seed", System.nanoTime());
        Random rnd = new Random(seed);
        long t0 = System.nanoTime();
        FaultRig rig = FaultRig.create("scale", c, "local=6", "central=6", "slackMs=500", "punctuateMs=100");
        List<ChildGateway> instances = new ArrayList<>();
        Traffic traffic = null;
        try {
            for (int i = 1; i <= 3; i++) {
                instances.add(rig.start("scale-" + i, "instance-" + i));
            }
            for (ChildGateway g : instances) {
                g.awaitReady(Duration.ofSeconds(180));
            }
            System.out.printf("[scale] 3 instances ready after %.1f s%n", (System.nanoTime() - t0) / 1e9);
            FaultRig.Served served = rig.serve(FaultWorkloads.local("scale-local", "2s", "1s"),
                    FaultWorkloads.central("scale-central", "2s", "1s"), instances);
            ResolvedWorkload local = served.local();
            ResolvedWorkload central = served.central();
            traffic = new Traffic(c.kafkaConfig(), c.registryClient, rig.topics, local, central, DEVICES, "scale-dev-",
                    seed).start(Windows.nextWindowStart(WINDOW, 0));

            traffic.awaitBurst(Duration.ofSeconds(30));
            traffic.awaitBurst(Duration.ofSeconds(30));
            long killDelay = 300 + rnd.nextInt(1200);
            Thread.sleep(killDelay);
            ChildGateway killed = instances.get(1);
            killed.kill();
            long killedAt = System.nanoTime();
            System.out.printf("[scale] instance-2 killed %d ms after a burst (%s)%n", killDelay,
                    killed.lastMetrics().replaceAll(" heap\\w+=\\d+", ""));
            Thread.sleep(1000 + rnd.nextInt(2000));
            ChildGateway fourth = rig.start("scale-4", "instance-4");
            instances.add(fourth);
            double ready = fourth.awaitReady(Duration.ofSeconds(180));
            System.out.printf("[scale] instance-4 started %.1f s after the kill, ready after %.1f s%n",
                    (System.nanoTime() - killedAt) / 1e9 - ready, ready);
            // until the killed member's session (10 s) has expired and its tasks moved, plus a few windows
            while (System.nanoTime() - killedAt < Duration.ofSeconds(16).toNanos()) {
                traffic.awaitBurst(Duration.ofSeconds(30));
            }
            List<SpecificRecord> sent = traffic.stop();
            long last = traffic.lastWindow() + WINDOW;

            int[] checked = rig.verify(served, sent, last, WINDOW, "3 instances, one killed, one added");
            int lw = checked[0];
            int cw = checked[1];
            List<Rejection> rejected = rig.rejections();
            for (int i = 0; i < instances.size(); i++) {
                System.out.printf("[scale] instance-%d states: %s%n", i + 1, instances.get(i).states());
            }
            System.out.printf("[scale] seed %d: %d reports in %d bursts; %d local and %d central windows checked, each"
                    + " answered once and bit for bit a single instance's; rejections %d; %.1f s%n", seed, sent.size(),
                    traffic.bursts(), lw, cw, rejected.size(), (System.nanoTime() - t0) / 1e9);
            assertThat(rejected).isEmpty();
            assertThat(fourth.states()).as("the new instance took part").contains("RUNNING");
        } finally {
            if (traffic != null) {
                traffic.close();
            }
            for (ChildGateway g : instances) {
                g.close();
            }
        }
    }
}
