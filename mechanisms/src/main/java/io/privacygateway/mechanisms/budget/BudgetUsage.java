package io.privacygateway.mechanisms.budget;

import java.math.BigDecimal;
import java.util.BitSet;
import java.util.Collections;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What one device has spent of one workload's budget in one budget period: the exact ε charged and the
 * report slots used, so that a replayed report is recognised. Local mode uses sequence numbers per period;
 * central mode uses, for each window contributed to, the contribution slots {@code [0, L)} of that window.
 * Immutable; {@link BudgetRule} produces the updated value after an admission.
 *
 * <p>This is the value a device keeps for itself (the SDK) and the gateway keeps per device in a changelogged
 * store: the same type and the same rule on both sides.
 */
public final class BudgetUsage {
    private final PeriodKey period;
    private final BigDecimal spent;
    private final BitSet sequences;
    private final NavigableMap<Long, BitSet> windows;

    private BudgetUsage(PeriodKey period, BigDecimal spent, BitSet sequences, NavigableMap<Long, BitSet> windows) {
        this.period = Objects.requireNonNull(period, "period");
        if (spent.signum() < 0) {
            throw new IllegalArgumentException("spent ε must be >= 0, got " + spent);
        }
        this.spent = spent;
        this.sequences = sequences;
        this.windows = windows;
    }

    /** Nothing spent in {@code period}. */
    public static BudgetUsage empty(PeriodKey period) {
        return new BudgetUsage(period, BigDecimal.ZERO, new BitSet(), Collections.emptyNavigableMap());
    }

    /** A usage as stored (for codecs): copies its arguments. */
    public static BudgetUsage of(PeriodKey period, BigDecimal spent, BitSet sequences, Map<Long, BitSet> windows) {
        TreeMap<Long, BitSet> w = new TreeMap<>();
        windows.forEach((k, v) -> w.put(k, (BitSet) v.clone()));
        return new BudgetUsage(period, spent, (BitSet) sequences.clone(), Collections.unmodifiableNavigableMap(w));
    }

    public PeriodKey period() {
        return period;
    }

    /** The exact ε charged in this period. */
    public BigDecimal spent() {
        return spent;
    }

    /** Whether nothing was charged or recorded. */
    public boolean isEmpty() {
        return spent.signum() == 0 && sequences.isEmpty() && windows.isEmpty();
    }

    /** Local mode: whether sequence number {@code s} was used. */
    public boolean usedSequence(int s) {
        return sequences.get(s);
    }

    /** Local mode: the smallest sequence number not used yet. */
    public int nextSequence() {
        return sequences.nextClearBit(0);
    }

    /** Local mode: how many sequence numbers were used. */
    public int sequencesUsed() {
        return sequences.cardinality();
    }

    /** Central mode: how many reports the device contributed to the window starting at {@code windowStart}. */
    public int contributions(long windowStart) {
        BitSet b = windows.get(windowStart);
        return b == null ? 0 : b.cardinality();
    }

    /** Central mode: whether contribution slot {@code slot} of the window was used. */
    public boolean usedSlot(long windowStart, int slot) {
        BitSet b = windows.get(windowStart);
        return b != null && b.get(slot);
    }

    /** Central mode: the smallest unused contribution slot of the window. */
    public int nextSlot(long windowStart) {
        BitSet b = windows.get(windowStart);
        return b == null ? 0 : b.nextClearBit(0);
    }

    /** Central mode: the windows contributed to (start → used slots), read-only. */
    public NavigableMap<Long, BitSet> windows() {
        return windows;
    }

    /** The used sequence numbers (copy). */
    public BitSet sequences() {
        return (BitSet) sequences.clone();
    }

    BudgetUsage withCharge(BigDecimal epsilon) {
        return new BudgetUsage(period, spent.add(epsilon), sequences, windows);
    }

    BudgetUsage withSequence(int sequence, BigDecimal epsilon) {
        BitSet s = (BitSet) sequences.clone();
        s.set(sequence);
        return new BudgetUsage(period, spent.add(epsilon), s, windows);
    }

    BudgetUsage withContribution(long windowStart, int slot, BigDecimal epsilon) {
        TreeMap<Long, BitSet> w = new TreeMap<>(windows);
        BitSet b = w.containsKey(windowStart) ? (BitSet) w.get(windowStart).clone() : new BitSet();
        b.set(slot);
        w.put(windowStart, b);
        return new BudgetUsage(period, spent.add(epsilon), sequences, Collections.unmodifiableNavigableMap(w));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BudgetUsage u && period.equals(u.period) && spent.compareTo(u.spent) == 0
                && sequences.equals(u.sequences) && windows.equals(u.windows);
    }

    @Override
    public int hashCode() {
        return Objects.hash(period, spent.stripTrailingZeros(), sequences, windows);
    }

    @Override
    public String toString() {
        return "BudgetUsage[" + period + ", spent=" + spent.toPlainString() + ", sequences=" + sequences
                + ", windows=" + windows.keySet() + "]";
    }
}
