package io.privacygateway.mechanisms.nets;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Alpha;
import io.privacygateway.mechanisms.param.Require;

/**
 * The single-scale decomposition of the coarse projection mechanism (Section 4.1, local version
 * Section 5.2 of the instance-optimal query-release paper; MECHANISMS.md §3): {@code N} is the greedy
 * maximal {@code α/2}-separated subset of {@code X} (index order, {@link SeparatedNet#greedy}), and
 * each point is rounded to its nearest point of {@code N} (ties → lowest index).
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>{@code X ⊂ N + (α/2)√m·B₂}: every point is within {@code α/2} (normalized) of its rounded vector,
 *       so replacing the data by the rounded data moves the mean by at most {@code α/2}
 *       ({@link #biasBound()}; the realised value is {@link #realisedBias()}).</li>
 *   <li>The rounded vectors lie in {@code N}, so their mean lies in {@code conv(N)} ({@link #hull()}),
 *       the set the server projects onto.</li>
 *   <li>{@link #radius()} {@code = max_{y∈N} ||y||₂ ≤ max_x ||x||₂} (public; {@code ≤ √m} on
 *       {@code [0,1]^m}).</li>
 * </ul>
 */
public final class CoarseDecomposition {
    private final Alpha alpha;
    private final SeparatedNet net;
    private final PointSet hull;
    private final int[] hullIndex;

    private CoarseDecomposition(Alpha alpha, SeparatedNet net) {
        this.alpha = alpha;
        this.net = net;
        this.hull = net.net();
        this.hullIndex = net.mapToNet();
    }

    /** The decomposition with separation {@code α/2}. */
    public static CoarseDecomposition build(PointSet points, Alpha alpha) {
        Require.nonNull("alpha", alpha);
        return new CoarseDecomposition(alpha, SeparatedNet.greedy(points, alpha.value() / 2));
    }

    public Alpha alpha() {
        return alpha;
    }

    /** The net {@code N} with its map. */
    public SeparatedNet net() {
        return net;
    }

    /** {@code N} as a point set (the hull the server projects onto). */
    public PointSet hull() {
        return hull;
    }

    /** For every point, the row of {@link #hull()} it is rounded to. */
    public int[] hullIndex() {
        return hullIndex.clone();
    }

    /** The rounded vector of one point (a copy of a hull row). */
    public double[] rounded(int point) {
        return hull.row(hullIndex[point]);
    }

    /** The rounded vectors, one row per point of {@code X}; materialised on each call. */
    public PointSet rounded() {
        int n = hullIndex.length;
        int m = hull.dim();
        double[] out = new double[n * m];
        for (int x = 0; x < n; x++) {
            for (int c = 0; c < m; c++) {
                out[x * m + c] = hull.get(hullIndex[x], c);
            }
        }
        return PointSet.ofRowMajor(n, m, out);
    }

    /** {@code max ||rounded||₂}, the public radius of the released vectors. */
    public double radius() {
        return hull.maxNorm();
    }

    /** The design bias bound {@code α/2} (normalized). */
    public double biasBound() {
        return alpha.value() / 2;
    }

    /** {@code max_x ||x − rounded(x)||₂/√m ≤ α/2}. */
    public double realisedBias() {
        return net.coveringRadius();
    }
}
