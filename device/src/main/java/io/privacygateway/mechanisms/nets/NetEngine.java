package io.privacygateway.mechanisms.nets;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Builds a sequence of greedy separated nets at decreasing scales {@code t_0 > t_1 > …} (normalized
 * metric {@code d(u,v) = ||u − v||₂/√m}, canonical squared distance of {@link Metric}), each level either
 * a greedy extension of the previous level's net or a fresh greedy net, with the nearest-net-point map
 * of every level. Package-private: {@link SeparatedNet} and {@link NestedNets} are the public faces.
 *
 * <h2>What each level is</h2>
 * Level {@code ℓ} with threshold {@code θ = t_ℓ²·m}:
 * <ul>
 *   <li><b>extension</b>: start with {@code S_{ℓ−1}}; then for {@code x = 0, 1, …, N−1} not yet in the
 *       net, admit {@code x} iff every point admitted so far has canonical squared distance {@code > θ}
 *       from it;</li>
 *   <li><b>fresh</b>: the same, starting from the empty set (plain greedy in index order).</li>
 * </ul>
 * Then {@code π_ℓ(x)} is the net point with the smallest canonical squared distance to {@code x}, ties
 * to the lowest point index; for a net point this is the point itself.
 *
 * <h2>Exactness of the acceleration</h2>
 * The result is exactly that of the brute-force definition above (tests compare bit for bit); the
 * machinery only skips candidates that provably cannot matter, or evaluates them in a different
 * order:
 * <ul>
 *   <li><b>Children and neighbour lists.</b> The children of a level-{@code (ℓ−1)} net point {@code q}
 *       are the level-{@code ℓ} net points {@code s} with {@code π_{ℓ−1}(s) = q}; their largest distance
 *       to {@code q} is kept, and if {@code ||x − q|| > r + maxChild(q)} no child is within {@code r} of
 *       {@code x} (triangle inequality). Neighbour lists {@code N_ℓ(p) ⊇ {q ∈ S_ℓ : d(p,q) ≤ ρ_ℓ}} are
 *       computed lazily from the children of {@code N_{ℓ−1}(π_{ℓ−1}(p))}. If {@code s ∈ S_ℓ} is within
 *       {@code t_ℓ} of {@code x} then {@code d(π_{ℓ−1}(x), π_{ℓ−1}(s)) ≤ 2t_{ℓ−1} + t_ℓ}, and if
 *       {@code d(p', q') ≤ ρ_ℓ} their parents are within {@code ρ_ℓ + 2t_{ℓ−1}}; so
 *       {@code ρ_{ℓ−1} ≥ max(t_ℓ, ρ_ℓ) + 2t_{ℓ−1}} ({@link #neighbourRadii}) makes every candidate set
 *       complete. A list is a superset, so a large list may be replaced by "the whole net"
 *       ({@link #ALL}).</li>
 *   <li><b>Floating-point margins.</b> Pruning radii carry a relative slack of {@code 1e-7}–{@code 1e-6},
 *       far above the relative rounding error of the canonical distance.</li>
 *   <li><b>Bulk scans.</b> When a query's candidate set is the whole net admitted so far (a coarse
 *       parent level, or a neighbour list replaced by {@link #ALL}), distances are computed against a
 *       chunked column-major copy of the net, four queries per pass (a loop the JIT vectorises). That
 *       sum uses one accumulator per pair instead of the canonical four, over the same rounded terms
 *       {@code fl((x_i − s_i)²)}; both are within {@code (m−1)·2^{-53}} (relative) of the exact sum of
 *       those terms, so the bulk value is within a relative {@code η = 4m·2^{-53}} of the canonical
 *       value, and every decision within that band is re-made with the canonical distance. A chunk is
 *       abandoned once all its partial sums exceed the bound (partial sums only grow).</li>
 *   <li><b>Blocks.</b> Admission runs over blocks of 32 consecutive undecided points: a bulk scan
 *       against the points admitted before the block, then, in index order, a scalar check against the
 *       points admitted earlier in the same block. The union is exactly "admitted so far", so the
 *       greedy semantics are unchanged. Before a bulk scan, a query first tries the (few) children of
 *       its own parent, where a coverer usually is; any coverer found is valid.</li>
 *   <li>Bulk scans are disabled when {@code n·m > 2^26} (memory for the copy); the result is the same.</li>
 * </ul>
 * Single-threaded, fixed processing order, no hashing, no randomness.
 */
final class NetEngine {
    /** Sentinel neighbour list meaning "every net point of the level". */
    static final int[] ALL = new int[0];

    private static final double CHILD_SLACK_SQ = (1 + 1e-7) * (1 + 1e-7);
    private static final double RHO_SLACK = 1 + 1e-6;
    private static final int BLOCK = 32;
    private static final int PRECHECK_MAX_CHILDREN = 256;
    private static final long BULK_MAX_VALUES = 1L << 26;
    private static final int CHUNK_VALUES = 1 << 15;

    private final double[] data;
    private final int n;
    private final int m;
    private final double diameterBound;
    private final List<Level> levels = new ArrayList<>();
    private final boolean bulk;
    private final int chunk;
    private final double eta;
    private final double tiny;
    private final double[][] acc;
    private long distanceEvaluations;
    private long bulkEvaluations;

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
     * Column-major copy of the points admitted to the level being built, in admission order, in chunks
     * of {@code len} rows: {@code chunks[b][c][l]} is coordinate {@code c} of row {@code b·len + l}. Each
     * coordinate slice is its own array indexed like the accumulator, which lets the JIT vectorise the
     * kernel (equal indices: no possible aliasing conflict) and keeps a chunk contiguous-ish in cache.
     */
    private static final class Columns {
        final int m;
        final int len;
        final double[][][] chunks;
        final int[] index;
        int size;

        Columns(int m, int capacity, int len) {
            this.m = m;
            this.len = len;
            this.chunks = new double[(capacity + len - 1) / len][][];
            this.index = new int[capacity];
        }

        void append(double[] data, int x) {
            int b = size / len;
            int l = size - b * len;
            if (chunks[b] == null) {
                chunks[b] = new double[m][len];
            }
            double[][] chunk = chunks[b];
            int off = x * m;
            for (int c = 0; c < m; c++) {
                chunk[c][l] = data[off + c];
            }
            index[size++] = x;
        }
    }

    /**
     * @param data row-major points, {@code n·m} finite values (not copied; must not change)
     */
    NetEngine(double[] data, int n, int m) {
        this(data, n, m, true);
    }

    /**
     * @param data row-major points, {@code n·m} finite values (not copied; must not change)
     * @param allowBulk whether bulk scans may be used (they are also skipped when {@code n·m > 2^26},
     *     to bound memory); the result does not depend on this, only the speed
     */
    NetEngine(double[] data, int n, int m, boolean allowBulk) {
        if (n < 1 || m < 1 || data.length != (long) n * m) {
            throw new IllegalArgumentException("bad point array: n=" + n + ", m=" + m + ", length=" + data.length);
        }
        this.data = data;
        this.n = n;
        this.m = m;
        double r2 = 0;
        for (int x = 1; x < n; x++) {
            r2 = Math.max(r2, Metric.squaredDistance(data, 0, x * m, m));
        }
        this.diameterBound = 2 * Math.sqrt(r2 / m) * RHO_SLACK;
        this.bulk = allowBulk && (long) n * m <= BULK_MAX_VALUES;
        this.chunk = Math.max(16, CHUNK_VALUES / m);
        this.eta = 4.0 * m * Math.ulp(1.0) / 2;
        this.tiny = 4.0 * m * Double.MIN_NORMAL;
        this.acc = new double[4][chunk];
    }

    /**
     * Neighbour radii {@code ρ_ℓ} for a planned scale sequence: {@code ρ_last = 0},
     * {@code ρ_ℓ = (max(t_{ℓ+1}, ρ_{ℓ+1}) + 2t_ℓ)·(1 + 1e-6)}. Larger radii are always safe, so radii
     * planned for a longer sequence may be used when some of its levels are skipped.
     */
    static double[] neighbourRadii(double[] scales) {
        double[] rho = new double[scales.length];
        for (int l = scales.length - 2; l >= 0; l--) {
            rho[l] = (Math.max(scales[l + 1], rho[l + 1]) + 2 * scales[l]) * RHO_SLACK;
        }
        return rho;
    }

    /** Checks a scale against the previous level; returns the threshold. */
    private void checkScale(double scale) {
        if (!(scale > 0 && Double.isFinite(scale) && Metric.threshold(scale, m) > 0)) {
            throw new IllegalArgumentException("scale must be finite, > 0 and scale²·m > 0, got " + scale);
        }
        if (!levels.isEmpty() && !(scale < levels.get(levels.size() - 1).scale)) {
            throw new IllegalArgumentException("scales must be strictly decreasing, got " + scale + " after "
                    + levels.get(levels.size() - 1).scale);
        }
    }

    /**
     * Builds the next level.
     *
     * @param scale the separation, smaller than the previous level's
     * @param extend whether the level starts from the previous level's net (requires a previous level)
     * @param rho the neighbour radius of this level: must be {@code ≥ max(t_next, ρ_next) + 2·scale} for
     *     every level built after it
     * @param maxNetSize if more points than this are admitted, the level is abandoned and not added
     * @return the level, or {@code null} if abandoned
     */
    Level addLevel(double scale, boolean extend, double rho, int maxNetSize) {
        checkScale(scale);
        if (extend && levels.isEmpty()) {
            throw new IllegalArgumentException("the first level cannot extend a previous one");
        }
        Level lv = new Level(n, m, scale, rho, extend, !levels.isEmpty());
        levels.add(lv);
        if (!build(levels.size() - 1, maxNetSize)) {
            levels.remove(levels.size() - 1);
            return null;
        }
        return lv;
    }

    Level level(int l) {
        return levels.get(l);
    }

    int levelCount() {
        return levels.size();
    }

    /** Canonical distance evaluations (each possibly cut short) plus bulk pair evaluations so far. */
    long distanceEvaluations() {
        return distanceEvaluations + bulkEvaluations;
    }

    /** Upper bound on the normalized diameter of the point set (twice the radius around point 0). */
    double diameterBound() {
        return diameterBound;
    }


    private long evaluations() {
        return distanceEvaluations + bulkEvaluations;
    }

    private double dist2(int xo, int s, double bound) {
        distanceEvaluations++;
        return Metric.squaredDistance(data, xo, s * m, m, bound);
    }

    /** Whether the candidates for {@code x} at level {@code li} are all points admitted to that level. */
    private boolean candidatesAreAll(int li, int x) {
        return li == 0 || neighbours(li - 1, levels.get(li - 1).map[x]) == ALL;
    }

    private boolean build(int li, int maxNetSize) {
        Level lv = levels.get(li);
        Level parent = li == 0 ? null : levels.get(li - 1);
        Columns store = bulk ? new Columns(m, n, chunk) : null;
        if (lv.extend) {
            for (int p : parent.net) {
                admit(lv, parent, store, p);
            }
        }
        int[] block = new int[BLOCK];
        boolean[] blockAll = new boolean[BLOCK];
        int[] pre = new int[BLOCK];
        int x = 0;
        while (x < n) {
            int count = 0;
            while (x < n && count < BLOCK) {
                if (!lv.member[x]) {
                    block[count] = x;
                    blockAll[count] = store != null && candidatesAreAll(li, x);
                    // Cheap first guess before a bulk scan: the children of x's own parent, if few.
                    IntList kids = parent == null ? null : lv.children[parent.map[x]];
                    pre[count] = blockAll[count] && kids != null && kids.size() <= PRECHECK_MAX_CHILDREN
                            ? coverAmongChildren(lv, x * m, parent.map[x], lv.threshold) : -1;
                    count++;
                }
                x++;
            }
            int storeBefore = store == null ? 0 : store.size;
            if (store != null) {
                bulkCover(lv, store, block, blockAll, count, storeBefore, pre);
            }
            for (int i = 0; i < count; i++) {
                int y = block[i];
                int c;
                if (blockAll[i]) {
                    c = pre[i] >= 0 ? pre[i] : coverInStore(lv, store, y, storeBefore, store.size);
                } else {
                    c = findCoverer(li, y);
                }
                if (c < 0) {
                    admit(lv, parent, store, y);
                    if (lv.admitted.size() > maxNetSize) {
                        return false;
                    }
                } else {
                    lv.coverer[y] = c;
                }
            }
        }
        IntList net = new IntList(lv.admitted.size());
        for (int y = 0; y < n; y++) {
            if (lv.member[y]) {
                net.add(y);
            }
        }
        lv.net = net.toArray();
        int[] batch = new int[BLOCK];
        int count = 0;
        for (int y = 0; y < n; y++) {
            if (lv.member[y]) {
                lv.map[y] = y;
                lv.mapD2[y] = 0.0;
            } else if (store != null && candidatesAreAll(li, y)) {
                batch[count++] = y;
                if (count == BLOCK) {
                    bulkNearest(lv, store, batch, count);
                    count = 0;
                }
            } else {
                nearest(li, y, lv.coverer[y]);
                lv.map[y] = bestIndex;
                lv.mapD2[y] = bestD2;
            }
        }
        if (count > 0) {
            bulkNearest(lv, store, batch, count);
        }
        lv.allNeighbours = Math.sqrt(lv.rho2m / m) >= diameterBound;
        return true;
    }

    private void admit(Level lv, Level parent, Columns store, int x) {
        lv.member[x] = true;
        lv.admitted.add(x);
        if (parent != null) {
            addChild(lv, parent.map[x], x, Math.sqrt(parent.mapD2[x]));
        }
        if (store != null) {
            store.append(data, x);
        }
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

    // ---------------------------------------------------------------- bulk (vectorisable) scans

    /**
     * For up to four queries {@code ys[0..g)} at once (one load of each stored coordinate serves all
     * four): {@code acc[j][l] = Σ_c fl((y_j,c − s_c)²)}, summed in coordinate order, for the rows
     * {@code s} of chunk {@code b} with {@code l < len}. Returns false, leaving partial sums, as soon as
     * every row is known to be beyond {@code bounds[j]} in canonical distance for every query (partial
     * sums only grow, and the canonical value is at least {@code (1 − η)·sum − tiny}).
     */
    private boolean kernel(Columns store, int[] ys, int g, int b, int len, double[] bounds) {
        double[] a0 = acc[0];
        double[] a1 = acc[1];
        double[] a2 = acc[2];
        double[] a3 = acc[3];
        double[] d = data;
        double[][] chunkCols = store.chunks[b];
        Arrays.fill(a0, 0, len, 0.0);
        Arrays.fill(a1, 0, len, 0.0);
        Arrays.fill(a2, 0, len, 0.0);
        Arrays.fill(a3, 0, len, 0.0);
        int o0 = ys[0] * m;
        int o1 = ys[g > 1 ? 1 : 0] * m;
        int o2 = ys[g > 2 ? 2 : 0] * m;
        int o3 = ys[g > 3 ? 3 : 0] * m;
        bulkEvaluations += (long) g * len;
        for (int c = 0; c < m; c++) {
            double x0 = d[o0 + c];
            double x1 = d[o1 + c];
            double x2 = d[o2 + c];
            double x3 = d[o3 + c];
            double[] col = chunkCols[c];
            for (int l = 0; l < len; l++) {
                double v = col[l];
                double e0 = x0 - v;
                double e1 = x1 - v;
                double e2 = x2 - v;
                double e3 = x3 - v;
                a0[l] += e0 * e0;
                a1[l] += e1 * e1;
                a2[l] += e2 * e2;
                a3[l] += e3 * e3;
            }
            if ((c & 7) == 7 && c + 1 < m && allBeyond(g, len, bounds)) {
                return false;
            }
        }
        return true;
    }

    private boolean allBeyond(int g, int len, double[] bounds) {
        for (int j = 0; j < g; j++) {
            double limit = (bounds[j] + tiny) / (1 - eta);
            double[] a = acc[j];
            for (int l = 0; l < len; l++) {
                if (a[l] <= limit) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * For each block query with {@code blockAll} and no coverer yet ({@code pre[i] < 0}), sets
     * {@code pre[i]} to some store row in {@code [0, to)} within θ, if any.
     */
    private void bulkCover(Level lv, Columns store, int[] block, boolean[] blockAll, int count, int to, int[] pre) {
        double thr = lv.threshold;
        int[] group = new int[4];
        int[] ys = new int[4];
        double[] bounds = {thr, thr, thr, thr};
        for (int from = 0; from < to; from += chunk) {
            int end = Math.min(to, from + chunk);
            int i = 0;
            boolean anyOpen = false;
            while (i < count) {
                int g = 0;
                while (i < count && g < 4) {
                    if (blockAll[i] && pre[i] < 0) {
                        group[g] = i;
                        ys[g] = block[i];
                        g++;
                    }
                    i++;
                }
                if (g == 0) {
                    break;
                }
                anyOpen = true;
                if (!kernel(store, ys, g, from / chunk, end - from, bounds)) {
                    continue;
                }
                for (int j = 0; j < g; j++) {
                    double[] a = acc[j];
                    int y = ys[j];
                    for (int l = 0; l < end - from; l++) {
                        double k = a[l];
                        if (k * (1 - eta) - tiny > thr) {
                            continue;
                        }
                        int s = store.index[from + l];
                        if (k * (1 + eta) + tiny <= thr || dist2(y * m, s, thr) <= thr) {
                            pre[group[j]] = s;
                            break;
                        }
                    }
                }
            }
            if (!anyOpen) {
                return;
            }
        }
    }

    /** Exact nearest net point (whole store = whole net) for a batch of queries, seeded by their coverers. */
    private void bulkNearest(Level lv, Columns store, int[] batch, int count) {
        double[] best = new double[count];
        int[] bestIdx = new int[count];
        for (int i = 0; i < count; i++) {
            int seed = lv.coverer[batch[i]];
            bestIdx[i] = seed;
            best[i] = dist2(batch[i] * m, seed, Double.POSITIVE_INFINITY);
        }
        int[] ys = new int[4];
        double[] bounds = new double[4];
        for (int from = 0; from < store.size; from += chunk) {
            int end = Math.min(store.size, from + chunk);
            for (int i0 = 0; i0 < count; i0 += 4) {
                int g = Math.min(4, count - i0);
                for (int j = 0; j < g; j++) {
                    ys[j] = batch[i0 + j];
                    bounds[j] = best[i0 + j];
                }
                if (!kernel(store, ys, g, from / chunk, end - from, bounds)) {
                    continue;
                }
                for (int j = 0; j < g; j++) {
                    double[] a = acc[j];
                    int y = ys[j];
                    double bd = best[i0 + j];
                    int bi = bestIdx[i0 + j];
                    for (int l = 0; l < end - from; l++) {
                        if (a[l] * (1 - eta) - tiny > bd) {
                            continue;
                        }
                        int s = store.index[from + l];
                        if (s == bi) {
                            continue;
                        }
                        double dd = dist2(y * m, s, bd);
                        if (dd < bd || (dd == bd && s < bi)) {
                            bd = dd;
                            bi = s;
                        }
                    }
                    best[i0 + j] = bd;
                    bestIdx[i0 + j] = bi;
                }
            }
        }
        for (int i = 0; i < count; i++) {
            lv.map[batch[i]] = bestIdx[i];
            lv.mapD2[batch[i]] = best[i];
        }
    }

    /** Scalar scan of store rows {@code [from, to)} (the points admitted within the current block). */
    private int coverInStore(Level lv, Columns store, int y, int from, int to) {
        double thr = lv.threshold;
        int yo = y * m;
        for (int r = from; r < to; r++) {
            int s = store.index[r];
            if (dist2(yo, s, thr) <= thr) {
                return s;
            }
        }
        return -1;
    }

    // ---------------------------------------------------------------- pruned (scalar) searches

    /** Some admitted point within the threshold of {@code x}, or −1. */
    private int findCoverer(int li, int x) {
        Level lv = levels.get(li);
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
        Level parent = levels.get(li - 1);
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
        Level lv = levels.get(li);
        int xo = x * m;
        bestIndex = seed;
        bestD2 = dist2(xo, seed, Double.POSITIVE_INFINITY);
        if (li == 0) {
            for (int s : lv.net) {
                consider(xo, s);
            }
            return;
        }
        Level parent = levels.get(li - 1);
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
        Level lv = levels.get(li);
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
            Level parent = levels.get(li - 1);
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
        if (4L * arr.length > lv.net.length) {
            arr = ALL;
        }
        lv.neighbours[p] = arr;
        return arr;
    }
}
