package io.privacygateway.mechanisms.projection;

/**
 * Independent, exponential-time reference solvers for tiny instances, written without any code of the
 * production classes: they enumerate candidate supports and keep the best feasible candidate.
 */
final class ProjectionBruteForce {
    private ProjectionBruteForce() {}

    /** ½‖w − y‖². */
    static double objective(double[] w, double[] y) {
        double s = 0;
        for (int t = 0; t < y.length; t++) {
            s += (w[t] - y[t]) * (w[t] - y[t]);
        }
        return 0.5 * s;
    }

    static double distance(double[] a, double[] b) {
        return Math.sqrt(2 * objective(a, b));
    }

    /** The Frank–Wolfe gap {@code max_i ⟨y − w, a_i − w⟩}, computed naively. */
    static double frankWolfeGap(double[][] atoms, double[] w, double[] y) {
        double best = Double.NEGATIVE_INFINITY;
        for (double[] a : atoms) {
            double s = 0;
            for (int t = 0; t < y.length; t++) {
                s += (y[t] - w[t]) * (a[t] - w[t]);
            }
            best = Math.max(best, s);
        }
        return best;
    }

    /**
     * The projection onto {@code conv(atoms)}: for every affinely independent subset {@code T}, the
     * projection onto its affine hull by normal equations in the differences {@code a_j − a_{t0}};
     * kept when its barycentric coordinates are non-negative. The optimum lies in the relative interior
     * of a face spanned by an affinely independent subset (Carathéodory), so the best kept candidate is
     * the projection.
     */
    static double[] hull(double[][] atoms, double[] y) {
        int n = atoms.length;
        int m = y.length;
        double[] best = null;
        double bestF = Double.POSITIVE_INFINITY;
        for (int mask = 1; mask < (1 << n); mask++) {
            int[] subset = new int[Integer.bitCount(mask)];
            for (int i = 0, c = 0; i < n; i++) {
                if ((mask >>> i & 1) != 0) {
                    subset[c++] = i;
                }
            }
            int r = subset.length - 1;
            if (r > m) {
                continue;
            }
            double[] a0 = atoms[subset[0]];
            double[][] d = new double[r][m];
            for (int j = 0; j < r; j++) {
                for (int t = 0; t < m; t++) {
                    d[j][t] = atoms[subset[j + 1]][t] - a0[t];
                }
            }
            double[][] g = new double[r][r + 1];
            for (int i = 0; i < r; i++) {
                for (int j = 0; j < r; j++) {
                    g[i][j] = dot(d[i], d[j]);
                }
                double s = 0;
                for (int t = 0; t < m; t++) {
                    s += d[i][t] * (y[t] - a0[t]);
                }
                g[i][r] = s;
            }
            double[] mu = solve(g, r);
            if (mu == null) {
                continue; // affinely dependent
            }
            double lambda0 = 1;
            boolean feasible = true;
            for (double v : mu) {
                lambda0 -= v;
                feasible &= v >= -1e-12;
            }
            if (!feasible || lambda0 < -1e-12) {
                continue;
            }
            double[] u = a0.clone();
            for (int j = 0; j < r; j++) {
                for (int t = 0; t < m; t++) {
                    u[t] += mu[j] * d[j][t];
                }
            }
            double f = objective(u, y);
            if (f < bestF) {
                bestF = f;
                best = u;
            }
        }
        return best;
    }

    /** The projection onto the probability simplex by enumerating supports. */
    static double[] simplex(double[] y) {
        int m = y.length;
        double[] best = null;
        double bestF = Double.POSITIVE_INFINITY;
        for (int mask = 1; mask < (1 << m); mask++) {
            double sum = 0;
            int size = Integer.bitCount(mask);
            for (int i = 0; i < m; i++) {
                if ((mask >>> i & 1) != 0) {
                    sum += y[i];
                }
            }
            double shift = (sum - 1) / size;
            double[] p = new double[m];
            boolean feasible = true;
            for (int i = 0; i < m; i++) {
                if ((mask >>> i & 1) != 0) {
                    p[i] = y[i] - shift;
                    feasible &= p[i] >= 0;
                }
            }
            if (feasible && objective(p, y) < bestF) {
                bestF = objective(p, y);
                best = p;
            }
        }
        return best;
    }

    /**
     * The projection onto {@code {0 ≤ w_1 ≤ … ≤ w_m ≤ 1}} by enumerating all {@code 2^{m−1}} partitions
     * into consecutive blocks: on each block the candidate value is the block mean clipped to [0, 1]
     * (the optimum of a maximal constant run whose neighbours are strictly apart); candidates that are
     * not non-decreasing are discarded.
     */
    static double[] monotoneBox(double[] y) {
        int m = y.length;
        double[] best = null;
        double bestF = Double.POSITIVE_INFINITY;
        for (int cuts = 0; cuts < (1 << (m - 1)); cuts++) {
            double[] w = new double[m];
            int start = 0;
            for (int i = 0; i < m; i++) {
                boolean end = i == m - 1 || (cuts >>> i & 1) != 0;
                if (end) {
                    double mean = 0;
                    for (int j = start; j <= i; j++) {
                        mean += y[j];
                    }
                    mean = Math.min(1, Math.max(0, mean / (i - start + 1)));
                    for (int j = start; j <= i; j++) {
                        w[j] = mean;
                    }
                    start = i + 1;
                }
            }
            boolean monotone = true;
            for (int i = 1; i < m; i++) {
                monotone &= w[i - 1] <= w[i];
            }
            if (monotone && objective(w, y) < bestF) {
                bestF = objective(w, y);
                best = w;
            }
        }
        return best;
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int t = 0; t < a.length; t++) {
            s += a[t] * b[t];
        }
        return s;
    }

    /** Gaussian elimination with partial pivoting on an augmented r×(r+1) matrix; null if singular. */
    private static double[] solve(double[][] g, int r) {
        double scale = 0;
        for (int i = 0; i < r; i++) {
            scale = Math.max(scale, Math.abs(g[i][i]));
        }
        for (int c = 0; c < r; c++) {
            int p = c;
            for (int i = c + 1; i < r; i++) {
                if (Math.abs(g[i][c]) > Math.abs(g[p][c])) {
                    p = i;
                }
            }
            if (Math.abs(g[p][c]) <= 1e-10 * Math.max(scale, 1e-300)) {
                return null;
            }
            double[] tmp = g[c];
            g[c] = g[p];
            g[p] = tmp;
            for (int i = c + 1; i < r; i++) {
                double f = g[i][c] / g[c][c];
                for (int j = c; j <= r; j++) {
                    g[i][j] -= f * g[c][j];
                }
            }
        }
        double[] x = new double[r];
        for (int i = r - 1; i >= 0; i--) {
            double s = g[i][r];
            for (int j = i + 1; j < r; j++) {
                s -= g[i][j] * x[j];
            }
            x[i] = s / g[i][i];
        }
        return x;
    }
}
