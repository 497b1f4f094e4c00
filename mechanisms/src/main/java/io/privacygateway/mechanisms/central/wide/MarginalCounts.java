package io.privacygateway.mechanisms.central.wide;

import io.privacygateway.mechanisms.param.Require;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * A window's exact aggregate for a wide marginal workload: the report count n and, for every {@code k}-subset of
 * the attributes, the {@code 2^k} cell counts ({@code C(d,k)·2^k} longs in query order, {@link MarginalWorkload}).
 * This is all the wide releases read from the data; the {@code 2^d} counts per value are never formed.
 *
 * <p><b>Aggregation.</b> {@link #add(long[])} adds one report in {@code O(C(d,k)·k)} (one cell per subset);
 * {@link #merge} adds another aggregate of the same workload (order-independent, exact). Both leave the state
 * untouched when they refuse their input.
 *
 * <p><b>Invariants</b> (every instance, including decoded ones, {@link #of}): counts {@code >= 0}; every subset's
 * cells sum to n; {@code n <= }{@link #MAX_REPORTS}; and the marginals agree on shared attributes: for every
 * {@code (k−1)}-subset, all {@code k}-subsets containing it give the same {@code (k−1)}-way counts (the counts are
 * consistent, as the marginals of any multiset of reports are).
 *
 * <p>Mutable (an aggregator); not thread-safe. {@link #copy()} makes an independent copy.
 */
public final class MarginalCounts {
    /** The largest report count of one window ({@code 2^40}): keeps every release's integer arithmetic exact. */
    public static final long MAX_REPORTS = 1L << 40;

    private final MarginalWorkload workload;
    private final long[] cells;
    private long n;

    private MarginalCounts(MarginalWorkload workload, long n, long[] cells) {
        this.workload = workload;
        this.n = n;
        this.cells = cells;
    }

    /** The aggregate of an empty window. */
    public static MarginalCounts empty(MarginalWorkload workload) {
        Require.nonNull("workload", workload);
        return new MarginalCounts(workload, 0, new long[workload.queryCount()]);
    }

    /**
     * A validated aggregate from its parts (the codec's decoder and tests).
     *
     * @param n the report count
     * @param cells {@code C(d,k)·2^k} counts in query order (copied)
     * @throws IllegalArgumentException naming the first violated invariant
     */
    public static MarginalCounts of(MarginalWorkload workload, long n, long[] cells) {
        Require.nonNull("workload", workload);
        Require.nonNull("cells", cells);
        Require.inRange("n", n, 0, MAX_REPORTS);
        if (cells.length != workload.queryCount()) {
            throw new IllegalArgumentException("cells must have " + workload.queryCount() + " entries, got "
                    + cells.length);
        }
        int per = workload.cellsPerSubset();
        for (int s = 0; s < workload.subsetCount(); s++) {
            long sum = 0;
            for (int c = 0; c < per; c++) {
                long v = cells[s * per + c];
                if (v < 0 || v > n) {
                    throw new IllegalArgumentException("cells[" + (s * per + c) + "] must be in [0, n = " + n
                            + "], got " + v);
                }
                sum += v; // no overflow: every term and the running sum are at most n <= 2^40
                if (sum > n) {
                    throw new IllegalArgumentException("subset " + s + " counts exceed n = " + n);
                }
            }
            if (sum != n) {
                throw new IllegalArgumentException("subset " + s + " counts sum to " + sum + ", not n = " + n);
            }
        }
        checkConsistent(workload, cells);
        return new MarginalCounts(workload, n, cells.clone());
    }

    /** Every (k−1)-way marginal is the same from every k-subset that contains it. */
    private static void checkConsistent(MarginalWorkload w, long[] cells) {
        int k = w.way();
        if (k == 1) {
            return;
        }
        int[][] subsets = w.subsetsView();
        Map<Long, long[]> seen = new HashMap<>();
        int per = 1 << k;
        for (int s = 0; s < subsets.length; s++) {
            for (int drop = 0; drop < k; drop++) {
                long key = 0;
                for (int i = 0; i < k; i++) {
                    if (i != drop) {
                        key = key * MarginalWorkload.MAX_ATTRIBUTES + subsets[s][i] + 1;
                    }
                }
                long[] sub = new long[per >>> 1];
                for (int c = 0; c < per; c++) {
                    // remove bit (k−1−drop) of c
                    int pos = k - 1 - drop;
                    int lowMask = (1 << pos) - 1;
                    int r = ((c >>> (pos + 1)) << pos) | (c & lowMask);
                    sub[r] += cells[s * per + c];
                }
                long[] prev = seen.putIfAbsent(key, sub);
                if (prev != null && !Arrays.equals(prev, sub)) {
                    throw new IllegalArgumentException("subset " + s + " disagrees with another subset on the "
                            + (k - 1) + "-way marginal of its attributes other than " + w.attributes().get(subsets[s][drop]));
                }
            }
        }
    }

    public MarginalWorkload workload() {
        return workload;
    }

    /** The report count n. */
    public long n() {
        return n;
    }

    /** The count of query {@code q} (subset {@code q >> k}, cell {@code q mod 2^k}). */
    public long count(int q) {
        return cells[q];
    }

    /** The counts of subset {@code s}'s cells (a copy). */
    public long[] subsetCounts(int s) {
        int per = workload.cellsPerSubset();
        return Arrays.copyOfRange(cells, s * per, (s + 1) * per);
    }

    /** All counts in query order (a copy). */
    public long[] cells() {
        return cells.clone();
    }

    long[] cellsView() {
        return cells;
    }

    /**
     * Adds one report.
     *
     * @param bits the value's bit vector in {@link MarginalWorkload#words()} words, bit {@code j} attribute
     *     {@code j}; bits at positions {@code >= d} must be 0
     * @throws IllegalArgumentException (state unchanged) on a wrong length, a bit beyond d, or a full window
     */
    public void add(long[] bits) {
        Require.nonNull("bits", bits);
        int d = workload.attributeCount();
        if (bits.length != workload.words()) {
            throw new IllegalArgumentException("a value has " + workload.words() + " words for " + d
                    + " attributes, got " + bits.length);
        }
        int rest = d & 63;
        if (rest != 0 && (bits[bits.length - 1] >>> rest) != 0) {
            throw new IllegalArgumentException("bits beyond attribute " + (d - 1) + " must be 0");
        }
        if (n >= MAX_REPORTS) {
            throw new IllegalArgumentException("a window holds at most " + MAX_REPORTS + " reports");
        }
        int per = workload.cellsPerSubset();
        int subsets = workload.subsetCount();
        for (int s = 0; s < subsets; s++) {
            cells[s * per + workload.cellOf(s, bits)]++;
        }
        n++;
    }

    /** Adds one report of at most 63 attributes given as one word ({@link #add(long[])}). */
    public void add(long value) {
        add(new long[] {value});
    }

    /**
     * Adds one report of at most 63 attributes, given as one word, to the cell counts of an aggregate kept elsewhere
     * (the gateway's window aggregate keeps n itself): one cell per subset, in {@code O(C(d,k)·k)}, exact.
     *
     * @param cells {@code C(d,k)·2^k} counts in query order
     * @throws IllegalArgumentException (cells unchanged) for a wrong length, more than 63 attributes or a bit beyond d
     * @throws ArithmeticException (cells unchanged) if a count would overflow
     */
    public static void addTo(MarginalWorkload workload, long value, long[] cells) {
        Require.nonNull("workload", workload);
        Require.nonNull("cells", cells);
        int d = workload.attributeCount();
        if (d > 63 || cells.length != workload.queryCount()) {
            throw new IllegalArgumentException("cells must have " + workload.queryCount() + " entries for at most 63"
                    + " attributes");
        }
        if ((value >>> d) != 0) {
            throw new IllegalArgumentException("bits beyond attribute " + (d - 1) + " must be 0");
        }
        int per = workload.cellsPerSubset();
        int subsets = workload.subsetCount();
        for (int s = 0; s < subsets; s++) {
            if (cells[s * per + workload.cellOf(s, value)] == Long.MAX_VALUE) {
                throw new ArithmeticException("a marginal count would overflow");
            }
        }
        for (int s = 0; s < subsets; s++) {
            cells[s * per + workload.cellOf(s, value)]++;
        }
    }

    /**
     * Adds another aggregate of the same workload into this one (exact; order-independent).
     *
     * @throws IllegalArgumentException (state unchanged) for another workload or a total above
     *     {@link #MAX_REPORTS}
     */
    public MarginalCounts merge(MarginalCounts other) {
        Require.nonNull("other", other);
        if (!other.workload.equals(workload)) {
            throw new IllegalArgumentException("cannot merge aggregates of different workloads: " + workload + " and "
                    + other.workload);
        }
        if (n + other.n > MAX_REPORTS) {
            throw new IllegalArgumentException("a window holds at most " + MAX_REPORTS + " reports");
        }
        for (int q = 0; q < cells.length; q++) {
            cells[q] += other.cells[q];
        }
        n += other.n;
        return this;
    }

    /** An independent copy. */
    public MarginalCounts copy() {
        return new MarginalCounts(workload, n, cells.clone());
    }

    /** The exact answers {@code count/n} (for evaluation; a window with n = 0 has none). */
    public double[] answers() {
        if (n == 0) {
            throw new IllegalStateException("a window without reports has no answers");
        }
        double[] a = new double[cells.length];
        for (int q = 0; q < a.length; q++) {
            a[q] = cells[q] / (double) n;
        }
        return a;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MarginalCounts c && c.n == n && c.workload.equals(workload) && Arrays.equals(c.cells, cells);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(cells) * 31 + Long.hashCode(n);
    }

    @Override
    public String toString() {
        return "MarginalCounts(" + workload + ", n=" + n + ")";
    }
}
