package io.privacygateway.topology.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.testing.RegistryFixture;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.GatewayDriver;
import io.privacygateway.topology.workload.Registration;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The ledger state machine on the real topology: the same random command sequences as
 * {@link LedgerStateMachineTest}, fed to Kafka Streams' {@code TopologyTestDriver} with the real schema registry
 * (workload records on the workloads topic, Avro reports on both report topics, wall-clock punctuations that sweep
 * the ledgers), next to the reference model. After every report: the gateway never admits what the model refuses.
 * At the end every window is closed and released, and every admitted report's release is answered exactly once:
 * no charge for a window that is not answered, no window answered twice, and every local answer counts exactly the
 * reports admitted to it. (Restarts are exercised on the admission path by {@link LedgerStateMachineTest}: the test
 * driver cannot restore a store from its changelog.)
 */
class LedgerTopologyStateMachineTest {
    @org.junit.jupiter.api.extension.RegisterExtension
    static final RegistryFixture registry = RegistryFixture.shared();
    static final int SEQUENCES = 16;
    static final int STEPS = 60;

    @Test
    void theTopologyNeverAdmitsWhatTheModelRefusesAndAnswersEveryChargedWindowOnce() {
        int sequences = Integer.getInteger("ledger.topology.sequences", SEQUENCES);
        long seed = Long.getLong("ledger.seed", 20261129L);
        int admitted = 0;
        int answersChecked = 0;
        for (int i = 0; i < sequences; i++) {
            List<LedgerStateMachineTest.Command> commands = LedgerStateMachineTest.generate(
                    new SplittableRandom(seed + 1000 + i), STEPS);
            Outcome o = run(commands, "ledger-sm-" + i);
            if (o.violation() != null) {
                List<LedgerStateMachineTest.Command> small = shrink(commands);
                throw new AssertionError("sequence " + i + ": " + o.violation() + "\nshrunk to " + small.size()
                        + " commands: " + small + "\n" + run(small, "ledger-sm-shrunk").violation());
            }
            admitted += o.admitted();
            answersChecked += o.windows();
        }
        System.out.printf("ledger topology state machine: %d sequences x %d steps, %d reports admitted, %d windows"
                + " checked against their answers%n", sequences, STEPS, admitted, answersChecked);
        assertThat(admitted).isGreaterThan(sequences);
        assertThat(answersChecked).isPositive();
    }

    /**
     * Found by this test (shrunk from 60 commands): a new version that moved a workload from central to local mode
     * left the central window containing the switch unanswered, though a report had been charged to it (central
     * shards stopped sending progress for a workload whose current version was local).
     */
    @Test
    void aModeSwitchStillAnswersTheOldModesWindowOfTheSwitch() {
        List<LedgerStateMachineTest.Command> commands = List.of(new LedgerStateMachineTest.Advance(3_000),
                new LedgerStateMachineTest.Register(2, Mode.CENTRAL, 0.5, 3.0, "1m", "5s", null, 1.0, 2),
                new LedgerStateMachineTest.Report(0, 2, 367, 1),
                new LedgerStateMachineTest.Register(2, Mode.LOCAL, 1.0, 3.0, "1h", "10s", null, 2.0, 2));
        Outcome o = run(commands, "ledger-mode-switch");
        assertThat(o.violation()).isNull();
        assertThat(o.admitted()).isEqualTo(1);
    }

    /** The outcome of one sequence: the first violation (or null), admitted reports, windows checked. */
    record Outcome(String violation, int admitted, int windows) {}

    private static int shrinkRuns;

    /** Removes commands one at a time while the sequence still fails. */
    static List<LedgerStateMachineTest.Command> shrink(List<LedgerStateMachineTest.Command> failing) {
        List<LedgerStateMachineTest.Command> cur = new ArrayList<>(failing);
        boolean progress = true;
        while (progress) {
            progress = false;
            for (int i = cur.size() - 1; i >= 0; i--) {
                List<LedgerStateMachineTest.Command> shorter = new ArrayList<>(cur);
                shorter.remove(i);
                if (run(shorter, "ledger-sm-shrink-" + shrinkRuns++).violation() != null) {
                    cur = shorter;
                    progress = true;
                }
            }
        }
        return cur;
    }

    /** Runs one sequence. */
    static Outcome run(List<LedgerStateMachineTest.Command> commands, String app) {
        long t0 = LedgerHarness.T0;
        GatewayConfig cfg = GatewayConfig.builder(1, 1).applicationId(app).watermarkSlack(Duration.ofMillis(1_000))
                .build();
        LedgerModel model = new LedgerModel();
        Map<String, Integer> versions = new HashMap<>();
        List<long[]> sent = new ArrayList<>();
        // (content hash, window start) -> admitted reports, and whether the version is local
        Map<String, Integer> charged = new LinkedHashMap<>();
        Map<String, Boolean> localWindow = new HashMap<>();
        int admitted = 0;
        try (GatewayDriver g = new GatewayDriver(registry.client(), cfg, t0)) {
            long[] now = {t0};
            for (int step = 0; step < commands.size(); step++) {
                LedgerStateMachineTest.Command c = commands.get(step);
                if (c instanceof LedgerStateMachineTest.Register r) {
                    String id = LedgerStateMachineTest.IDS[r.workload()];
                    Map<String, Object> tree = new LinkedHashMap<>(LedgerHarness.spec(id, r.mode(), r.epsilon(),
                            r.budget(), r.period(), r.window(), r.group(), r.group() == null ? null : r.groupBudget(),
                            r.contributions()));
                    tree.put("version", versions.merge(id, 1, Integer::sum));
                    g.register(WorkloadSpecParser.parse(tree), now[0]);
                } else if (c instanceof LedgerStateMachineTest.Delete d) {
                    g.delete(LedgerStateMachineTest.IDS[d.workload()], now[0]);
                } else if (c instanceof LedgerStateMachineTest.Advance a) {
                    advance(g, now, a.millis());
                } else if (c instanceof LedgerStateMachineTest.Restart) {
                    continue; // see the class comment
                } else {
                    long[] s;
                    if (c instanceof LedgerStateMachineTest.Report r) {
                        s = new long[] {r.device(), r.workload(), now[0] - r.backMillis(), r.slot()};
                    } else {
                        int e = ((LedgerStateMachineTest.Replay) c).earlier();
                        if (e >= sent.size()) {
                            continue;
                        }
                        s = sent.get(e);
                    }
                    sent.add(s);
                    String device = LedgerStateMachineTest.DEVICES[(int) s[0]];
                    String id = LedgerStateMachineTest.IDS[(int) s[1]];
                    long t = s[2];
                    int slot = (int) s[3];
                    Registration reg = g.catalog.current(id);
                    if (reg == null || reg.deleted() || t < 0) {
                        continue;
                    }
                    ResolvedWorkload w = reg.workload();
                    LedgerModel.Report mr = LedgerStateMachineTest.modelReport(g.catalog, w, device, t, slot);
                    send(g, w, device, t, slot, now[0]);
                    List<Rejection> rejected = g.rejections.readValuesToList();
                    if (rejected.isEmpty()) {
                        admitted++;
                        if (!model.allows(mr)) {
                            return new Outcome("step " + step + ": the topology admitted " + c + " (" + device + " "
                                    + id + " t=" + t + " slot " + slot + ") which the model refuses", admitted, 0);
                        }
                        model.admit(mr);
                        String key = w.contentHash() + "@" + w.window().startOf(t);
                        charged.merge(key, 1, Integer::sum);
                        localWindow.put(key, w.mode() == Mode.LOCAL);
                    }
                }
            }
            advance(g, now, 5 * 60_000L); // every window (at most 1m + 2s grace) closes and is released
            g.advance(Duration.ofSeconds(5));
            Map<String, Integer> answered = new HashMap<>();
            Map<String, Long> n = new HashMap<>();
            for (WindowAnswer a : g.answers.readValuesToList()) {
                if (Boolean.getBoolean("ledger.debug")) {
                    System.out.println("ANSWER " + a.getWorkloadId() + " v" + a.getWorkloadVersion() + " " + a.getMode()
                            + " " + a.getContentHash().substring(0, 8) + " @" + a.getWindowStart().toEpochMilli());
                }
                String key = a.getContentHash() + "@" + a.getWindowStart().toEpochMilli();
                answered.merge(key, 1, Integer::sum);
                n.put(key, a.getN());
            }
            for (Map.Entry<String, Integer> e : charged.entrySet()) {
                int answers = answered.getOrDefault(e.getKey(), 0);
                if (answers != 1) {
                    return new Outcome("window " + e.getKey() + " was charged " + e.getValue() + " report(s) and answered "
                            + answers + " time(s)", admitted, charged.size());
                }
                if (localWindow.get(e.getKey()) && n.get(e.getKey()) != e.getValue().longValue()) {
                    return new Outcome("local window " + e.getKey() + " admitted " + e.getValue() + " report(s), its"
                            + " answer counts " + n.get(e.getKey()), admitted, charged.size());
                }
            }
            return new Outcome(null, admitted, charged.size());
        }
    }

    private static void advance(GatewayDriver g, long[] now, long millis) {
        long step = 1_000;
        for (long done = 0; done < millis; ) {
            long d = Math.min(millis - done, done < 60_000 ? step : 60_000);
            now[0] += d;
            done += d;
            g.advance(Duration.ofMillis(d));
        }
    }

    private static void send(GatewayDriver g, ResolvedWorkload w, String device, long t, int slot, long appendTime) {
        WorkloadSpec s = w.spec();
        long period = s.budget().periodOf(t);
        if (w instanceof LocalWorkload l) {
            byte[] payload = l.protocol().randomize(1, new ReportCoordinates(device, period, slot),
                    new SeededRandomBits(t ^ slot));
            g.send(LocalReport.newBuilder().setWorkloadId(s.id()).setWorkloadVersion(s.version())
                    .setContentHash(w.contentHash()).setDeviceId(device).setPeriod(period).setSequence(slot)
                    .setEventTime(Instant.ofEpochMilli(t)).setMechanism(s.mechanism().wireName())
                    .setEpsilon(s.epsilonPerReport().value()).setPayload(ByteBuffer.wrap(payload))
                    .setProtocolVersion(s.protocolVersion()).build(), appendTime);
        } else {
            g.sendCentral(CentralReport.newBuilder().setWorkloadId(s.id()).setWorkloadVersion(s.version())
                    .setContentHash(w.contentHash()).setDeviceId(device).setPeriod(period).setSequence(slot)
                    .setEventTime(Instant.ofEpochMilli(t)).setValue("b").build(), appendTime);
        }
    }
}
