package io.privacygateway.mechanisms.projection;

import io.privacygateway.mechanisms.linalg.PointSet;
import java.util.Arrays;

/**
 * Read-only row storage of a finite point set for the hull solver: compressed sparse rows when at most
 * half of the coordinates are non-zero (the 0/1 answer vectors of histogram, range and marginal
 * workloads), with implicit unit values when every non-zero is exactly 1; dense row-major otherwise.
 * Lossless in both cases: every kernel computes the same sums as the dense form, over the non-zero
 * terms only, so the dot-product error bound {@code γ_m Σ|a_t x_t|} still holds.
 */
final class AtomRows {
    private final int n;
    private final int m;
    private final double[] dense; // row-major, or null when sparse
    private final int[] start; // CSR row starts (n + 1), or null when dense
    private final int[] cols;
    private final double[] vals; // null when every stored value is 1
    private final double[] normSq;
    private final double maxNorm;

    private AtomRows(int n, int m, double[] dense, int[] start, int[] cols, double[] vals, double maxNorm) {
        this.n = n;
        this.m = m;
        this.dense = dense;
        this.start = start;
        this.cols = cols;
        this.vals = vals;
        this.maxNorm = maxNorm;
        this.normSq = new double[n];
        double[] row = new double[m];
        for (int i = 0; i < n; i++) {
            Arrays.fill(row, 0.0);
            addScaled(i, 1.0, row);
            normSq[i] = Dots.normSq(row);
        }
    }

    static AtomRows of(PointSet points) {
        int n = points.size();
        int m = points.dim();
        double[] data = points.toRowMajor();
        long nnz = 0;
        boolean unit = true;
        for (double v : data) {
            if (v != 0) {
                nnz++;
                unit &= v == 1.0;
            }
        }
        if (2 * nnz > (long) n * m) {
            return new AtomRows(n, m, data, null, null, null, points.maxNorm());
        }
        int[] start = new int[n + 1];
        int[] cols = new int[(int) nnz];
        double[] vals = unit ? null : new double[(int) nnz];
        int c = 0;
        for (int i = 0; i < n; i++) {
            start[i] = c;
            for (int t = 0; t < m; t++) {
                double v = data[i * m + t];
                if (v != 0) {
                    cols[c] = t;
                    if (vals != null) {
                        vals[c] = v;
                    }
                    c++;
                }
            }
        }
        start[n] = c;
        return new AtomRows(n, m, null, start, cols, vals, points.maxNorm());
    }

    int size() {
        return n;
    }

    int dim() {
        return m;
    }

    double maxNorm() {
        return maxNorm;
    }

    /** {@code ‖a_i‖²}. */
    double normSq(int i) {
        return normSq[i];
    }

    /** {@code ⟨a_i, x[off .. off+m)⟩}. */
    double dot(int i, double[] x, int off) {
        if (dense != null) {
            return Dots.dot(dense, i * m, x, off, m);
        }
        int from = start[i];
        int to = start[i + 1];
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int k = from;
        if (vals == null) {
            for (; k + 3 < to; k += 4) {
                s0 += x[off + cols[k]];
                s1 += x[off + cols[k + 1]];
                s2 += x[off + cols[k + 2]];
                s3 += x[off + cols[k + 3]];
            }
            for (; k < to; k++) {
                s0 += x[off + cols[k]];
            }
        } else {
            for (; k + 3 < to; k += 4) {
                s0 += vals[k] * x[off + cols[k]];
                s1 += vals[k + 1] * x[off + cols[k + 1]];
                s2 += vals[k + 2] * x[off + cols[k + 2]];
                s3 += vals[k + 3] * x[off + cols[k + 3]];
            }
            for (; k < to; k++) {
                s0 += vals[k] * x[off + cols[k]];
            }
        }
        return (s0 + s1) + (s2 + s3);
    }

    /** {@code acc += a · a_i}. */
    void addScaled(int i, double a, double[] acc) {
        if (dense != null) {
            int off = i * m;
            for (int t = 0; t < m; t++) {
                acc[t] += a * dense[off + t];
            }
            return;
        }
        int to = start[i + 1];
        if (vals == null) {
            for (int k = start[i]; k < to; k++) {
                acc[cols[k]] += a;
            }
        } else {
            for (int k = start[i]; k < to; k++) {
                acc[cols[k]] += a * vals[k];
            }
        }
    }

    /** {@code dst[off + t] = a_i[t] − y[t]}. */
    void differenceInto(int i, double[] y, double[] dst, int off) {
        for (int t = 0; t < m; t++) {
            dst[off + t] = -y[t];
        }
        if (dense != null) {
            int src = i * m;
            for (int t = 0; t < m; t++) {
                dst[off + t] = dense[src + t] - y[t];
            }
            return;
        }
        int to = start[i + 1];
        for (int k = start[i]; k < to; k++) {
            int t = cols[k];
            dst[off + t] = (vals == null ? 1.0 : vals[k]) - y[t];
        }
    }
}
