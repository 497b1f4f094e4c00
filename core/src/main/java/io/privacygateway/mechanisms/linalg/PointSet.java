package io.privacygateway.mechanisms.linalg;

import java.util.Arrays;

/**
 * An immutable finite set of {@code N} points in {@code R^m}, stored row-major. For a workload these
 * are the answer vectors {@code Q(x)} of every universe element {@code x}; for chaining they are the
 * nets and level sets.
 */
public final class PointSet {
    private final int size;
    private final int dim;
    private final double[] data;
    private final double maxNorm;
    private ContentKey contentKey;

    private PointSet(int size, int dim, double[] data) {
        this.size = size;
        this.dim = dim;
        this.data = data;
        double mx = 0;
        for (int i = 0; i < size; i++) {
            mx = Math.max(mx, norm(i));
        }
        this.maxNorm = mx;
    }

    /** Copies {@code rows} (all of length {@code dim}) into a new point set. */
    public static PointSet of(int dim, double[][] rows) {
        if (dim < 1) {
            throw new IllegalArgumentException("dimension must be >= 1, got " + dim);
        }
        double[] data = new double[Math.multiplyExact(rows.length, dim)];
        for (int i = 0; i < rows.length; i++) {
            if (rows[i].length != dim) {
                throw new IllegalArgumentException(
                        "point " + i + " has dimension " + rows[i].length + ", expected " + dim);
            }
            for (int j = 0; j < dim; j++) {
                if (!Double.isFinite(rows[i][j])) {
                    throw new IllegalArgumentException(
                            "point " + i + " coordinate " + j + " must be finite, got " + rows[i][j]);
                }
            }
            System.arraycopy(rows[i], 0, data, i * dim, dim);
        }
        return new PointSet(rows.length, dim, data);
    }

    /** Wraps a row-major array of {@code size * dim} finite values (copied). */
    public static PointSet ofRowMajor(int size, int dim, double[] rowMajor) {
        if (rowMajor.length != (long) size * dim) {
            throw new IllegalArgumentException("expected " + ((long) size * dim) + " values, got " + rowMajor.length);
        }
        for (double v : rowMajor) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException("point coordinates must be finite, got " + v);
            }
        }
        return new PointSet(size, dim, rowMajor.clone());
    }

    public int size() {
        return size;
    }

    public int dim() {
        return dim;
    }

    public double get(int point, int coordinate) {
        return data[point * dim + coordinate];
    }

    /** A copy of point {@code i}. */
    public double[] row(int i) {
        return Arrays.copyOfRange(data, i * dim, (i + 1) * dim);
    }

    /** {@code ⟨p_i, v⟩}. */
    public double dot(int i, double[] v) {
        int off = i * dim;
        double s = 0;
        for (int j = 0; j < dim; j++) {
            s += data[off + j] * v[j];
        }
        return s;
    }

    /** {@code acc += a · p_i}. */
    public void addScaledRow(int i, double a, double[] acc) {
        int off = i * dim;
        for (int j = 0; j < dim; j++) {
            acc[j] += a * data[off + j];
        }
    }

    /** {@code ||p_i||₂}. */
    public double norm(int i) {
        int off = i * dim;
        double s = 0;
        for (int j = 0; j < dim; j++) {
            s += data[off + j] * data[off + j];
        }
        return Math.sqrt(s);
    }

    /** {@code ||p_i − p_j||₂}. */
    public double distance(int i, int j) {
        int a = i * dim;
        int b = j * dim;
        double s = 0;
        for (int t = 0; t < dim; t++) {
            double d = data[a + t] - data[b + t];
            s += d * d;
        }
        return Math.sqrt(s);
    }

    /** {@code max_i ||p_i||₂}. */
    public double maxNorm() {
        return maxNorm;
    }

    /** {@code Σ_i w_i p_i} for weights over the points. */
    public double[] combine(double[] weights) {
        if (weights.length != size) {
            throw new IllegalArgumentException("expected " + size + " weights, got " + weights.length);
        }
        double[] out = new double[dim];
        for (int i = 0; i < size; i++) {
            if (weights[i] != 0) {
                addScaledRow(i, weights[i], out);
            }
        }
        return out;
    }

    /**
     * A key identifying the set by content (size, dimension and the bits of every coordinate), for
     * memoising public quantities derived from it. Two independent 64-bit mixes make accidental
     * collisions negligible (about 2^-128 per pair).
     */
    public record ContentKey(int size, int dim, long h1, long h2) {}

    /** This set's {@link ContentKey} (computed once, O(N·m)). */
    public synchronized ContentKey contentKey() {
        if (contentKey == null) {
            long h1 = 0x243F6A8885A308D3L ^ size;
            long h2 = 0x13198A2E03707344L ^ dim;
            for (double v : data) {
                long b = Double.doubleToLongBits(v);
                h1 = Long.rotateLeft((h1 ^ b) * 0x9E3779B97F4A7C15L, 29);
                h2 = (h2 ^ Long.rotateLeft(b, 17)) * 0xC2B2AE3D27D4EB4FL + 0x165667B19E3779F9L;
            }
            contentKey = new ContentKey(size, dim, mix(h1), mix(h2));
        }
        return contentKey;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** A read-only view of the row-major storage is not offered; this returns a copy. */
    public double[] toRowMajor() {
        return data.clone();
    }
}
