package io.privacygateway.topology;

import static io.privacygateway.topology.GatewayHardeningTest.MINUTE;
import static io.privacygateway.topology.GatewayHardeningTest.T0;
import static io.privacygateway.topology.GatewayHardeningTest.local;
import static io.privacygateway.topology.GatewayHardeningTest.reasons;
import static io.privacygateway.topology.GatewayHardeningTest.report;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.testing.RegistryFixture;
import io.privacygateway.topology.release.ReleaseAccount;
import io.privacygateway.topology.release.ReleaseSchedule;
import io.privacygateway.topology.state.WindowAggregate;
import io.privacygateway.topology.workload.WorkloadCatalog;
import io.privacygateway.topology.state.WindowKey;
import io.privacygateway.topology.wire.ShardMessage;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A workload's life as the release schedule sees it — versions, deletion, registration again — driven through the
 * topology: every report the gateway charges reaches an answer of its window.
 */
class ReleaseScheduleLifecycleTest {
    @RegisterExtension
    static final RegistryFixture registry = RegistryFixture.shared();

    static GatewayDriver driver() {
        return new GatewayDriver(registry.client(), GatewayConfig.builder(1, 1).applicationId("lifecycle").build(), T0);
    }

    /** The n of each answered window of {@code version}, by window start (a window answered twice fails). */
    static Map<Long, Long> answered(List<WindowAnswer> answers, int version) {
        return answers.stream().filter(a -> a.getWorkloadVersion() == version).collect(Collectors.toMap(
                a -> a.getWindowStart().toEpochMilli(), WindowAnswer::getN, (x, y) -> {
                    throw new AssertionError("a window answered twice");
                }, java.util.TreeMap::new));
    }

    static Map<Long, Long> answered(GatewayDriver g) {
        return answered(g.answers.readValuesToList(), 1);
    }

    /** Issue 26, counterexample 7: the ended segment was kept when the same content hash came back. */
    @Test
    void deleteThenRegisterTheSameSpecAgainAnswersItsWindows() {
        WorkloadSpec s = local("apps", 1, 1, 10, "1d", "1m");
        try (GatewayDriver g = driver()) {
            g.register(s, T0);
            g.send(report(s, "d1", 0, T0 + 1_000, 1), T0 + 1_000);
            g.delete("apps", T0 + 30_000);
            g.advance(Duration.ofMinutes(3));
            long again = T0 + 3 * MINUTE + 5_000;
            g.register(s, again);
            for (int d = 0; d < 3; d++) {
                g.send(report(s, "e" + d, 0, again + 1_000, 1), again + 1_000);
            }
            assertThat(reasons(g)).isEmpty(); // admitted and charged
            g.advance(Duration.ofMinutes(3));
            assertThat(answered(g)).containsExactly(Map.entry(T0, 1L), Map.entry(T0 + 3 * MINUTE, 3L),
                    Map.entry(T0 + 4 * MINUTE, 0L));
        }
    }

    /** Deleted and registered again inside one window: that window is answered once, with every report. */
    @Test
    void deleteAndRegisterAgainWithinOneWindowAnswersItOnceWithEveryReport() {
        WorkloadSpec s = local("apps", 1, 1, 10, "1d", "1m");
        try (GatewayDriver g = driver()) {
            g.register(s, T0);
            g.send(report(s, "d1", 0, T0 + 1_000, 1), T0 + 1_000);
            g.delete("apps", T0 + 20_000);
            g.advance(Duration.ofSeconds(30));
            g.register(s, T0 + 40_000);
            g.send(report(s, "d2", 0, T0 + 41_000, 1), T0 + 41_000);
            assertThat(reasons(g)).isEmpty();
            g.advance(Duration.ofMinutes(2));
            assertThat(answered(g)).containsExactly(Map.entry(T0, 2L), Map.entry(T0 + MINUTE, 0L));
        }
    }

    /** Version 1, version 2, version 1 again: the third registration's windows are answered too. */
    @Test
    void aVersionRegisteredAgainAfterAnotherAnswersItsNewWindows() {
        WorkloadSpec v1 = local("apps", 1, 1, 10, "1d", "1m");
        WorkloadSpec v2 = local("apps", 2, 1, 10, "1d", "1m");
        try (GatewayDriver g = driver()) {
            g.register(v1, T0);
            g.advance(Duration.ofMinutes(2));
            g.register(v2, T0 + 2 * MINUTE + 1_000);
            g.advance(Duration.ofMinutes(2));
            long again = T0 + 4 * MINUTE + 1_000;
            g.register(v1, again);
            g.send(report(v1, "d1", 0, again + 1_000, 1), again + 1_000);
            assertThat(reasons(g)).isEmpty();
            g.advance(Duration.ofMinutes(3));
            List<WindowAnswer> answers = g.answers.readValuesToList();
            assertThat(answered(answers, 1)).containsEntry(T0 + 4 * MINUTE, 1L).containsKey(T0 + 5 * MINUTE);
            assertThat(answered(answers, 2)).containsOnlyKeys(T0 + 2 * MINUTE, T0 + 3 * MINUTE, T0 + 4 * MINUTE);
        }
    }

    /**
     * A version registered and replaced before the release step looked at the catalog (a report admitted under it
     * by a shard elsewhere, its partial arriving after the next registration): its window is still answered.
     */
    @Test
    void aVersionReplacedBeforeTheReleaseStepLookedIsStillAnswered() {
        WorkloadSpec v1 = local("apps", 1, 1, 10, "1d", "1m");
        WorkloadSpec v2 = local("apps", 2, 1, 10, "1d", "1m");
        WorkloadSpec v3 = local("apps", 3, 1, 10, "1d", "1m");
        try (GatewayDriver g = driver()) {
            g.register(v1, T0);
            g.advance(Duration.ofMinutes(1));
            g.register(v2, T0 + MINUTE + 1_000);
            g.register(v3, T0 + MINUTE + 2_000);
            String hash = Workload.of(v2).contentHash();
            WindowAggregate agg = WindowAggregate.empty(hash, g.catalog.byHash(hash).aggregateLength());
            agg.state()[1] = 1;
            agg.countOne();
            g.partials.pipeInput("apps", new ShardMessage.Partial(Mode.LOCAL, 0,
                    new WindowKey("apps", hash, T0 + MINUTE), agg).toBytes(), T0 + MINUTE + 3_000);
            // the same for a workload the release step has never looked at: its first version too
            WorkloadSpec f1 = local("fresh", 1, 1, 10, "1d", "1m");
            g.register(f1, T0 + MINUTE + 4_000);
            g.register(local("fresh", 2, 1, 10, "1d", "1m"), T0 + MINUTE + 5_000);
            String first = Workload.of(f1).contentHash();
            WindowAggregate one = WindowAggregate.empty(first, g.catalog.byHash(first).aggregateLength());
            one.state()[2] = 1;
            one.countOne();
            g.partials.pipeInput("fresh", new ShardMessage.Partial(Mode.LOCAL, 0,
                    new WindowKey("fresh", first, T0 + MINUTE), one).toBytes(), T0 + MINUTE + 6_000);
            g.advance(Duration.ofMinutes(3));
            List<WindowAnswer> answers = g.answers.readValuesToList();
            assertThat(answered(answers.stream().filter(a -> a.getWorkloadId().equals("apps")).toList(), 2))
                    .containsExactly(Map.entry(T0 + MINUTE, 1L));
            assertThat(answered(answers.stream().filter(a -> a.getWorkloadId().equals("fresh")).toList(), 1))
                    .containsExactly(Map.entry(T0 + MINUTE, 1L));
        }
    }

    /** The same for a central workload: the re-registered version's windows are answered and its ε accounted. */
    @Test
    void deleteThenRegisterTheSameCentralSpecAgainAnswersItsWindows() {
        WorkloadSpec s = GatewayHardeningTest.central("flags");
        String hash = Workload.of(s).contentHash();
        try (GatewayDriver g = driver()) {
            g.register(s, T0);
            g.delete("flags", T0 + 30_000);
            g.advance(Duration.ofMinutes(3));
            long again = T0 + 3 * MINUTE + 5_000;
            g.register(s, again);
            long t = again + 1_000;
            g.sendCentral(CentralReport.newBuilder().setWorkloadId("flags").setWorkloadVersion(1)
                    .setContentHash(hash).setDeviceId("d1").setPeriod(t / 86_400_000L).setSequence(0)
                    .setEventTime(Instant.ofEpochMilli(t)).setValue("a").build(), t);
            assertThat(reasons(g)).isEmpty();
            for (int i = 0; i < 3; i++) {
                g.advance(Duration.ofMinutes(1));
                g.advance(g.cfg.centralReleaseDelay());
            }
            assertThat(answered(g)).containsOnlyKeys(T0, T0 + 3 * MINUTE, T0 + 4 * MINUTE);
        }
    }

    /** The schedule itself: a version registered again gets a segment of its own, never sharing a window. */
    @Test
    void aVersionRegisteredAgainGetsItsOwnSegment() {
        ReleaseSchedule s = ReleaseSchedule.EMPTY.registered("a", Mode.LOCAL, 60_000, 10_000);
        s = s.registered(null, null, 0, 30_000); // deleted in window [0, 60,000)
        assertThat(s.registered("a", Mode.LOCAL, 60_000, 50_000).segments()) // again in that window: reopened
                .containsExactly(new ReleaseSchedule.Segment("a", Mode.LOCAL, 60_000, 0, Long.MAX_VALUE, 0));
        s = s.registered("a", Mode.LOCAL, 60_000, 200_000); // again later: a new segment from its window
        assertThat(s.segments()).hasSize(2);
        assertThat(s.segment("a", 0).endStart()).isEqualTo(60_000);
        assertThat(s.segment("a", 180_000).firstStart()).isEqualTo(180_000);
        assertThat(s.segment("a", 120_000)).isNull(); // the deleted stretch has no windows
        s = s.registered("b", Mode.LOCAL, 60_000, 230_000).registered("a", Mode.LOCAL, 60_000, 235_000);
        assertThat(s.segments()).hasSize(4); // a, a, b, and a from the window after a's second run
        assertThat(s.last().firstStart()).isEqualTo(240_000);
        assertThat(ReleaseSchedule.fromBytes(s.withApplied("a@235000").toBytes())).isEqualTo(s.withApplied("a@235000"));
    }

    /**
     * Issue 27, item 10: 1,100 versions of one workload registered within one window made the schedule's stored
     * value longer than its decoder accepts ("bad segment count"), so a restart failed in a loop. Registrations
     * beyond {@link WorkloadCatalog#MAX_OPEN_VERSIONS} open versions are refused, every value written decodes,
     * and the gateway keeps answering.
     */
    @Test
    void elevenHundredVersionsInOneWindowLeaveARestorableScheduleAndAWorkingGateway() {
        int versions = 1_100;
        int kept = WorkloadCatalog.MAX_OPEN_VERSIONS;
        try (GatewayDriver g = driver()) {
            for (int v = 1; v <= versions; v++) {
                g.register(local("apps", v, 1, 10, "1d", "1h"), T0 + v * 100L);
                g.advance(Duration.ofMillis(100)); // the release step looks at the catalog between registrations
            }
            // what a restart restores: every schedule value written to the changelog decodes
            List<byte[]> written = g.driver.createOutputTopic("lifecycle-release-schedules-changelog",
                    new ByteArrayDeserializer(), new ByteArrayDeserializer()).readValuesToList();
            assertThat(written).isNotEmpty();
            ReleaseSchedule last = null;
            for (byte[] value : written) {
                last = ReleaseSchedule.fromBytes(value);
            }
            assertThat(last.segments()).hasSize(kept);
            assertThat(g.catalog.current("apps").workload().spec().version()).isEqualTo(kept);
            assertThat(g.metrics.count("pgw.workloads.invalid")).isEqualTo(versions - kept);
            WorkloadSpec current = local("apps", kept, 1, 10, "1d", "1h");
            g.send(report(current, "d1", 0, T0 + 200_000, 1), T0 + 200_000);
            assertThat(reasons(g)).isEmpty();
            g.advance(Duration.ofMinutes(61));
            List<WindowAnswer> answers = g.answers.readValuesToList();
            assertThat(answers).hasSize(kept); // one answer of the window per version
            assertThat(answered(answers, kept)).containsExactly(Map.entry(T0, 1L));
        }
    }

    /**
     * The rule behind item 10 for every changelogged value of the release step: what its decoder would refuse is
     * refused when built or written, never written and then unreadable at restart.
     */
    @Test
    void aStoredValueBeyondWhatItsDecoderAcceptsIsRefusedWhenWritten() {
        List<ReleaseSchedule.Segment> many = new java.util.ArrayList<>();
        for (int i = 0; i <= ReleaseSchedule.MAX_STORED; i++) {
            many.add(new ReleaseSchedule.Segment("h" + i, Mode.LOCAL, 60_000, 0, 60_000, 0));
        }
        assertThatThrownBy(() -> new ReleaseSchedule(many)).isInstanceOf(IllegalArgumentException.class);
        // the schedule keeps itself within the bound: the oldest finished segments go first
        ReleaseSchedule s = ReleaseSchedule.EMPTY;
        for (int i = 0; i < 2 * ReleaseSchedule.MAX_STORED; i++) {
            s = s.registered("h" + i, Mode.LOCAL, 60_000, i * 1_000L);
        }
        assertThat(s.segments()).hasSize(ReleaseSchedule.MAX_STORED);
        assertThat(s.last().contentHash()).isEqualTo("h" + (2 * ReleaseSchedule.MAX_STORED - 1));
        assertThat(ReleaseSchedule.fromBytes(s.toBytes())).isEqualTo(s);
        // a central account whose ε has more digits than its decoder reads
        ReleaseAccount account = ReleaseAccount.EMPTY.plus(0, "laplace",
                new BigDecimal("0.1" + "0".repeat(200) + "1"));
        assertThatThrownBy(account::toBytes).isInstanceOf(IllegalStateException.class);
        assertThat(MechanismId.values()).hasSizeLessThanOrEqualTo(64); // every mechanism an account counts fits
        WindowAggregate agg = WindowAggregate.empty("x".repeat(129), 1);
        assertThatThrownBy(agg::toBytes).isInstanceOf(IllegalStateException.class);
    }
}
