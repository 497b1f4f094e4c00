package io.privacygateway.mechanisms.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.budget.BudgetRule.Admission;
import io.privacygateway.mechanisms.budget.BudgetRule.Admitted;
import io.privacygateway.mechanisms.budget.BudgetRule.Refused;
import io.privacygateway.mechanisms.budget.BudgetRule.Refusal;
import io.privacygateway.mechanisms.param.Epsilon;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The device budget's admission rule, checked against exact sums. */
class BudgetRuleTest {
    private static final long DAY = 86_400_000L;
    private static final long HOUR = 3_600_000L;

    /** Admits local reports in sequence until refused; returns how many and the final usage. */
    private static BudgetUsage fill(Epsilon eps, Epsilon budget, int slots, BudgetUsage u, List<BudgetUsage> others) {
        while (u.nextSequence() < slots) {
            Admission a = BudgetRule.local(eps, budget, slots, u, others, u.nextSequence());
            if (!a.admitted()) {
                assertThat(((Refused) a).reason()).isEqualTo(Refusal.BUDGET_EXHAUSTED);
                break;
            }
            u = ((Admitted) a).updated();
        }
        return u;
    }

    @Test
    void admissionIsExactInTheDeclaredDecimals() {
        PeriodKey p = new PeriodKey(DAY, 10);
        BudgetUsage tenths = fill(Epsilon.of(0.1), Epsilon.of(0.3), 10, BudgetUsage.empty(p), List.of());
        assertThat(tenths.sequencesUsed()).isEqualTo(3);
        assertThat(tenths.spent()).isEqualByComparingTo("0.3");
        Epsilon third = Epsilon.of(1.0 / 3 + 1e-13);
        BudgetUsage thirds = fill(third, Epsilon.of(1), 10, BudgetUsage.empty(p), List.of());
        assertThat(thirds.sequencesUsed()).isEqualTo(2);
        // exact check of the invariant: what was admitted never exceeds the budget
        assertThat(thirds.spent().compareTo(BigDecimal.ONE)).isLessThanOrEqualTo(0);
        for (double e : new double[] {0.07, 0.1, 0.3, 1.0 / 3, 0.7, 1.1, 2.5}) {
            for (double b : new double[] {0.3, 1, 2.2, 3.3, 10}) {
                if (e > b) {
                    continue;
                }
                BudgetUsage u = fill(Epsilon.of(e), Epsilon.of(b), 1000, BudgetUsage.empty(p), List.of());
                BigDecimal exactE = Epsilon.of(e).exact();
                BigDecimal exactB = Epsilon.of(b).exact();
                assertThat(u.spent().compareTo(exactB)).as("ε=%s budget=%s", e, b).isLessThanOrEqualTo(0);
                assertThat(u.spent().add(exactE).compareTo(exactB)).as("one more would overspend").isPositive();
            }
        }
    }

    @Test
    void duplicatesAndRangeAreRefusedWithoutCharging() {
        PeriodKey p = new PeriodKey(DAY, 1);
        Admitted a = (Admitted) BudgetRule.local(Epsilon.of(1), Epsilon.of(4), 4, BudgetUsage.empty(p), List.of(), 2);
        Refused dup = (Refused) BudgetRule.local(Epsilon.of(1), Epsilon.of(4), 4, a.updated(), List.of(), 2);
        assertThat(dup.reason()).isEqualTo(Refusal.DUPLICATE);
        assertThat(((Refused) BudgetRule.local(Epsilon.of(1), Epsilon.of(4), 4, a.updated(), List.of(), 4)).reason())
                .isEqualTo(Refusal.SEQUENCE_OUT_OF_RANGE);
        assertThat(((Refused) BudgetRule.local(Epsilon.of(1), Epsilon.of(4), 4, a.updated(), List.of(), -1)).reason())
                .isEqualTo(Refusal.SEQUENCE_OUT_OF_RANGE);
        assertThat(a.updated().nextSequence()).isZero();
    }

    /** The reviewed attack: v1 (ε = 1, budget 2), then v2 (ε = 0.5): the old count rule allowed ε 3.0 spent. */
    @Test
    void loweringEpsilonInANewVersionCannotOverspend() {
        PeriodKey p = new PeriodKey(DAY, 7);
        BudgetUsage u = fill(Epsilon.of(1), Epsilon.of(2), 2, BudgetUsage.empty(p), List.of());
        assertThat(u.spent()).isEqualByComparingTo("2");
        // version 2: ε 0.5, same budget: 4 slots, but nothing is left
        Admission more = BudgetRule.local(Epsilon.of(0.5), Epsilon.of(2), 4, u, List.of(), 2);
        assertThat(more.admitted()).isFalse();
        assertThat(((Refused) more).reason()).isEqualTo(Refusal.BUDGET_EXHAUSTED);
        // after one v1 report, v2 may add exactly two of 0.5
        BudgetUsage half = fill(Epsilon.of(1), Epsilon.of(2), 1, BudgetUsage.empty(p), List.of());
        BudgetUsage after = fill(Epsilon.of(0.5), Epsilon.of(2), 4, half, List.of());
        assertThat(after.spent()).isEqualByComparingTo("2");
    }

    @Test
    void changingThePeriodLengthNeitherResetsNorOrphansBudgets() {
        // v1: a 1-day period, budget 2 spent in full on day 3
        PeriodKey day = new PeriodKey(DAY, 3);
        BudgetUsage old = fill(Epsilon.of(1), Epsilon.of(2), 2, BudgetUsage.empty(day), List.of());
        // v2: 1-hour periods, budget 2: every hour of day 3 still sees the day's spending
        for (PeriodKey hour : day.overlappingOfLength(HOUR)) {
            Admission a = BudgetRule.local(Epsilon.of(1), Epsilon.of(2), 2, BudgetUsage.empty(hour), List.of(old), 0);
            assertThat(a.admitted()).as("hour %s", hour.index()).isFalse();
        }
        assertThat(day.overlappingOfLength(HOUR)).hasSize(24);
        // the next day is a fresh budget
        PeriodKey nextHour = new PeriodKey(HOUR, 4 * 24);
        assertThat(BudgetRule.local(Epsilon.of(1), Epsilon.of(2), 2, BudgetUsage.empty(nextHour), List.of(old), 0)
                .admitted()).isTrue();
        // and the other way round: hourly charges count against the day that contains them
        List<BudgetUsage> hours = new ArrayList<>();
        for (int h = 0; h < 3; h++) {
            hours.add(fill(Epsilon.of(0.5), Epsilon.of(0.5), 1, BudgetUsage.empty(new PeriodKey(HOUR, 5 * 24 + h)),
                    List.of()));
        }
        BudgetUsage day5 = BudgetUsage.empty(new PeriodKey(DAY, 5));
        assertThat(BudgetRule.spentOverlapping(day5, hours)).isEqualByComparingTo("1.5");
        assertThat(BudgetRule.local(Epsilon.of(1), Epsilon.of(2), 2, day5, hours, 0).admitted()).isFalse();
        assertThat(BudgetRule.local(Epsilon.of(0.5), Epsilon.of(2), 4, day5, hours, 0).admitted()).isTrue();
    }

    @Test
    void centralChargesTheFirstContributionOfAWindowAndCapsAtL() {
        PeriodKey p = new PeriodKey(DAY, 0);
        Epsilon eps = Epsilon.of(1);
        Epsilon budget = Epsilon.of(2);
        BudgetUsage u = BudgetUsage.empty(p);
        Admitted a = (Admitted) BudgetRule.central(eps, budget, 2, u, List.of(), 0, 0);
        assertThat(a.charged()).isEqualByComparingTo("1");
        Admitted b = (Admitted) BudgetRule.central(eps, budget, 2, a.updated(), List.of(), 0, 1);
        assertThat(b.charged()).isEqualByComparingTo("0");
        Refused full = (Refused) BudgetRule.central(eps, budget, 2, b.updated(), List.of(), 0, 0);
        assertThat(full.reason()).isEqualTo(Refusal.CONTRIBUTION_LIMIT);
        Refused dup = (Refused) BudgetRule.central(eps, budget, 2, a.updated(), List.of(), 0, 0);
        assertThat(dup.reason()).isEqualTo(Refusal.DUPLICATE);
        Admitted w2 = (Admitted) BudgetRule.central(eps, budget, 2, b.updated(), List.of(), 10_000, 0);
        Refused w3 = (Refused) BudgetRule.central(eps, budget, 2, w2.updated(), List.of(), 20_000, 0);
        assertThat(w3.reason()).isEqualTo(Refusal.BUDGET_EXHAUSTED);
        assertThat(w2.updated().spent()).isEqualByComparingTo("2");
        assertThat(((Refused) BudgetRule.central(eps, budget, 2, u, List.of(), 0, 2)).reason())
                .isEqualTo(Refusal.SEQUENCE_OUT_OF_RANGE);
    }

    @Test
    void codecRoundTripsAndRefusesHostileBytes() {
        BitSet seq = new BitSet();
        seq.set(0);
        seq.set(5);
        BitSet slots = new BitSet();
        slots.set(1);
        BudgetUsage u = BudgetUsage.of(new PeriodKey(DAY, 42), new BigDecimal("1.3333333333334"), seq,
                Map.of(10_000L, slots, 20_000L, (BitSet) seq.clone()));
        byte[] bytes = BudgetUsageCodec.encode(u);
        assertThat(BudgetUsageCodec.decode(bytes)).isEqualTo(u);
        assertThat(BudgetUsageCodec.decode(BudgetUsageCodec.encode(BudgetUsage.empty(new PeriodKey(HOUR, 0)))))
                .isEqualTo(BudgetUsage.empty(new PeriodKey(HOUR, 0)));
        for (int cut = 0; cut < bytes.length; cut++) {
            byte[] truncated = java.util.Arrays.copyOf(bytes, cut);
            assertThatThrownBy(() -> BudgetUsageCodec.decode(truncated)).isInstanceOf(IllegalArgumentException.class);
        }
        byte[] huge = bytes.clone();
        huge[17 + 4] = 0x7f; // the unscaled length
        assertThatThrownBy(() -> BudgetUsageCodec.decode(huge)).isInstanceOf(IllegalArgumentException.class);
        byte[] trailing = java.util.Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> BudgetUsageCodec.decode(trailing)).hasMessageContaining("trailing");
    }

    @Test
    void aBudgetGroupCapsTheSumOverItsWorkloadsExactly() {
        PeriodKey p = new PeriodKey(DAY, 3);
        Epsilon group = Epsilon.of(2.5);
        BudgetUsage g = BudgetUsage.empty(p);
        BigDecimal[] own = {BigDecimal.ZERO, BigDecimal.ZERO};
        int admitted = 0;
        for (int i = 0; i < 10; i++) {
            // alternately workload A (ε 1) and workload B (ε 0.5)
            BigDecimal charge = i % 2 == 0 ? BigDecimal.ONE : new BigDecimal("0.5");
            Admission a = BudgetRule.group(group, g, List.of(), i % 2 == 0 ? "a" : "b",
                    Map.of("a", own[0], "b", own[1]), charge);
            if (a.admitted()) {
                g = ((Admitted) a).updated();
                own[i % 2] = own[i % 2].add(charge);
                admitted++;
            } else {
                assertThat(((Refused) a).reason()).isEqualTo(Refusal.GROUP_BUDGET_EXHAUSTED);
            }
        }
        assertThat(g.spent().compareTo(group.exact())).isLessThanOrEqualTo(0);
        assertThat(g.spent()).isEqualByComparingTo("2.5");
        assertThat(admitted).isEqualTo(3); // 1 + 0.5 + 1 = 2.5: then nothing more fits
        // a free central contribution never needs group budget
        assertThat(BudgetRule.group(group, g, List.of(), "a", Map.of("a", own[0]), BigDecimal.ZERO).admitted()).isTrue();
        // and usages of the group in overlapping periods of another length count
        PeriodKey hour = new PeriodKey(3_600_000L, 3 * 24 + 1);
        assertThat(BudgetRule.group(group, BudgetUsage.empty(hour), List.of(g), "a",
                Map.of("a", BigDecimal.ZERO), new BigDecimal("0.1")).admitted()).isFalse();
    }

    @Test
    void joiningLeavingOrRenamingAGroupNeverHandsTheDeviceAFreshBudget() {
        PeriodKey p = new PeriodKey(DAY, 3);
        Epsilon group = Epsilon.of(3);
        // workload a spent 2 of its own before it joined the group; b is a member from the start
        BudgetUsage g = BudgetUsage.empty(p);
        g = ((Admitted) BudgetRule.group(group, g, List.of(), "b", Map.of("b", BigDecimal.ZERO), BigDecimal.ONE))
                .updated();
        assertThat(g.spent()).isEqualByComparingTo("1");
        // a's first report as a member: its earlier 2 are taken in first, so 1 + 2 + 1 > 3 is refused
        Admission a1 = BudgetRule.group(group, g, List.of(), "a", Map.of("a", TWO, "b", BigDecimal.ONE),
                BigDecimal.ONE);
        assertThat(a1.admitted()).isFalse();
        assertThat(((Refused) a1).reason()).isEqualTo(Refusal.GROUP_BUDGET_EXHAUSTED);
        // and b, knowing a is now a member, cannot spend what a spent either: 1 + 2 + 0.5 > 3
        assertThat(BudgetRule.group(group, g, List.of(), "b", Map.of("a", TWO, "b", BigDecimal.ONE),
                new BigDecimal("0.5")).admitted()).isFalse();
        // a free central contribution fits and records what it took in: exactly 3
        g = ((Admitted) BudgetRule.group(group, g, List.of(), "a", Map.of("a", TWO, "b", BigDecimal.ONE),
                BigDecimal.ZERO)).updated();
        assertThat(g.spent()).isEqualByComparingTo("3");
        assertThat(g.memberSpent("a")).isEqualByComparingTo("2");
        assertThat(g.memberSpent("b")).isEqualByComparingTo("1");
        // spend already counted is not counted twice
        assertThat(((Admitted) BudgetRule.group(group, g, List.of(), "a", Map.of("a", TWO, "b", BigDecimal.ONE),
                BigDecimal.ZERO)).updated().spent()).isEqualByComparingTo("3");
        // a leaves the group: what it spent stays in the group's usage; b cannot spend it again
        assertThat(BudgetRule.group(group, g, List.of(), "b", Map.of("b", BigDecimal.ONE), new BigDecimal("0.001"))
                .admitted()).isFalse();
        // a re-joins after spending 0.5 outside the group: the 0.5 is taken in as well
        BudgetUsage roomy = BudgetUsage.of(p, TWO, new java.util.BitSet(), Map.of(), Map.of("a", BigDecimal.ONE));
        Admitted rejoin = (Admitted) BudgetRule.group(group, roomy, List.of(), "a",
                Map.of("a", new BigDecimal("1.5")), new BigDecimal("0.5"));
        assertThat(rejoin.updated().spent()).isEqualByComparingTo("3");
        assertThat(rejoin.updated().memberSpent("a")).isEqualByComparingTo("2");
        // a renamed group starts with no usage, but every member's own spend in the period is taken in
        assertThat(BudgetRule.group(group, BudgetUsage.empty(p), List.of(), "a",
                Map.of("a", new BigDecimal("1.5"), "b", BigDecimal.ONE), new BigDecimal("0.6")).admitted()).isFalse();
        assertThatThrownBy(() -> BudgetRule.group(group, g0(p), List.of(), "a", Map.of(), BigDecimal.ONE))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static final BigDecimal TWO = new BigDecimal("2");

    private static BudgetUsage g0(PeriodKey p) {
        return BudgetUsage.empty(p);
    }

    @Test
    void aGroupUsageWithMembersRoundTripsAndOldBytesStillDecode() {
        PeriodKey p = new PeriodKey(DAY, 3);
        BudgetUsage plain = BudgetUsage.empty(p);
        Admitted first = (Admitted) BudgetRule.group(Epsilon.of(3), plain, List.of(), "wörkload-a",
                Map.of("wörkload-a", new BigDecimal("0.25"), "b", new BigDecimal("0.125")), new BigDecimal("0.5"));
        BudgetUsage withMembers = first.updated();
        byte[] bytes = BudgetUsageCodec.encode(withMembers);
        assertThat(bytes[0]).isEqualTo((byte) 2);
        assertThat(BudgetUsageCodec.decode(bytes)).isEqualTo(withMembers);
        assertThat(BudgetUsageCodec.decode(bytes).memberSpent("wörkload-a")).isEqualByComparingTo("0.75");
        assertThat(BudgetUsageCodec.decode(bytes).memberSpent("b")).isEqualByComparingTo("0.125");
        assertThat(withMembers.spent()).isEqualByComparingTo("0.875");
        assertThat(BudgetUsageCodec.encode(plain)[0]).isEqualTo((byte) 1);
        for (int cut = 1; cut < bytes.length; cut++) {
            byte[] truncated = java.util.Arrays.copyOf(bytes, cut);
            assertThatThrownBy(() -> BudgetUsageCodec.decode(truncated)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    /**
     * The precomputed local rule ({@link BudgetRule.Local}) and its form without a result object agree with
     * {@link BudgetRule#local} on every outcome: the same updated usage when admitted, {@code null} exactly when
     * refused (sequence out of range, replay, budget exhausted, an overlapping period of another length).
     */
    @Test
    void precomputedLocalRuleAgreesWithLocal() {
        PeriodKey p = new PeriodKey(DAY, 10);
        List<List<BudgetUsage>> othersChoices = List.of(List.of(),
                List.of(fill(Epsilon.of(0.5), Epsilon.of(1), 2, BudgetUsage.empty(new PeriodKey(HOUR, 241)), List.of())),
                List.of(fill(Epsilon.of(0.5), Epsilon.of(1), 2, BudgetUsage.empty(new PeriodKey(HOUR, 500)), List.of())));
        int agreedAdmitted = 0;
        int agreedRefused = 0;
        for (double e : new double[] {0.1, 1.0 / 3, 0.5, 1}) {
            for (double b : new double[] {1, 2.2}) {
                for (List<BudgetUsage> others : othersChoices) {
                    BudgetUsage u = BudgetUsage.empty(p);
                    for (int step = 0; step < 30; step++) {
                        for (int seq : new int[] {-1, 0, u.nextSequence(), 7, 12}) {
                            Admission a = BudgetRule.local(Epsilon.of(e), Epsilon.of(b), 12, u, others, seq);
                            BudgetRule.Local rule = new BudgetRule.Local(Epsilon.of(e), Epsilon.of(b), 12);
                            BudgetUsage fast = rule.updated(u, others, seq);
                            assertThat(rule.admit(u, others, seq)).isEqualTo(a);
                            if (a instanceof Admitted admitted) {
                                assertThat(fast).isEqualTo(admitted.updated());
                                assertThat(fast.spent()).isEqualByComparingTo(admitted.updated().spent());
                                assertThat(admitted.charged()).isEqualByComparingTo(Epsilon.of(e).exact());
                                agreedAdmitted++;
                            } else {
                                assertThat(fast).isNull();
                                agreedRefused++;
                            }
                        }
                        Admission next = BudgetRule.local(Epsilon.of(e), Epsilon.of(b), 12, u, others, u.nextSequence());
                        if (next instanceof Admitted admitted) {
                            u = admitted.updated();
                        }
                    }
                }
            }
        }
        assertThat(agreedAdmitted).isPositive();
        assertThat(agreedRefused).isPositive();
    }
}
