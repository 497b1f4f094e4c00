package io.privacygateway.mechanisms.budget;

import java.util.ArrayList;
import java.util.List;

/**
 * One budget period: its length and its index, covering {@code [index·length, (index+1)·length)} in event
 * time (periods are aligned to the epoch). A workload version may change the period length; charges made
 * under one length are then found again by {@link #overlaps overlap} with the periods of another.
 *
 * @param lengthMillis the period length in milliseconds (> 0)
 * @param index the period index (>= 0)
 */
public record PeriodKey(long lengthMillis, long index) implements Comparable<PeriodKey> {
    public PeriodKey {
        if (lengthMillis <= 0) {
            throw new IllegalArgumentException("period length must be > 0 ms, got " + lengthMillis);
        }
        if (index < 0) {
            throw new IllegalArgumentException("period index must be >= 0, got " + index);
        }
    }

    /** The period of length {@code lengthMillis} containing event time {@code t >= 0}. */
    public static PeriodKey containing(long lengthMillis, long t) {
        return new PeriodKey(lengthMillis, Math.floorDiv(t, lengthMillis));
    }

    /** The first millisecond of the period. */
    public long start() {
        return Math.multiplyExact(index, lengthMillis);
    }

    /** The first millisecond after the period. */
    public long end() {
        return Math.addExact(start(), lengthMillis);
    }

    /** Whether this period and {@code o} share at least one millisecond. */
    public boolean overlaps(PeriodKey o) {
        return start() < o.end() && o.start() < end();
    }

    /**
     * The periods of length {@code lengthMillis} that overlap this one, in order (one when the lengths are
     * equal; several when {@code lengthMillis} is shorter).
     */
    public List<PeriodKey> overlappingOfLength(long lengthMillis) {
        long first = Math.floorDiv(start(), lengthMillis);
        long last = Math.floorDiv(end() - 1, lengthMillis);
        List<PeriodKey> out = new ArrayList<>();
        for (long i = first; i <= last; i++) {
            out.add(new PeriodKey(lengthMillis, i));
        }
        return out;
    }

    @Override
    public int compareTo(PeriodKey o) {
        int c = Long.compare(start(), o.start());
        return c != 0 ? c : Long.compare(lengthMillis, o.lengthMillis);
    }
}
