package io.privacygateway.mechanisms.continual;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.central.CentralGeometry;
import io.privacygateway.mechanisms.central.sampling.DiscreteLaplace;
import io.privacygateway.mechanisms.errors.GaussianWidth;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.projection.ConvexProjection;
import io.privacygateway.mechanisms.projection.Projections;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.release.ErrorBars;
import io.privacygateway.mechanisms.workload.Horizon;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Continual release of running totals for a central-mode workload: the binary-tree mechanism (Dwork, Naor, Pitassi
 * and Rothblum, STOC 2010; Chan, Shi and Song, TISSEC 2011) on the vectors of counts per universe value.
 *
 * <p><b>Mechanism.</b> Windows are numbered {@code 0, 1, 2, …} from the first one. Every {@link DyadicNode} of levels
 * {@code 0..h} holds the sum of its windows' count vectors plus independent discrete Laplace noise of scale
 * {@code t = (h + 1)·Δ₁/ε} on every coordinate ({@link DiscreteLaplace}, exact, from the caller's secret
 * {@link RandomBits}), with {@code Δ₁} the l1 sensitivity of one window's count vector: {@code L} under add/remove,
 * {@code 2L} under replace-one ({@link CentralGeometry#worstChange}). t is the exact rational
 * {@code (h + 1)·Δ₁/ε.exact()}: no rounding at all. A horizon's running total over windows {@code [a, t]} is the sum of
 * the noisy nodes of the canonical cover of that range ({@link DyadicNode#cover}), at most {@code 2h} nodes plus one
 * per further tree.
 *
 * <p><b>Guarantee</b> (proof in {@code docs/horizons.md}). Everything this class publishes is a function of completed
 * noisy nodes and public parameters. One device's contribution to one window changes that window's count vector by at
 * most {@code Δ₁} in l1 and enters exactly {@code h + 1} nodes, each of whose noisy values then changes its
 * probability by a factor at most {@code e^{Δ₁/t}} = {@code e^{ε/(h+1)}}; so the whole stream of answers, for every
 * horizon and every window, is <b>pure ε-DP (δ = 0) with respect to one device's contributions to one window</b>
 * (adaptively chosen later windows included). Accounting: each window in which a device contributes is charged ε once
 * ({@link #cost()}), however many horizons are answered and however many windows later.
 *
 * <p><b>Use.</b> {@link #start} once, then {@link #update} for every scheduled window in order, empty ones included,
 * then {@link #answers}; keep the state with {@link #codec()}.
 */
public final class ContinualCounter {
    private final Workload workload;
    private final ContinualSettings settings;
    private final long windowMillis;
    private final boolean publicCount;
    private final long l1Sensitivity;
    private final Rational noiseScale;
    private final DiscreteLaplace laplace;
    private final NodeNoise noise;
    private final int universe;
    private final int m;
    private final ConvexProjection projection;
    private final double[][] coordinateValues;
    private final long[][] coordinateCounts;
    private final int[] coordinateSignature;
    private final Map<TailKey, Double> tailCache = new ConcurrentHashMap<>();
    private final double[] coordinateLow;
    private final double[] coordinateHigh;
    private final double maxNorm;
    private final double diameter;
    private final double width;
    private final double failure;
    private final Map<Integer, Tails> tails = new ConcurrentHashMap<>();

    /** Draws one node noise value (package-private so tests can use a noise-free or counting source). */
    @FunctionalInterface
    interface NodeNoise {
        long sample(RandomBits bits);
    }

    /** A tail bound's arguments: coordinates with the same multiset of answer values share their bounds. */
    private record TailKey(int signature, int nodes, double failure, double c1, double c2) {}

    /** The grid the ends of a stage-2 interval are widened to (outwards), so that bounds can be shared. */
    private static final double END_GRID = 0x1p-16;
    private static final int TAIL_CACHE_LIMIT = 1 << 16;

    /** First-stage half-widths per coordinate, at the failure shares of the bars and of the l2 bound. */
    private record Tails(double[] perCoordinate, double[] union) {}

    ContinualCounter(Workload workload, ContinualSettings settings, NodeNoise noiseOverride) {
        this.workload = Require.nonNull("workload", workload);
        this.settings = Require.nonNull("settings", settings);
        WorkloadSpec s = workload.spec();
        if (s.mode() != Mode.CENTRAL) {
            throw new IllegalArgumentException("mode must be central for a continual release, got " + s.mode().wireName());
        }
        this.windowMillis = s.window().sizeMillis();
        for (Horizon h : settings.horizons()) {
            ContinualSettings.checkAgainst(h, s.window().size());
        }
        NeighbourRelation relation = s.central().neighbour();
        this.publicCount = relation == NeighbourRelation.REPLACE_ONE;
        this.l1Sensitivity = l1Sensitivity(relation, s.central().contributionsPerWindow());
        this.noiseScale = noiseScale(settings.levels(), l1Sensitivity, settings.epsilonPerWindow());
        this.laplace = new DiscreteLaplace(noiseScale);
        this.noise = noiseOverride != null ? noiseOverride : laplace::sample;
        PointSet p = workload.points();
        this.universe = workload.universeSize();
        this.m = workload.queryCount();
        this.projection = Projections.forWorkload(workload);
        this.coordinateValues = new double[m][];
        this.coordinateCounts = new long[m][];
        this.coordinateSignature = new int[m];
        Map<String, Integer> signatures = new HashMap<>();
        this.coordinateLow = new double[m];
        this.coordinateHigh = new double[m];
        for (int q = 0; q < m; q++) {
            TreeMap<Double, Long> distinct = new TreeMap<>();
            for (int x = 0; x < universe; x++) {
                double v = p.get(x, q);
                if (!(v >= 0 && v <= 1)) {
                    throw new IllegalArgumentException("answer vectors must lie in [0, 1], got Q(" + x + ")_" + q + " = " + v);
                }
                distinct.merge(v, 1L, Long::sum);
            }
            coordinateValues[q] = distinct.keySet().stream().mapToDouble(Double::doubleValue).toArray();
            coordinateCounts[q] = distinct.values().stream().mapToLong(Long::longValue).toArray();
            coordinateLow[q] = coordinateValues[q][0];
            coordinateHigh[q] = coordinateValues[q][coordinateValues[q].length - 1];
            coordinateSignature[q] = signatures.computeIfAbsent(Arrays.toString(coordinateValues[q]) + "×"
                    + Arrays.toString(coordinateCounts[q]), key -> signatures.size());
        }
        this.maxNorm = p.maxNorm();
        this.diameter = ErrorBars.diameterBound(p);
        this.width = GaussianWidth.of(p).upper();
        this.failure = 1 - s.confidence().value();
    }

    /** The counter for a resolved central-mode workload. */
    public static ContinualCounter of(Workload workload, ContinualSettings settings) {
        return new ContinualCounter(workload, settings, null);
    }

    /** The l1 sensitivity of one window's count vector: L (add/remove) or 2L (replace-one). */
    static long l1Sensitivity(NeighbourRelation relation, int contributions) {
        return Math.multiplyExact(CentralGeometry.worstChange(relation, () -> 1, () -> 2), contributions);
    }

    /**
     * The node noise scale {@code levels·Δ₁/ε} as an exact rational of the declared decimal ε (no rounding): with
     * {@code ε = u·10^{−s}}, {@code t = levels·Δ₁·10^s/u}.
     */
    static Rational noiseScale(int levels, long l1, Epsilon epsilon) {
        BigDecimal e = epsilon.exact();
        BigInteger num = BigInteger.valueOf(levels).multiply(BigInteger.valueOf(l1));
        BigInteger den = e.unscaledValue();
        if (e.scale() >= 0) {
            num = num.multiply(BigInteger.TEN.pow(e.scale()));
        } else {
            den = den.multiply(BigInteger.TEN.pow(-e.scale()));
        }
        return Rational.of(num, den);
    }

    public Workload workload() {
        return workload;
    }

    public ContinualSettings settings() {
        return settings;
    }

    /** The exact noise scale of every node. */
    public Rational noiseScale() {
        return noiseScale;
    }

    /** The l1 sensitivity Δ₁ of one window's count vector. */
    public long l1Sensitivity() {
        return l1Sensitivity;
    }

    /** What every window in which a device contributes is charged: the declared ε, once. */
    public PrivacyCost.Pure cost() {
        return PrivacyCost.pure(settings.epsilonPerWindow());
    }

    /** The binary form of this counter's states. */
    public ContinualStateCodec codec() {
        return new ContinualStateCodec(settings.depth(), universe, settings.horizons().size());
    }

    /** The state before the first window, which starts at {@code firstWindowStart} (epoch ms, a window boundary). */
    public ContinualState start(long firstWindowStart) {
        if (Math.floorMod(firstWindowStart, windowMillis) != 0) {
            throw new IllegalArgumentException("firstWindowStart must be a window boundary (a multiple of "
                    + windowMillis + " ms), got " + firstWindowStart);
        }
        int d = settings.depth();
        ContinualState.HorizonState[] hs = new ContinualState.HorizonState[settings.horizons().size()];
        for (int i = 0; i < hs.length; i++) {
            hs[i] = new ContinualState.HorizonState(ContinualSettings.periodOf(settings.horizons().get(i), firstWindowStart), 0, 0,
                    new long[universe], 0);
        }
        return new ContinualState(firstWindowStart, 0, new long[d + 1][], new long[d + 1][], hs);
    }

    /**
     * Adds the next window. Secret draws: {@code N} noise values for every node that starts with this window, in
     * level order, whatever the counts.
     *
     * @param state the state after the previous window
     * @param windowStart the start of the window: exactly the one after the previous (every scheduled window is added,
     *     empty ones with all-zero counts)
     * @param counts the window's exact counts per universe value ({@code >= 0}; each device at most L reports)
     * @param secret secret randomness ({@code SecureRandom} in production)
     * @return the state after the window
     */
    public ContinualState update(ContinualState state, long windowStart, long[] counts, RandomBits secret) {
        return update(state, windowStart, counts, secret, (node, value) -> { });
    }

    /** Receives every node as it completes (tests check which windows each released node holds). */
    @FunctionalInterface
    interface NodeListener {
        void completed(DyadicNode node, long[] noisyValue);
    }

    ContinualState update(ContinualState state, long windowStart, long[] counts, RandomBits secret,
            NodeListener listener) {
        Require.nonNull("state", state);
        Require.nonNull("secret", secret);
        if (counts == null || counts.length != universe) {
            throw new IllegalArgumentException("counts must have " + universe + " entries (one per universe value), got "
                    + (counts == null ? "null" : counts.length));
        }
        long total = 0;
        for (long c : counts) {
            if (c < 0) {
                throw new IllegalArgumentException("counts must be >= 0, got " + c);
            }
            total = Math.addExact(total, c);
        }
        long t = state.next;
        long expected = state.origin + t * windowMillis;
        if (windowStart != expected) {
            throw new IllegalArgumentException("windows must be added in order, every one of them: expected the window"
                    + " starting at " + expected + ", got " + windowStart);
        }
        int depth = settings.depth();
        ContinualState n = state.copy();
        for (int i = 0; i < n.horizons.length; i++) {
            long period = ContinualSettings.periodOf(settings.horizons().get(i), windowStart);
            if (period != n.horizons[i].period) {
                n.horizons[i] = new ContinualState.HorizonState(period, t, 0, new long[universe], 0);
            }
        }
        for (int l = 0; l <= depth; l++) {
            if ((t & ((1L << l) - 1)) == 0) {
                long[] fresh = new long[universe];
                for (int x = 0; x < universe; x++) {
                    fresh[x] = noise.sample(secret);
                }
                n.open[l] = fresh;
            }
            addTo(n.open[l], counts);
        }
        for (DyadicNode node : DyadicNode.completedAt(t, depth)) {
            int l = node.level();
            long[] v = n.open[l];
            n.open[l] = null;
            listener.completed(node, v.clone());
            for (int i = 0; i < n.horizons.length; i++) {
                ContinualState.HorizonState h = n.horizons[i];
                if (node.permanentlyIn(h.start, depth)) {
                    long[] f = h.frozen.clone();
                    addTo(f, v);
                    n.horizons[i] = new ContinualState.HorizonState(h.period, h.start, h.frozenNodes + 1, f,
                            h.publicCount);
                }
            }
            n.waiting[l] = node.isLeftChild() && l < depth ? v : null;
        }
        if (publicCount) {
            for (int i = 0; i < n.horizons.length; i++) {
                ContinualState.HorizonState h = n.horizons[i];
                n.horizons[i] = new ContinualState.HorizonState(h.period, h.start, h.frozenNodes, h.frozen,
                        Math.addExact(h.publicCount, total));
            }
        }
        return new ContinualState(n.origin, t + 1, n.open, n.waiting, n.horizons);
    }

    private static void addTo(long[] acc, long[] v) {
        for (int x = 0; x < acc.length; x++) {
            acc[x] = Math.addExact(acc[x], v[x]);
        }
    }

    /** The answers of every horizon after the last window added (at least one). */
    public List<HorizonAnswer> answers(ContinualState state) {
        Require.nonNull("state", state);
        if (state.next < 1) {
            throw new IllegalArgumentException("no window has been added yet");
        }
        List<HorizonAnswer> out = new ArrayList<>();
        for (int i = 0; i < settings.horizons().size(); i++) {
            out.add(answer(state, i));
        }
        return out;
    }

    /**
     * The noisy running totals of every horizon after the last window added (counts per universe value, in the order of
     * the settings' horizons), without building answers: what {@link HorizonAnswer#noisyTotals()} holds. Every answer is
     * a function of these and public parameters, so they are what an audit of the stream looks at.
     */
    public List<long[]> noisyTotals(ContinualState state) {
        Require.nonNull("state", state);
        if (state.next < 1) {
            throw new IllegalArgumentException("no window has been added yet");
        }
        List<long[]> out = new ArrayList<>();
        for (int i = 0; i < settings.horizons().size(); i++) {
            out.add(noisyTotal(state, i, new int[1]));
        }
        return out;
    }

    /** The noisy running total of horizon {@code i} and the number of nodes it adds up. */
    long[] noisyTotal(ContinualState state, int i, int[] nodesOut) {
        ContinualState.HorizonState h = state.horizons[i];
        long last = state.next - 1;
        long[] total = h.frozen.clone();
        int nodes = h.frozenNodes;
        for (int l = 0; l < settings.depth(); l++) {
            if (state.waiting[l] != null) {
                DyadicNode node = new DyadicNode(l, ((last + 1) >> l) - 1);
                if (node.parentStart() >= h.start) {
                    addTo(total, state.waiting[l]);
                    nodes++;
                }
            }
        }
        int expected = DyadicNode.cover(h.start, last, settings.depth()).size();
        if (nodes != expected) {
            throw new IllegalStateException("horizon " + settings.horizons().get(i).wireName() + " adds " + nodes
                    + " nodes, its cover has " + expected + ": the state is inconsistent");
        }
        nodesOut[0] = nodes;
        return total;
    }

    private HorizonAnswer answer(ContinualState state, int i) {
        Horizon horizon = settings.horizons().get(i);
        ContinualState.HorizonState h = state.horizons[i];
        int[] k = new int[1];
        long[] total = noisyTotal(state, i, k);
        long windows = state.next - h.start;
        long start = state.origin + h.start * windowMillis;
        long end = state.origin + state.next * windowMillis;
        return new HorizonAnswer(horizon, start, end, windows, k[0], total, publish(total, k[0], h.publicCount,
                windows));
    }

    /**
     * The answer from a noisy total of {@code nodes} nodes (and, under replace-one, the public count): a function of
     * the noisy nodes and public parameters only.
     */
    Answer publish(long[] total, int nodes, long publicReports, long windows) {
        double var = laplace.variance();
        Tails tail = tails.computeIfAbsent(nodes, this::tailsFor);
        long released;
        if (publicCount) {
            released = publicReports;
            if (released == 0) {
                return noData(nodes, windows);
            }
        } else {
            long s = 0;
            for (long v : total) {
                s = Math.addExact(s, v);
            }
            released = s;
        }
        long divisor = Math.max(1, released);
        double[] hist = new double[universe];
        for (int x = 0; x < universe; x++) {
            hist[x] = total[x] / (double) divisor;
        }
        double[] y = workload.answersOf(hist);
        double[] estimate = projection.project(y).point();
        boolean bounded = publicCount || released >= 1;
        double[] lo = new double[m];
        double[] hi = new double[m];
        double[] se = new double[m];
        double union = 0;
        double seMax = 0;
        double expectedSq = 0;
        for (int q = 0; q < m; q++) {
            // the error of y_q is Σ_x (Q(x)_q − c)·η_x / D with c = 0 (public count) or c = x̄_q (unknown): stage 1
            // bounds it for every c in [lo_q, hi_q]; stage 2 for every c within the stage-1 interval around y_q
            double c1 = publicCount ? 0 : coordinateLow[q];
            double c2 = publicCount ? 0 : coordinateHigh[q];
            double a = tail.perCoordinate()[q];
            double u = tail.union()[q];
            if (!publicCount && bounded) {
                double from = Math.max(c1, y[q] - a / divisor);
                double to = Math.min(c2, y[q] + a / divisor);
                double fromU = Math.max(c1, y[q] - u / divisor);
                double toU = Math.min(c2, y[q] + u / divisor);
                if (from <= to) {
                    a = Math.min(a, tail(q, from, to, nodes, failure / 2));
                    c1 = from;
                    c2 = to;
                }
                if (fromU <= toU) {
                    u = Math.min(u, tail(q, fromU, toU, nodes, failure / (2.0 * m)));
                }
            }
            double sumSq = Math.max(sumSquares(q, c1), sumSquares(q, c2));
            se[q] = Math.sqrt(nodes * var * sumSq) / divisor;
            seMax = Math.max(seMax, se[q]);
            expectedSq += nodes * var * sumSq;
            union += u * u;
            if (bounded) {
                double half = Math.abs(estimate[q] - y[q]) + a / divisor;
                lo[q] = ErrorBars.barLower(estimate[q], half, 0, 1);
                hi[q] = ErrorBars.barUpper(estimate[q], half, 0, 1);
            } else {
                lo[q] = 0;
                hi[q] = 1;
            }
        }
        double trivial = diameter / Math.sqrt(m);
        double expected = Math.min(trivial, Math.sqrt(expectedSq) / divisor / Math.sqrt(m));
        double bound = bounded ? Math.sqrt(union) / divisor / Math.sqrt(m) : trivial;
        double atConfidence = bound >= 0 && bound < trivial ? bound : trivial;
        Answer.LevelDetail level = new Answer.LevelDetail(1, cost(), maxNorm, seMax, width, universe,
                OptionalDouble.empty());
        return new Answer(MechanismId.LAPLACE, cost(), Math.max(0, released), workload.queryLabels(), estimate,
                Optional.of(y), Optional.of(se), lo, hi, workload.spec().confidence().value(), expected, atConfidence,
                List.of(level), workload.contentHash(), extras(nodes, windows));
    }

    private Answer.Extras extras(int nodes, long windows) {
        return new Answer.Extras(List.of(), Map.of("horizonWindows", (double) windows, "treeNodes", (double) nodes,
                "treeDepth", (double) settings.depth(), "nodeNoiseScale", laplace.scaleDouble()), OptionalDouble.empty());
    }

    /** Replace-one with a public count of 0 over the horizon: nothing to protect and nothing to estimate. */
    private Answer noData(int nodes, long windows) {
        double[] c = new double[m];
        PointSet p = workload.points();
        for (int x = 0; x < universe; x++) {
            for (int q = 0; q < m; q++) {
                c[q] += p.get(x, q) / universe;
            }
        }
        double[] lo = new double[m];
        double[] hi = new double[m];
        Arrays.fill(hi, 1.0);
        double trivial = diameter / Math.sqrt(m);
        return new Answer(MechanismId.LAPLACE, PrivacyCost.pure(0), 0, workload.queryLabels(), c, Optional.empty(),
                Optional.empty(), lo, hi, workload.spec().confidence().value(), trivial, trivial, List.of(),
                workload.contentHash(), extras(nodes, windows));
    }

    /** {@code Σ_x (Q(x)_q − c)²}. */
    private double sumSquares(int q, double c) {
        double s = 0;
        for (int j = 0; j < coordinateValues[q].length; j++) {
            double d = coordinateValues[q][j] - c;
            s += coordinateCounts[q][j] * d * d;
        }
        return s;
    }

    /**
     * A half-width for {@code Σ_x (Q(x)_q − c)·η_x} (η_x the sum of {@code nodes} node noises) that holds with
     * probability {@code 1 − failure} for every c in {@code [c1, c2]} ({@link LaplaceSumTail}: the ends suffice).
     */
    private double tail(int q, double c1, double c2, int nodes, double failure) {
        // widen [c1, c2] outwards to the grid (within [lo_q, hi_q]): a bound for a larger interval holds for the smaller
        double lo = Math.max(coordinateLow[q], Math.floor(c1 / END_GRID) * END_GRID);
        double hi = Math.min(coordinateHigh[q], Math.ceil(c2 / END_GRID) * END_GRID);
        TailKey key = new TailKey(coordinateSignature[q], nodes, failure, lo, hi);
        Double hit = tailCache.get(key);
        if (hit != null) {
            return hit;
        }
        double[] ends = lo == hi ? new double[] {lo} : new double[] {lo, hi};
        double[][] w = new double[ends.length][];
        long[][] mult = new long[ends.length][];
        for (int j = 0; j < ends.length; j++) {
            int len = coordinateValues[q].length;
            w[j] = new double[len];
            mult[j] = new long[len];
            for (int i = 0; i < len; i++) {
                w[j][i] = Math.min(1, Math.abs(coordinateValues[q][i] - ends[j]));
                mult[j][i] = Math.multiplyExact(coordinateCounts[q][i], nodes);
            }
        }
        double a = LaplaceSumTail.halfWidth(laplace.scaleDouble(), w, mult, failure);
        if (tailCache.size() >= TAIL_CACHE_LIMIT) {
            tailCache.clear();
        }
        tailCache.put(key, a);
        return a;
    }

    /**
     * Stage-1 half-widths for a total of {@code nodes} nodes: the public count needs one stage (c = 0), at the full
     * failure probability; otherwise c ranges over {@code [lo_q, hi_q]} at half of it (the other half is stage 2's).
     */
    private Tails tailsFor(int nodes) {
        double[] per = new double[m];
        double[] union = new double[m];
        double share = publicCount ? 1 : 0.5;
        for (int q = 0; q < m; q++) {
            double c1 = publicCount ? 0 : coordinateLow[q];
            double c2 = publicCount ? 0 : coordinateHigh[q];
            per[q] = tail(q, c1, c2, nodes, failure * share);
            union[q] = tail(q, c1, c2, nodes, failure * share / m);
        }
        return new Tails(per, union);
    }
}
