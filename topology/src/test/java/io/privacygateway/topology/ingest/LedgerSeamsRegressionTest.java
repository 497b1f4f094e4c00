package io.privacygateway.topology.ingest;

import static io.privacygateway.topology.ingest.LedgerHarness.T0;
import static io.privacygateway.topology.ingest.LedgerHarness.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.topology.validate.RejectReason;
import org.junit.jupiter.api.Test;

/**
 * The counterexamples of the review that broke "no device's budget is ever overspent" at the seams between
 * features (versions, period lengths, modes, groups), each replayed on the gateway's admission path with the shared
 * device ledger. Each failed on the per-workload, per-period, per-mode stores the ledger replaced.
 */
class LedgerSeamsRegressionTest {
    private static final long HOUR = 3_600_000L;

    /** Case 1a: a new version with a one-day period counts what the old one-hour version charged that day. */
    @Test
    void aLongerPeriodInANewVersionCountsTheOldVersionsCharges() {
        LedgerHarness h = new LedgerHarness();
        h.now = T0 + 10 * HOUR;
        h.register(spec("w", Mode.LOCAL, 1, 2, "1h", "10s", null, null, 1));
        assertThat(h.send("d", "w", h.now + 500, 0)).isTrue();
        assertThat(h.send("d", "w", h.now + 400, 1)).isTrue();
        h.advance(5_000);
        h.register(spec("w", Mode.LOCAL, 1, 2, "1d", "10s", null, null, 1));
        assertThat(h.send("d", "w", h.now + 500, 0)).as("2.0 under v1 + 1.0 under v2 in one day").isFalse();
        assertThat(h.lastReason).isEqualTo(RejectReason.BUDGET_EXHAUSTED);
    }

    /** Case 1b: once the old version's short period has passed and its charges are swept, the day still counts them. */
    @Test
    void forgettingTheOldVersionsChargesNeverStartsTheLongerPeriodFromZero() {
        LedgerHarness h = new LedgerHarness();
        h.now = T0 + 10 * HOUR;
        h.register(spec("w", Mode.LOCAL, 1, 2, "1h", "10s", null, null, 1));
        assertThat(h.send("d", "w", h.now + 500, 0)).isTrue();
        assertThat(h.send("d", "w", h.now + 400, 1)).isTrue();
        h.advance(2 * HOUR); // v1's hour is long gone: its charges are forgotten
        assertThat(h.ledger("d").charges()).isEmpty();
        h.register(spec("w", Mode.LOCAL, 1, 2, "1d", "10s", null, null, 1));
        h.advance(5_000);
        assertThat(h.send("d", "w", h.now + 500, 0)).as("the day began before charges were forgotten").isFalse();
        assertThat(h.lastReason).isEqualTo(RejectReason.BUDGET_EXHAUSTED);
        h.now = T0 + 24 * HOUR + 10 * HOUR; // the next day: complete again
        assertThat(h.send("d", "w", h.now + 500, 0)).isTrue();
    }

    /** Case 2: a member's spend under another period length (it left, was charged hourly, rejoined) counts. */
    @Test
    void aMembersSpendUnderAnotherPeriodLengthCountsInTheGroup() {
        LedgerHarness h = new LedgerHarness();
        h.now = T0 + 10 * HOUR;
        h.register(spec("a", Mode.LOCAL, 1, 4, "1d", "10s", "g", 2.0, 1));
        h.register(spec("b", Mode.LOCAL, 1, 4, "1h", "10s", null, null, 1)); // b out of the group, hourly
        assertThat(h.send("d", "b", h.now + 500, 0)).isTrue();
        assertThat(h.send("d", "b", h.now + 400, 1)).isTrue();
        h.advance(5_000);
        h.register(spec("b", Mode.LOCAL, 1, 4, "1d", "10s", "g", 2.0, 1)); // b rejoins the daily group
        assertThat(h.send("d", "a", h.now + 500, 0)).as("3.0 of a 2.0 group budget").isFalse();
        assertThat(h.lastReason).isEqualTo(RejectReason.GROUP_BUDGET_EXHAUSTED);
    }

    /** Case 3: a joiner's earlier spend stays counted as long as a long-window member can report in the period. */
    @Test
    void aJoinersEarlierSpendIsKeptWhileALongWindowMemberCanStillReport() {
        LedgerHarness h = new LedgerHarness();
        h.now = T0 + 10 * HOUR + 60_000;
        h.register(spec("long", Mode.LOCAL, 1, 4, "1h", "30m", "g", 2.0, 1));
        h.register(spec("short", Mode.LOCAL, 1, 4, "1h", "10s", null, null, 1));
        assertThat(h.send("d", "short", h.now + 500, 0)).isTrue();
        assertThat(h.send("d", "short", h.now + 400, 1)).isTrue();
        h.register(spec("short", Mode.LOCAL, 1, 4, "1h", "10s", "g", 2.0, 1)); // joins the group
        h.advance(20 * 60_000); // short's windows closed long ago; long's 30-minute window is still open
        assertThat(h.send("d", "long", T0 + 10 * HOUR + 61_000, 0)).as("4.0 of 2.0 per hour").isFalse();
        assertThat(h.lastReason).isEqualTo(RejectReason.GROUP_BUDGET_EXHAUSTED);
    }

    /** Case 4: a group with local and central members is one budget, not one per mode. */
    @Test
    void aGroupWithLocalAndCentralMembersIsOneBudget() {
        LedgerHarness h = new LedgerHarness();
        h.now = T0 + 10 * HOUR;
        h.register(spec("l", Mode.LOCAL, 1, 4, "1d", "10s", "g", 2.0, 1));
        h.register(spec("c", Mode.CENTRAL, 1, 4, "1d", "10s", "g", 2.0, 1));
        assertThat(h.send("d", "l", h.now + 500, 0)).isTrue();
        assertThat(h.send("d", "l", h.now + 400, 1)).isTrue();
        assertThat(h.send("d", "c", h.now + 300, 0)).as("4.0 of a 2.0 group budget").isFalse();
        assertThat(h.lastReason).isEqualTo(RejectReason.GROUP_BUDGET_EXHAUSTED);
    }

    /** Case 5: moving a workload from local to central in a new version keeps the period's spend. */
    @Test
    void movingAWorkloadFromLocalToCentralKeepsThePeriodsSpend() {
        LedgerHarness h = new LedgerHarness();
        h.now = T0 + 10 * HOUR;
        h.register(spec("w", Mode.LOCAL, 1, 2, "1d", "10s", null, null, 1));
        assertThat(h.send("d", "w", h.now + 500, 0)).isTrue();
        assertThat(h.send("d", "w", h.now + 400, 1)).isTrue();
        h.advance(5_000);
        h.register(spec("w", Mode.CENTRAL, 1, 2, "1d", "10s", null, null, 1));
        assertThat(h.send("d", "w", h.now + 500, 0)).as("2.0 local + 2.0 central = 4.0 of 2.0").isFalse();
        assertThat(h.lastReason).isEqualTo(RejectReason.BUDGET_EXHAUSTED);
    }

    /** Case 6: a version switch inside a window: the new version's release of the window is charged again. */
    @Test
    void aVersionSwitchInsideAWindowChargesTheNewVersionsReleaseAgain() {
        LedgerHarness h = new LedgerHarness();
        h.now = T0 + 10 * HOUR + 1_500;
        h.register(spec("w", Mode.CENTRAL, 1, 1, "1d", "10s", null, null, 2));
        long t = T0 + 10 * HOUR + 1_200;
        assertThat(h.send("d", "w", t, 0)).isTrue();
        h.register(spec("w", Mode.CENTRAL, 1, 1, "1d", "10s", null, 2.0, 2).entrySet().stream()
                .filter(e -> !e.getKey().equals("x")).collect(java.util.stream.Collectors.toMap(
                        java.util.Map.Entry::getKey, java.util.Map.Entry::getValue, (x, y) -> x,
                        java.util.LinkedHashMap::new)));
        assertThat(h.send("d", "w", t + 100, 1)).as("two ε-releases charged once").isFalse();
        assertThat(h.lastReason).isEqualTo(RejectReason.BUDGET_EXHAUSTED);
    }

    /** Changing a group's budget: a new version of every member; the strictest declaration binds until then. */
    @Test
    void aGroupBudgetChangesOnceEveryMemberDeclaresIt() {
        LedgerHarness h = new LedgerHarness();
        h.now = T0 + 10 * HOUR;
        h.register(spec("a", Mode.LOCAL, 1, 4, "1d", "10s", "g", 1.0, 1));
        h.register(spec("b", Mode.LOCAL, 1, 4, "1d", "10s", "g", 1.0, 1));
        assertThat(h.send("d", "a", h.now + 500, 0)).isTrue();
        h.register(spec("a", Mode.LOCAL, 1, 4, "1d", "10s", "g", 2.0, 1)); // a raises it, b does not yet
        assertThat(h.send("d", "a", h.now + 400, 0)).as("b still declares 1.0").isFalse();
        h.register(spec("b", Mode.LOCAL, 1, 4, "1d", "10s", "g", 2.0, 1));
        assertThat(h.send("d", "a", h.now + 300, 0)).as("every member declares 2.0 now").isTrue();
        assertThat(h.send("d", "b", h.now + 200, 0)).as("3.0 of 2.0").isFalse();
        assertThat(h.lastReason).isEqualTo(RejectReason.GROUP_BUDGET_EXHAUSTED);
    }

    /** A restart re-reads every ledger from its stored bytes: nothing is forgotten, nothing admitted twice. */
    @Test
    void aRestartKeepsEveryCharge() {
        LedgerHarness h = new LedgerHarness();
        h.now = T0 + 10 * HOUR;
        h.register(spec("w", Mode.LOCAL, 1, 2, "1d", "10s", "g", 2.0, 1));
        assertThat(h.send("d", "w", h.now + 500, 0)).isTrue();
        h.restart();
        assertThat(h.send("d", "w", h.now + 400, 0)).isFalse();
        assertThat(h.lastReason).isEqualTo(RejectReason.DUPLICATE);
        assertThat(h.send("d", "w", h.now + 400, 1)).isTrue();
        h.restart();
        assertThat(h.send("d", "w", h.now + 300, 2)).isFalse();
    }

    /**
     * Without version changes, forgetting never costs an admission: two hours of reports from two devices to three
     * workloads with different windows, periods and modes (two in a group), a sweep after every step, all admitted,
     * while the ledgers keep only what the budgets' periods can still count.
     */
    @Test
    void inSteadyStateForgettingNeverRefusesAReport() {
        LedgerHarness h = new LedgerHarness();
        h.now = T0 + 10 * HOUR;
        h.register(spec("a", Mode.LOCAL, 0.01, 40, "1m", "10s", "g", 40.0, 1));
        h.register(spec("b", Mode.CENTRAL, 0.01, 40, "1h", "1m", "g", 40.0, 1));
        h.register(spec("c", Mode.LOCAL, 0.01, 40, "20s", "20s", null, null, 1));
        java.util.Map<String, Integer> next = new java.util.HashMap<>();
        int maxCharges = 0;
        for (int step = 0; step < 2 * 720; step++) {
            h.advance(5_000);
            for (String d : new String[] {"d1", "d2"}) {
                for (String w : new String[] {"a", "b", "c"}) {
                    long t = h.now + 100;
                    var reg = h.catalog.current(w).workload();
                    if (w.equals("b") && next.getOrDefault(d + w + reg.window().startOf(t), 0) > 0) {
                        continue; // one contribution per central window
                    }
                    String key = w.equals("b") ? d + w + reg.window().startOf(t) : d + w + reg.periodOf(t).index();
                    int slot = next.merge(key, 1, Integer::sum) - 1;
                    assertThat(h.send(d, w, t, slot)).as("step %d %s %s: %s %s", step, d, w, h.lastReason,
                            h.lastMessage).isTrue();
                }
            }
            maxCharges = Math.max(maxCharges, h.ledger("d1").charges().size());
        }
        // what the invariant needs: the group's hourly declaration (b's) counts a's minute charges and b's windows of
        // the current hour (about 60 each); c's 20-second periods go once their window closes
        assertThat(maxCharges).as("charges kept per device").isLessThanOrEqualTo(2 * 62 + 3);
    }
}
