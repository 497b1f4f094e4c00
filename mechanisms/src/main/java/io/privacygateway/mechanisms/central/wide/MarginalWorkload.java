package io.privacygateway.mechanisms.central.wide;

import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadLimits;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The public shape of a wide marginal workload: all {@code k}-way marginals over {@code d} binary attributes,
 * without materialising the {@code 2^d} universe. Immutable; a value (equal shapes are equal).
 *
 * <p><b>Order</b> (the same as {@code workload.Workload} uses for the {@code marginals} family, so answers line up
 * with its labels): attribute {@code j} is bit {@code j} of a value (attribute 0 the least significant bit);
 * subsets of size {@code k} in lexicographic order; within a subset {@code s[0] < … < s[k−1]}, cells in binary
 * order with the first attribute most significant: cell {@code c} has attribute {@code s[i]} equal to bit
 * {@code k−1−i} of {@code c}. Query {@code q = subset·2^k + cell}; its label is
 * {@code "name=bit,name=bit,…"}.
 *
 * <p>Limits (checked): {@code 1 <= k <= d <= }{@link #MAX_ATTRIBUTES}, {@code k <= }{@link #MAX_WAY}, at most
 * {@link #MAX_QUERIES} queries {@code C(d,k)·2^k}; attribute names non-blank, distinct, without {@code ,} or
 * {@code =}.
 */
public final class MarginalWorkload {
    /** Largest number of attributes of the aggregate (values are bit vectors of up to 4 words). */
    public static final int MAX_ATTRIBUTES = WorkloadLimits.WIDE_MAX_ATTRIBUTES;
    /** Largest marginal order. */
    public static final int MAX_WAY = WorkloadLimits.WIDE_MAX_WAY;
    /** Largest number of marginal cells {@code C(d,k)·2^k} (an aggregate of at most 16 MiB of counts). */
    public static final int MAX_QUERIES = WorkloadLimits.WIDE_MAX_QUERIES;

    private final List<String> attributes;
    private final int way;
    private final int[][] subsets;

    private MarginalWorkload(List<String> attributes, int way, int[][] subsets) {
        this.attributes = attributes;
        this.way = way;
        this.subsets = subsets;
    }

    /**
     * All {@code way}-way marginals over the named binary attributes.
     *
     * @param attributes the attribute names, in bit order
     * @param way the marginal order k
     */
    public static MarginalWorkload of(List<String> attributes, int way) {
        Require.nonNull("attributes", attributes);
        int d = attributes.size();
        Require.inRange("attributes.size", d, 1, MAX_ATTRIBUTES);
        Require.inRange("way", way, 1, Math.min(MAX_WAY, d));
        Set<String> seen = new HashSet<>();
        for (int j = 0; j < d; j++) {
            String a = Require.nonBlank("attributes[" + j + "]", attributes.get(j));
            if (a.contains(",") || a.contains("=")) {
                throw new IllegalArgumentException("attributes[" + j + "] must not contain ',' or '=', got \"" + a + "\"");
            }
            if (!seen.add(a)) {
                throw new IllegalArgumentException("attributes[" + j + "] duplicates \"" + a + "\"");
            }
        }
        long subsetCount = binomial(d, way);
        if (subsetCount << way > MAX_QUERIES) {
            throw new IllegalArgumentException("C(" + d + "," + way + ")·2^" + way + " = " + (subsetCount << way)
                    + " marginal cells, more than the " + MAX_QUERIES + " supported");
        }
        return new MarginalWorkload(List.copyOf(attributes), way, Workload.subsets(d, way).toArray(int[][]::new));
    }

    /** Attributes named {@code a0, a1, …} (tests and benchmarks). */
    public static MarginalWorkload anonymous(int d, int way) {
        List<String> names = new ArrayList<>();
        for (int j = 0; j < d; j++) {
            names.add("a" + j);
        }
        return of(names, way);
    }

    /** {@code C(n, k)} exactly (saturating at {@code Long.MAX_VALUE}). */
    public static long binomial(int n, int k) {
        if (k < 0 || k > n) {
            return 0;
        }
        k = Math.min(k, n - k);
        long r = 1;
        for (int i = 1; i <= k; i++) {
            long num = n - k + i;
            if (r > Long.MAX_VALUE / num) {
                return Long.MAX_VALUE;
            }
            r = r * num / i; // exact: r·num is divisible by i at every step
        }
        return r;
    }

    /** The number of attributes d. */
    public int attributeCount() {
        return attributes.size();
    }

    public List<String> attributes() {
        return attributes;
    }

    /** The marginal order k. */
    public int way() {
        return way;
    }

    /** {@code C(d, k)}. */
    public int subsetCount() {
        return subsets.length;
    }

    /** {@code 2^k}. */
    public int cellsPerSubset() {
        return 1 << way;
    }

    /**
     * The answers of the uniform distribution over the records, {@code 1/2^k} in every cell: the data-independent
     * estimate of a window without reports. A fresh array of {@link #queryCount()} entries.
     */
    public double[] uniformAnswers() {
        double[] a = new double[queryCount()];
        Arrays.fill(a, 1.0 / cellsPerSubset());
        return a;
    }

    /**
     * The RMS error bound that holds whatever the data: each subset's cells are a distribution over
     * {@link #cellsPerSubset()} values, and two distributions over c values differ by at most √(2/c) in RMS.
     */
    public double trivialRms() {
        return Math.sqrt(2.0 / cellsPerSubset());
    }

    /** {@code C(d,k)·2^k}: the number of answers. */
    public int queryCount() {
        return subsets.length << way;
    }

    /** The attributes of subset {@code i}, ascending (a copy). */
    public int[] subset(int i) {
        return subsets[i].clone();
    }

    int[][] subsetsView() {
        return subsets;
    }

    /** 64-bit words of a value's bit vector: {@code ⌈d/64⌉}. */
    public int words() {
        return (attributes.size() + 63) >>> 6;
    }

    /** The cell of subset {@code i} that a value with the given bit words falls in. */
    public int cellOf(int i, long[] bits) {
        int[] s = subsets[i];
        int c = 0;
        for (int a : s) {
            c = (c << 1) | (int) ((bits[a >>> 6] >>> (a & 63)) & 1L);
        }
        return c;
    }

    /** The cell of subset {@code i} for a value of at most 63 attributes given as one word. */
    public int cellOf(int i, long value) {
        int[] s = subsets[i];
        int c = 0;
        for (int a : s) {
            c = (c << 1) | (int) ((value >>> a) & 1L);
        }
        return c;
    }

    /** The label of query {@code q}: {@code "name=bit,…"} for its subset and cell. */
    public String label(int q) {
        Require.inRange("q", q, 0, queryCount() - 1);
        int[] s = subsets[q >>> way];
        int cell = q & ((1 << way) - 1);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < way; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(attributes.get(s[i])).append('=').append((cell >>> (way - 1 - i)) & 1);
        }
        return sb.toString();
    }

    /** Every query label, in query order. */
    public List<String> labels() {
        List<String> l = new ArrayList<>(queryCount());
        for (int q = 0; q < queryCount(); q++) {
            l.add(label(q));
        }
        return Collections.unmodifiableList(l);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MarginalWorkload w && w.way == way && w.attributes.equals(attributes);
    }

    @Override
    public int hashCode() {
        return attributes.hashCode() * 31 + way;
    }

    @Override
    public String toString() {
        return "MarginalWorkload(d=" + attributes.size() + ", k=" + way + ", " + queryCount() + " cells)";
    }
}
