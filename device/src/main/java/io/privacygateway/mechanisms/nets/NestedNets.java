package io.privacygateway.mechanisms.nets;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Alpha;
import io.privacygateway.mechanisms.param.Require;

/**
 * Nested nets {@code S_1 ⊆ S_2 ⊆ … ⊆ S_k ⊆ X}, {@code S_j} a maximal {@code 2^{-j}}-separated subset
 * of {@code X} in the normalized metric {@code d(u,v) = ||u − v||₂/√m}, with nearest-point maps
 * {@code π_j : X → S_j} (Lemma 4.2 of the instance-optimal query-release paper, {@code Δ = √m}; the
 * nets the chaining decomposition is built from, see {@link ChainingDecomposition}).
 *
 * <h2>Construction</h2>
 * {@code S_1} is the greedy net of {@link SeparatedNet#greedy} at {@code t_1 = 1/2}. {@code S_{j+1}}
 * starts as {@code S_j}; then the points of {@code X} not in {@code S_j} are scanned in index order and
 * a point is admitted iff it is more than {@code t_{j+1} = 2^{-(j+1)}} from every point admitted so
 * far (including all of {@code S_j}). {@code π_j(x)} is the nearest point of {@code S_j} (canonical
 * squared distance, ties → lowest point index).
 *
 * <h2>Why each level is still separated and maximal</h2>
 * <ul>
 *   <li><b>Separated</b>: two points of {@code S_j} are more than {@code t_j > t_{j+1}} apart; a point
 *       admitted at level {@code j+1} is more than {@code t_{j+1}} from everything admitted before it,
 *       including all of {@code S_j}, and every later admission is checked against it.</li>
 *   <li><b>Maximal</b>: a point of {@code X} that was not admitted was within {@code t_{j+1}} of a point
 *       admitted earlier, and admitted points are never removed; so every point of {@code X} is within
 *       {@code t_{j+1}} of {@code S_{j+1}} (a {@code t_{j+1}}-cover) and no point can be added.</li>
 *   <li><b>Nested</b> by construction; {@code π_j(s) = s} for {@code s ∈ S_j}, and
 *       {@code d(x, π_j(x)) ≤ 2^{-j}} for every {@code x}.</li>
 * </ul>
 * Nesting is what makes the build fast: a level-{@code (j+1)} point within {@code t_{j+1}} of {@code x}
 * has its level-{@code j} parent within {@code 2t_j + t_{j+1}} of {@code x}'s parent, so candidate
 * searches only visit the children of nearby level-{@code j} points (exact pruning; see
 * {@code NetEngine}). The result is identical to the brute-force definition above.
 *
 * <p>Deterministic: fixed index order, lowest-index tie-breaking, no randomness, no hashing, one
 * thread.
 */
public final class NestedNets {
    /** Largest supported number of levels ({@code 2^{-256}} is far below any meaningful α). */
    public static final int MAX_LEVELS = 256;

    private final PointSet points;
    private final SeparatedNet[] levels;
    private final long distanceEvaluations;

    private NestedNets(PointSet points, SeparatedNet[] levels, long distanceEvaluations) {
        this.points = points;
        this.levels = levels;
        this.distanceEvaluations = distanceEvaluations;
    }

    /**
     * Builds {@code S_1 ⊆ … ⊆ S_k} with {@code S_j} at separation {@code 2^{-j}}.
     *
     * @param points the set {@code X}, at least one point
     * @param levels {@code k}, in {@code [1, 256]}
     */
    public static NestedNets build(PointSet points, int levels) {
        return build(points, levels, true);
    }

    /** As {@link #build(PointSet, int)}; {@code allowBulk = false} forces the scalar search (tests). */
    static NestedNets build(PointSet points, int levels, boolean allowBulk) {
        Require.nonNull("points", points);
        Require.positive("points.size", points.size());
        Require.inRange("levels", levels, 1, MAX_LEVELS);
        int n = points.size();
        int m = points.dim();
        double[] scales = new double[levels];
        for (int j = 0; j < levels; j++) {
            scales[j] = Math.scalb(1.0, -(j + 1));
        }
        double[] rho = NetEngine.neighbourRadii(scales);
        NetEngine engine = new NetEngine(points.toRowMajor(), n, m, allowBulk);
        for (int j = 0; j < levels; j++) {
            engine.addLevel(scales[j], j > 0, rho[j], Integer.MAX_VALUE);
        }
        SeparatedNet[] out = new SeparatedNet[levels];
        for (int j = 0; j < levels; j++) {
            out[j] = SeparatedNet.fromLevel(points, engine, j);
        }
        return new NestedNets(points, out, engine.distanceEvaluations());
    }

    /** Builds the {@code k = ⌈log₂(2/α)⌉ = alpha.chainingLevels()} nets of Lemma 4.2. */
    public static NestedNets forAlpha(PointSet points, Alpha alpha) {
        Require.nonNull("alpha", alpha);
        return build(points, alpha.chainingLevels());
    }

    /** The point set {@code X}. */
    public PointSet points() {
        return points;
    }

    /** Number of levels {@code k}. */
    public int levels() {
        return levels.length;
    }

    /** The separation {@code 2^{-j}} of level {@code j ∈ [1, k]}. */
    public double scale(int level) {
        return level(level).separation();
    }

    /** Level {@code j ∈ [1, k]}: the net {@code S_j} and the map {@code π_j}. */
    public SeparatedNet level(int level) {
        Require.inRange("level", level, 1, levels.length);
        return levels[level - 1];
    }

    /** Indices into {@code X} of {@code S_j}, ascending. */
    public int[] netIndices(int level) {
        return level(level).netIndices();
    }

    /** {@code S_j} as a point set (ascending point-index order). */
    public PointSet net(int level) {
        return level(level).net();
    }

    /** {@code π_j} as indices into {@code X}. */
    public int[] map(int level) {
        return level(level).map();
    }

    /** Canonical distance evaluations spent on the whole family. */
    public long distanceEvaluations() {
        return distanceEvaluations;
    }
}
