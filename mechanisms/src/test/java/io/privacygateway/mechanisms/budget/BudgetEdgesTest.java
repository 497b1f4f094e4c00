package io.privacygateway.mechanisms.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.param.Epsilon;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Device budget state at its edges (written against the mutants PIT found unchecked; docs/mutation-testing.md):
 * the stored form's length checks exactly at their limits, zero-valued members, value semantics, period
 * arithmetic, and a group admission with a zero charge after the members overspent.
 */
class BudgetEdgesTest {
    private static final PeriodKey DAY = new PeriodKey(86_400_000L, 3);

    private static BitSet bits(int... set) {
        BitSet b = new BitSet();
        for (int i : set) {
            b.set(i);
        }
        return b;
    }

    @Test
    void usageValueSemanticsSeeEveryField() {
        BudgetUsage a = BudgetUsage.of(DAY, new BigDecimal("0.5"), bits(1), Map.of(10L, bits(0)), Map.of("w", BigDecimal.ONE));
        BudgetUsage same = BudgetUsage.of(DAY, new BigDecimal("0.50"), bits(1), Map.of(10L, bits(0)), Map.of("w", new BigDecimal("1.0")));
        assertThat(a).isEqualTo(same);
        assertThat(a.hashCode()).isEqualTo(same.hashCode());
        assertThat(a).isNotEqualTo(BudgetUsage.of(DAY, new BigDecimal("0.5"), bits(1), Map.of(10L, bits(0)), Map.of("w", BigDecimal.TEN)));
        assertThat(a).isNotEqualTo(BudgetUsage.of(DAY, new BigDecimal("0.5"), bits(1), Map.of(10L, bits(0)), Map.of("v", BigDecimal.ONE)));
        assertThat(a).isNotEqualTo(BudgetUsage.of(DAY, new BigDecimal("0.5"), bits(1), Map.of(10L, bits(0))));
        assertThat(a).isNotEqualTo(BudgetUsage.of(DAY, new BigDecimal("0.6"), bits(1), Map.of(10L, bits(0)), Map.of("w", BigDecimal.ONE)));
        assertThat(a).isNotEqualTo("usage");
        assertThat(a.hashCode()).isNotEqualTo(BudgetUsage.empty(DAY).hashCode());
        assertThat(a.toString()).isEqualTo("BudgetUsage[" + DAY + ", spent=0.5, sequences={1}, windows=[10], members=[w]]");
        assertThat(BudgetUsage.empty(DAY).toString()).isEqualTo("BudgetUsage[" + DAY + ", spent=0, sequences={}, windows=[]]");
    }

    @Test
    void emptinessLooksAtEveryComponent() {
        assertThat(BudgetUsage.empty(DAY).isEmpty()).isTrue();
        assertThat(BudgetUsage.of(DAY, BigDecimal.ONE, new BitSet(), Map.of()).isEmpty()).isFalse();
        assertThat(BudgetUsage.of(DAY, BigDecimal.ZERO, bits(0), Map.of()).isEmpty()).isFalse();
        assertThat(BudgetUsage.of(DAY, BigDecimal.ZERO, new BitSet(), Map.of(5L, new BitSet())).isEmpty()).isFalse();
        assertThat(BudgetUsage.of(DAY, BigDecimal.ZERO, new BitSet(), Map.of(), Map.of("w", BigDecimal.ZERO)).isEmpty()).isFalse();
    }

    @Test
    void storedWindowsAndSlotsAreKept() {
        BudgetUsage u = BudgetUsage.of(DAY, BigDecimal.ONE, new BitSet(), Map.of(10L, bits(0, 1), 20L, bits(1)));
        assertThat(u.windows()).containsOnlyKeys(10L, 20L);
        assertThat(u.nextSlot(10L)).isEqualTo(2);
        assertThat(u.nextSlot(20L)).isZero();
        assertThat(u.nextSlot(30L)).isZero();
        assertThat(u.contributions(10L)).isEqualTo(2);
    }

    @Test
    void aMemberMaySpendZeroButNotLess() {
        BudgetUsage u = BudgetUsage.of(DAY, BigDecimal.ZERO, new BitSet(), Map.of(), Map.of("w", BigDecimal.ZERO));
        assertThat(u.memberSpent("w")).isZero();
        assertThat(BudgetUsageCodec.decode(BudgetUsageCodec.encode(u))).isEqualTo(u);
        assertThatThrownBy(() -> BudgetUsage.of(DAY, BigDecimal.ZERO, new BitSet(), Map.of(), Map.of("w", new BigDecimal("-0.1"))))
                .hasMessageContaining("member's spent");
    }

    @Test
    void aSpendOfExactlySixtyFourUnscaledBytesRoundTrips() {
        BigDecimal big = new BigDecimal(BigInteger.ONE.shiftLeft(510)); // 64 bytes in two's complement
        assertThat(big.unscaledValue().toByteArray()).hasSize(64);
        BudgetUsage u = BudgetUsage.of(DAY, big, new BitSet(), Map.of());
        assertThat(BudgetUsageCodec.decode(BudgetUsageCodec.encode(u)).spent()).isEqualByComparingTo(big);
        BudgetUsage tooBig = BudgetUsage.of(DAY, new BigDecimal(BigInteger.ONE.shiftLeft(511)), new BitSet(), Map.of());
        // refused when written, not written and then refused when read back (issue 27, item 10's rule)
        assertThatThrownBy(() -> BudgetUsageCodec.encode(tooBig)).hasMessageContaining("65 bytes, more than the 64");
    }

    /** Header of a stored usage: version, period, spent 0 (scale 0, no unscaled bytes), no sequences. */
    private static ByteBuffer header(ByteBuffer b, int version) {
        return b.put((byte) version).putLong(DAY.lengthMillis()).putLong(DAY.index()).putInt(0).putInt(0).putInt(0);
    }

    @Test
    void windowCountsAreCheckedAgainstTheBytesPresentExactly() {
        // two windows of 12 bytes each (start, empty bitset): the count equals remaining / 12 and is accepted
        ByteBuffer ok = header(ByteBuffer.allocate(1 + 16 + 12 + 4 + 24), 1).putInt(2);
        ok.putLong(100L).putInt(0).putLong(200L).putInt(0);
        assertThat(BudgetUsageCodec.decode(ok.array()).windows()).containsOnlyKeys(100L, 200L);
        // a count above the bytes present is refused as such, before reading
        ByteBuffer bad = header(ByteBuffer.allocate(1 + 16 + 12 + 4 + 24), 1).putInt(3);
        bad.putLong(100L).putInt(0).putLong(200L).putInt(0);
        assertThatThrownBy(() -> BudgetUsageCodec.decode(bad.array())).hasMessage("bad window count 3");
    }

    @Test
    void memberCountsAreCheckedAgainstTheBytesPresentExactly() {
        // one member of 12 bytes (empty id, scale 0, no unscaled bytes): the count equals remaining / 12
        ByteBuffer ok = header(ByteBuffer.allocate(1 + 16 + 12 + 4 + 4 + 12), 2).putInt(0).putInt(1);
        ok.putInt(0).putInt(0).putInt(0);
        assertThat(BudgetUsageCodec.decode(ok.array()).members()).containsOnlyKeys("");
        ByteBuffer two = header(ByteBuffer.allocate(1 + 16 + 12 + 4 + 4 + 12), 2).putInt(0).putInt(2);
        two.putInt(0).putInt(0).putInt(0);
        assertThatThrownBy(() -> BudgetUsageCodec.decode(two.array())).hasMessage("bad member count 2");
        ByteBuffer none = header(ByteBuffer.allocate(1 + 16 + 12 + 4 + 4), 2).putInt(0).putInt(0);
        assertThatThrownBy(() -> BudgetUsageCodec.decode(none.array())).hasMessage("bad member count 0");
    }

    @Test
    void periodsValidateOrderOverlapAndSplit() {
        assertThatThrownBy(() -> new PeriodKey(0, 0)).hasMessageContaining("period length must be > 0");
        assertThat(new PeriodKey(1, 0).lengthMillis()).isEqualTo(1);
        assertThat(PeriodKey.containing(10, 25)).isEqualTo(new PeriodKey(10, 2));
        PeriodKey a = new PeriodKey(10, 2); // [20, 30)
        assertThat(a.overlaps(new PeriodKey(10, 3))).isFalse(); // [30, 40): adjacent, no common millisecond
        assertThat(a.overlaps(new PeriodKey(10, 1))).isFalse();
        assertThat(a.overlaps(new PeriodKey(5, 5))).isTrue();  // [25, 30)
        assertThat(a.overlaps(new PeriodKey(20, 1))).isTrue(); // [20, 40)
        assertThat(a.overlappingOfLength(5)).containsExactly(new PeriodKey(5, 4), new PeriodKey(5, 5));
        assertThat(a.overlappingOfLength(4)).containsExactly(new PeriodKey(4, 5), new PeriodKey(4, 6), new PeriodKey(4, 7));
        assertThat(a.overlappingOfLength(100)).containsExactly(new PeriodKey(100, 0));
        assertThat(a.compareTo(new PeriodKey(10, 3))).isNegative();
        assertThat(new PeriodKey(10, 3).compareTo(a)).isPositive();
        assertThat(a.compareTo(new PeriodKey(20, 1))).isNegative(); // same start, shorter first
        assertThat(a.compareTo(new PeriodKey(10, 2))).isZero();
    }

    @Test
    void aFreeContributionIsAdmittedEvenWhenTheMembersAlreadySpentTheGroupBudget() {
        BudgetUsage current = BudgetUsage.empty(DAY);
        Map<String, BigDecimal> spent = Map.of("a", new BigDecimal("1.5"), "b", BigDecimal.ZERO);
        assertThat(BudgetRule.groupSpent(current, List.of(), spent)).isEqualByComparingTo("1.5");
        BudgetRule.Admission free = BudgetRule.group(Epsilon.of(1.0), current, List.of(), "a", spent, BigDecimal.ZERO);
        assertThat(free).isInstanceOf(BudgetRule.Admitted.class);
        BudgetUsage after = ((BudgetRule.Admitted) free).updated();
        assertThat(after.members()).containsOnlyKeys("a"); // a member that spent nothing is not recorded
        assertThat(after.memberSpent("a")).isEqualByComparingTo("1.5");
        BudgetRule.Admission paid = BudgetRule.group(Epsilon.of(1.0), current, List.of(), "a", spent, new BigDecimal("0.1"));
        assertThat(paid).isInstanceOf(BudgetRule.Refused.class);
    }
}
