package io.privacygateway.mechanisms.central.synthetic;

import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadLimits;

/**
 * The public layout of all s-way marginal tables over d binary attributes: which attribute subsets there are,
 * in which order, and which cell of each table a record falls into. The order is the one of the existing
 * {@code marginals} family ({@code Workload}): subsets of size s in lexicographic order, and within a subset
 * the cells in binary order with the subset's first attribute as the most significant bit. A record is the
 * integer {@code Σ_j b_j·2^j} (attribute 0 is the least significant bit), as a universe index of that family.
 *
 * <p>Sizes: {@code K = C(d, s)} tables ("blocks") of {@code 2^s} cells, {@code K·2^s} cells in all. Supported:
 * {@code 1 <= d <= }{@value #MAX_ATTRIBUTES} and {@code 1 <= s <= min(d, }{@value #MAX_WAY}{@code )}.
 * Immutable.
 */
public final class MarginalLayout {
    /** The most attributes supported (records are ints; measured up to 20). */
    public static final int MAX_ATTRIBUTES = WorkloadLimits.SYNTHETIC_MAX_ATTRIBUTES;
    /** The largest marginal order supported (the Haar noise bound enumerates {@code 2^(2^s)} sign patterns). */
    public static final int MAX_WAY = WorkloadLimits.SYNTHETIC_MAX_WAY;

    private final int d;
    private final int s;
    private final int[][] subsets;

    private MarginalLayout(int d, int s) {
        this.d = d;
        this.s = s;
        this.subsets = Workload.subsets(d, s).toArray(new int[0][]);
    }

    /**
     * All s-way marginals over d binary attributes.
     *
     * @param attributes d, in {@code [1, MAX_ATTRIBUTES]}
     * @param way s, in {@code [1, min(d, MAX_WAY)]}
     */
    public static MarginalLayout of(int attributes, int way) {
        Require.inRange("attributes", attributes, 1, MAX_ATTRIBUTES);
        Require.inRange("way", way, 1, Math.min(attributes, MAX_WAY));
        return new MarginalLayout(attributes, way);
    }

    /** d, the number of binary attributes. */
    public int attributes() {
        return d;
    }

    /** s, the order of the marginals. */
    public int way() {
        return s;
    }

    /** K = C(d, s), the number of tables. */
    public int blocks() {
        return subsets.length;
    }

    /** {@code 2^s}, the cells of one table. */
    public int cellsPerBlock() {
        return 1 << s;
    }

    /** {@code K·2^s}, all cells. */
    public int cells() {
        return subsets.length << s;
    }

    /** The attributes of table {@code block}, increasing (a copy). */
    public int[] subset(int block) {
        return subsets[block].clone();
    }

    /** The cell (in {@code [0, 2^s)}) of table {@code block} that {@code record} falls into. */
    public int cellOf(int record, int block) {
        int[] a = subsets[block];
        int cell = 0;
        for (int i = 0; i < a.length; i++) {
            cell = (cell << 1) | ((record >>> a[i]) & 1);
        }
        return cell;
    }

    /** Whether {@code record} is in {@code {0,1}^d}. */
    public boolean isRecord(int record) {
        return record >= 0 && (d >= 31 || record < (1 << d));
    }

    /**
     * The exact marginal counts of a weighted set of records: {@code out[b·2^s + cell] = Σ weight} over the
     * records in that cell of table b. Every table sums to {@code Σ weights}.
     *
     * @param records records in {@code {0,1}^d}
     * @param weights non-negative counts, one per record
     */
    public long[] counts(int[] records, long[] weights) {
        Require.nonNull("records", records);
        Require.nonNull("weights", weights);
        if (records.length != weights.length) {
            throw new IllegalArgumentException("records and weights must have the same length, got " + records.length
                    + " and " + weights.length);
        }
        long[] out = new long[cells()];
        for (int r = 0; r < records.length; r++) {
            if (!isRecord(records[r])) {
                throw new IllegalArgumentException("records[" + r + "] is not in {0,1}^" + d + ": " + records[r]);
            }
            if (weights[r] < 0) {
                throw new IllegalArgumentException("weights[" + r + "] must be >= 0, got " + weights[r]);
            }
            if (weights[r] == 0) {
                continue;
            }
            for (int b = 0; b < subsets.length; b++) {
                int i = (b << s) + cellOf(records[r], b);
                out[i] = Math.addExact(out[i], weights[r]);
            }
        }
        return out;
    }

    /** The marginal counts of a histogram over {@code {0,1}^d} (index = record), for small d. */
    public long[] countsOfHistogram(long[] histogram) {
        Require.nonNull("histogram", histogram);
        if (d > 30 || histogram.length != (1 << d)) {
            throw new IllegalArgumentException("histogram must have 2^" + d + " entries, got " + histogram.length);
        }
        int[] records = new int[histogram.length];
        for (int x = 0; x < records.length; x++) {
            records[x] = x;
        }
        return counts(records, histogram);
    }

    /**
     * The incidence structure the LP works with: {@code result[r·K + b] = cellOf(records[r], b)}, one byte per record
     * and table, record-major.
     */
    byte[] cellIndex(int[] records) {
        int k = subsets.length;
        if ((long) records.length * k > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("too many records for the index: " + records.length + " × " + k);
        }
        byte[] out = new byte[records.length * k];
        for (int r = 0; r < records.length; r++) {
            int x = records[r];
            int off = r * k;
            for (int b = 0; b < k; b++) {
                int[] a = subsets[b];
                int cell = 0;
                for (int i = 0; i < a.length; i++) {
                    cell = (cell << 1) | ((x >>> a[i]) & 1);
                }
                out[off + b] = (byte) cell;
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return "all " + s + "-way marginals over " + d + " binary attributes (" + blocks() + " tables)";
    }
}
