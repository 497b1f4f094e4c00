package io.privacygateway.mechanisms.nets;

import io.privacygateway.mechanisms.linalg.PointSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/** Seeded point sets and brute-force reference implementations for the net tests. */
final class NetsTestData {
    private NetsTestData() {}

    static PointSet uniform(int n, int m, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] d = new double[n * m];
        for (int i = 0; i < d.length; i++) {
            d[i] = r.nextDouble();
        }
        return PointSet.ofRowMajor(n, m, d);
    }

    static PointSet binary(int n, int m, double p, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] d = new double[n * m];
        for (int i = 0; i < d.length; i++) {
            d[i] = r.nextDouble() < p ? 1 : 0;
        }
        return PointSet.ofRowMajor(n, m, d);
    }

    /** Gaussian blobs around uniform centres, clipped to [0,1]. */
    static PointSet blobs(int n, int m, int centres, double sd, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] c = new double[centres][m];
        for (double[] row : c) {
            for (int j = 0; j < m; j++) {
                row[j] = r.nextDouble();
            }
        }
        double[] d = new double[n * m];
        for (int i = 0; i < n; i++) {
            double[] centre = c[r.nextInt(centres)];
            for (int j = 0; j < m; j++) {
                d[i * m + j] = Math.min(1, Math.max(0, centre[j] + sd * gaussian(r)));
            }
        }
        return PointSet.ofRowMajor(n, m, d);
    }

    static double gaussian(SplittableRandom r) {
        double u = r.nextDouble();
        double v = r.nextDouble();
        return Math.sqrt(-2 * Math.log1p(-u)) * Math.cos(2 * Math.PI * v);
    }

    /**
     * Points with coordinates in {0, 1/4, 1/2, 3/4, 1}: squared distances are multiples of 1/16, so many
     * pairs sit exactly at dyadic thresholds and many nearest-point ties occur (exercises the
     * boundary and tie rules, and the exact re-check band of the bulk scans).
     */
    static PointSet lattice(int n, int m, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] d = new double[n * m];
        for (int i = 0; i < d.length; i++) {
            d[i] = r.nextInt(5) / 4.0;
        }
        return PointSet.ofRowMajor(n, m, d);
    }

    /** CDF answer vectors over k buckets: point x has q_t(x) = 1{x < t}, t = 1..k-1 (m = k-1). */
    static PointSet cdf(int k) {
        double[][] rows = new double[k][k - 1];
        for (int x = 0; x < k; x++) {
            for (int t = 1; t < k; t++) {
                rows[x][t - 1] = x < t ? 1 : 0;
            }
        }
        return PointSet.of(k - 1, rows);
    }

    /** Concatenation of point sets of equal dimension, with some exact duplicates appended. */
    static PointSet concat(PointSet... sets) {
        int m = sets[0].dim();
        List<double[]> rows = new ArrayList<>();
        for (PointSet s : sets) {
            for (int i = 0; i < s.size(); i++) {
                rows.add(s.row(i));
            }
        }
        return PointSet.of(m, rows.toArray(new double[0][]));
    }

    static PointSet withDuplicates(PointSet s, int every) {
        List<double[]> rows = new ArrayList<>();
        for (int i = 0; i < s.size(); i++) {
            rows.add(s.row(i));
            if (i % every == every - 1) {
                rows.add(s.row(i / 2));
            }
        }
        return PointSet.of(s.dim(), rows.toArray(new double[0][]));
    }

    /** Brute-force result of one level: membership and the map. */
    record BruteLevel(int[] net, int[] map) {}

    /**
     * The definition, by brute force: level 0 plain greedy in index order; level l extends level l−1
     * if extend[l]; map = nearest with ties to lowest index. Uses the canonical distance.
     */
    static BruteLevel[] bruteForce(PointSet points, double[] scales, boolean[] extend) {
        int n = points.size();
        int m = points.dim();
        double[] d = points.toRowMajor();
        BruteLevel[] out = new BruteLevel[scales.length];
        boolean[] prev = null;
        for (int l = 0; l < scales.length; l++) {
            double thr = scales[l] * scales[l] * m;
            boolean[] member = new boolean[n];
            List<Integer> admitted = new ArrayList<>();
            if (extend[l]) {
                for (int x = 0; x < n; x++) {
                    if (prev[x]) {
                        member[x] = true;
                        admitted.add(x);
                    }
                }
            }
            for (int x = 0; x < n; x++) {
                if (member[x]) {
                    continue;
                }
                boolean covered = false;
                for (int s : admitted) {
                    if (Metric.squaredDistance(d, x * m, s * m, m) <= thr) {
                        covered = true;
                        break;
                    }
                }
                if (!covered) {
                    member[x] = true;
                    admitted.add(x);
                }
            }
            int[] net = admitted.stream().mapToInt(Integer::intValue).sorted().toArray();
            int[] map = new int[n];
            for (int x = 0; x < n; x++) {
                int best = -1;
                double bd = Double.POSITIVE_INFINITY;
                for (int s : net) { // ascending: strict < keeps the lowest index on ties
                    double dd = Metric.squaredDistance(d, x * m, s * m, m);
                    if (dd < bd) {
                        bd = dd;
                        best = s;
                    }
                }
                map[x] = best;
            }
            out[l] = new BruteLevel(net, map);
            prev = member;
        }
        return out;
    }

    /** Normalized distance computed independently of the canonical function. */
    static double dist(PointSet p, int a, int b) {
        return p.distance(a, b) / Math.sqrt(p.dim());
    }

    /**
     * Independent geometric check of a net: returns null when the net is t-separated, covers every
     * point within t through {@code map}, and {@code map} is a nearest net point; otherwise a
     * description of the first violation. Tolerance 1e-12 relative for rounding.
     */
    static String violation(PointSet p, double t, int[] net, int[] map) {
        double tol = 1e-12;
        boolean[] member = new boolean[p.size()];
        for (int s : net) {
            member[s] = true;
        }
        for (int i = 0; i < net.length; i++) {
            for (int j = i + 1; j < net.length; j++) {
                if (dist(p, net[i], net[j]) <= t * (1 - tol)) {
                    return "net points " + net[i] + ", " + net[j] + " at distance " + dist(p, net[i], net[j]);
                }
            }
        }
        for (int x = 0; x < p.size(); x++) {
            if (!member[map[x]]) {
                return "map of " + x + " is not a net point";
            }
            double dx = dist(p, x, map[x]);
            if (dx > t * (1 + tol)) {
                return "point " + x + " is " + dx + " from its net point " + map[x];
            }
            for (int s : net) {
                if (dist(p, x, s) < dx * (1 - tol)) {
                    return "point " + x + " is nearer to " + s + " than to its net point " + map[x];
                }
            }
        }
        return null;
    }

    static int[] without(int[] a, int value) {
        return Arrays.stream(a).filter(v -> v != value).toArray();
    }
}
