package io.privacygateway.mechanisms.nets;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Require;
import java.util.Arrays;

/**
 * A maximal {@code t}-separated subset {@code S} of a finite point set {@code X = {x_0, …, x_{N−1}} ⊂ R^m}
 * in the normalized metric {@code d(u,v) = ||u − v||₂/√m}, with the nearest-net-point map
 * {@code π : X → S}. This is the net of Section 4.1 / 5.2 (coarse projection, {@code t = α/2}) and
 * one level of Lemma 4.2 (chaining) of the instance-optimal query-release paper.
 *
 * <h2>Guarantees</h2>
 * All comparisons use one canonical squared distance (a fixed IEEE-754 operation order, so device and
 * server agree bit for bit) against the threshold {@code θ = t²·m}; "within t" means canonical
 * {@code ||u − v||² ≤ θ}.
 * <ul>
 *   <li><b>Separation</b>: any two distinct net points are more than {@code t} apart.</li>
 *   <li><b>Maximality / covering</b>: every point of {@code X} is within {@code t} of a net point, so no
 *       point can be added without breaking separation (inclusion-maximal; Lemma 2.7 of the paper:
 *       the net is a {@code t}-cover of {@code X}).</li>
 *   <li><b>Map</b>: {@code π(x)} is a net point of smallest distance to {@code x} (ties → lowest point
 *       index); hence {@code d(x, π(x)) ≤ t}, and {@code π(s) = s} for a net point {@code s}.</li>
 *   <li><b>Determinism</b>: the result is a function of the coordinates and their order only.</li>
 * </ul>
 *
 * <h2>Construction</h2>
 * {@link #greedy} scans the points in index order and admits a point iff it is more than {@code t}
 * from every point admitted before. Nets obtained from {@link NestedNets#level(int)} are greedy
 * <em>extensions</em> of the coarser level instead; they satisfy the same guarantees.
 * The search is accelerated by a hierarchy of coarser nets at {@code 2t, 4t, …} used only as an
 * index (candidates are pruned with the triangle inequality and a floating-point safety margin; an
 * index level that turns out larger than {@code N/8} is abandoned) and by vectorisable bulk scans;
 * the result is exactly that of the brute-force scan.
 */
public final class SeparatedNet {
    /**
     * Identifies the exact definition of every net, map and level set in this package: the canonical
     * squared distance ({@link Metric}: four accumulators by coordinate mod 4, combined
     * {@code (s0+s1)+(s2+s3)}), "within t" as {@code ≤ t²·m} (computed {@code t*t*m}), greedy admission in
     * point-index order, nested levels by greedy extension at {@code 2^{-j}}, ties to the lowest index,
     * and (chaining) level-set rows as {@code (y − π(y)) + 0.0} de-duplicated in ascending {@code y}.
     * Device and server must agree on it: include it in the workload's version/content hash, and
     * change it whenever any of these rules changes.
     */
    public static final String ALGORITHM_VERSION = "privacygateway-nets/1";

    /** Below this many points, the plain quadratic scan is used without an index. */
    private static final int INDEX_MIN_POINTS = 512;
    /**
     * An index level is abandoned once it has more than {@code N/8} points: such a level prunes little
     * (the data are spread at that scale) while its neighbour lists would cost quadratic time.
     */
    private static final int INDEX_MAX_FRACTION = 8;

    private final PointSet points;
    private final double separation;
    private final int[] netIndices;
    private final int[] map;
    private final double[] mapSquaredDistances;
    private final int[] positionInNet;
    private final long distanceEvaluations;

    SeparatedNet(PointSet points, double separation, int[] netIndices, int[] map, double[] mapSquaredDistances,
            long distanceEvaluations) {
        this.points = points;
        this.separation = separation;
        this.netIndices = netIndices;
        this.map = map;
        this.mapSquaredDistances = mapSquaredDistances;
        this.positionInNet = new int[points.size()];
        Arrays.fill(positionInNet, -1);
        for (int i = 0; i < netIndices.length; i++) {
            positionInNet[netIndices[i]] = i;
        }
        this.distanceEvaluations = distanceEvaluations;
    }

    /**
     * The greedy maximal {@code separation}-separated subset of {@code points}, scanning in index order.
     *
     * @param points the set {@code X}; at least one point
     * @param separation {@code t > 0} in the normalized metric; {@code t²·m} must not underflow
     */
    public static SeparatedNet greedy(PointSet points, double separation) {
        return greedy(points, separation, true);
    }

    /** As {@link #greedy(PointSet, double)}; {@code allowBulk = false} forces the scalar search (tests). */
    static SeparatedNet greedy(PointSet points, double separation, boolean allowBulk) {
        Require.nonNull("points", points);
        Require.finitePositive("separation", separation);
        Require.positive("points.size", points.size());
        int n = points.size();
        int m = points.dim();
        if (!(Metric.threshold(separation, m) > 0)) {
            throw new IllegalArgumentException("separation must satisfy separation²·m > 0 in double precision, got "
                    + separation);
        }
        NetEngine engine = new NetEngine(points.toRowMajor(), n, m, allowBulk);
        int indexLevels = 0;
        double diameter = engine.diameterBound();
        if (n > INDEX_MIN_POINTS && diameter > 4 * separation) {
            indexLevels = Math.min(40, (int) Math.ceil(StrictMath.log(diameter / separation) / StrictMath.log(2)) - 2);
        }
        double[] planned = new double[indexLevels + 1];
        for (int l = 0; l <= indexLevels; l++) {
            planned[l] = Math.scalb(separation, indexLevels - l);
        }
        double[] rho = NetEngine.neighbourRadii(planned);
        int maxIndexSize = Math.max(1, n / INDEX_MAX_FRACTION);
        for (int l = 0; l < indexLevels; l++) {
            if (engine.addLevel(planned[l], engine.levelCount() > 0, rho[l], maxIndexSize) == null) {
                break;
            }
        }
        engine.addLevel(separation, false, 0.0, Integer.MAX_VALUE);
        return fromLevel(points, engine, engine.levelCount() - 1);
    }

    static SeparatedNet fromLevel(PointSet points, NetEngine engine, int level) {
        NetEngine.Level lv = engine.level(level);
        return new SeparatedNet(points, lv.scale, lv.net, lv.map.clone(), lv.mapD2.clone(),
                engine.distanceEvaluations());
    }

    /** The point set {@code X} the net was built on. */
    public PointSet points() {
        return points;
    }

    /** The separation {@code t} (normalized metric). */
    public double separation() {
        return separation;
    }

    /** Number of net points {@code |S|}. */
    public int size() {
        return netIndices.length;
    }

    /** Indices into {@code X} of the net points, ascending. A copy. */
    public int[] netIndices() {
        return netIndices.clone();
    }

    /** The net as a point set, rows in ascending point-index order (row {@code i} is {@code x_{netIndices[i]}}). */
    public PointSet net() {
        return subset(points, netIndices);
    }

    /** For every point {@code x} of {@code X}, the index into {@code X} of {@code π(x)}. A copy. */
    public int[] map() {
        return map.clone();
    }

    /** For every point {@code x} of {@code X}, the row of {@code π(x)} in {@link #net()}. */
    public int[] mapToNet() {
        int[] out = new int[map.length];
        for (int i = 0; i < map.length; i++) {
            out[i] = positionInNet[map[i]];
        }
        return out;
    }

    /** {@code π(x)} as an index into {@code X}. */
    public int map(int point) {
        return map[point];
    }

    /** Whether point {@code point} of {@code X} is a net point. */
    public boolean contains(int point) {
        return positionInNet[point] >= 0;
    }

    /** The normalized distance {@code ||x − π(x)||₂/√m} of a point to its net point (at most {@link #separation()}). */
    public double distanceToNet(int point) {
        return Math.sqrt(mapSquaredDistances[point] / points.dim());
    }

    /** {@code max_x ||x − π(x)||₂/√m}: the realised covering radius, at most {@link #separation()}. */
    public double coveringRadius() {
        double mx = 0;
        for (double d2 : mapSquaredDistances) {
            mx = Math.max(mx, d2);
        }
        return Math.sqrt(mx / points.dim());
    }

    /** Canonical distance evaluations spent building this net (including coarser index levels). */
    public long distanceEvaluations() {
        return distanceEvaluations;
    }

    static PointSet subset(PointSet points, int[] indices) {
        int m = points.dim();
        double[] out = new double[indices.length * m];
        for (int i = 0; i < indices.length; i++) {
            for (int c = 0; c < m; c++) {
                out[i * m + c] = points.get(indices[i], c);
            }
        }
        return PointSet.ofRowMajor(indices.length, m, out);
    }
}
