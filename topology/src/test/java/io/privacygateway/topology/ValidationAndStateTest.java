package io.privacygateway.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import io.privacygateway.topology.state.LedgerEntry;
import io.privacygateway.topology.state.PartialAggregate;
import io.privacygateway.topology.state.WindowKey;
import io.privacygateway.topology.validate.RejectReason;
import io.privacygateway.topology.validate.ReportValidator;
import io.privacygateway.topology.validate.ReportView;
import io.privacygateway.topology.validate.Verdict;
import io.privacygateway.topology.workload.ActiveWorkload;
import io.privacygateway.topology.workload.WorkloadCache;
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

    static ActiveWorkload active() {
        WorkloadSpec s = spec();
        return new WorkloadCache().get(CanonicalForm.of(s), CanonicalForm.contentHash(s));
    }

    static ReportView report(ActiveWorkload w, int seq, long eventTime, byte[] payload) {
        return new ReportView("apps", 3, w.contentHash(), "dev-1", Math.floorDiv(eventTime, DAY), seq, eventTime, "oue",
                1.0, payload, null);
    }

    @Test
    void acceptsAWellFormedReportAndNamesEveryFailure() {
        ActiveWorkload w = active();
        ReportValidator v = new ReportValidator(Duration.ofMinutes(1), Duration.ofHours(1));
        long t = 1_700_000_000_000L;
        byte[] ok = new byte[w.local().protocol().payloadBytes()];
        assertThat(v.check(report(w, 0, t, ok), w, Mode.LOCAL, t).accepted()).isTrue();
        assertReason(v.check(report(w, 0, t, ok), null, Mode.LOCAL, t), RejectReason.UNKNOWN_WORKLOAD);
        ReportView oldVersion = new ReportView("apps", 2, w.contentHash(), "d", t / DAY, 0, t, "oue", 1.0, ok, null);
        assertReason(v.check(oldVersion, w, Mode.LOCAL, t), RejectReason.VERSION_MISMATCH);
        ReportView otherHash = new ReportView("apps", 3, "ab".repeat(32), "d", t / DAY, 0, t, "oue", 1.0, ok, null);
        assertReason(v.check(otherHash, w, Mode.LOCAL, t), RejectReason.VERSION_MISMATCH);
        assertReason(v.check(report(w, 0, t, ok), w, Mode.CENTRAL, t), RejectReason.MECHANISM_MISMATCH);
        ReportView mech = new ReportView("apps", 3, w.contentHash(), "d", t / DAY, 0, t, "grr", 1.0, ok, null);
        assertReason(v.check(mech, w, Mode.LOCAL, t), RejectReason.MECHANISM_MISMATCH);
        ReportView eps = new ReportView("apps", 3, w.contentHash(), "d", t / DAY, 0, t, "oue", 1.5, ok, null);
        assertReason(v.check(eps, w, Mode.LOCAL, t), RejectReason.EPSILON_MISMATCH);
        assertReason(v.check(report(w, 0, t, new byte[ok.length + 1]), w, Mode.LOCAL, t), RejectReason.BAD_PAYLOAD);
        assertReason(v.check(report(w, 2, t, ok), w, Mode.LOCAL, t), RejectReason.SEQUENCE_OUT_OF_RANGE);
        assertReason(v.check(report(w, -1, t, ok), w, Mode.LOCAL, t), RejectReason.SEQUENCE_OUT_OF_RANGE);
        ReportView period = new ReportView("apps", 3, w.contentHash(), "d", t / DAY + 1, 0, t, "oue", 1.0, ok, null);
        assertReason(v.check(period, w, Mode.LOCAL, t), RejectReason.PERIOD_MISMATCH);
        assertReason(v.check(report(w, 0, t + 120_000, ok), w, Mode.LOCAL, t), RejectReason.CLOCK_SKEW);
        assertReason(v.check(report(w, 0, t - 7_200_000, ok), w, Mode.LOCAL, t), RejectReason.CLOCK_SKEW);
    }

    static void assertReason(Verdict v, RejectReason r) {
        assertThat(v.reason()).isEqualTo(r);
        assertThat(v.message()).isNotBlank();
    }

    @Test
    void ledgerEntryRoundTripsAndCharges() {
        LedgerEntry e = LedgerEntry.EMPTY.charge(0, 1.0).charge(5, 1.0);
        LedgerEntry back = LedgerEntry.fromBytes(e.toBytes());
        assertThat(back.spent()).isEqualTo(2.0);
        assertThat(back.charges()).isEqualTo(2);
        assertThat(back.hasSequence(5)).isTrue();
        assertThat(back.hasSequence(1)).isFalse();
        assertThat(back.paid()).isEqualTo(2);
        assertThat(back.budgetExhausted(2)).isTrue();
        assertThat(back.budgetExhausted(3)).isFalse();
        LedgerEntry free = back.charge(6, 0.0); // a further central contribution to a paid window
        assertThat(free.paid()).isEqualTo(2);
        assertThat(free.charges()).isEqualTo(3);
        assertThat(LedgerEntry.fromBytes(null).charges()).isZero();
    }

    @Test
    void partialAggregatesMergeExactlyAndRefuseMismatches() {
        PartialAggregate a = new PartialAggregate("h", 2, new long[] {1, -5, Long.MAX_VALUE - 3});
        PartialAggregate b = new PartialAggregate("h", 3, new long[] {2, 5, 3});
        PartialAggregate sum = a.plus(b);
        assertThat(sum.n()).isEqualTo(5);
        assertThat(sum.state()).containsExactly(3, 0, Long.MAX_VALUE);
        assertThat(PartialAggregate.fromBytes(sum.toBytes())).usingRecursiveComparison().isEqualTo(sum);
        assertThatThrownBy(() -> sum.plus(b)).isInstanceOf(ArithmeticException.class);
        assertThatThrownBy(() -> a.plus(new PartialAggregate("other", 1, new long[3]))).hasMessageContaining("cannot merge");
    }

    @Test
    void windowKeysAlignToTheEpochAndRoundTrip() {
        WindowKey k = WindowKey.of("apps", "abc", 125_000, Duration.ofMinutes(1));
        assertThat(k.start()).isEqualTo(120_000);
        assertThat(k.end(Duration.ofMinutes(1))).isEqualTo(180_000);
        assertThat(k.closedAt(189_999, Duration.ofMinutes(1), Duration.ofSeconds(10))).isFalse();
        assertThat(k.closedAt(190_000, Duration.ofMinutes(1), Duration.ofSeconds(10))).isTrue();
        assertThat(WindowKey.parse(k.asString())).isEqualTo(k);
        assertThat(WindowKey.of("w", "h", -1, Duration.ofMinutes(1)).start()).isEqualTo(-60_000);
    }

    @Test
    void cacheRejectsUnresolvedAndTamperedSpecs() {
        WorkloadSpec auto = spec().toBuilder().mechanism(MechanismId.AUTO).build();
        assertThatThrownBy(() -> new WorkloadCache().get(CanonicalForm.of(auto), CanonicalForm.contentHash(auto)))
                .hasMessageContaining("auto");
        assertThatThrownBy(() -> new WorkloadCache().get(CanonicalForm.of(spec()), "00".repeat(32)))
                .hasMessageContaining("contentHash");
        assertThatThrownBy(() -> new WorkloadCache().get("{not json", "00"))
                .hasMessageContaining("not valid JSON");
    }
}
