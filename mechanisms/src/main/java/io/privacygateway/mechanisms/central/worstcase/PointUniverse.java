package io.privacygateway.mechanisms.central.worstcase;

import io.privacygateway.mechanisms.central.wide.MwUniverse;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Require;

/**
 * An explicit finite universe of vectors {@code y ∈ [−r, r]^m} (a chaining level set) with its m coordinates as
 * single queries, rescaled to {@code [0, 1]} and put on a grid: {@code q_i(y) = Q_i(y)/unit} with
 * {@code Q_i(y) = round(unit·(y_i + r)/(2r)) ∈ [0, unit]} an integer. The grid is part of the query's definition
 * (public), so data statistics {@code Σ_reports Q_i} are exact integers; {@code |q_i(y) − (y_i + r)/(2r)| <= 1/(2·unit)},
 * which the chaining bound adds.
 */
public final class PointUniverse implements MwUniverse {
    /** Grid units per 1.0 of a rescaled coordinate. */
    public static final long UNIT = 1L << 12;

    private final PointSet rows;
    private final double radius;
    private final int[][] grid;
    private final int size;
    private final int m;

    /**
     * @param rows the universe's vectors
     * @param radius r {@code > 0}, at least {@code max |y_i|}
     */
    public PointUniverse(PointSet rows, double radius) {
        this.rows = Require.nonNull("rows", rows);
        this.radius = Require.finitePositive("radius", radius);
        this.size = rows.size();
        this.m = rows.dim();
        this.grid = new int[size][m];
        for (int u = 0; u < size; u++) {
            for (int i = 0; i < m; i++) {
                double y = rows.get(u, i);
                if (Math.abs(y) > radius * (1 + 1e-12)) {
                    throw new IllegalArgumentException("row " + u + " coordinate " + i + " = " + y + " exceeds radius "
                            + radius);
                }
                long g = Math.round(UNIT * (y + radius) / (2 * radius));
                grid[u][i] = (int) Math.max(0, Math.min(UNIT, g));
            }
        }
    }

    public PointSet rows() {
        return rows;
    }

    public double radius() {
        return radius;
    }

    /** {@code Q_i(y_u)}, in {@code [0, unit]}. */
    public int gridValue(int u, int i) {
        return grid[u][i];
    }

    /** The statistics of every coordinate for a histogram over the rows: {@code Σ_u h_u·Q_i(y_u)}, exact. */
    public long[] statistics(long[] histogram) {
        long[] s = new long[m];
        for (int u = 0; u < size; u++) {
            long h = histogram[u];
            if (h != 0) {
                for (int i = 0; i < m; i++) {
                    s[i] = Math.addExact(s[i], Math.multiplyExact(h, grid[u][i]));
                }
            }
        }
        return s;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public double logSize() {
        return Math.log(size);
    }

    @Override
    public int groups() {
        return m;
    }

    @Override
    public int groupSize() {
        return 1;
    }

    @Override
    public boolean partition() {
        return false;
    }

    @Override
    public long unit() {
        return UNIT;
    }

    @Override
    public void answers(double[] p, double[][] out) {
        double inv = 1.0 / UNIT;
        for (int i = 0; i < m; i++) {
            out[i][0] = 0;
        }
        for (int u = 0; u < size; u++) {
            double w = p[u];
            if (w != 0) {
                int[] g = grid[u];
                for (int i = 0; i < m; i++) {
                    out[i][0] += w * g[i];
                }
            }
        }
        for (int i = 0; i < m; i++) {
            out[i][0] *= inv;
        }
    }

    @Override
    public void update(double[] p, int g, double[] eta) {
        double e = eta[0] / UNIT;
        double total = 0;
        for (int u = 0; u < size; u++) {
            double v = p[u] * Math.exp(e * grid[u][g]);
            p[u] = v;
            total += v;
        }
        double inv = 1 / total;
        for (int u = 0; u < size; u++) {
            p[u] *= inv;
        }
    }
}
