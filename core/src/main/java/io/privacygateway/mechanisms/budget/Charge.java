package io.privacygateway.mechanisms.budget;

import java.math.BigDecimal;
import java.util.BitSet;
import java.util.Objects;

/**
 * One entry of a device's {@link DeviceLedger}: what the device was charged by one workload version over one
 * interval of event time, and which report slots it used there (so a replay is recognised).
 *
 * <p>The interval is what the charged reports can affect: in local mode the version's budget period containing
 * the report ({@code [index·length, (index+1)·length)}); in central mode the window the report contributes to.
 * A charge counts against every budget period it overlaps, of any length, so changing the period length, the
 * window, the mode or the group in a later version can only make the rule refuse more, never forget a charge.
 *
 * @param workloadId the workload charged
 * @param version the content hash of the version that admitted the reports (its release is a separate release
 *     of every other version's)
 * @param group the budget group the version declared, or {@code null}
 * @param from the first millisecond of the interval (>= 0)
 * @param to the first millisecond after it ({@code > from})
 * @param epsilon the exact ε charged over the interval (>= 0)
 * @param slots the sequence numbers (local) or contribution slots (central) used (never modified: copies)
 */
public record Charge(String workloadId, String version, String group, long from, long to, BigDecimal epsilon,
        BitSet slots) {
    public Charge {
        Objects.requireNonNull(workloadId, "workloadId");
        Objects.requireNonNull(version, "version");
        if (from < 0 || to <= from) {
            throw new IllegalArgumentException("a charge's interval must satisfy 0 <= from < to, got [" + from + ", "
                    + to + ")");
        }
        if (epsilon.signum() < 0) {
            throw new IllegalArgumentException("a charge's ε must be >= 0, got " + epsilon);
        }
        slots = (BitSet) slots.clone();
    }

    /** The used slots (a copy). */
    @Override
    public BitSet slots() {
        return (BitSet) slots.clone();
    }

    /** Whether slot {@code s} was used. */
    public boolean usedSlot(int s) {
        return s >= 0 && slots.get(s);
    }

    /** The used slots' bytes ({@link BitSet#toByteArray()}, for codecs; no copy of the set). */
    public byte[] slotBytes() {
        return slots.toByteArray();
    }

    /** How many slots were used. */
    public int slotsUsed() {
        return slots.cardinality();
    }

    /** The smallest slot not used yet. */
    public int nextSlot() {
        return slots.nextClearBit(0);
    }

    /** Whether this charge's interval shares at least one millisecond with {@code [start, end)}. */
    public boolean overlaps(long start, long end) {
        return from < end && start < to;
    }

    /** Whether this is the entry of {@code version} of {@code workloadId} over the interval starting at {@code from}. */
    boolean identifies(String workloadId, String version, long from) {
        return this.from == from && this.workloadId.equals(workloadId) && this.version.equals(version);
    }

    /** This charge with slot {@code slot} used and {@code more} ε added. */
    Charge plus(int slot, BigDecimal more) {
        BitSet s = new BitSet(Math.max(slots.length(), slot + 1));
        s.or(slots);
        s.set(slot);
        return new Charge(workloadId, version, group, from, to, epsilon.add(more), s);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Charge c && from == c.from && to == c.to && workloadId.equals(c.workloadId)
                && version.equals(c.version) && Objects.equals(group, c.group) && epsilon.compareTo(c.epsilon) == 0
                && slots.equals(c.slots);
    }

    @Override
    public int hashCode() {
        return Objects.hash(workloadId, version, group, from, to, epsilon.stripTrailingZeros(), slots);
    }

    @Override
    public String toString() {
        return "Charge[" + workloadId + "@" + version.substring(0, Math.min(8, version.length())) + (group == null ? ""
                : " group " + group) + ", [" + from + ", " + to + "), ε " + epsilon.toPlainString() + ", slots " + slots
                + "]";
    }
}
