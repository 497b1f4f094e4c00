package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.coins.PublicCoins;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.util.Arrays;

/**
 * The hierarchical (tree) mechanism for prefix and range queries over {@code k} ordered buckets
 * (Cormode, Kulkarni and Srivastava 2019, "Answering Range Queries Under Local Differential Privacy",
 * PVLDB 12(10), §4 "hierarchical histograms"; consistency by constrained inference after Hay, Rastogi,
 * Miklau and Suciu 2010, "Boosting the Accuracy of Differentially Private Histograms Through
 * Consistency", §4, generalised to per-level weights).
 *
 * <p><b>Tree.</b> A {@code B}-ary tree of height {@code h = ⌈log_B k⌉} over the leaves {@code 0..k−1}:
 * level {@code ℓ ∈ [0, h]} has {@code D_ℓ = ⌈k / B^{h−ℓ}⌉} nodes, node {@code u} of level {@code ℓ} covers
 * the buckets {@code [u B^{h−ℓ}, (u+1) B^{h−ℓ}) ∩ [0, k)} (the last node of a level may have fewer than
 * {@code B} children). The root (level 0) is not reported: its frequency is 1.
 *
 * <p><b>Device.</b> The level {@code ℓ = 1 + uniformInt(PublicCoins.stream(b, TREE_LEVEL), h)} is chosen
 * by <em>public</em> coins of the report's base word {@code b}, uniformly over the {@code h} levels; the
 * device reports its level-{@code ℓ} ancestor {@code ⌊x / B^{h−ℓ}⌋} with the level's oracle: GRR over
 * {@code [D_ℓ]}, or OLH over {@code [D_ℓ]} with its hash keyed by stream {@code TREE_HASH}, whichever has
 * the smaller closed-form per-node variance at uniform frequencies (GRR on ties). The payload is the
 * oracle's index, big-endian, in the widest of the levels' widths.
 *
 * <p><b>Guarantee.</b> ε-LDP exactly, after rounding: for every base word the level is fixed and the
 * report is one ε-LDP oracle's output (see {@link GeneralizedRandomizedResponse},
 * {@link OptimizedLocalHashing}) applied to a function of {@code x}; a function of the input cannot
 * increase the ratio.
 *
 * <p><b>Server.</b> The state holds, per level, the number of reports {@code n_ℓ} and the oracle's support
 * counts. Each level gives unbiased node frequencies {@code y_ℓ} from its own {@code n_ℓ} reports (the
 * paper scales by the number of levels, i.e. uses {@code n_ℓ ≈ n/h}; the exact {@code n_ℓ} is known here
 * because the level is public). The leaves are then fitted by weighted least squares over the whole tree,
 * {@code min Σ_ℓ w_ℓ Σ_{u ∈ level ℓ} (y_u − θ(u))²} with {@code θ(u)} the sum of the leaves under
 * {@code u} and the root fixed at 1. The weight {@code w_ℓ = 1/V_ℓ} is the inverse of the level's per-node
 * variance at uniform frequencies (the oracle's closed form with {@code n_ℓ} reports, plus the variance
 * {@code (1/D)(1 − 1/D)(1/n_ℓ − 1/n)} of sampling the level's reports from the window); it depends only
 * on public quantities, so the fit is a fixed linear map and stays unbiased (given every level received a
 * report). The fit is computed exactly in two passes: bottom-up, each node combines its own observation
 * with the sum of its children's subtree estimates by inverse-variance weighting ({@code z_u}, with
 * variance {@code s_u}); top-down, each parent's final value {@code F_p} is split as
 * {@code F_u = z_u + (s_u / Σ s)(F_p − Σ z)}. This is Hay et al.'s two-pass algorithm with general
 * weights, and it is exactly the least-squares solution (the subtree cost is quadratic in the subtree
 * total). Levels without reports get weight 0 (their nodes are split equally). The result is
 * <em>consistent</em>: every node's estimate is the sum of its children's, so every prefix or range sum
 * of the returned leaves is the consistent estimate.
 *
 * <p><b>Variances (approximate).</b> {@link #queryVariancesAt} (and the gateway's estimator) evaluate the exact
 * variance of the linear fit for the idealised design {@code n_ℓ = n/h}: the node coefficients of the
 * query are obtained by the adjoint (reverse) pass of the fit; the level oracles contribute their exact
 * query variances (including within-level covariances), and the random assignment of reports to levels
 * contributes {@code (1/n) Σ_x f_x [h Σ_ℓ r_ℓ(x)² − (Σ_ℓ r_ℓ(x))²]} with {@code r_ℓ(x)} the coefficient of
 * {@code x}'s level-{@code ℓ} ancestor. Ignored: the randomness of {@code n_ℓ} (relative error
 * {@code O(h/n)}).
 *
 * <p><b>Branching factor.</b> A workload's tree takes {@link #optimalBranching(Epsilon, PointSet)}: the
 * {@code B ∈ [2, 16]} minimising the mean variance of the workload's own queries (for {@code k <= 2048};
 * {@code B = 4} above). Without a workload, {@link #optimalBranching(int, Epsilon)} minimises the model-predicted
 * average variance of all {@code k(k+1)/2} range queries. Cormode et al. analyse the same trade-off.
 */
public final class TreeMechanism extends AbstractOracle {
    /** Largest domain for which {@link #optimalBranching} searches; above it B = 4. */
    static final int BRANCHING_SEARCH_LIMIT = 2048;

    private final int branching;
    private final int height;
    private final int[] levelSize; // [0..h], levelSize[0] = 1
    private final long[] divisor; // [0..h], B^{h−ℓ}
    private final SupportCountOracle[] oracles; // [1..h]
    private final int[] offset; // [1..h], start of level ℓ's counts; state[ℓ − 1] = n_ℓ
    private final int stateLength;
    private final int width;

    /** With the variance-optimal branching factor {@link #optimalBranching}. */
    public TreeMechanism(int domainSize, Epsilon epsilon) {
        this(domainSize, epsilon, optimalBranching(domainSize, epsilon));
    }

    /**
     * @param domainSize {@code k} in {@code [2, 2^24]}: the number of ordered buckets
     * @param epsilon the per-report ε
     * @param branching {@code B} in {@code [2, max(2, k)]}
     */
    public TreeMechanism(int domainSize, Epsilon epsilon, int branching) {
        super(domainSize, epsilon);
        Require.inRange("branching", branching, 2, Math.max(2, k));
        this.branching = branching;
        int h = 0;
        long span = 1;
        while (span < k) {
            span *= branching;
            h++;
        }
        this.height = h;
        this.levelSize = new int[h + 1];
        this.divisor = new long[h + 1];
        long div = 1;
        for (int l = h; l >= 0; l--) {
            divisor[l] = div;
            levelSize[l] = (int) ((k + div - 1) / div);
            div *= branching;
        }
        this.oracles = new SupportCountOracle[h + 1];
        this.offset = new int[h + 1];
        int pos = h;
        int w = 1;
        for (int l = 1; l <= h; l++) {
            oracles[l] = levelOracle(levelSize[l], eps);
            offset[l] = pos;
            pos += levelSize[l];
            w = Math.max(w, IndexCodec.widthFor(((IndexOracle) oracles[l]).indexRange()));
        }
        this.stateLength = pos;
        this.width = w;
    }

    /** GRR or OLH (hash stream TREE_HASH) for a level of {@code size} nodes, whichever is better at uniform. */
    static SupportCountOracle levelOracle(int size, Epsilon eps) {
        GeneralizedRandomizedResponse grr = new GeneralizedRandomizedResponse(size, eps);
        OptimizedLocalHashing olh = new OptimizedLocalHashing(size, eps, OptimizedLocalHashing.optimalRange(eps),
                PublicCoins.Stream.TREE_HASH, MechanismId.OLH);
        return strictlyBetter(uniformNodeVariance(olh, size, 1), uniformNodeVariance(grr, size, 1)) ? olh : grr;
    }

    /**
     * The tie rule of the tree's public design choices: a candidate replaces the current choice only when its
     * predicted variance is strictly lower, so on a tie the earlier, simpler choice stays (GRR before OLH for a
     * level, the smaller branching factor).
     */
    static boolean strictlyBetter(double candidateVariance, double currentVariance) {
        return candidateVariance < currentVariance;
    }

    private static double uniformNodeVariance(SupportCountOracle o, int size, double n) {
        double[] f = new double[size];
        Arrays.fill(f, 1.0 / size);
        double[] v = o.variancesAt(n, f);
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s / size;
    }

    @Override
    public MechanismId id() {
        return MechanismId.TREE;
    }

    /** {@code B}. */
    public int branching() {
        return branching;
    }

    /** {@code h}: the number of reported levels. */
    public int height() {
        return height;
    }

    /** {@code D_ℓ}, the number of nodes of level {@code ℓ ∈ [0, h]}. */
    public int levelSize(int level) {
        return levelSize[level];
    }

    /** The mechanism used on level {@code ℓ ∈ [1, h]} (GRR or OLH). */
    public MechanismId levelMechanism(int level) {
        return oracles[level].id();
    }

    /** The oracle of level {@code ℓ ∈ [1, h]} (for tests). */
    SupportCountOracle levelOracle(int level) {
        return oracles[level];
    }

    /** The start of level {@code ℓ ∈ [1, h]}'s counts in the state ({@code state[ℓ − 1]} is its report count). */
    int levelOffset(int level) {
        return offset[level];
    }

    /** The level ({@code 1..h}) that a report with this base word describes. */
    public int levelOf(long publicBase) {
        return 1 + ExactSampler.uniformInt(PublicCoins.stream(publicBase, PublicCoins.Stream.TREE_LEVEL), height);
    }

    /** The level-{@code ℓ} ancestor of bucket {@code x}. */
    int ancestor(int x, int level) {
        return (int) (x / divisor[level]);
    }

    @Override
    public int payloadBytes() {
        return width;
    }

    @Override
    public byte[] randomize(int value, long publicBase, SecretDraws draws) {
        checkValue(value);
        int l = levelOf(publicBase);
        int y = ((IndexOracle) oracles[l]).randomizeIndex(ancestor(value, l), publicBase, draws);
        return IndexCodec.encode(y, width);
    }

    @Override
    public int stateLength() {
        return stateLength;
    }

    @Override
    public boolean accumulate(byte[] payload, long publicBase, long[] state) {
        checkState(state);
        int l = levelOf(publicBase);
        IndexOracle o = (IndexOracle) oracles[l];
        int y = IndexCodec.decode(payload, width, o.indexRange());
        if (y < 0) {
            return false;
        }
        state[l - 1]++;
        o.accumulateIndex(y, publicBase, state, offset[l]);
        return true;
    }

    @Override
    public Rational outputProbability(int value, byte[] payload, long publicBase) {
        checkValue(value);
        int l = levelOf(publicBase);
        IndexOracle o = (IndexOracle) oracles[l];
        int y = IndexCodec.decode(payload, width, o.indexRange());
        return y < 0 ? Rational.ZERO : o.indexProbability(ancestor(value, l), y, publicBase);
    }

    // ---------------------------------------------------------------- the fit's design (the estimate is the gateway's)

    /** The per-node model variance {@code V_ℓ} of level {@code ℓ} with {@code nl} of {@code n} reports. */
    double levelVariance(int l, double nl, double n) {
        int size = levelSize[l];
        double sampling = (1.0 / size) * (1 - 1.0 / size) * Math.max(0, 1 / nl - 1 / n);
        return uniformNodeVariance(oracles[l], size, nl) + sampling;
    }

    /** The level weights {@code w_ℓ = 1/V_ℓ} ({@code 0} for a level without reports), index 1..h. */
    double[] weights(double[] levelReports, double n) {
        double[] w = new double[height + 1];
        for (int l = 1; l <= height; l++) {
            w[l] = levelReports[l] > 0 ? 1 / levelVariance(l, levelReports[l], n) : 0;
        }
        return w;
    }

    /** Weights of the idealised design {@code n_ℓ = n/h}. */
    double[] designWeights(double n) {
        double[] nl = new double[height + 1];
        Arrays.fill(nl, 1, height + 1, n / height);
        return weights(nl, n);
    }

    /**
     * The fixed linear structure of the fit for given level weights: {@code alpha[ℓ][u]} (share of a
     * node's own observation in its subtree estimate {@code z_u}) and {@code beta[ℓ][u]} (share of the
     * parent's residual given to {@code u} in the top-down pass).
     */
    record Plan(double[][] alpha, double[][] beta) {}

    int childStart(int u) {
        return u * branching;
    }

    int childEnd(int l, int u) {
        return (int) Math.min((long) (u + 1) * branching, levelSize[l + 1]);
    }

    Plan plan(double[] w) {
        int h = height;
        double[][] s = new double[h + 1][];
        double[][] alpha = new double[h + 1][];
        double[][] beta = new double[h + 1][];
        for (int l = h; l >= 0; l--) {
            s[l] = new double[levelSize[l]];
            alpha[l] = new double[levelSize[l]];
            double wl = l == 0 ? 0 : w[l];
            for (int u = 0; u < levelSize[l]; u++) {
                double sc = Double.POSITIVE_INFINITY;
                if (l < h) {
                    sc = 0;
                    for (int c = childStart(u); c < childEnd(l, u); c++) {
                        sc += s[l + 1][c];
                    }
                }
                if (wl > 0 && Double.isFinite(sc)) {
                    alpha[l][u] = wl * sc / (wl * sc + 1);
                    s[l][u] = sc / (wl * sc + 1);
                } else if (wl > 0) {
                    alpha[l][u] = 1;
                    s[l][u] = 1 / wl;
                } else {
                    alpha[l][u] = 0;
                    s[l][u] = sc;
                }
            }
        }
        beta[0] = new double[1];
        for (int l = 0; l < h; l++) {
            beta[l + 1] = new double[levelSize[l + 1]];
            for (int p = 0; p < levelSize[l]; p++) {
                int infinite = 0;
                double sc = 0;
                for (int c = childStart(p); c < childEnd(l, p); c++) {
                    if (Double.isInfinite(s[l + 1][c])) {
                        infinite++;
                    } else {
                        sc += s[l + 1][c];
                    }
                }
                for (int c = childStart(p); c < childEnd(l, p); c++) {
                    double sv = s[l + 1][c];
                    beta[l + 1][c] = infinite > 0 ? (Double.isInfinite(sv) ? 1.0 / infinite : 0) : sv / sc;
                }
            }
        }
        return new Plan(alpha, beta);
    }

    /**
     * The adjoint of the fit's linear part (the gateway's {@code TreeEstimator.infer}): node coefficients
     * {@code u[ℓ]} with {@code Σ_x c_x F_h(x) = Σ_ℓ ⟨u[ℓ], y[ℓ]⟩ + const} (the constant comes from the fixed root).
     */
    double[][] adjoint(Plan plan, double[] c) {
        int h = height;
        double[][] fbar = new double[h + 1][];
        double[][] zbar = new double[h + 1][];
        fbar[h] = c.clone();
        for (int l = h; l >= 1; l--) {
            zbar[l] = new double[levelSize[l]];
            fbar[l - 1] = new double[levelSize[l - 1]];
            for (int p = 0; p < levelSize[l - 1]; p++) {
                double residualBar = 0;
                for (int u = childStart(p); u < childEnd(l - 1, p); u++) {
                    double fb = fbar[l][u];
                    zbar[l][u] += fb;
                    residualBar += plan.beta[l][u] * fb;
                }
                fbar[l - 1][p] += residualBar;
                for (int u = childStart(p); u < childEnd(l - 1, p); u++) {
                    zbar[l][u] -= residualBar; // through Σ z of the parent's children
                }
            }
        }
        double[][] ybar = new double[h + 1][];
        ybar[0] = new double[1];
        for (int l = 1; l <= h; l++) {
            ybar[l] = new double[levelSize[l]];
            for (int u = 0; u < levelSize[l]; u++) {
                double a = plan.alpha[l][u];
                ybar[l][u] = a * zbar[l][u];
                if (l < h) {
                    double down = (1 - a) * zbar[l][u];
                    for (int c2 = childStart(u); c2 < childEnd(l, u); c2++) {
                        zbar[l + 1][c2] += down;
                    }
                }
            }
        }
        return ybar;
    }

    // ---------------------------------------------------------------- variances

    /**
     * The model variance of every query (the columns of {@code answers}) for the design {@code n_ℓ = n/h}, level
     * sampling included: what {@link #optimalBranching(Epsilon, PointSet)} minimises, and the gateway's closed form.
     */
    double[] queryVariancesAt(double n, double[] f, PointSet answers) {
        Plan plan = plan(designWeights(n));
        double[][] levelF = aggregate(f);
        return perQuery(answers, c -> modelVariance(plan, n, f, levelF, c));
    }

    /** The frequencies of every level's nodes (capped at 1), index 1..h. */
    double[][] aggregate(double[] f) {
        double[][] out = new double[height + 1][];
        for (int l = 1; l <= height; l++) {
            out[l] = new double[levelSize[l]];
            for (int x = 0; x < k; x++) {
                out[l][ancestor(x, l)] += f[x];
            }
            for (int u = 0; u < levelSize[l]; u++) {
                out[l][u] = Math.min(1, out[l][u]);
            }
        }
        return out;
    }

    /** The model variance of the query {@code c} for the design {@code n_ℓ = n/h}, under the fit {@code plan}. */
    double modelVariance(Plan plan, double n, double[] f, double[][] levelF, double[] c) {
        double[][] u = adjoint(plan, c);
        double nl = n / height;
        double var = 0;
        for (int l = 1; l <= height; l++) {
            var += oracles[l].queryVarianceAt(nl, levelF[l], u[l]);
        }
        if (height > 1) {
            double sampling = 0;
            for (int x = 0; x < k; x++) {
                if (f[x] == 0) {
                    continue;
                }
                double s1 = 0;
                double s2 = 0;
                for (int l = 1; l <= height; l++) {
                    double r = u[l][ancestor(x, l)];
                    s1 += r;
                    s2 += r * r;
                }
                sampling += f[x] * Math.max(0, height * s2 - s1 * s1);
            }
            var += sampling / n;
        }
        return var;
    }

    /**
     * The branching factor {@code B ∈ [2, min(16, k)]} minimising the average variance over all
     * {@code k(k+1)/2} range queries at uniform frequencies, under the fit's own model (independent node
     * errors of variance {@code V_ℓ}, design {@code n_ℓ = n/h}; the average does not depend on {@code n});
     * smallest {@code B} on ties; {@code min(4, k)} when {@code k > 2048}.
     */
    public static int optimalBranching(int domainSize, Epsilon epsilon) {
        Require.inRange("domainSize", domainSize, 2, MAX_DOMAIN);
        if (domainSize > BRANCHING_SEARCH_LIMIT) {
            return 4;
        }
        int best = 2;
        double bestV = Double.POSITIVE_INFINITY;
        for (int b = 2; b <= Math.min(16, domainSize); b++) {
            double v = new TreeMechanism(domainSize, epsilon, b).averageRangeVariance(1);
            if (strictlyBetter(v, bestV)) {
                bestV = v;
                best = b;
            }
        }
        return best;
    }

    /**
     * The branching factor {@code B ∈ [2, min(16, k)]} minimising the mean variance of a workload's own queries at
     * uniform frequencies: the columns of {@code answers} (one point per bucket, {@code answers.get(x, q)} the
     * coefficient of bucket x in query q), each by the closed form of {@link #queryVariancesAt} (level sampling
     * included); smallest {@code B} on ties; {@code min(4, k)} when {@code k > 2048}. The prefixes of a CDF favour a
     * smaller B than all ranges do (k = 32: B = 2 where all ranges take 6; k = 128 at ε = 4: 2 where all ranges take
     * 12), as a prefix never needs the right-hand children of a node.
     *
     * @param answers the workload's answer vectors over {@code k >= 2} buckets, at least one query
     */
    public static int optimalBranching(Epsilon epsilon, PointSet answers) {
        Require.nonNull("answers", answers);
        int domainSize = answers.size();
        Require.inRange("domainSize", domainSize, 2, MAX_DOMAIN);
        if (answers.dim() < 1) {
            throw new IllegalArgumentException("answers must have at least one query");
        }
        if (domainSize > BRANCHING_SEARCH_LIMIT) {
            return Math.min(4, domainSize);
        }
        double[] uniform = FrequencyOracles.uniform(domainSize);
        int best = 2;
        double bestV = Double.POSITIVE_INFINITY;
        for (int b = 2; b <= Math.min(16, domainSize); b++) {
            double[] v = new TreeMechanism(domainSize, epsilon, b).queryVariancesAt(1, uniform, answers);
            double sum = 0;
            for (double x : v) {
                sum += x;
            }
            if (strictlyBetter(sum, bestV)) {
                bestV = sum;
                best = b;
            }
        }
        return best;
    }

    /** The model-predicted average variance of all range queries (see {@link #optimalBranching}). */
    double averageRangeVariance(double n) {
        double[] w = designWeights(n);
        Plan plan = plan(w);
        double[][] s1 = new double[height + 1][];
        double[][] s2 = new double[height + 1][];
        for (int l = 1; l <= height; l++) {
            s1[l] = new double[levelSize[l]];
            s2[l] = new double[levelSize[l]];
        }
        double[] prefix = new double[k];
        for (int t = 1; t <= k; t++) { // prefix t = buckets [0, t); t = 0 has all-zero coefficients
            prefix[t - 1] = 1;
            double[][] u = adjoint(plan, prefix);
            for (int l = 1; l <= height; l++) {
                for (int v = 0; v < levelSize[l]; v++) {
                    s1[l][v] += u[l][v];
                    s2[l][v] += u[l][v] * u[l][v];
                }
            }
        }
        double total = 0;
        for (int l = 1; l <= height; l++) {
            double sigma2 = 1 / w[l];
            for (int v = 0; v < levelSize[l]; v++) {
                total += sigma2 * ((k + 1) * s2[l][v] - s1[l][v] * s1[l][v]);
            }
        }
        return total / (k * (k + 1) / 2.0);
    }
}
