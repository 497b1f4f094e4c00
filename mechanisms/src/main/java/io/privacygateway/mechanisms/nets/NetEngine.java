package io.privacygateway.mechanisms.nets;

import java.util.Arrays;

/**
 * Builds a sequence of greedy separated nets at decreasing scales {@code t_0 > t_1 > … > t_{L−1}}
 * (normalized metric {@code d(u,v) = ||u − v||₂/√m}, canonical squared distance of {@link Metric}),
 * each level either a greedy extension of the previous level's net or a fresh greedy net, together
 * with the nearest-net-point map of every level. Package-private: {@link SeparatedNet} and
 * {@link NestedNets} are the public faces.
 *
 * <h2>What each level is</h2>
 * Level {@code ℓ} with threshold {@code θ = t_ℓ²·m}:
 * <ul>
 *   <li><b>extension</b> ({@code ℓ ≥ 1}): start with {@code S_{ℓ−1}}; then for {@code x = 0, 1, …, N−1}
 *       not yet in the net, admit {@code x} iff every point admitted so far has canonical squared
 *       distance {@code > θ} from it;</li>
 *   <li><b>fresh</b>: the same, starting from the empty set (plain greedy in index order).</li>
 * </ul>
 * Then {@code π_ℓ(x)} is the net point with the smallest canonical squared distance to {@code x},
 * ties to the lowest point index; for a net point this is the point itself.
 *
 * <h2>Exactness of the pruning</h2>
 * The result is exactly that of the brute-force definition above (tests compare bit for bit); the
 * hierarchy only skips candidates that provably cannot matter:
 * <ul>
 *   <li>The children of a level-{@code (ℓ−1)} net point {@code q} are the level-{@code ℓ} net points
 *       {@code s} with {@code π_{ℓ−1}(s) = q}; their largest distance to {@code q} is kept. If
 *       {@code ||x − q|| > r + maxChild(q)} then no child is within {@code r} of {@code x} (triangle
 *       inequality), so the children are skipped.</li>
 *   <li>Neighbour lists {@code N_ℓ(p) ⊇ {q ∈ S_ℓ : ||p − q|| ≤ ρ_ℓ√m}}, computed lazily from the
 *       children of {@code N_{ℓ−1}(π_{ℓ−1}(p))}. If {@code s ∈ S_ℓ} is within {@code t_ℓ} of {@code x}
 *       then {@code d(π_{ℓ−1}(x), π_{ℓ−1}(s)) ≤ 2t_{ℓ−1} + t_ℓ}; and if {@code d(p', q') ≤ ρ_ℓ} then
 *       their parents are within {@code ρ_ℓ + 2t_{ℓ−1}}. So {@code ρ_{ℓ−1} = max(t_ℓ, ρ_ℓ) + 2t_{ℓ−1}}
 *       (computed backwards from {@code ρ_{L−1} = 0}) makes every candidate set complete.</li>
 *   <li>Every radius gets a relative slack of {@code 1e-6} (pruning) or {@code 1e-7} (children), far
 *       above the relative rounding error of the canonical distance, so floating-point rounding can
 *       never make a pruned candidate relevant. A list larger than half the net is replaced by "all of
 *       the net" (a superset is always safe).</li>
 * </ul>
 * Everything runs in one thread in a fixed order; no hashing, no randomness.
 */
final class NetEngine {
    /** Sentinel neighbour list meaning "every net point of the level". */
    static final int[] ALL = new int[0];

    private static final double CHILD_SLACK_SQ = (1 + 1e-7) * (1 + 1e-7);
    private static final double RHO_SLACK = 1 + 1e-6;

    private final double[] data;
    private final int n;
    private final int m;
    private final double diameterBound;
    private final Level[] levels;
    private long distanceEvaluations;

    // scratch for nearest-point searches (single-threaded)
    private int bestIndex;
    private double bestD2;

    /** One level's result and search structures. */
    static final class Level {
        final double scale;
        final double threshold;
        final double rho2m;
        final boolean extend;
        final boolean[] member;
        final int[] map;
        final double[] mapD2;
        final int[] coverer;
        final IntList admitted;
        final IntList[] children;
        final double[] maxChild;
        final int[][] neighbours;
        boolean allNeighbours;
        int[] net;

        Level(int n, int m, double scale, double rho, boolean extend, boolean hasParent) {
            this.scale = scale;
            this.threshold = Metric.threshold(scale, m);
            this.rho2m = rho * rho * m;
            this.extend = extend;
            this.member = new boolean[n];
            this.map = new int[n];
            this.mapD2 = new double[n];
            this.coverer = new int[n];
            this.admitted = new IntList(64);
            this.children = hasParent ? new IntList[n] : null;
            this.maxChild = hasParent ? new double[n] : null;
            this.neighbours = new int[n][];
        }
    }

    /**
     * Builds all levels.
     *
     * @param data row-major points, {@code n·m} finite values (not copied; must not change)
     * @param scales strictly decreasing positive separations in the normalized metric
     * @param extend {@code extend[ℓ]}: level {@code ℓ} extends level {@code ℓ−1} ({@code extend[0]} must
     *     be false)
     */
    NetEngine(double[] data, int n, int m, double[] scales, boolean[] extend) {
        if (n < 1 || m < 1 || data.length != (long) n * m) {
            throw new IllegalArgumentException("bad point array: n=" + n + ", m=" + m + ", length=" + data.length);
        }
        if (scales.length < 1 || scales.length != extend.length || extend[0]) {
            throw new IllegalArgumentException("bad level specification");
        }
        for (int l = 0; l < scales.length; l++) {
            if (!(scales[l] > 0 && Double.isFinite(scales[l])) || (l > 0 && !(scales[l] < scales[l - 1]))) {
                throw new IllegalArgumentException("scales must be finite, positive and strictly decreasing, got "
                        + Arrays.toString(scales));
            }
            if (!(Metric.threshold(scales[l], m) > 0)) {
                throw new IllegalArgumentException("scale " + scales[l] + " is too small: t²·m underflows");
            }
        }
        this.data = data;
        this.n = n;
        this.m = m;
        double r2 = 0;
        for (int x = 1; x < n; x++) {
            r2 = Math.max(r2, Metric.squaredDistance(data, 0, x * m, m));
        }
        this.diameterBound = 2 * Math.sqrt(r2 / m) * RHO_SLACK;
        int count = scales.length;
        double[] rho = new double[count];
        rho[count - 1] = 0;
        for (int l = count - 2; l >= 0; l--) {
            rho[l] = (Math.max(scales[l + 1], rho[l + 1]) + 2 * scales[l]) * RHO_SLACK;
        }
        levels = new Level[count];
        for (int l = 0; l < count; l++) {
            levels[l] = new Level(n, m, scales[l], rho[l], extend[l], l > 0);
            build(l);
        }
    }

    Level level(int l) {
        return levels[l];
    }

    int levelCount() {
        return levels.length;
    }

    /** Number of canonical distance evaluations (each possibly cut short) made so far. */
    long distanceEvaluations() {
        return distanceEvaluations;
    }

    /** Upper bound on the normalized diameter of the point set (twice the radius around point 0). */
    double diameterBound() {
        return diameterBound;
    }

    private double dist2(int xo, int s, double bound) {
        distanceEvaluations++;
        return Metric.squaredDistance(data, xo, s * m, m, bound);
    }

    private void build(int li) {
        Level lv = levels[li];
        Level parent = li == 0 ? null : levels[li - 1];
        if (lv.extend) {
            for (int p : parent.net) {
                lv.member[p] = true;
                lv.admitted.add(p);
                addChild(lv, p, p, 0.0);
            }
        }
        for (int x = 0; x < n; x++) {
            if (lv.member[x]) {
                continue;
            }
            int c = findCoverer(li, x);
            if (c < 0) {
                lv.member[x] = true;
                lv.admitted.add(x);
                if (parent != null) {
                    addChild(lv, parent.map[x], x, Math.sqrt(parent.mapD2[x]));
                }
            } else {
                lv.coverer[x] = c;
            }
        }
        IntList net = new IntList(lv.admitted.size());
        for (int x = 0; x < n; x++) {
            if (lv.member[x]) {
                net.add(x);
            }
        }
        lv.net = net.toArray();
        for (int x = 0; x < n; x++) {
            if (lv.member[x]) {
                lv.map[x] = x;
                lv.mapD2[x] = 0.0;
            } else {
                nearest(li, x, lv.coverer[x]);
                lv.map[x] = bestIndex;
                lv.mapD2[x] = bestD2;
            }
        }
        lv.allNeighbours = Math.sqrt(lv.rho2m / m) >= diameterBound;
    }

    private static void addChild(Level lv, int parent, int child, double distance) {
        IntList kids = lv.children[parent];
        if (kids == null) {
            kids = new IntList(2);
            lv.children[parent] = kids;
        }
        kids.add(child);
        if (distance > lv.maxChild[parent]) {
            lv.maxChild[parent] = distance;
        }
    }

    /** Some admitted point within the threshold of {@code x}, or −1. */
    private int findCoverer(int li, int x) {
        Level lv = levels[li];
        int xo = x * m;
        double thr = lv.threshold;
        if (li == 0) {
            int[] a = lv.admitted.raw();
            int size = lv.admitted.size();
            for (int i = 0; i < size; i++) {
                if (dist2(xo, a[i], thr) <= thr) {
                    return a[i];
                }
            }
            return -1;
        }
        Level parent = levels[li - 1];
        int p = parent.map[x];
        int c = coverAmongChildren(lv, xo, p, thr);
        if (c >= 0) {
            return c;
        }
        int[] nb = neighbours(li - 1, p);
        int[] qs = nb == ALL ? parent.net : nb;
        for (int q : qs) {
            if (q != p) {
                c = coverAmongChildren(lv, xo, q, thr);
                if (c >= 0) {
                    return c;
                }
            }
        }
        return -1;
    }

    private int coverAmongChildren(Level lv, int xo, int q, double thr) {
        IntList kids = lv.children[q];
        if (kids == null) {
            return -1;
        }
        double r = Math.sqrt(thr) + lv.maxChild[q];
        double bound = Math.max(r * r * CHILD_SLACK_SQ, thr);
        double dq = dist2(xo, q, bound);
        if (dq > bound) {
            return -1;
        }
        if (lv.member[q] && dq <= thr) {
            return q;
        }
        int[] a = kids.raw();
        int size = kids.size();
        for (int i = 0; i < size; i++) {
            int s = a[i];
            if (s != q && dist2(xo, s, thr) <= thr) {
                return s;
            }
        }
        return -1;
    }

    /** Sets {@code bestIndex/bestD2} to the nearest net point of level {@code li} (ties: lowest index). */
    private void nearest(int li, int x, int seed) {
        Level lv = levels[li];
        int xo = x * m;
        bestIndex = seed;
        bestD2 = dist2(xo, seed, Double.POSITIVE_INFINITY);
        if (li == 0) {
            for (int s : lv.net) {
                consider(xo, s);
            }
            return;
        }
        Level parent = levels[li - 1];
        int p = parent.map[x];
        nearestAmongChildren(lv, xo, p);
        int[] nb = neighbours(li - 1, p);
        int[] qs = nb == ALL ? parent.net : nb;
        for (int q : qs) {
            if (q != p) {
                nearestAmongChildren(lv, xo, q);
            }
        }
    }

    private void consider(int xo, int s) {
        if (s == bestIndex) {
            return;
        }
        double d = dist2(xo, s, bestD2);
        if (d < bestD2 || (d == bestD2 && s < bestIndex)) {
            bestD2 = d;
            bestIndex = s;
        }
    }

    private void nearestAmongChildren(Level lv, int xo, int q) {
        IntList kids = lv.children[q];
        if (kids == null) {
            return;
        }
        double r = Math.sqrt(bestD2) + lv.maxChild[q];
        double bound = Math.max(r * r * CHILD_SLACK_SQ, bestD2);
        double dq = dist2(xo, q, bound);
        if (dq > bound) {
            return;
        }
        if (lv.member[q] && q != bestIndex && (dq < bestD2 || (dq == bestD2 && q < bestIndex))) {
            bestD2 = dq;
            bestIndex = q;
        }
        int[] a = kids.raw();
        int size = kids.size();
        for (int i = 0; i < size; i++) {
            int s = a[i];
            if (s != q) {
                consider(xo, s);
            }
        }
    }

    /**
     * A sorted superset of {@code {q ∈ S_li : canonical ||p − q||² ≤ ρ_li²·m}}, or {@link #ALL}. Only
     * called once level {@code li} is complete.
     */
    private int[] neighbours(int li, int p) {
        Level lv = levels[li];
        if (lv.allNeighbours) {
            return ALL;
        }
        int[] cached = lv.neighbours[p];
        if (cached != null) {
            return cached;
        }
        int po = p * m;
        double r2 = lv.rho2m;
        IntList out = new IntList(16);
        if (li == 0) {
            for (int s : lv.net) {
                if (dist2(po, s, r2) <= r2) {
                    out.add(s);
                }
            }
        } else {
            Level parent = levels[li - 1];
            int[] nb = neighbours(li - 1, parent.map[p]);
            int[] qs = nb == ALL ? parent.net : nb;
            double rho = Math.sqrt(r2);
            for (int q : qs) {
                IntList kids = lv.children[q];
                if (kids == null) {
                    continue;
                }
                double r = rho + lv.maxChild[q];
                double bound = Math.max(r * r * CHILD_SLACK_SQ, r2);
                double dq = dist2(po, q, bound);
                if (dq > bound) {
                    continue;
                }
                if (lv.member[q] && dq <= r2) {
                    out.add(q);
                }
                int[] a = kids.raw();
                int size = kids.size();
                for (int i = 0; i < size; i++) {
                    int s = a[i];
                    if (s != q && dist2(po, s, r2) <= r2) {
                        out.add(s);
                    }
                }
            }
        }
        int[] arr = out.toArray();
        Arrays.sort(arr);
        if (2L * arr.length > lv.net.length) {
            arr = ALL;
        }
        lv.neighbours[p] = arr;
        return arr;
    }
}
