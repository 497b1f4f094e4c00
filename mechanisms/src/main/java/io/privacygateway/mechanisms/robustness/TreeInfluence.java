package io.privacygateway.mechanisms.robustness;

import io.privacygateway.mechanisms.local.fo.FrequencyOracleEstimator;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.local.fo.FrequencyOracleProtocol;
import io.privacygateway.mechanisms.local.fo.OptimizedLocalHashing;
import io.privacygateway.mechanisms.local.fo.TreeMechanism;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The influence of one report on the tree mechanism ({@link TreeMechanism}).
 *
 * <p><b>Not affine across levels.</b> The tree estimates each level from its own report count {@code n_ℓ}
 * ({@code y_ℓ = (C_ℓ/n_ℓ − q*)/(p* − q*)}) and weights the levels by variances that depend on the
 * {@code n_ℓ}. Replacing a report's <em>payload</em> keeps its level (the level is public coin), so the level
 * counts stay fixed, and for fixed counts the fit is a fixed linear map: the answer moves by
 * {@code F_ℓ·ΔS/(n_ℓ(p* − q*))}, {@code ΔS} the change of the level's support counts. Hence
 * {@code n·shift = (n/n_ℓ)·‖F_ℓ ΔS‖/(p* − q*)}: it depends on the window's level counts. This class evaluates it
 * at the <em>design</em> counts {@code n_ℓ = n/h} (the counts the public coins produce on average, and the ones
 * the tree's own variance model uses), where it does not depend on {@code n}; {@link #atLevelCounts} gives it
 * for any window's counts.
 *
 * <p><b>Computation.</b> Through the tree's public API only: the state coordinates of each level are found by
 * accumulating every payload of a report of that level (the level's counter is the coordinate every payload
 * increments; its nodes are the coordinates incremented once over all payloads), then the fit's columns
 * {@code n·(answers(B + e_u) − answers(B))} are evaluated by {@link TreeMechanism#estimate} on a background
 * {@code B} with the given level counts. The influence at a report's coins is the spread of
 * {@code Σ_u S_u(y)·col_u} over its level's payloads {@code y}. Over every coin value: a GRR level's payloads
 * support single nodes (the spread of the columns, exact); an OLH level's payloads support the preimages of a
 * hash, which over every hash function are any two disjoint node sets, giving {@code max_q Σ_u |col_{u,q}|}
 * and {@code max_{σ ∈ {±1}^D} ‖Σ_u σ_u col_u‖₂} (enumerated up to {@value #MAX_ENUMERATED_NODES} nodes, else
 * the box bound): proven bounds that a realisable key need not attain.
 */
public final class TreeInfluence implements MechanismInfluence {
    /** Reports per level in the design background (the result does not depend on it). */
    static final long DESIGN_REPORTS_PER_LEVEL = 1024;
    /** OLH levels' sign patterns are enumerated up to this many nodes. */
    static final int MAX_ENUMERATED_NODES = 16;

    private final FrequencyOracleProtocol protocol;
    private final TreeMechanism tree;
    private final Workload workload;
    private final int height;
    private final int width;
    private final ReportCoordinates[] levelProbe; // [1..h]
    private final int[] counter; // [1..h]
    private final int[][] nodes; // [1..h]
    private final int[] range; // [1..h]
    private final double[][][] designColumns; // [1..h][node][q]
    private final Influence worst;

    TreeInfluence(FrequencyOracleProtocol protocol) {
        this.protocol = Require.nonNull("protocol", protocol);
        this.tree = (TreeMechanism) protocol.oracle();
        this.workload = protocol.workload();
        this.height = tree.height();
        this.width = tree.payloadBytes();
        this.levelProbe = new ReportCoordinates[height + 1];
        this.counter = new int[height + 1];
        this.nodes = new int[height + 1][];
        this.range = new int[height + 1];
        for (int l = 1; l <= height; l++) {
            range[l] = tree.levelMechanism(l) == MechanismId.OLH
                    ? OptimizedLocalHashing.optimalRange(tree.epsilon()) : tree.levelSize(l);
        }
        for (int i = 0, found = 0; found < height; i++) {
            ReportCoordinates c = MechanismInfluence.probe(i);
            int l = tree.levelOf(protocol.publicBase(c));
            if (levelProbe[l] == null) {
                levelProbe[l] = c;
                found++;
                discoverLayout(l, c);
            }
        }
        long[] design = new long[height + 1];
        Arrays.fill(design, 1, height + 1, DESIGN_REPORTS_PER_LEVEL);
        this.designColumns = columns(design);
        this.worst = worstOver(designColumns);
    }

    /** The counter and node coordinates of level {@code l}, from the states its payloads produce. */
    private void discoverLayout(int l, ReportCoordinates c) {
        long[] total = new long[tree.stateLength()];
        long base = protocol.publicBase(c);
        for (int y = 0; y < range[l]; y++) {
            if (!tree.accumulate(OracleInfluence.index(y, width), base, total)) {
                throw new IllegalStateException("the tree refused index " + y + " of level " + l);
            }
        }
        int ctr = -1;
        List<Integer> ns = new ArrayList<>();
        for (int i = 0; i < total.length; i++) {
            if (total[i] == range[l] && ctr < 0) {
                ctr = i;
            } else if (total[i] == 1) {
                ns.add(i);
            } else if (total[i] != 0) {
                throw new IllegalStateException("unexpected tree state layout at level " + l);
            }
        }
        if (ctr < 0 || ns.size() != tree.levelSize(l)) {
            throw new IllegalStateException("unexpected tree state layout at level " + l + ": " + ns.size()
                    + " node counters for " + tree.levelSize(l) + " nodes");
        }
        counter[l] = ctr;
        nodes[l] = ns.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * The fit's columns {@code [level][node][q]} = {@code n·(answers(B + e_ctr + e_u) − answers(B + e_ctr))} for a
     * background {@code B} in which level {@code ℓ'} has {@code counts[ℓ']} reports once the report is added.
     */
    private double[][][] columns(long[] counts) {
        long n = 0;
        for (int l = 1; l <= height; l++) {
            n += counts[l];
        }
        double[][][] out = new double[height + 1][][];
        for (int l = 1; l <= height; l++) {
            long[] state = new long[tree.stateLength()];
            for (int j = 1; j <= height; j++) {
                state[counter[j]] = counts[j];
            }
            double[] a0 = answers(state, n);
            out[l] = new double[nodes[l].length][];
            for (int u = 0; u < nodes[l].length; u++) {
                state[nodes[l][u]]++;
                double[] a = answers(state, n);
                state[nodes[l][u]]--;
                for (int q = 0; q < a.length; q++) {
                    a[q] -= a0[q];
                }
                out[l][u] = a;
            }
        }
        return out;
    }

    private double[] answers(long[] state, long n) {
        double[] a = workload.answersOf(FrequencyOracleEstimator.of(tree).estimate(state, n));
        for (int q = 0; q < a.length; q++) {
            a[q] *= n;
        }
        return a;
    }

    private Influence worstOver(double[][][] cols) {
        Influence w = null;
        for (int l = 1; l <= height; l++) {
            Influence i = tree.levelMechanism(l) == MechanismId.OLH ? anySubsets(cols[l]) : singleNodes(cols[l]);
            w = w == null ? i : w.max(i);
        }
        return w;
    }

    private static Influence singleNodes(double[][] cols) {
        List<double[][]> v = new ArrayList<>(cols.length);
        for (double[] c : cols) {
            v.add(new double[][] {c});
        }
        return Spread.ofLevels(v);
    }

    private static Influence anySubsets(double[][] cols) {
        int m = cols[0].length;
        double linf = 0;
        double box = 0;
        for (int q = 0; q < m; q++) {
            double s = 0;
            for (double[] c : cols) {
                s += Math.abs(c[q]);
            }
            linf = Math.max(linf, s);
            box += s * s;
        }
        double l2 = Math.sqrt(box);
        if (cols.length <= MAX_ENUMERATED_NODES) {
            double best = 0;
            double[] v = new double[m];
            for (int pattern = 0; pattern < 1 << (cols.length - 1); pattern++) {
                System.arraycopy(cols[0], 0, v, 0, m);
                for (int u = 1; u < cols.length; u++) {
                    double sign = ((pattern >>> (u - 1)) & 1) == 0 ? 1 : -1;
                    for (int q = 0; q < m; q++) {
                        v[q] += sign * cols[u][q];
                    }
                }
                double s = 0;
                for (double x : v) {
                    s += x * x;
                }
                best = Math.max(best, s);
            }
            l2 = Math.sqrt(best);
        }
        return new Influence(linf, l2, l2, false, false);
    }

    /**
     * The worst influence over every payload and coin value for a window whose level {@code ℓ} holds
     * {@code levelCounts[ℓ - 1]} reports (each at least 1): the tree's exact bound for that window.
     */
    public Influence atLevelCounts(long[] levelCounts) {
        Require.nonNull("levelCounts", levelCounts);
        if (levelCounts.length != height) {
            throw new IllegalArgumentException("levelCounts must have " + height + " entries, got " + levelCounts.length);
        }
        long[] counts = new long[height + 1];
        for (int l = 1; l <= height; l++) {
            counts[l] = Require.inRange("levelCounts[" + (l - 1) + "]", levelCounts[l - 1], 1, Long.MAX_VALUE / height);
        }
        return worstOver(columns(counts));
    }

    @Override
    public FrequencyOracleProtocol protocol() {
        return protocol;
    }

    @Override
    public PointSet expectedContributions() {
        return workload.points();
    }

    @Override
    public Influence worst() {
        return worst;
    }

    @Override
    public boolean coinDependent() {
        return true;
    }

    @Override
    public boolean worstCoversAllCoins() {
        return true;
    }

    @Override
    public String basis() {
        return "at the design level counts n_l = n/h (a window's value scales with n/n_l); over every level and,"
                + " for OLH levels, every hash function";
    }

    /** The spread over the payloads of the report's level, at the design level counts. */
    @Override
    public Influence atCoordinates(ReportCoordinates coordinates) {
        long base = protocol.publicBase(Require.nonNull("coordinates", coordinates));
        int l = tree.levelOf(base);
        double[][] cols = designColumns[l];
        int m = workload.queryCount();
        long[] state = new long[tree.stateLength()];
        List<double[][]> v = new ArrayList<>(range[l]);
        for (int y = 0; y < range[l]; y++) {
            Arrays.fill(state, 0);
            if (!tree.accumulate(OracleInfluence.index(y, width), base, state)) {
                throw new IllegalStateException("the tree refused index " + y + " of level " + l);
            }
            double[] s = new double[m];
            for (int u = 0; u < nodes[l].length; u++) {
                long c = state[nodes[l][u]];
                if (c != 0) {
                    for (int q = 0; q < m; q++) {
                        s[q] += c * cols[u][q];
                    }
                }
            }
            v.add(new double[][] {s});
        }
        return Spread.ofLevels(v);
    }

    /** The level ({@code 1..h}) of a report with these coordinates. */
    public int levelOf(ReportCoordinates coordinates) {
        return tree.levelOf(protocol.publicBase(coordinates));
    }

    /** The coordinates of the level's counter in the state (for tests building windows). */
    int counterIndex(int level) {
        return counter[level];
    }

    /** The height {@code h}: the number of reported levels. */
    public int height() {
        return height;
    }
}
