package io.privacygateway.mechanisms.nets;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Alpha;
import io.privacygateway.mechanisms.param.Require;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The multi-scale (chaining) decomposition of Lemma 4.2 of the instance-optimal query-release paper,
 * Euclidean norm, {@code Δ = √m}, used by local chaining (Section 5.2; MECHANISMS.md §3) through the
 * composition Lemma 3.3.
 *
 * <h2>Definition</h2>
 * From the nested nets {@code S_1 ⊆ … ⊆ S_k} with maps {@code π_j} ({@link NestedNets}), for every
 * point {@code x ∈ X}:
 * <pre>
 *   x_k = π_k(x),   x_j = π_j(x_{j+1})  (j &lt; k)        — recursively, NOT π_j(x)
 *   c_1(x) = x_1,   c_j(x) = x_j − x_{j−1}  (j ≥ 2)
 *   X^(1) = S_1,    X^(j) = { y − π_{j−1}(y) : y ∈ S_j }  (distinct vectors, in ascending order of y)
 * </pre>
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Membership</b>: {@code c_j(x) ∈ X^(j)} exactly (bit for bit): {@code x_j ∈ S_j} and
 *       {@code x_{j−1} = π_{j−1}(x_j)}, and both are computed by the same subtraction. This is why
 *       {@code x_j} must be defined from {@code x_{j+1}}: with {@code x_j = π_j(x)} the difference
 *       {@code π_j(x) − π_{j−1}(x)} need not be of the form {@code y − π_{j−1}(y)}. Conversely every
 *       element of {@code X^(j)} is realised ({@code x = y} gives {@code x_j = y}).</li>
 *   <li><b>Telescoping</b>: {@code Σ_j c_j(x) = x_k} (up to floating-point rounding of the
 *       subtractions), hence {@code x = Σ_j c_j(x) + (x − x_k)}.</li>
 *   <li><b>Bias</b>: {@code ||x − x_k||₂/√m ≤ 2^{-k} ≤ α/2} ({@link #biasBound()}).</li>
 *   <li><b>Radius</b>: {@code r_j = max_x ||c_j(x)||₂} ({@link #radius(int)}, public: it depends on the
 *       workload only) satisfies {@code r_j ≤ 2^{-j+1}√m} for {@code j ≥ 2} by the covering property
 *       of {@code π_{j−1}}; {@code r_1 = max_{y ∈ S_1} ||y||₂}, which is {@code ≤ √m} when
 *       {@code X ⊂ √m·B₂} (e.g. {@code X ⊂ [0,1]^m}, the precondition of Lemma 4.2).</li>
 *   <li>{@code |X^(j)| ≤ |S_j|}. (The paper also calls {@code X^(j)} {@code 2^{-j}}-separated; that is
 *       not true in general and is not used: only the size and the radius matter.)</li>
 * </ul>
 * The device releases {@code c_j(x)} (with radius {@code r_j}) per level; the server projects level
 * {@code j} onto {@code conv(X^(j))} ({@link #levelSet(int)}).
 */
public final class ChainingDecomposition {
    private final NestedNets nets;
    private final int[][] chain;
    private final PointSet[] levelSets;
    private final int[][] componentIndex;
    private final double[] radii;

    private ChainingDecomposition(NestedNets nets, int[][] chain, PointSet[] levelSets, int[][] componentIndex) {
        this.nets = nets;
        this.chain = chain;
        this.levelSets = levelSets;
        this.componentIndex = componentIndex;
        this.radii = new double[levelSets.length];
        for (int j = 0; j < levelSets.length; j++) {
            radii[j] = levelSets[j].maxNorm();
        }
    }

    /** Builds the nets for {@code k = alpha.chainingLevels()} and the decomposition. */
    public static ChainingDecomposition build(PointSet points, Alpha alpha) {
        return of(NestedNets.forAlpha(points, alpha));
    }

    /** The decomposition over given nested nets ({@code k = nets.levels()}). */
    public static ChainingDecomposition of(NestedNets nets) {
        Require.nonNull("nets", nets);
        PointSet points = nets.points();
        int n = points.size();
        int m = points.dim();
        int k = nets.levels();
        int[][] maps = new int[k][];
        for (int j = 1; j <= k; j++) {
            maps[j - 1] = nets.map(j);
        }
        int[][] chain = chainPoints(maps, n);
        PointSet[] levelSets = new PointSet[k];
        int[][] componentIndex = new int[k][n];
        int[] rowOfNetPoint = new int[n];
        for (int j = 1; j <= k; j++) {
            int[] net = nets.netIndices(j);
            Arrays.fill(rowOfNetPoint, -1);
            if (j == 1) {
                for (int i = 0; i < net.length; i++) {
                    rowOfNetPoint[net[i]] = i;
                }
                levelSets[0] = nets.net(1);
            } else {
                int[] prevMap = maps[j - 2];
                Map<ExactVectorKey, Integer> seen = new HashMap<>();
                double[] rows = new double[net.length * m];
                int count = 0;
                for (int y : net) {
                    double[] v = difference(points, y, prevMap[y]);
                    Integer row = seen.putIfAbsent(new ExactVectorKey(v), count);
                    if (row == null) {
                        System.arraycopy(v, 0, rows, count * m, m);
                        rowOfNetPoint[y] = count;
                        count++;
                    } else {
                        rowOfNetPoint[y] = row;
                    }
                }
                levelSets[j - 1] = PointSet.ofRowMajor(count, m, Arrays.copyOf(rows, count * m));
            }
            for (int x = 0; x < n; x++) {
                componentIndex[j - 1][x] = rowOfNetPoint[chain[j - 1][x]];
            }
        }
        return new ChainingDecomposition(nets, chain, levelSets, componentIndex);
    }

    /** {@code y − p} coordinate-wise, with {@code −0.0} normalised to {@code +0.0}. */
    static double[] difference(PointSet points, int y, int p) {
        int m = points.dim();
        double[] v = new double[m];
        for (int c = 0; c < m; c++) {
            v[c] = (points.get(y, c) - points.get(p, c)) + 0.0;
        }
        return v;
    }

    /** The nested nets the decomposition is built from. */
    public NestedNets nets() {
        return nets;
    }

    /** The point set {@code X}. */
    public PointSet points() {
        return nets.points();
    }

    /** Number of levels {@code k}. */
    public int levels() {
        return levelSets.length;
    }

    private int check(int level) {
        Require.inRange("level", level, 1, levelSets.length);
        return level - 1;
    }

    /**
     * The chain points of every point, from the level maps: {@code x_k = π_k(x)} and {@code x_j = π_j(x_{j+1})}
     * for {@code j < k} (defined from the finer level, which is what makes {@code x_j − x_{j−1}} a member of the
     * level set; see the class comment).
     *
     * <p>Preconditions: {@code maps.length = k >= 1}; {@code maps[j−1]} is {@code π_j}, of length at least
     * {@code n}, mapping indices {@code [0, n)} into {@code [0, n)}. Guarantees: a fresh {@code int[k][n]} with
     * {@code chain[j−1][x] = x_j}.
     */
    public static int[][] chainPoints(int[][] maps, int n) {
        int k = maps.length;
        int[][] chain = new int[k][n];
        for (int x = 0; x < n; x++) {
            int cur = maps[k - 1][x];
            chain[k - 1][x] = cur;
            for (int j = k - 1; j >= 1; j--) {
                cur = maps[j - 1][cur];
                chain[j - 1][x] = cur;
            }
        }
        return chain;
    }

    /** For every point {@code x}, the index into {@code X} of its chain point {@code x_j ∈ S_j}. */
    public int[] chain(int level) {
        return chain[check(level)].clone();
    }

    /** The level set {@code X^(j)} (the hull the level is projected onto). */
    public PointSet levelSet(int level) {
        return levelSets[check(level)];
    }

    /** For every point {@code x}, the row of {@link #levelSet(int)} equal to {@code c_j(x)}. */
    public int[] componentIndex(int level) {
        return componentIndex[check(level)].clone();
    }

    /** {@code c_j(x)} for one point (a copy of a level-set row). */
    public double[] component(int level, int point) {
        return levelSets[check(level)].row(componentIndex[level - 1][point]);
    }

    /**
     * The level-{@code j} components of all points, one row per point of {@code X} (row {@code i} is
     * {@code c_j(x_i)}). Materialised on each call: {@code N·m} doubles.
     */
    public PointSet components(int level) {
        int l = check(level);
        PointSet set = levelSets[l];
        int n = componentIndex[l].length;
        int m = set.dim();
        double[] out = new double[n * m];
        for (int x = 0; x < n; x++) {
            int r = componentIndex[l][x];
            for (int c = 0; c < m; c++) {
                out[x * m + c] = set.get(r, c);
            }
        }
        return PointSet.ofRowMajor(n, m, out);
    }

    /** {@code r_j = max_x ||c_j(x)||₂} (= the largest norm in {@code X^(j)}). */
    public double radius(int level) {
        return radii[check(level)];
    }

    /** All radii {@code r_1..r_k}. */
    public double[] radii() {
        return radii.clone();
    }

    /**
     * The a-priori bound {@code 2^{-j+1}√m} on {@link #radius(int)} (for {@code j = 1} valid when
     * {@code X ⊂ √m·B₂}).
     */
    public double radiusBound(int level) {
        check(level);
        return Math.scalb(Math.sqrt(points().dim()), 1 - level);
    }

    /** The bias bound {@code 2^{-k}}: {@code ||x − x_k||₂/√m ≤ 2^{-k}} for every {@code x}. */
    public double biasBound() {
        return Math.scalb(1.0, -levels());
    }
}
