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
        int admitted = 0;
        for (int i = 0; i < 10; i++) {
            // alternately workload A (ε 1) and workload B (ε 0.5)
            BigDecimal charge = i % 2 == 0 ? BigDecimal.ONE : new BigDecimal("0.5");
            Admission a = BudgetRule.group(group, g, List.of(), charge);
            if (a.admitted()) {
                g = ((Admitted) a).updated();
                admitted++;
            } else {
                assertThat(((Refused) a).reason()).isEqualTo(Refusal.GROUP_BUDGET_EXHAUSTED);
            }
        }
        assertThat(g.spent().compareTo(group.exact())).isLessThanOrEqualTo(0);
        assertThat(g.spent()).isEqualByComparingTo("2.5");
        assertThat(admitted).isEqualTo(3); // 1 + 0.5 + 1 = 2.5: then nothing more fits
        // a free central contribution never needs group budget
        assertThat(BudgetRule.group(group, g, List.of(), BigDecimal.ZERO).admitted()).isTrue();
        // and usages of the group in overlapping periods of another length count
        PeriodKey hour = new PeriodKey(3_600_000L, 3 * 24 + 1);
        assertThat(BudgetRule.group(group, BudgetUsage.empty(hour), List.of(g), new BigDecimal("0.1")).admitted())
                .isFalse();
    }
}
