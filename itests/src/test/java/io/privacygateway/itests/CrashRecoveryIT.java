package io.privacygateway.itests;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.client.GatewayTopics;
import io.privacygateway.client.ReportProducers;
import io.privacygateway.simulator.Reports;
import io.privacygateway.client.WorkloadFiles;
import io.privacygateway.client.WorkloadRegistrar;
import io.privacygateway.client.Workloads;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.itests.support.Answers;
import io.privacygateway.itests.support.ChildGateway;
import io.privacygateway.itests.support.Deployment;
import io.privacygateway.itests.support.GatewayMain;
import io.privacygateway.itests.support.ItCluster;
import io.privacygateway.itests.support.Timed;
import io.privacygateway.itests.support.Windows;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.random.SecureRandomBits;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.testing.AvroTopicReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * <b>Crash recovery.</b> Two gateways run in child JVMs ({@code GatewayMain}, exactly-once v2): A, which
 * is killed with SIGKILL and restarted, and B, which runs uninterrupted, each with its own application id,
 * topics and state directory. Both get the identical input: 3,000 valid local reports (250 devices, each
 * reporting 3 times into each of 4 windows, all 12 reports its daily budget pays for), the same records
 * with the same keys, produced by one producer to A's and B's report topics alternately.
 * <ol>
 *   <li>Part 1 (2,000 reports: all of windows 1–2 and a third of windows 3–4) is produced; both gateways
 *       answer windows 1 and 2.
 *   <li>Part 2 (500 more reports for windows 3–4) is produced at a moderate pace; as soon as A's consumer
 *       group has committed an offset beyond part 1 on some partition (A is working through part 2, with
 *       windows 3–4 open and partly aggregated), A is killed with SIGKILL.
 *   <li>The rest of part 2 and part 3 (the last 500 reports) are produced while A is down; A is restarted
 *       with the same application id and state directory.
 * </ol>
 * The test proves, reading answers and rejections with read_committed consumers: A and B answer every window
 * from their workload's activation on exactly once (windows 1–2 are not answered again after the restart; the
 * windows between 2 and 3 are answered empty, n = 0); for each of the 4 windows
 * A's and B's answers are identical bit for bit (estimates, error bars, standard errors, bounds, n; only
 * the release's stream time differs, because append times differ), and so are those of every other window
 * both answered; n = 750 in every window (no report
 * counted twice or lost); and neither gateway rejected anything (in particular no DUPLICATE or
 * BUDGET_EXHAUSTED after the restart: no budget was charged twice).
 *
 * <p>Timing: report topics use LogAppendTime and windows close by broker time, so windows 3–4 lie
 * {@link #GAP_MILLIS} after window 1: every report of them is appended before they close in either run,
 * and A has restarted and worked through its backlog before its idle shards could advance past them
 * (the event times lead the broker by up to 30 s; the children allow 2 min). Measured: A is RUNNING again
 * about 14 s after window 1 begins, windows 3–4 close at the shards 30 s after it.
 * <b>Time:</b> about 50 s (two child JVMs start in parallel, windows 3–4 end 30 s after window 1).
 */
@ExtendWith({ItCluster.Extension.class, Timed.class})
class CrashRecoveryIT {
    static final int DEVICES = 250;
    static final int WINDOWS = 4;
    static final int PER_WINDOW = 3;
    static final long WINDOW_MILLIS = 2000;
    /** Windows 3–4 start this long after window 1 (restart of a JVM under load, with a wide margin). */
    static final long GAP_MILLIS = 26_000;
    static final int PARTITIONS = 3;
    static final String WORKLOAD = """
            id: it-crash
            version: 1
            family: histogram
            domain: {labels: [mail, maps, music, news, video, games, shop, chat]}
            mechanism: auto
            epsilonPerReport: 1.0
            budget: {epsilonPerPeriod: 12.0, period: 1d}
            window: {size: 2s, grace: 2s}
            expectedReportsPerWindow: 750
            """;

    @Test
    void aGatewayKilledMidWindowAndRestartedPublishesExactlyTheAnswersOfAnUninterruptedOne(ItCluster c)
            throws Exception {
        String run = Long.toString(System.currentTimeMillis(), 36);
        Path work = Files.createDirectories(c.workDir().resolve("crash-" + run));
        String appA = "it-crash-a-" + run;
        String appB = "it-crash-b-" + run;
        GatewayTopics topicsA = new GatewayTopics("it.crash.a." + run + ".");
        GatewayTopics topicsB = new GatewayTopics("it.crash.b." + run + ".");
        List<String> argsA = args(c, appA, topicsA, work.resolve("state-a"));
        List<String> argsB = args(c, appB, topicsB, work.resolve("state-b"));
        long t0 = System.nanoTime();
        Deployment.prepare(GatewayMain.settings(argsA), c.registryClient); // see Deployment
        Deployment.prepare(GatewayMain.settings(argsB), c.registryClient);
        ChildGateway a = ChildGateway.start("A", argsA, work.resolve("gateway-a.log"));
        ChildGateway b = null;
        try {
            b = ChildGateway.start("B", argsB, work.resolve("gateway-b.log"));
            double readyA = a.awaitReady(Duration.ofSeconds(120));
            double readyB = b.awaitReady(Duration.ofSeconds(120));
            System.out.printf("[crash] A ready after %.1f s, B after %.1f s%n", readyA, readyB);
            WorkloadSpec spec = register(c, topicsA);
            assertThat(register(c, topicsB)).isEqualTo(spec);
            ResolvedWorkload w = Workloads.resolve(spec);
            a.awaitLine("WORKLOAD it-crash=" + w.contentHash(), Duration.ofSeconds(30));
            b.awaitLine("WORKLOAD it-crash=" + w.contentHash(), Duration.ofSeconds(30));

            long w1 = Windows.nextWindowStart(WINDOW_MILLIS, 2000);
            long[] starts = {w1, w1 + WINDOW_MILLIS, w1 + GAP_MILLIS, w1 + GAP_MILLIS + WINDOW_MILLIS};
            List<List<LocalReport>> parts = input(w, starts);
            try (Producer<String, SpecificRecord> producer = ReportProducers.avro(c.kafkaConfig(), c.registryClient)) {
                Map<Integer, Long> part1End = produce(producer, parts.get(0), topicsA, topicsB);
                System.out.printf("[crash] part 1 (%d reports) produced at %s; A's offsets after it: %s%n",
                        parts.get(0).size(), rel(w1), part1End);
                for (GatewayTopics t : List.of(topicsA, topicsB)) {
                    Answers.byWindow(c.kafkaConfig(), c.registryClient, t.answers(), "it-crash",
                            List.of(starts[0], starts[1]), Duration.ofSeconds(60))
                            .forEach((start, l) -> assertThat(l).as("answers of %d on %s", start, t.prefix()).hasSize(1));
                }
                System.out.printf("[crash] windows 1-2 answered by A and B at %s%n", rel(w1));

                // Part 2, paced, in the background; kill A once it has committed progress into part 2.
                CompletableFuture<Map<Integer, Long>> part2 = CompletableFuture.supplyAsync(() -> {
                    try {
                        return produce(producer, parts.get(1), topicsA, topicsB, 25, 40);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                Map<Integer, Long> committedAtKill = awaitCommittedBeyond(c, appA, topicsA, part1End,
                        Duration.ofSeconds(20));
                String lastWords = a.lastMetrics();
                a.kill();
                long killedAt = System.currentTimeMillis();
                Map<Integer, Long> part2End = part2.get(60, TimeUnit.SECONDS);
                System.out.printf("[crash] A (pid %d) killed at %s with committed offsets %s (part 1 ends at %s,"
                        + " part 2 at %s); its last counters (≤ 250 ms old): %s%n", a.pid(), rel(w1), committedAtKill,
                        part1End, part2End, lastWords);
                assertThat(committedAtKill.values().stream().mapToLong(Long::longValue).sum())
                        .as("A had committed progress beyond part 1").isGreaterThan(parts.get(0).size());
                assertThat(committedAtKill.values().stream().mapToLong(Long::longValue).sum())
                        .as("A had not processed all the input").isLessThan(total(parts));
                produce(producer, parts.get(2), topicsA, topicsB);
                System.out.printf("[crash] part 3 produced at %s%n", rel(w1));
                a = ChildGateway.start("A-restarted", argsA, work.resolve("gateway-a.log"));
                double restart = a.awaitReady(Duration.ofSeconds(120));
                long closes = starts[2] + WINDOW_MILLIS + 2000;
                assertThat(System.currentTimeMillis()).as("timing precondition, not a gateway failure: A must be"
                        + " running again well before windows 3-4 close (raise GAP_MILLIS on a slower machine)")
                        .isLessThan(closes - 3000);
                System.out.printf("[crash] A restarted %.1f s after the kill, %.1f s to RUNNING, at %s; windows 3-4"
                        + " close at the shards from %s%n", (System.currentTimeMillis() - killedAt) / 1e3, restart,
                        rel(w1), rel(w1, closes));
            }

            List<Long> windows = java.util.Arrays.stream(starts).boxed().toList();
            Answers.byWindow(c.kafkaConfig(), c.registryClient, topicsA.answers(), "it-crash", windows,
                    Duration.ofSeconds(120));
            Answers.byWindow(c.kafkaConfig(), c.registryClient, topicsB.answers(), "it-crash", windows,
                    Duration.ofSeconds(60));
            System.out.printf("[crash] windows 3-4 answered at %s; A after restart: %s%n", rel(w1), a.lastMetrics());
            Thread.sleep(3000); // several punctuations: a second release of any window would show now
            java.util.NavigableMap<Long, List<WindowAnswer>> fromA = Answers.all(c.kafkaConfig(), c.registryClient, topicsA.answers(),
                    "it-crash");
            java.util.NavigableMap<Long, List<WindowAnswer>> fromB = Answers.all(c.kafkaConfig(), c.registryClient, topicsB.answers(),
                    "it-crash");

            // Every window is answered (empty ones with n = 0), each exactly once, from each gateway's activation on.
            for (java.util.NavigableMap<Long, List<WindowAnswer>> m : List.of(fromA, fromB)) {
                long first = m.firstKey();
                long last = m.lastKey();
                assertThat(m).hasSize((int) ((last - first) / WINDOW_MILLIS + 1));
                m.forEach((start, l) -> assertThat(l).as("answers of the window starting at %d", start).hasSize(1));
            }
            for (int k = 0; k < WINDOWS; k++) {
                WindowAnswer x = fromA.get(starts[k]).get(0);
                WindowAnswer y = fromB.get(starts[k]).get(0);
                assertThat(x.getN()).as("n of window %d in A", k + 1).isEqualTo((long) DEVICES * PER_WINDOW);
                assertThat(y.getN()).as("n of window %d in B", k + 1).isEqualTo((long) DEVICES * PER_WINDOW);
                assertThat(x.getEstimates()).isEqualTo(y.getEstimates());
                assertThat(x.getLower()).isEqualTo(y.getLower());
                assertThat(x.getUpper()).isEqualTo(y.getUpper());
                assertThat(x.getStandardErrors()).isEqualTo(y.getStandardErrors());
                assertThat(x.getUnprojected()).isEqualTo(y.getUnprojected());
                assertThat(Double.doubleToRawLongBits(x.getRmsErrorBoundAtConfidence()))
                        .isEqualTo(Double.doubleToRawLongBits(y.getRmsErrorBoundAtConfidence()));
                assertThat(Double.doubleToRawLongBits(x.getExpectedRmsError()))
                        .isEqualTo(Double.doubleToRawLongBits(y.getExpectedRmsError()));
                assertThat(Answers.withoutStreamTime(x)).isEqualTo(Answers.withoutStreamTime(y));
                for (int q = 0; q < x.getEstimates().size(); q++) {
                    assertThat(Double.doubleToRawLongBits(x.getEstimates().get(q)))
                            .isEqualTo(Double.doubleToRawLongBits(y.getEstimates().get(q)));
                }
            }
            // The windows both answered (the empty ones between windows 2 and 3 included) agree bit for bit.
            int common = 0;
            for (Map.Entry<Long, List<WindowAnswer>> e : fromA.entrySet()) {
                List<WindowAnswer> other = fromB.get(e.getKey());
                if (other != null) {
                    assertThat(Answers.bits(e.getValue().get(0))).as("window %d", e.getKey())
                            .isEqualTo(Answers.bits(other.get(0)));
                    common++;
                }
            }
            System.out.printf("[crash] A answered %d windows, B %d; %d in common, identical%n", fromA.size(),
                    fromB.size(), common);
            List<Rejection> rejectedA = rejections(c, topicsA);
            List<Rejection> rejectedB = rejections(c, topicsB);
            assertThat(rejectedA).as("rejections of the restarted gateway").isEmpty();
            assertThat(rejectedB).as("rejections of the uninterrupted gateway").isEmpty();
            System.out.printf("[crash] all phases: %.1f s%n", (System.nanoTime() - t0) / 1e9);
        } finally {
            a.close();
            if (b != null) {
                b.close();
            }
        }
    }

    private static List<String> args(ItCluster c, String app, GatewayTopics topics, Path state) {
        return List.of("bootstrap=" + c.kafka.bootstrapServers(), "registry=" + c.registry.ccompatUrl(), "app=" + app,
                "state=" + state, "prefix=" + topics.prefix(), "local=" + PARTITIONS, "slackMs=500",
                "punctuateMs=250", "skewMs=120000");
    }

    private static WorkloadSpec register(ItCluster c, GatewayTopics topics) throws Exception {
        try (WorkloadRegistrar r = WorkloadRegistrar.create(c.kafkaConfig(), c.registryClient, topics)) {
            return r.register(WorkloadFiles.parse(WORKLOAD, "it"));
        }
    }

    /**
     * The input, in 3 parts: every device reports 3 times into each window (event times spread over the
     * window), using its sequence numbers of the period in time order; values and order are seeded, payloads
     * randomized with secret randomness once (both gateways get the same records).
     */
    private static List<List<LocalReport>> input(ResolvedWorkload w, long[] starts) {
        SecureRandomBits secret = new SecureRandomBits();
        Random rnd = new Random(2024);
        List<List<LocalReport>> parts = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (int d = 0; d < DEVICES; d++) {
            String device = "crash-dev-" + d;
            Map<Long, Integer> nextSequence = new HashMap<>();
            for (int k = 0; k < WINDOWS; k++) {
                for (int j = 0; j < PER_WINDOW; j++) {
                    long t = starts[k] + 200 + j * 600L + d % 100;
                    int seq = nextSequence.merge(w.periodOf(t).index(), 1, Integer::sum) - 1;
                    ReportCoordinates coords = new ReportCoordinates(device, w.periodOf(t).index(), seq);
                    LocalReport r = Reports.local(w, coords, t, ((LocalWorkload) w).protocol().randomize(rnd.nextInt(8), coords, secret));
                    parts.get(k < 2 ? 0 : j).add(r);
                }
            }
        }
        parts.forEach(p -> Collections.shuffle(p, rnd));
        return parts;
    }

    private static int total(List<List<LocalReport>> parts) {
        return parts.stream().mapToInt(List::size).sum();
    }

    private static Map<Integer, Long> produce(Producer<String, SpecificRecord> p, List<LocalReport> reports,
            GatewayTopics a, GatewayTopics b) throws Exception {
        return produce(p, reports, a, b, Integer.MAX_VALUE, 0);
    }

    /**
     * Sends each report to A's topic and then to B's (same key, hence the same partition), {@code batch}
     * reports at a time with {@code pauseMillis} between batches; returns A's end offsets per partition.
     */
    private static Map<Integer, Long> produce(Producer<String, SpecificRecord> p, List<LocalReport> reports,
            GatewayTopics a, GatewayTopics b, int batch, long pauseMillis) throws Exception {
        List<Future<RecordMetadata>> toA = new ArrayList<>();
        List<Future<RecordMetadata>> toB = new ArrayList<>();
        for (int i = 0; i < reports.size(); i++) {
            LocalReport r = reports.get(i);
            toA.add(p.send(new ProducerRecord<>(a.localReports(), r.getDeviceId(), r)));
            toB.add(p.send(new ProducerRecord<>(b.localReports(), r.getDeviceId(), r)));
            if ((i + 1) % batch == 0) {
                p.flush();
                Thread.sleep(pauseMillis);
            }
        }
        p.flush();
        Map<Integer, Long> end = new TreeMap<>();
        for (int i = 0; i < toA.size(); i++) {
            RecordMetadata ma = toA.get(i).get(30, TimeUnit.SECONDS);
            RecordMetadata mb = toB.get(i).get(30, TimeUnit.SECONDS);
            assertThat(mb.partition()).isEqualTo(ma.partition());
            end.merge(ma.partition(), ma.offset() + 1, Math::max);
        }
        return end;
    }

    /** Polls A's committed offsets until one partition's passes its part-1 end offset; returns them. */
    private static Map<Integer, Long> awaitCommittedBeyond(ItCluster c, String app, GatewayTopics topics,
            Map<Integer, Long> part1End, Duration timeout) throws Exception {
        try (Admin admin = Admin.create(c.kafkaConfig())) {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                Map<Integer, Long> committed = new TreeMap<>();
                Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(app)
                        .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
                offsets.forEach((tp, om) -> {
                    if (tp.topic().equals(topics.localReports()) && om != null) {
                        committed.put(tp.partition(), om.offset());
                    }
                });
                boolean beyond = committed.entrySet().stream()
                        .anyMatch(e -> e.getValue() > part1End.getOrDefault(e.getKey(), 0L));
                if (beyond) {
                    return committed;
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("A committed no offset beyond part 1 within " + timeout + ": " + committed);
                }
                Thread.sleep(5);
            }
        }
    }

    private static List<Rejection> rejections(ItCluster c, GatewayTopics topics) {
        return AvroTopicReader.readValues(c.kafkaConfig(), c.registryClient, topics.rejections(), Rejection.class,
                x -> true, l -> true, Duration.ofSeconds(10));
    }

    private static String rel(long w1) {
        return rel(w1, System.currentTimeMillis());
    }

    private static String rel(long w1, long t) {
        return String.format("window 1 %+.1f s", (t - w1) / 1e3);
    }
}
