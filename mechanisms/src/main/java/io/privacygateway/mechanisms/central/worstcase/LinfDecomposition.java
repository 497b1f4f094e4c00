package io.privacygateway.mechanisms.central.worstcase;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.nets.ChainingDecomposition;
import io.privacygateway.mechanisms.nets.ExactVectorKey;
import io.privacygateway.mechanisms.param.Require;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The multi-scale decomposition of Lemma 4.2 (instance-optimal query release paper) in the l∞ norm with
 * {@code Δ = 1}, for worst-case chaining (§4.3, Theorem 1.5): nested nets {@code S_1 ⊆ … ⊆ S_k ⊆ X}, {@code S_j}
 * a maximal {@code 2^{−j}}-separated subset of the answer vectors in {@code ‖u − v‖∞}, maps {@code π_j : X → S_j}
 * with {@code ‖π_j(x) − x‖∞ <= 2^{−j}}, chains {@code x_k = π_k(x)}, {@code x_j = π_j(x_{j+1})}, components
 * {@code c_1 = x_1}, {@code c_j = x_j − x_{j−1}}, level sets {@code X^(j) = {y − π_{j−1}(y) : y ∈ S_j}} (distinct
 * rows). Then {@code Q(x) = Σ_j c_j(x) + (Q(x) − x_k)} with {@code ‖Q(x) − x_k‖∞ <= 2^{−k}} ({@link #bias()}), and
 * every row of {@code X^(j)}, {@code j >= 2}, has l∞ norm at most {@code 2^{−j+1}} ({@link #radius}).
 *
 * <p><b>Construction</b> (the greedy rule of {@code nets/NestedNets}, in l∞): {@code S_1} scans the points in index
 * order and admits a point iff it is more than 1/2 from every admitted point; {@code S_{j+1}} extends {@code S_j}
 * the same way at {@code 2^{−(j+1)}}; {@code π_j(x)} is a nearest point of {@code S_j} (ties: lowest index).
 * Deterministic; {@code O(N·|S_j|·m)} per level with an early exit per pair.
 *
 * <p><b>0/1 workloads.</b> When every coordinate is 0 or 1, distinct answer vectors are exactly 1 apart in l∞, so
 * {@code S_j} is the set of first occurrences of the distinct vectors for every j, {@code π_j} maps a point to the
 * first occurrence of its vector, level 1 is the whole (deduplicated) set and every later level is {0}: worst-case
 * chaining is private multiplicative weights on X itself, with no bias. This is detected and built in
 * {@code O(N·m)}; a test checks it against the general construction.
 */
public final class LinfDecomposition {
    private final PointSet points;
    private final List<PointSet> levelSets;
    private final List<int[]> componentIndex;
    private final double[] radii;
    private final double bias;
    private final boolean binary;

    private LinfDecomposition(PointSet points, List<PointSet> levelSets, List<int[]> componentIndex, double bias,
            boolean binary) {
        this.points = points;
        this.levelSets = List.copyOf(levelSets);
        this.componentIndex = List.copyOf(componentIndex);
        this.radii = new double[levelSets.size()];
        for (int j = 0; j < radii.length; j++) {
            radii[j] = linfNorm(levelSets.get(j));
        }
        this.bias = bias;
        this.binary = binary;
    }

    /**
     * The decomposition with {@code k} levels.
     *
     * @param points the answer vectors {@code Q(x)}, in {@code [0,1]^m}
     * @param levels k {@code >= 1}
     */
    public static LinfDecomposition build(PointSet points, int levels) {
        Require.nonNull("points", points);
        Require.positive("points.size", points.size());
        Require.inRange("levels", levels, 1, 64);
        if (isBinary(points)) {
            return binary(points);
        }
        return general(points, levels);
    }

    /** The general construction (also for 0/1 points: tests compare it with the fast path). */
    static LinfDecomposition general(PointSet points, int levels) {
        int n = points.size();
        int m = points.dim();
        double[] rows = points.toRowMajor();
        int[][] maps = new int[levels][];
        List<Integer> net = new ArrayList<>();
        boolean[] inNet = new boolean[n];
        for (int j = 1; j <= levels; j++) {
            double t = Math.scalb(1.0, -j);
            for (int x = 0; x < n; x++) {
                if (inNet[x]) {
                    continue;
                }
                boolean far = true;
                for (int s : net) {
                    if (withinLinf(rows, x, s, m, t)) {
                        far = false;
                        break;
                    }
                }
                if (far) {
                    net.add(x);
                    inNet[x] = true;
                }
            }
            int[] map = new int[n];
            for (int x = 0; x < n; x++) {
                if (inNet[x]) {
                    map[x] = x;
                    continue;
                }
                int best = -1;
                double bestD = Double.POSITIVE_INFINITY;
                for (int s : net) {
                    double dist = linf(rows, x, s, m, bestD);
                    if (dist < bestD || (dist == bestD && s < best)) {
                        bestD = dist;
                        best = s;
                    }
                }
                map[x] = best;
            }
            maps[j - 1] = map;
        }
        return fromMaps(points, maps);
    }

    private static LinfDecomposition fromMaps(PointSet points, int[][] maps) {
        int n = points.size();
        int m = points.dim();
        int k = maps.length;
        int[][] chain = ChainingDecomposition.chainPoints(maps, n); // x_k = π_k(x), x_j = π_j(x_{j+1})
        List<PointSet> sets = new ArrayList<>();
        List<int[]> index = new ArrayList<>();
        for (int j = 0; j < k; j++) {
            Map<ExactVectorKey, Integer> seen = new HashMap<>();
            List<double[]> rows = new ArrayList<>();
            int[] idx = new int[n];
            for (int x = 0; x < n; x++) {
                double[] v = points.row(chain[j][x]);
                if (j > 0) {
                    double[] prev = points.row(chain[j - 1][x]);
                    for (int q = 0; q < m; q++) {
                        v[q] = (v[q] - prev[q]) + 0.0;
                    }
                }
                Integer row = seen.get(new ExactVectorKey(v));
                if (row == null) {
                    row = rows.size();
                    seen.put(new ExactVectorKey(v), row);
                    rows.add(v);
                }
                idx[x] = row;
            }
            sets.add(PointSet.of(m, rows.toArray(double[][]::new)));
            index.add(idx);
        }
        double bias = 0;
        for (int x = 0; x < n; x++) {
            bias = Math.max(bias, linf(points.row(x), points.row(chain[k - 1][x])));
        }
        return new LinfDecomposition(points, sets, index, bias, false);
    }

    private static LinfDecomposition binary(PointSet points) {
        int n = points.size();
        Map<ExactVectorKey, Integer> first = new HashMap<>();
        int[] map = new int[n];
        for (int x = 0; x < n; x++) {
            Integer f = first.putIfAbsent(new ExactVectorKey(points.row(x)), x);
            map[x] = f == null ? x : f;
        }
        LinfDecomposition d = fromMaps(points, new int[][] {map});
        return new LinfDecomposition(points, d.levelSets, d.componentIndex, d.bias, true);
    }

    static boolean isBinary(PointSet p) {
        for (int x = 0; x < p.size(); x++) {
            for (int q = 0; q < p.dim(); q++) {
                double v = p.get(x, q);
                if (v != 0 && v != 1) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean withinLinf(double[] rows, int a, int b, int m, double t) {
        int oa = a * m;
        int ob = b * m;
        for (int q = 0; q < m; q++) {
            if (Math.abs(rows[oa + q] - rows[ob + q]) > t) {
                return false;
            }
        }
        return true;
    }

    /** {@code ‖a − b‖∞}, or some value {@code >= bound} once it reaches bound. */
    private static double linf(double[] rows, int a, int b, int m, double bound) {
        int oa = a * m;
        int ob = b * m;
        double worst = 0;
        for (int q = 0; q < m; q++) {
            worst = Math.max(worst, Math.abs(rows[oa + q] - rows[ob + q]));
            if (worst > bound) {
                return worst;
            }
        }
        return worst;
    }

    private static double linf(double[] a, double[] b) {
        double worst = 0;
        for (int q = 0; q < a.length; q++) {
            worst = Math.max(worst, Math.abs(a[q] - b[q]));
        }
        return worst;
    }

    static double linfNorm(PointSet s) {
        double worst = 0;
        for (int i = 0; i < s.size(); i++) {
            for (int q = 0; q < s.dim(); q++) {
                worst = Math.max(worst, Math.abs(s.get(i, q)));
            }
        }
        return worst;
    }

    public PointSet points() {
        return points;
    }

    /** The number of levels k (1 for 0/1 workloads). */
    public int levels() {
        return levelSets.size();
    }

    /** {@code X^(j)}, {@code j ∈ [1, k]}. */
    public PointSet levelSet(int level) {
        return levelSets.get(check(level));
    }

    /** For every point x, the row of {@code X^(j)} equal to {@code c_j(x)} (a copy). */
    public int[] componentIndex(int level) {
        return componentIndex.get(check(level)).clone();
    }

    /** {@code max_y ‖y‖∞} over {@code X^(j)}. */
    public double radius(int level) {
        return radii[check(level)];
    }

    /** {@code max_x ‖Q(x) − x_k‖∞ <= 2^{−k}}: the decomposition's deliberate bias, exactly. */
    public double bias() {
        return bias;
    }

    /** Whether the 0/1 fast path built it. */
    public boolean binary() {
        return binary;
    }

    private int check(int level) {
        Require.inRange("level", level, 1, levelSets.size());
        return level - 1;
    }
}
