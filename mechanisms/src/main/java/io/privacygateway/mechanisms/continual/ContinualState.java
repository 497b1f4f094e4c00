package io.privacygateway.mechanisms.continual;

import java.util.Arrays;

/**
 * What a {@link ContinualCounter} keeps between windows: {@code O(h + horizons)} vectors of N integers. Immutable: an
 * update returns a new state.
 *
 * <ul>
 *   <li>{@code open[ℓ]}: the level-ℓ node that contains the next window and has started: its noise (drawn when the
 *       node opened) plus the counts of its windows so far. Never published (the node is incomplete), and never an
 *       exact sum: the state holds no un-noised count.</li>
 *   <li>{@code waiting[ℓ]}: the last completed level-ℓ node if it is a left child whose parent is still open. Such a
 *       node is in the canonical cover of a horizon's range until its parent completes.</li>
 *   <li>per horizon: the period it is in, its first window, and the sum of its <em>permanent</em> cover nodes
 *       (completed nodes inside its range whose parent never will be: {@link DyadicNode#permanentlyIn}), with their
 *       number; under replace-one neighbours also its public report count.</li>
 * </ul>
 *
 * <p>Every completed node is a noisy value; together they are everything the answers are computed from. The state is
 * secret all the same (an open node's noise must not leak before the node is complete).
 */
public final class ContinualState {
    final long origin;
    final long next;
    final long[][] open;
    final long[][] waiting;
    final HorizonState[] horizons;

    /** One horizon's part of the state. */
    static final class HorizonState {
        final long period;
        final long start;
        final int frozenNodes;
        final long[] frozen;
        final long publicCount;

        HorizonState(long period, long start, int frozenNodes, long[] frozen, long publicCount) {
            this.period = period;
            this.start = start;
            this.frozenNodes = frozenNodes;
            this.frozen = frozen;
            this.publicCount = publicCount;
        }

        HorizonState copy() {
            return new HorizonState(period, start, frozenNodes, frozen.clone(), publicCount);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof HorizonState h && period == h.period && start == h.start
                    && frozenNodes == h.frozenNodes && publicCount == h.publicCount && Arrays.equals(frozen, h.frozen);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(frozen) * 31 + Long.hashCode(start);
        }
    }

    ContinualState(long origin, long next, long[][] open, long[][] waiting, HorizonState[] horizons) {
        this.origin = origin;
        this.next = next;
        this.open = open;
        this.waiting = waiting;
        this.horizons = horizons;
    }

    ContinualState copy() {
        long[][] o = new long[open.length][];
        long[][] w = new long[waiting.length][];
        for (int l = 0; l < open.length; l++) {
            o[l] = open[l] == null ? null : open[l].clone();
            w[l] = waiting[l] == null ? null : waiting[l].clone();
        }
        HorizonState[] h = new HorizonState[horizons.length];
        for (int i = 0; i < h.length; i++) {
            h[i] = horizons[i].copy();
        }
        return new ContinualState(origin, next, o, w, h);
    }

    /** The start (epoch milliseconds) of the first window. */
    public long origin() {
        return origin;
    }

    /** How many windows have been added: the index of the next window. */
    public long windows() {
        return next;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ContinualState s && origin == s.origin && next == s.next
                && Arrays.deepEquals(open, s.open) && Arrays.deepEquals(waiting, s.waiting)
                && Arrays.equals(horizons, s.horizons);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(origin) * 31 + Long.hashCode(next);
    }

    @Override
    public String toString() {
        return "ContinualState(origin=" + origin + ", windows=" + next + ")";
    }
}
