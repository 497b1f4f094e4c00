package io.privacygateway.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.budget.PeriodKey;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import io.privacygateway.topology.release.ReleaseAccount;
import io.privacygateway.topology.release.ReleaseSchedule;
import io.privacygateway.topology.state.WindowAggregate;
import io.privacygateway.topology.state.WindowKey;
import io.privacygateway.topology.validate.RejectReason;
import io.privacygateway.topology.validate.ReportValidator;
import io.privacygateway.topology.validate.ReportView;
import io.privacygateway.topology.validate.Verdict;
import io.privacygateway.topology.workload.WorkloadCatalog;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ValidationAndStateTest {
    static final long DAY = Duration.ofDays(1).toMillis();

    static WorkloadSpec spec() {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "apps");
        t.put("version", 3);
        t.put("family", "histogram");
        t.put("domain", Map.of("labels", List.of("a", "b", "c")));
        t.put("mechanism", "oue");
        t.put("epsilonPerReport", 1.0);
        t.put("budget", Map.of("epsilonPerPeriod", 2.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        return WorkloadSpecParser.parse(t);
    }

    static LocalWorkload active() {
        WorkloadSpec s = spec();
        return (LocalWorkload) new WorkloadCatalog().activate("apps", CanonicalForm.of(s), CanonicalForm.contentHash(s), 0)
                .workload();
    }

    static ReportView report(ResolvedWorkload w, int seq, long eventTime, byte[] payload) {
        return new ReportView("apps", 3, w.contentHash(), "dev-1", Math.floorDiv(eventTime, DAY), seq, eventTime, "oue",
                1.0, payload, null);
    }

    @Test
    void acceptsAWellFormedReportAndNamesEveryFailure() {
        LocalWorkload w = active();
        ReportValidator v = new ReportValidator(Duration.ofMinutes(1), Duration.ofHours(1));
        long t = 1_700_000_000_000L;
        byte[] ok = new byte[w.protocol().payloadBytes()];
        assertThat(v.check(report(w, 0, t, ok), w, Mode.LOCAL, t).accepted()).isTrue();
        ReportView oldVersion = new ReportView("apps", 2, w.contentHash(), "d", t / DAY, 0, t, "oue", 1.0, ok, null);
        assertReason(v.check(oldVersion, w, Mode.LOCAL, t), RejectReason.VERSION_MISMATCH);
        ReportView otherHash = new ReportView("apps", 3, "ab".repeat(32), "d", t / DAY, 0, t, "oue", 1.0, ok, null);
        assertReason(v.check(otherHash, w, Mode.LOCAL, t), RejectReason.VERSION_MISMATCH);
        assertReason(v.check(report(w, 0, t, ok), w, Mode.CENTRAL, t), RejectReason.MECHANISM_MISMATCH);
        ReportView mech = new ReportView("apps", 3, w.contentHash(), "d", t / DAY, 0, t, "grr", 1.0, ok, null);
        assertReason(v.check(mech, w, Mode.LOCAL, t), RejectReason.MECHANISM_MISMATCH);
        ReportView eps = new ReportView("apps", 3, w.contentHash(), "d", t / DAY, 0, t, "oue", 1.5, ok, null);
        assertReason(v.check(eps, w, Mode.LOCAL, t), RejectReason.EPSILON_MISMATCH);
        ReportView epsUlp = new ReportView("apps", 3, w.contentHash(), "d", t / DAY, 0, t, "oue", Math.nextUp(1.0), ok,
                null);
        assertReason(v.check(epsUlp, w, Mode.LOCAL, t), RejectReason.EPSILON_MISMATCH);
        assertReason(v.check(report(w, 0, t, new byte[ok.length + 1]), w, Mode.LOCAL, t), RejectReason.BAD_PAYLOAD);
        assertReason(v.check(report(w, 2, t, ok), w, Mode.LOCAL, t), RejectReason.SEQUENCE_OUT_OF_RANGE);
        assertReason(v.check(report(w, -1, t, ok), w, Mode.LOCAL, t), RejectReason.SEQUENCE_OUT_OF_RANGE);
        ReportView period = new ReportView("apps", 3, w.contentHash(), "d", t / DAY + 1, 0, t, "oue", 1.0, ok, null);
        assertReason(v.check(period, w, Mode.LOCAL, t), RejectReason.PERIOD_MISMATCH);
        assertReason(v.check(report(w, 0, t + 120_000, ok), w, Mode.LOCAL, t), RejectReason.CLOCK_SKEW);
        assertReason(v.check(report(w, 0, t - 7_200_000, ok), w, Mode.LOCAL, t), RejectReason.CLOCK_SKEW);
        ReportView longId = new ReportView("apps", 3, w.contentHash(), "d".repeat(257), t / DAY, 0, t, "oue", 1.0, ok,
                null);
        assertReason(ReportValidator.checkIdentity(longId), RejectReason.MALFORMED);
    }

    static void assertReason(Verdict v, RejectReason r) {
        assertThat(v.reason()).isEqualTo(r);
        assertThat(v.message()).isNotBlank();
    }

    @Test
    void windowAggregatesMergeExactlyAndRefuseMismatches() {
        WindowAggregate a = new WindowAggregate("h", 2, new long[] {1, -5, Long.MAX_VALUE - 3});
        WindowAggregate b = new WindowAggregate("h", 3, new long[] {2, 5, 3});
        a.add(b);
        assertThat(a.n()).isEqualTo(5);
        assertThat(a.state()).containsExactly(3, 0, Long.MAX_VALUE);
        WindowAggregate back = WindowAggregate.fromBytes(a.toBytes());
        assertThat(back.n()).isEqualTo(5);
        assertThat(back.state()).containsExactly(3, 0, Long.MAX_VALUE);
        assertThatThrownBy(() -> a.add(b)).isInstanceOf(ArithmeticException.class);
        assertThatThrownBy(() -> a.add(new WindowAggregate("other", 1, new long[3]))).hasMessageContaining("cannot merge");
        byte[] bytes = a.toBytes();
        for (int cut = 0; cut < bytes.length; cut++) {
            byte[] truncated = java.util.Arrays.copyOf(bytes, cut);
            assertThatThrownBy(() -> WindowAggregate.fromBytes(truncated)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void keysRoundTripAndSortByPeriod() {
        WindowKey k = new WindowKey("apps", "abc", 120_000);
        assertThat(WindowKey.parse(k.asString())).isEqualTo(k);
        assertThatThrownBy(() -> WindowKey.parse("apps#abc@")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WindowKey.parse("no-separators")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void catalogRejectsUnresolvedAndTamperedSpecs() {
        WorkloadSpec auto = spec().toBuilder().mechanism(MechanismId.AUTO).build();
        assertThatThrownBy(() -> new WorkloadCatalog().activate("apps", CanonicalForm.of(auto),
                CanonicalForm.contentHash(auto), 0)).hasMessageContaining("auto");
        assertThatThrownBy(() -> new WorkloadCatalog().activate("apps", CanonicalForm.of(spec()), "00".repeat(32), 0))
                .hasMessageContaining("contentHash");
        assertThatThrownBy(() -> new WorkloadCatalog().activate("apps", "{not json", "00", 0))
                .hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> new WorkloadCatalog().activate("other", CanonicalForm.of(spec()),
                CanonicalForm.contentHash(spec()), 0)).hasMessageContaining("differs from the spec id");
    }

    /**
     * A wide workload whose release cannot be built (worst-case chaining planned for 50 reports has no parameters
     * with a finite bound at ε = 1) is refused at activation with the reason; planned for 500 it is accepted. It
     * used to be accepted and then fail at every window, publishing nothing.
     */
    @Test
    void catalogRefusesAWorkloadNoReleaseCanBeBuiltFor() {
        assertThatThrownBy(() -> activateChaining(50)).isInstanceOf(WorkloadCatalog.BadSpecException.class)
                .hasMessageContaining("cannot be released").hasMessageContaining("no worst-case chaining parameters");
        assertThat(activateChaining(500).workload().id()).isEqualTo("flags");
    }

    private static io.privacygateway.topology.workload.Registration activateChaining(long planned) {
        Map<String, Object> t = new java.util.LinkedHashMap<>();
        t.put("id", "flags");
        t.put("version", 1);
        t.put("family", "marginals");
        t.put("domain", Map.of("attributes", List.of("a", "b", "c", "d", "e", "f", "g", "h")));
        t.put("queries", Map.of("way", 3));
        t.put("mode", "central");
        t.put("mechanism", "worst-case-chaining");
        t.put("central", Map.of("epsilonPerRelease", 1.0, "neighbour", "add-remove", "contributionsPerWindow", 1));
        t.put("budget", Map.of("epsilonPerPeriod", 1.0, "period", "2s"));
        t.put("window", Map.of("size", "2s", "grace", "1s"));
        t.put("expectedReportsPerWindow", planned);
        WorkloadSpec s = WorkloadSpecParser.parse(t);
        return new WorkloadCatalog().activate("flags", CanonicalForm.of(s), CanonicalForm.contentHash(s), 0);
    }

    /** A deployment answers windows from its first start on, not a workload's whole past. */
    @Test
    void registrationsBeforeTheDeploymentStartCountFromIt() {
        WorkloadSpec s = spec();
        WorkloadCatalog c = new WorkloadCatalog();
        c.answersFrom(5_000_000);
        assertThat(c.activate("apps", CanonicalForm.of(s), CanonicalForm.contentHash(s), 1_000).since())
                .isEqualTo(5_000_000);
        WorkloadCatalog later = new WorkloadCatalog();
        later.answersFrom(5_000_000);
        assertThat(later.activate("apps", CanonicalForm.of(s), CanonicalForm.contentHash(s), 9_000_000).since())
                .isEqualTo(9_000_000);
    }

    /** 8.6: the central privacy account is a bounded summary; 10⁵ releases keep it small and exact. */
    @Test
    void theReleaseAccountStaysBoundedOverAHundredThousandReleases() {
        ReleaseAccount a = ReleaseAccount.EMPTY;
        BigDecimal tenth = new BigDecimal("0.1");
        for (int i = 0; i < 100_000; i++) {
            a = a.plus(i * 60_000L, i % 3 == 0 ? "laplace" : "central-projection", tenth);
        }
        byte[] bytes = a.toBytes();
        assertThat(bytes.length).isLessThan(2048);
        ReleaseAccount back = ReleaseAccount.fromBytes(bytes);
        assertThat(back.total()).isEqualByComparingTo("10000");
        assertThat(back.releases()).isEqualTo(100_000);
        assertThat(back.byMechanism().get("laplace").releases()).isEqualTo(33_334);
        assertThat(back.recent()).hasSize(ReleaseAccount.RECENT);
        assertThat(back.recent().get(ReleaseAccount.RECENT - 1).windowStart()).isEqualTo(99_999 * 60_000L);
    }

    @Test
    void releaseSchedulesCoverEveryWindowOfEveryVersion() {
        ReleaseSchedule s = ReleaseSchedule.EMPTY.registered("v1", Mode.CENTRAL, 60_000, 125_000);
        assertThat(s.last().firstStart()).isEqualTo(120_000);
        assertThat(s.last().pending(120_000)).isTrue();
        assertThat(s.last().pending(150_000)).isFalse(); // not a window start
        s = s.advance(s.last());
        assertThat(s.last().nextStart()).isEqualTo(180_000);
        // version 2 at 200,000: v1 ends with its window containing that time; v2 starts with its own
        s = s.registered("v2", Mode.CENTRAL, 30_000, 200_000);
        assertThat(s.segment("v1").endStart()).isEqualTo(240_000);
        assertThat(s.segment("v2").firstStart()).isEqualTo(180_000);
        assertThat(s.registered("v2", Mode.CENTRAL, 30_000, 900_000)).isEqualTo(s); // re-registration: nothing moves
        s = s.registered(null, null, 0, 1_000_000); // deleted
        assertThat(s.segment("v2").endStart()).isEqualTo(1_020_000);
        assertThat(ReleaseSchedule.fromBytes(s.toBytes())).isEqualTo(s);
    }
}
