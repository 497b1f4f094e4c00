package io.privacygateway.mechanisms.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.param.Epsilon;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The admission rule and the ledger's value and bytes, on their own (the gateway's seams: topology's Ledger tests). */
class BudgetLedgerTest {
    private static final long DAY = 86_400_000L;
    private static final long HOUR = 3_600_000L;

    private static BudgetLedger.Claim local(String w, String version, long t, long period, int slot, int slots,
            String eps, String budget, BudgetLedger.GroupView group) {
        long from = Math.floorDiv(t, period) * period;
        return new BudgetLedger.Claim(w, version, false, from, from + period, slot, slots, new BigDecimal(eps),
                new BudgetLedger.PeriodBudget(Epsilon.exactly(new BigDecimal(budget)), period), group);
    }

    private static BudgetLedger.Claim central(String w, String version, long windowStart, long window, int slot, int l,
            String eps, String budget, long period) {
        return new BudgetLedger.Claim(w, version, true, windowStart, windowStart + window, slot, l, new BigDecimal(eps),
                new BudgetLedger.PeriodBudget(Epsilon.exactly(new BigDecimal(budget)), period), null);
    }

    private static DeviceLedger admit(DeviceLedger l, BudgetLedger.Claim c) {
        BudgetLedger.Admission a = BudgetLedger.admit(l, c, BudgetLedger.Forgotten.NONE);
        assertThat(a).as("admitted: %s", a).isInstanceOf(BudgetLedger.Admitted.class);
        return ((BudgetLedger.Admitted) a).updated();
    }

    private static BudgetLedger.Refusal refusal(DeviceLedger l, BudgetLedger.Claim c, BudgetLedger.Forgotten f) {
        BudgetLedger.Admission a = BudgetLedger.admit(l, c, f);
        assertThat(a).isInstanceOf(BudgetLedger.Refused.class);
        return ((BudgetLedger.Refused) a).reason();
    }

    @Test
    void admissionIsExactInTheDeclaredDecimals() {
        DeviceLedger l = DeviceLedger.empty();
        String third = "0.3333333333334"; // three of these exceed 1 by 2e-13: a double sum would admit the third
        l = admit(l, local("w", "v", 0, DAY, 0, 10, third, "1", null));
        l = admit(l, local("w", "v", 0, DAY, 1, 10, third, "1", null));
        assertThat(refusal(l, local("w", "v", 0, DAY, 2, 10, third, "1", null), BudgetLedger.Forgotten.NONE))
                .isEqualTo(BudgetLedger.Refusal.BUDGET_EXHAUSTED);
        DeviceLedger exact = admit(admit(admit(DeviceLedger.empty(), local("w", "v", 0, DAY, 0, 10, "0.25", "0.75",
                null)), local("w", "v", 0, DAY, 1, 10, "0.25", "0.75", null)), local("w", "v", 0, DAY, 2, 10, "0.25",
                "0.75", null));
        assertThat(exact.charges().get(0).epsilon()).isEqualByComparingTo("0.75");
    }

    @Test
    void duplicatesAndOutOfRangeSlotsAreRefusedWithoutCharging() {
        DeviceLedger l = admit(DeviceLedger.empty(), local("w", "v", 5, DAY, 0, 2, "1", "2", null));
        assertThat(refusal(l, local("w", "v", 6, DAY, 0, 2, "1", "2", null), BudgetLedger.Forgotten.NONE))
                .isEqualTo(BudgetLedger.Refusal.DUPLICATE);
        assertThat(refusal(l, local("w", "v", 6, DAY, 2, 2, "1", "2", null), BudgetLedger.Forgotten.NONE))
                .isEqualTo(BudgetLedger.Refusal.SEQUENCE_OUT_OF_RANGE);
        assertThat(refusal(l, local("w", "v", 6, DAY, -1, 2, "1", "2", null), BudgetLedger.Forgotten.NONE))
                .isEqualTo(BudgetLedger.Refusal.SEQUENCE_OUT_OF_RANGE);
        // another version's sequence 0 is another report: charged, and the period's budget counts both
        DeviceLedger two = admit(l, local("w", "v2", 6, DAY, 0, 2, "1", "2", null));
        assertThat(two.charges()).hasSize(2);
        assertThat(refusal(two, local("w", "v2", 7, DAY, 1, 2, "1", "2", null), BudgetLedger.Forgotten.NONE))
                .isEqualTo(BudgetLedger.Refusal.BUDGET_EXHAUSTED);
    }

    @Test
    void centralChargesTheFirstContributionOfAVersionsWindowAndCapsAtL() {
        DeviceLedger l = admit(DeviceLedger.empty(), central("c", "v1", 0, 60_000, 0, 2, "1", "2", DAY));
        BudgetLedger.Admitted second = (BudgetLedger.Admitted) BudgetLedger.admit(l,
                central("c", "v1", 0, 60_000, 1, 2, "1", "2", DAY), BudgetLedger.Forgotten.NONE);
        assertThat(second.charged()).isEqualByComparingTo("0");
        assertThat(refusal(second.updated(), central("c", "v1", 0, 60_000, 0, 2, "1", "2", DAY),
                BudgetLedger.Forgotten.NONE)).isEqualTo(BudgetLedger.Refusal.CONTRIBUTION_LIMIT);
        // the same window of another version is another release: charged again
        BudgetLedger.Admitted other = (BudgetLedger.Admitted) BudgetLedger.admit(second.updated(),
                central("c", "v2", 0, 60_000, 0, 2, "1", "2", DAY), BudgetLedger.Forgotten.NONE);
        assertThat(other.charged()).isEqualByComparingTo("1");
        assertThat(refusal(other.updated(), central("c", "v2", 60_000, 60_000, 0, 2, "1", "2", DAY),
                BudgetLedger.Forgotten.NONE)).isEqualTo(BudgetLedger.Refusal.BUDGET_EXHAUSTED);
    }

    @Test
    void aWindowAcrossTwoPeriodsCountsInBoth() {
        // a 90-minute window starting at 00:30 of day 0 overlaps hours 0 and 1 of an hourly budget of 1
        DeviceLedger l = admit(DeviceLedger.empty(), central("c", "v", HOUR / 2, 90 * 60_000L, 0, 1, "1", "1", HOUR));
        assertThat(refusal(l, local("c", "v2", HOUR + 5, HOUR, 0, 1, "1", "1", null), BudgetLedger.Forgotten.NONE))
                .isEqualTo(BudgetLedger.Refusal.BUDGET_EXHAUSTED);
    }

    @Test
    void everyGroupDeclarationBindsAndMembersCountWhateverTheyDeclaredWhenCharged() {
        BudgetLedger.GroupView g = new BudgetLedger.GroupView("g", List.of(
                new BudgetLedger.PeriodBudget(Epsilon.of(3), DAY), new BudgetLedger.PeriodBudget(Epsilon.of(1), HOUR)),
                Set.of("a", "b"));
        DeviceLedger l = admit(DeviceLedger.empty(), local("b", "vb", 10, HOUR, 0, 4, "1", "4", null)); // untagged
        assertThat(refusal(l, local("a", "va", 20, DAY, 0, 4, "1", "4", g), BudgetLedger.Forgotten.NONE))
                .as("b's hour holds 1 of the hourly declaration").isEqualTo(BudgetLedger.Refusal.GROUP_BUDGET_EXHAUSTED);
        // a former member's charges made under the group's name still count
        BudgetLedger.GroupView gx = new BudgetLedger.GroupView("g", List.of(new BudgetLedger.PeriodBudget(Epsilon.of(1),
                DAY)), Set.of("a"));
        DeviceLedger tagged = admit(DeviceLedger.empty(), local("x", "vx", 10, DAY, 0, 4, "1", "4", gx.members()
                .contains("x") ? gx : new BudgetLedger.GroupView("g", gx.budgets(), Set.of("x"))));
        assertThat(tagged.charges().get(0).group()).isEqualTo("g");
        assertThat(refusal(tagged, local("a", "va", 20, DAY, 0, 4, "1", "4", gx), BudgetLedger.Forgotten.NONE))
                .isEqualTo(BudgetLedger.Refusal.GROUP_BUDGET_EXHAUSTED);
    }

    @Test
    void theRuleNeverDecidesOnAPeriodThatBeganBeforeForgottenCharges() {
        BudgetLedger.Forgotten f = scope -> scope.equals("w") ? 10 * HOUR : Long.MIN_VALUE;
        assertThat(refusal(DeviceLedger.empty(), local("w", "v", 10 * HOUR + 5, DAY, 0, 4, "1", "4", null), f))
                .isEqualTo(BudgetLedger.Refusal.BUDGET_EXHAUSTED);
        assertThat(BudgetLedger.admit(DeviceLedger.empty(), local("w", "v", 10 * HOUR + 5, HOUR, 0, 4, "1", "4", null),
                f).admitted()).as("an hour that began at the forgotten time is complete").isTrue();
        DeviceLedger own = DeviceLedger.of(List.of(), Map.of("w", 10 * HOUR));
        assertThat(refusal(own, local("w", "v", 10 * HOUR + 5, DAY, 0, 4, "1", "4", null), BudgetLedger.Forgotten.NONE))
                .as("the device's own forgotten times count too").isEqualTo(BudgetLedger.Refusal.BUDGET_EXHAUSTED);
    }

    @Test
    void aLedgerRefusesTheChargeBeyondItsBound() {
        List<Charge> full = new ArrayList<>();
        for (int i = 0; i < DeviceLedger.MAX_CHARGES; i++) {
            full.add(new Charge("w", "v", null, i * 1000L, i * 1000L + 1000, BigDecimal.ZERO, new BitSet()));
        }
        DeviceLedger l = DeviceLedger.of(full, Map.of());
        assertThat(refusal(l, local("w2", "v", 5, DAY, 0, 4, "1", "4", null), BudgetLedger.Forgotten.NONE))
                .isEqualTo(BudgetLedger.Refusal.BUDGET_EXHAUSTED);
        assertThatThrownBy(() -> DeviceLedgerCodec.encode(DeviceLedger.of(append(full), Map.of())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most");
    }

    private static List<Charge> append(List<Charge> full) {
        List<Charge> more = new ArrayList<>(full);
        more.add(new Charge("w", "v", null, 10_000_000_000L, 10_000_000_001L, BigDecimal.ZERO, new BitSet()));
        return more;
    }

    @Test
    void theCodecRoundTripsAndRefusesHostileBytes() {
        BitSet slots = new BitSet();
        slots.set(0);
        slots.set(70);
        DeviceLedger l = DeviceLedger.of(List.of(
                new Charge("w", "hash1", "g", 0, DAY, new BigDecimal("1.25"), slots),
                new Charge("ü-w", "hash2", null, HOUR, 2 * HOUR, new BigDecimal("0.3333333333333333333333"), new BitSet())),
                Map.of("w", 5L, "group:g", 7L));
        byte[] b = DeviceLedgerCodec.encode(l);
        assertThat(DeviceLedgerCodec.decode(b)).isEqualTo(l);
        for (int cut = 0; cut < b.length; cut++) {
            byte[] truncated = java.util.Arrays.copyOf(b, cut);
            assertThatThrownBy(() -> DeviceLedgerCodec.decode(truncated)).isInstanceOf(IllegalArgumentException.class);
        }
        byte[] trailing = java.util.Arrays.copyOf(b, b.length + 1);
        assertThatThrownBy(() -> DeviceLedgerCodec.decode(trailing)).isInstanceOf(IllegalArgumentException.class);
        byte[] huge = ByteBuffer.allocate(9).put((byte) 1).putInt(Integer.MAX_VALUE).putInt(0).array();
        assertThatThrownBy(() -> DeviceLedgerCodec.decode(huge)).isInstanceOf(IllegalArgumentException.class);
        Random r = new Random(3);
        for (int i = 0; i < 2000; i++) { // random corruption: refused or decoded, never anything else
            byte[] c = b.clone();
            c[r.nextInt(c.length)] ^= (byte) (1 << r.nextInt(8));
            try {
                DeviceLedgerCodec.decode(c);
            } catch (IllegalArgumentException expected) {
                // refused
            }
        }
    }

    @Test
    void theMostLoadedPeriodIsFoundAsByEnumeratingEveryPeriod() {
        Random r = new Random(11);
        for (int trial = 0; trial < 400; trial++) {
            List<Charge> charges = new ArrayList<>();
            int n = r.nextInt(8);
            for (int i = 0; i < n; i++) {
                long from = r.nextInt(100) * 10L;
                charges.add(new Charge("w", "v" + i, null, from, from + 10L * (1 + r.nextInt(30)),
                        BigDecimal.valueOf(r.nextInt(4)), new BitSet()));
            }
            DeviceLedger l = DeviceLedger.of(charges, Map.of());
            long period = 10L * (1 + r.nextInt(12));
            long from = r.nextInt(100) * 10L;
            long to = from + 10L * (1 + r.nextInt(40));
            BigDecimal budget = BigDecimal.valueOf(r.nextInt(12) + 1);
            BudgetLedger.Claim c = new BudgetLedger.Claim("w", "new", true, from, to, 0, 1, BigDecimal.ONE,
                    new BudgetLedger.PeriodBudget(Epsilon.exactly(budget), period), null);
            boolean brute = true;
            for (long i = Math.floorDiv(from, period); i <= Math.floorDiv(to - 1, period); i++) {
                BigDecimal s = BigDecimal.ONE;
                for (Charge ch : charges) {
                    if (ch.overlaps(i * period, (i + 1) * period)) {
                        s = s.add(ch.epsilon());
                    }
                }
                brute &= s.compareTo(budget) <= 0;
            }
            assertThat(BudgetLedger.admit(l, c, BudgetLedger.Forgotten.NONE).admitted()).as("trial %d", trial)
                    .isEqualTo(brute);
        }
    }

    @Test
    void aDeviceRecordsMembershipWithoutSpending() {
        BudgetLedger.GroupView g = new BudgetLedger.GroupView("g", List.of(new BudgetLedger.PeriodBudget(Epsilon.of(2),
                DAY)), Set.of("a"));
        BudgetLedger.Claim c = local("a", "va", 10, DAY, 0, 4, "1", "4", g);
        DeviceLedger joined = BudgetLedger.join(DeviceLedger.empty(), c);
        assertThat(joined.charges()).singleElement().satisfies(ch -> {
            assertThat(ch.epsilon()).isEqualByComparingTo("0");
            assertThat(ch.slotsUsed()).isZero();
            assertThat(ch.group()).isEqualTo("g");
        });
        assertThat(BudgetLedger.join(joined, c)).isSameAs(joined);
        assertThat(BudgetLedger.deviceView(joined, "g", g.budgets().get(0), "b").members()).containsExactlyInAnyOrder(
                "a", "b");
        assertThat(admit(joined, c).charges()).singleElement().satisfies(ch -> assertThat(ch.epsilon())
                .isEqualByComparingTo("1"));
    }
}
