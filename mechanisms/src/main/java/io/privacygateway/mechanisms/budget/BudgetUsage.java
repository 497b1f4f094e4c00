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
    private final NavigableMap<String, BigDecimal> members;

    private BudgetUsage(PeriodKey period, BigDecimal spent, BitSet sequences, NavigableMap<Long, BitSet> windows) {
        this(period, spent, sequences, windows, Collections.emptyNavigableMap());
    }

    private BudgetUsage(PeriodKey period, BigDecimal spent, BitSet sequences, NavigableMap<Long, BitSet> windows,
            NavigableMap<String, BigDecimal> members) {
        this.period = Objects.requireNonNull(period, "period");
        if (spent.signum() < 0) {
            throw new IllegalArgumentException("spent ε must be >= 0, got " + spent);
        }
        this.spent = spent;
        this.sequences = sequences;
        this.windows = windows;
        this.members = members;
    }

    /** Nothing spent in {@code period}. */
    public static BudgetUsage empty(PeriodKey period) {
        return new BudgetUsage(period, BigDecimal.ZERO, new BitSet(), Collections.emptyNavigableMap());
    }

    /** A usage as stored (for codecs): copies its arguments. */
    public static BudgetUsage of(PeriodKey period, BigDecimal spent, BitSet sequences, Map<Long, BitSet> windows) {
        return of(period, spent, sequences, windows, Map.of());
    }

    /** A budget group's usage as stored (for codecs): copies its arguments. */
    public static BudgetUsage of(PeriodKey period, BigDecimal spent, BitSet sequences, Map<Long, BitSet> windows,
            Map<String, BigDecimal> members) {
        TreeMap<Long, BitSet> w = new TreeMap<>();
        windows.forEach((k, v) -> w.put(k, (BitSet) v.clone()));
        TreeMap<String, BigDecimal> m = new TreeMap<>();
        members.forEach((k, v) -> {
            if (v.signum() < 0) {
                throw new IllegalArgumentException("a member's spent ε must be >= 0, got " + v);
            }
            m.put(Objects.requireNonNull(k, "member"), v);
        });
        return new BudgetUsage(period, spent, (BitSet) sequences.clone(), Collections.unmodifiableNavigableMap(w),
                Collections.unmodifiableNavigableMap(m));
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
        return spent.signum() == 0 && sequences.isEmpty() && windows.isEmpty() && members.isEmpty();
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

    /**
     * Budget groups: for each member workload that reported in this period, its own spend in the period that this
     * group usage already counts (read-only). A member's own spend beyond this (made before it joined the group,
     * or while it was out of it) is added to the group on its next report.
     */
    public NavigableMap<String, BigDecimal> members() {
        return members;
    }

    /** Budget groups: the member's own spend in this period already counted by the group (0 if none). */
    public BigDecimal memberSpent(String member) {
        return members.getOrDefault(member, BigDecimal.ZERO);
    }

    /** The used sequence numbers (copy). */
    public BitSet sequences() {
        return (BitSet) sequences.clone();
    }

    BudgetUsage withGroupCharges(BigDecimal epsilon, Map<String, BigDecimal> counted) {
        TreeMap<String, BigDecimal> m = new TreeMap<>(members);
        m.putAll(counted);
        return new BudgetUsage(period, spent.add(epsilon), sequences, windows, Collections.unmodifiableNavigableMap(m));
    }

    BudgetUsage withSequence(int sequence, BigDecimal epsilon) {
        // a copy sized once for the new bit (a clone trims, copies, then grows again for a new highest bit)
        BitSet s = new BitSet(Math.max(sequences.length(), sequence + 1));
        s.or(sequences);
        s.set(sequence);
        return new BudgetUsage(period, spent.add(epsilon), s, windows, members);
    }

    BudgetUsage withContribution(long windowStart, int slot, BigDecimal epsilon) {
        TreeMap<Long, BitSet> w = new TreeMap<>(windows);
        BitSet b = w.containsKey(windowStart) ? (BitSet) w.get(windowStart).clone() : new BitSet();
        b.set(slot);
        w.put(windowStart, b);
        return new BudgetUsage(period, spent.add(epsilon), sequences, Collections.unmodifiableNavigableMap(w), members);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BudgetUsage u && period.equals(u.period) && spent.compareTo(u.spent) == 0
                && sequences.equals(u.sequences) && windows.equals(u.windows) && sameMembers(u);
    }

    private boolean sameMembers(BudgetUsage u) {
        if (!members.keySet().equals(u.members.keySet())) {
            return false;
        }
        for (Map.Entry<String, BigDecimal> e : members.entrySet()) {
            if (e.getValue().compareTo(u.members.get(e.getKey())) != 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return Objects.hash(period, spent.stripTrailingZeros(), sequences, windows, members.keySet());
    }

    @Override
    public String toString() {
        return "BudgetUsage[" + period + ", spent=" + spent.toPlainString() + ", sequences=" + sequences
                + ", windows=" + windows.keySet() + (members.isEmpty() ? "" : ", members=" + members.keySet()) + "]";
    }
}
