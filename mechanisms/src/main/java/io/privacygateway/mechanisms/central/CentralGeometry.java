package io.privacygateway.mechanisms.central;

import io.privacygateway.mechanisms.central.sampling.LqNorm;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import io.privacygateway.mechanisms.workload.QueryFamily;
import io.privacygateway.mechanisms.workload.Workload;
import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * The public geometry of a central-mode workload: the answer vectors on an integer grid (so window sums
 * are exact integers and the discrete Gaussian's zCDP guarantee applies), the l1 and l2 sensitivities of
 * one device's contribution under the declared neighbour relation, and l_q balls that contain the
 * feasible set K (the domain Θ of purification, MECHANISMS.md §4).
 *
 * <p><b>Grid.</b> For 0/1 families (histogram, CDF, range, marginals) the scale is {@code G = 1}. For
 * explicit points, answers are rounded to {@code G = 2^16} (the rounding is the same for every device,
 * so it is a fixed bias of at most {@code 2^-17} per answer, not a privacy issue).
 *
 * <p><b>Sensitivity.</b> A device contributes at most {@code L} reports to a window. Add/remove: the sum
 * changes by at most {@code L·max_x ||Q(x)||} and the count by L (so the count is noised). Replace-one:
 * by at most {@code L·max_{x,x'} ||Q(x) − Q(x')||} and the count is public.
 */
public final class CentralGeometry {
    /** The grid scale for non-0/1 answers. */
    public static final long POINTS_SCALE = 1L << 16;
    private final Workload workload;
    private final long scale;
    private final long[][] grid;
    private final int m;

    private CentralGeometry(Workload workload, long scale, long[][] grid) {
        this.workload = workload;
        this.scale = scale;
        this.grid = grid;
        this.m = workload.queryCount();
    }

    public static CentralGeometry of(Workload w) {
        PointSet p = w.points();
        long scale = w.spec().family() == QueryFamily.POINTS ? POINTS_SCALE : 1;
        long[][] grid = new long[p.size()][p.dim()];
        for (int x = 0; x < p.size(); x++) {
            for (int q = 0; q < p.dim(); q++) {
                grid[x][q] = Math.round(p.get(x, q) * scale);
            }
        }
        return new CentralGeometry(w, scale, grid);
    }

    public Workload workload() {
        return workload;
    }

    /** The grid scale G (answers are {@code sum / (n·G)}). */
    public long scale() {
        return scale;
    }

    /** The grid answer vector of universe value x (a copy). */
    public long[] gridPoint(int x) {
        return grid[x].clone();
    }

    public int dimension() {
        return m;
    }

    /** {@code Σ_x counts[x]·grid(x)}: the exact window sum. */
    public long[] sum(long[] counts) {
        long[] t = new long[m];
        for (int x = 0; x < counts.length; x++) {
            if (counts[x] != 0) {
                for (int q = 0; q < m; q++) {
                    t[q] = Math.addExact(t[q], Math.multiplyExact(counts[x], grid[x][q]));
                }
            }
        }
        return t;
    }

    /**
     * The neighbour rule, written once: under add/remove a device's contribution can appear or vanish, so a
     * sum changes by at most the largest size of one contribution; under replace-one it can be swapped for
     * another, so by at most the largest distance between two contributions. Either is multiplied by the
     * contribution bound by the caller (L for an l1 size, L² for a squared l2 size).
     *
     * @param largestSize {@code max_x size(v_x)} (a norm, or a squared norm); evaluated only under add/remove
     * @param largestDistance {@code max_{x,x'} size(v_x − v_x')} in the same units; evaluated only under
     *     replace-one (it costs O(N²m))
     */
    public static long worstChange(NeighbourRelation relation, LongSupplier largestSize, LongSupplier largestDistance) {
        return relation == NeighbourRelation.ADD_REMOVE ? largestSize.getAsLong() : largestDistance.getAsLong();
    }

    /**
     * The squared l2 sensitivity of {@code Σ_x counts[x]·v_x} for the given contribution vectors (grid units):
     * {@link #worstChange} of the squared norms times L².
     */
    public static long l2SensitivitySquared(long[][] vectors, NeighbourRelation relation, int contributions) {
        return Math.multiplyExact(worstChange(relation, () -> maxNormSquared(vectors), () -> maxDistanceSquared(vectors)),
                (long) contributions * contributions);
    }

    /**
     * The squared l2 sensitivity of the histogram of counts (the identity vectors: norm² 1, distance² 2), the
     * same rule as {@link #l2SensitivitySquared(long[][], NeighbourRelation, int)} without materialising N×N
     * vectors.
     */
    public static long histogramSensitivitySquared(NeighbourRelation relation, int contributions) {
        return Math.multiplyExact(worstChange(relation, () -> 1, () -> 2), (long) contributions * contributions);
    }

    /** The squared l2 sensitivity of the window sum of answer vectors, in grid units (an exact integer). */
    public long l2SensitivitySquared(NeighbourRelation relation, int contributions) {
        return l2SensitivitySquared(grid, relation, contributions);
    }

    /** The l1 sensitivity of the window sum, in grid units: {@link #worstChange} of l1 sizes, times L. */
    public long l1Sensitivity(NeighbourRelation relation, int contributions) {
        return Math.multiplyExact(worstChange(relation, this::maxL1Norm, this::maxL1Distance), contributions);
    }

    private long maxL1Norm() {
        long worst = 0;
        for (long[] g : grid) {
            long s = 0;
            for (long v : g) {
                s += Math.abs(v);
            }
            worst = Math.max(worst, s);
        }
        return worst;
    }

    private long maxL1Distance() {
        long worst = 0;
        for (int a = 0; a < grid.length; a++) {
            for (int b = a + 1; b < grid.length; b++) {
                long s = 0;
                for (int q = 0; q < m; q++) {
                    s += Math.abs(grid[a][q] - grid[b][q]);
                }
                worst = Math.max(worst, s);
            }
        }
        return worst;
    }

    static long maxNormSquared(long[][] vectors) {
        long worst = 0;
        for (long[] g : vectors) {
            long s = 0;
            for (long v : g) {
                s = Math.addExact(s, Math.multiplyExact(v, v));
            }
            worst = Math.max(worst, s);
        }
        return worst;
    }

    /** {@code max_{a,b} ||a − b||²}; for large sets the bound {@code (2·max ||a − c||)²} around the mean. */
    static long maxDistanceSquared(long[][] vectors) {
        int n = vectors.length;
        if (n == 0) {
            return 0;
        }
        int dim = vectors[0].length;
        if ((long) n * n * dim > 400_000_000L) {
            double[] c = new double[dim];
            for (long[] g : vectors) {
                for (int q = 0; q < dim; q++) {
                    c[q] += g[q] / (double) n;
                }
            }
            double worst = 0;
            for (long[] g : vectors) {
                double s = 0;
                for (int q = 0; q < dim; q++) {
                    s += (g[q] - c[q]) * (g[q] - c[q]);
                }
                worst = Math.max(worst, s);
            }
            return (long) Math.ceil(4 * worst * (1 + 1e-12)) + 1;
        }
        long worst = 0;
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                long s = 0;
                for (int q = 0; q < dim; q++) {
                    long d = vectors[a][q] - vectors[b][q];
                    s += d * d;
                }
                worst = Math.max(worst, s);
            }
        }
        return worst;
    }

    /**
     * An l_q ball containing K (in answer units): for l∞ the bounding box's centre and its largest side;
     * for l1 and l2 the mean of the answer vectors and twice the largest distance to it.
     *
     * @param center the ball's centre
     * @param diameter its l_q diameter R
     */
    public record Ball(LqNorm norm, double[] center, double diameter) {
        /** {@code d^{1−1/q}·R}: what the purification noise scales with (Algorithm 1's Δ / (2κ)). */
        public double cost() {
            int d = center.length;
            return switch (norm) {
                case L1 -> diameter;
                case L2 -> Math.sqrt(d) * diameter;
                case LINF -> d * diameter;
            };
        }
    }

    public Ball enclosingBall(LqNorm norm) {
        PointSet p = workload.points();
        int n = p.size();
        double[] c = new double[m];
        if (norm == LqNorm.LINF) {
            double[] lo = new double[m];
            double[] hi = new double[m];
            Arrays.fill(lo, Double.POSITIVE_INFINITY);
            Arrays.fill(hi, Double.NEGATIVE_INFINITY);
            for (int x = 0; x < n; x++) {
                for (int q = 0; q < m; q++) {
                    lo[q] = Math.min(lo[q], p.get(x, q));
                    hi[q] = Math.max(hi[q], p.get(x, q));
                }
            }
            double side = 0;
            for (int q = 0; q < m; q++) {
                c[q] = (lo[q] + hi[q]) / 2;
                side = Math.max(side, hi[q] - lo[q]);
            }
            return new Ball(norm, c, Math.max(side, 1e-9) * (1 + 1e-12));
        }
        for (int x = 0; x < n; x++) {
            for (int q = 0; q < m; q++) {
                c[q] += p.get(x, q) / n;
            }
        }
        double r = 0;
        for (int x = 0; x < n; x++) {
            double s = 0;
            for (int q = 0; q < m; q++) {
                double d = Math.abs(p.get(x, q) - c[q]);
                s += norm == LqNorm.L1 ? d : d * d;
            }
            r = Math.max(r, norm == LqNorm.L1 ? s : Math.sqrt(s));
        }
        return new Ball(norm, c, 2 * Math.max(r, 1e-9) * (1 + 1e-9));
    }

    /** The cheapest of the three balls for purification ({@link Ball#cost()}). */
    public Ball cheapestBall() {
        Ball best = null;
        for (LqNorm q : LqNorm.values()) {
            Ball b = enclosingBall(q);
            if (best == null || b.cost() < best.cost()) {
                best = b;
            }
        }
        return best;
    }
}
