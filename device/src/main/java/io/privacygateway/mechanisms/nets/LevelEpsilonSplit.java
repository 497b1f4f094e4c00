package io.privacygateway.mechanisms.nets;

import io.privacygateway.mechanisms.coins.SplitMix64;
import io.privacygateway.mechanisms.errors.GaussianWidth;
import io.privacygateway.mechanisms.local.gaussian.PublicGaussian;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splitting a total pure-DP budget ε across the levels of local chaining (Lemma 3.3: the levels
 * compose, {@code Σ ε_j = ε}; MECHANISMS.md §3). The paper splits equally; this class also computes
 * the split that minimises the predicted total error.
 *
 * <h2>Error model</h2>
 * Level {@code j} releases vectors of norm {@code ≤ r_j} with the Gaussian-sign randomizer at
 * {@code ε_j}: {@code c_j = r_j·√(π/2)/tanh(ε_j/2)}, per-coordinate noise {@code σ_j = c_j/√n} for a
 * window of {@code n} reports, and after projection onto {@code conv(X^(j))} the per-coordinate RMS
 * error bound is {@code err_j = sqrt(min(σ_j², σ_j·g_j/m))} with {@code g_j} the Gaussian width of
 * {@code X^(j)} (MECHANISMS.md §3, Lemma 5.3). The predicted total error is {@code Σ_j err_j}
 * (subadditivity, Lemma 3.3; the chaining bias {@code 2^{-k}} is a constant and is not included).
 *
 * <h2>Trivial levels</h2>
 * A level with {@code r_j = 0} or {@code g_j = 0} (a single-point level set: every device has the same,
 * public, component) has error 0 for every ε_j and gets {@code ε_j = 0} in {@link #optimal}. Such
 * values cannot be wrapped in {@link Epsilon} (which rejects 0): the caller must skip those levels
 * (nothing needs releasing). Every other level gets {@code ε_j > 0}. If every level is trivial, every
 * {@code ε_j} is 0.
 *
 * <h2>The optimisation</h2>
 * With {@code w = coth(ε/2)}, {@code err_j = min(A_j, B_j)}, {@code A_j = C_j·w},
 * {@code B_j = sqrt(a_j·C_j·w)}, {@code C_j = r_j√(π/2)/√n}, {@code a_j = g_j/m}. Both {@code A_j} and
 * {@code B_j} are strictly convex and decreasing in {@code ε} (for {@code B}: with {@code u = coth x},
 * {@code d²√u/dx² = u^{-3/2}(u²−1)(¾u² + ¼) > 0}), but their minimum has a concave kink where
 * {@code σ_j = a_j}, so the problem is not convex. Since
 * {@code min_ε Σ_j min(A_j, B_j) = min over choices of min_ε Σ_j (A_j or B_j)}, the global optimum is
 * the best of the convex problems obtained by fixing each level's branch. A level with
 * {@code C_j ≥ a_j} is always on branch {@code B} ({@code σ_j ≥ C_j}); the remaining "ambiguous" levels
 * are enumerated exhaustively when there are at most {@value #MAX_ENUMERATED} of them (exact up to
 * numerical precision); above that, a first-improvement local search over single branch flips is run
 * from the branches of the equal split, all-{@code A} and all-{@code B} (a local optimum, never worse
 * than the equal split). Each convex problem is solved by bisection on the Lagrange multiplier λ: the
 * stationarity condition {@code −F_j'(ε_j) = λ} has the closed form {@code w² = 1 + 2λ/C_j} on
 * branch {@code A} and a quartic {@code v⁴ − Kv − 1 = 0}, {@code v = √w}, {@code K = 4λ/√(a_jC_j)} on
 * branch {@code B} (solved by monotone Newton), and {@code Σ ε_j(λ)} is strictly decreasing in λ.
 *
 * <h2>Budget safety</h2>
 * The returned values satisfy {@code Σ ε_j ≤ ε} exactly, against the declared decimal
 * {@link Epsilon#exact()}, in two readings: the exact binary values of the doubles (what each level
 * computes with) and the decimals {@code Epsilon.of(ε_j).exact()} that a level's {@link Epsilon} declares
 * for them (the shortest decimal of a double can lie above it: fifteen shares of 1 read that way add up to
 * {@code 1.00000000000000005}). Shares are computed in doubles, then lowered by one ulp at a time until
 * both exact sums fit ({@link #capSum}); that costs at most a few ulps of budget.
 *
 * <h2>Versions (the chaining protocol's, docs/wire-format.md §3.1)</h2>
 * Version 1 estimates the Gaussian widths with Apache Commons RNG ({@link GaussianWidth#of(PointSet)}) and uses
 * {@code StrictMath.tanh}, {@code log1p} and {@code cbrt}; version 2 ({@link #publicWidth}) draws the widths' Gaussians
 * from the public generator of wire-format §2 on SplitMix64 seeded {@value #WIDTH_SEED}, and computes
 * {@code tanh(ε/2) = (1 − e^{−ε})/(1 + e^{−ε})}, {@code log1p(y) = log(1 + y)} and {@code cbrt(K) = exp(log(K)/3)}
 * with fdlibm {@code exp} and {@code log} only, so that a device in another language derives the same split bit for
 * bit from the specification. Those forms lose relative precision for tiny arguments (about {@code 10^-16/ε}); they
 * only enter the error model that chooses the split, never the privacy guarantee (the capped shares and each level's
 * exact {@code B(ε_j)} carry it).
 */
public final class LevelEpsilonSplit {
    /** Ambiguous levels up to this count are enumerated exhaustively ({@code 2^12} convex problems). */
    public static final int MAX_ENUMERATED = 12;

    private static final double SQRT_HALF_PI = Math.sqrt(Math.PI / 2);
    /** The public seed of the version-2 widths ({@link #publicWidth}). */
    public static final long WIDTH_SEED = 0x5EED6A55L;
    /** Draws of the version-2 widths. */
    public static final int WIDTH_DRAWS = 400;

    /** {@code tanh(ε/2)} by the version's rule (see the class comment). */
    static double tanhHalf(double epsilon, int version) {
        if (version >= 2) {
            double t = StrictMath.exp(-epsilon);
            return (1 - t) / (1 + t);
        }
        return StrictMath.tanh(epsilon / 2);
    }

    /** {@code log(1 + y)} by the version's rule. */
    static double log1p(double y, int version) {
        return version >= 2 ? StrictMath.log(1 + y) : StrictMath.log1p(y);
    }

    /** {@code K^{1/3}} by the version's rule. */
    static double cbrt(double kk, int version) {
        return version >= 2 ? StrictMath.exp(StrictMath.log(kk) / 3) : StrictMath.cbrt(kk);
    }

    /**
     * The version-2 Gaussian width of a set, {@code (1/400) Σ_t max_x ⟨G_t, x⟩}: {@code G_t} is the next {@code m}
     * outputs of {@link PublicGaussian} on one SplitMix64 stream seeded {@value #WIDTH_SEED} ({@code t = 0..399} in
     * order), {@code ⟨G, x⟩} as {@link PointSet#dot}, the max a running {@code Math.max} from {@code −∞} over the rows
     * in order, the sum from {@code 0.0}. Public and deterministic; at least one row.
     */
    public static double publicWidth(PointSet set) {
        Require.nonNull("set", set);
        SplitMix64 stream = new SplitMix64(WIDTH_SEED);
        double[] g = new double[set.dim()];
        double sum = 0;
        for (int t = 0; t < WIDTH_DRAWS; t++) {
            PublicGaussian.fill(stream, g);
            double mx = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < set.size(); i++) {
                mx = Math.max(mx, set.dot(i, g));
            }
            sum += mx;
        }
        return sum / WIDTH_DRAWS;
    }

    private LevelEpsilonSplit() {}

    /**
     * One level's public parameters.
     *
     * @param radius {@code r_j}, the public radius of the level's vectors ({@code ≥ 0})
     * @param gaussianWidth {@code g_j = g(X^(j))} ({@code ≥ 0}; 0 for a single-point level set)
     */
    public record Level(double radius, double gaussianWidth) {
        public Level {
            Require.finiteNonNegative("radius", radius);
            Require.finiteNonNegative("gaussianWidth", gaussianWidth);
        }

        /** Whether the level's error is 0 whatever its budget. */
        public boolean trivial() {
            return radius == 0 || gaussianWidth == 0;
        }
    }

    /**
     * A split and its predicted error.
     *
     * @param epsilons {@code ε_1..ε_k} (0 for trivial levels)
     * @param predictedError {@code Σ_j err_j(ε_j)}, per-coordinate RMS (normalized) units
     */
    public record Split(double[] epsilons, double predictedError) {
        public Split {
            epsilons = epsilons.clone();
        }

        @Override
        public double[] epsilons() {
            return epsilons.clone();
        }

        @Override
        public String toString() {
            return "Split" + Arrays.toString(epsilons) + " error=" + predictedError;
        }
    }

    /** The paper's split: {@code ε/k} for each of {@code k} levels (rounded so that the sum is {@code ≤ ε}). */
    public static double[] equal(int k, Epsilon total) {
        Require.positive("k", k);
        Require.nonNull("total", total);
        double[] out = new double[k];
        Arrays.fill(out, total.value() / k);
        return capSum(out, total.exact());
    }

    /** The equal split of {@link #equal(int, Epsilon)} with its predicted error. */
    public static Split equalSplit(List<Level> levels, int m, long n, Epsilon total) {
        check(levels, m, n, total);
        double[] eps = equal(levels.size(), total);
        return new Split(eps, predictedError(levels, m, n, eps));
    }

    /** {@code err_j(ε_j) = sqrt(min(σ², σ·g/m))}, {@code σ = r√(π/2)/(tanh(ε/2)√n)}; 0 for a trivial level. */
    public static double levelError(Level level, int m, long n, double epsilon) {
        return levelError(level, m, n, epsilon, 1);
    }

    /** {@link #levelError(Level, int, long, double)} with the given version's {@code tanh} (class comment). */
    public static double levelError(Level level, int m, long n, double epsilon, int version) {
        Require.nonNull("level", level);
        Require.positive("m", m);
        Require.inRange("n", n, 1, Long.MAX_VALUE);
        Require.finiteNonNegative("epsilon", epsilon);
        if (level.trivial()) {
            return 0.0;
        }
        if (epsilon == 0) {
            return Double.POSITIVE_INFINITY;
        }
        double sigma = level.radius() * SQRT_HALF_PI / (tanhHalf(epsilon, version) * Math.sqrt((double) n));
        return Math.sqrt(Math.min(sigma * sigma, sigma * level.gaussianWidth() / m));
    }

    /** {@code Σ_j err_j(ε_j)}. */
    public static double predictedError(List<Level> levels, int m, long n, double[] epsilons) {
        return predictedError(levels, m, n, epsilons, 1);
    }

    /** {@link #predictedError(List, int, long, double[])} with the given version's {@code tanh}. */
    public static double predictedError(List<Level> levels, int m, long n, double[] epsilons, int version) {
        Require.nonNull("levels", levels);
        Require.nonNull("epsilons", epsilons);
        if (epsilons.length != levels.size()) {
            throw new IllegalArgumentException(
                    "epsilons must have one entry per level (" + levels.size() + "), got " + epsilons.length);
        }
        double sum = 0;
        for (int j = 0; j < epsilons.length; j++) {
            sum += levelError(levels.get(j), m, n, epsilons[j], version);
        }
        return sum;
    }

    /**
     * The split minimising {@code Σ_j err_j(ε_j)} subject to {@code Σ ε_j = ε} (see the class comment).
     *
     * @param levels per-level radius and Gaussian width, at least one
     * @param m query dimension
     * @param n reports per window
     * @param total the total budget ε
     */
    public static Split optimal(List<Level> levels, int m, long n, Epsilon total) {
        return optimal(levels, m, n, total, 1);
    }

    /** {@link #optimal(List, int, long, Epsilon)} by the given chaining protocol version's arithmetic (class comment). */
    public static Split optimal(List<Level> levels, int m, long n, Epsilon total, int version) {
        check(levels, m, n, total);
        int k = levels.size();
        double e = total.value();
        List<Integer> active = new ArrayList<>();
        for (int j = 0; j < k; j++) {
            if (!levels.get(j).trivial()) {
                active.add(j);
            }
        }
        if (active.isEmpty()) {
            return new Split(new double[k], 0.0);
        }
        int q = active.size();
        double[] c = new double[q];
        double[] a = new double[q];
        boolean[] ambiguous = new boolean[q];
        List<Integer> ambiguousIdx = new ArrayList<>();
        for (int i = 0; i < q; i++) {
            Level l = levels.get(active.get(i));
            c[i] = l.radius() * SQRT_HALF_PI / Math.sqrt((double) n);
            a[i] = l.gaussianWidth() / m;
            ambiguous[i] = c[i] < a[i];
            if (ambiguous[i]) {
                ambiguousIdx.add(i);
            }
        }
        Problem p = new Problem(levels, active, m, n, e, total.exact(), c, a, version);
        boolean[] branchA = new boolean[q];
        Candidate best;
        int amb = ambiguousIdx.size();
        if (amb <= MAX_ENUMERATED) {
            best = null;
            for (int mask = 0; mask < (1 << amb); mask++) {
                Arrays.fill(branchA, false);
                for (int b = 0; b < amb; b++) {
                    branchA[ambiguousIdx.get(b)] = (mask >> b & 1) == 1;
                }
                Candidate cand = p.solve(branchA);
                if (best == null || cand.error < best.error) {
                    best = cand;
                }
            }
        } else {
            best = null;
            double[] equalActive = new double[q];
            Arrays.fill(equalActive, e / q);
            boolean[][] starts = new boolean[3][q];
            for (int i = 0; i < q; i++) {
                starts[0][i] = ambiguous[i] && c[i] / tanhHalf(equalActive[i], version) < a[i];
                starts[1][i] = ambiguous[i];
                starts[2][i] = false;
            }
            for (boolean[] start : starts) {
                Candidate cand = p.localSearch(start, ambiguousIdx);
                if (best == null || cand.error < best.error) {
                    best = cand;
                }
            }
        }
        // Safeguard (numerical): never return something worse than the equal split of the active levels.
        double[] eq = new double[k];
        for (int j : active) {
            eq[j] = e / q;
        }
        eq = capSum(eq, total.exact());
        double eqError = predictedError(levels, m, n, eq, version);
        if (eqError < best.error) {
            return new Split(eq, eqError);
        }
        return new Split(best.epsilons, best.error);
    }

    /**
     * The per-level parameters of a chaining decomposition: {@code r_j} and the Gaussian width of
     * {@code X^(j)} ({@link GaussianWidth#of(PointSet)}, fixed public seed; 0 for a single-point level
     * set, and a negative Monte Carlo estimate is clamped to 0).
     */
    public static List<Level> levelsOf(ChainingDecomposition decomposition) {
        return levelsOf(decomposition, 1);
    }

    /** {@link #levelsOf(ChainingDecomposition)} with the given version's widths (2: {@link #publicWidth}). */
    public static List<Level> levelsOf(ChainingDecomposition decomposition, int version) {
        Require.nonNull("decomposition", decomposition);
        List<Level> out = new ArrayList<>();
        for (int j = 1; j <= decomposition.levels(); j++) {
            PointSet set = decomposition.levelSet(j);
            double g = set.size() <= 1 ? 0.0
                    : Math.max(0.0, version >= 2 ? publicWidth(set) : GaussianWidth.of(set).mean());
            out.add(new Level(decomposition.radius(j), g));
        }
        return out;
    }

    private static void check(List<Level> levels, int m, long n, Epsilon total) {
        Require.nonNull("levels", levels);
        if (levels.isEmpty()) {
            throw new IllegalArgumentException("levels must contain at least one level, got 0");
        }
        for (Level l : levels) {
            Require.nonNull("level", l);
        }
        Require.positive("m", m);
        Require.inRange("n", n, 1, Long.MAX_VALUE);
        Require.nonNull("total", total);
    }

    /**
     * Lowers every positive share by one ulp at a time until {@link #fits}: both exact sums are
     * {@code ≤ cap}. Modifies and returns {@code eps}.
     */
    static double[] capSum(double[] eps, BigDecimal cap) {
        for (int attempt = 0; attempt < 64; attempt++) {
            if (fits(eps, cap)) {
                return eps;
            }
            for (int j = 0; j < eps.length; j++) {
                if (eps[j] > 0) {
                    eps[j] = Math.nextDown(eps[j]);
                }
            }
        }
        throw new IllegalStateException("could not round the split below the total " + cap.toPlainString());
    }

    /**
     * Whether {@code Σ_j ε_j ≤ cap} exactly both for the binary values of the positive shares and for the
     * decimals {@code Epsilon.of(ε_j)} declares for them.
     */
    static boolean fits(double[] eps, BigDecimal cap) {
        BigDecimal binary = BigDecimal.ZERO;
        BigDecimal declared = BigDecimal.ZERO;
        for (double v : eps) {
            if (v > Epsilon.MAX) {
                return false; // above any valid budget (and not a valid Epsilon)
            }
            if (v > 0) {
                binary = binary.add(new BigDecimal(v));
                declared = declared.add(Epsilon.of(v).exact());
            }
        }
        return binary.compareTo(cap) <= 0 && declared.compareTo(cap) <= 0;
    }

    private record Candidate(double[] epsilons, double error) {}

    /** The convex sub-problems for fixed branches. */
    private static final class Problem {
        final List<Level> levels;
        final List<Integer> active;
        final int m;
        final long n;
        final double total;
        final BigDecimal cap;
        final double[] c;
        final double[] a;
        final int version;

        Problem(List<Level> levels, List<Integer> active, int m, long n, double total, BigDecimal cap, double[] c,
                double[] a, int version) {
            this.version = version;
            this.cap = cap;
            this.levels = levels;
            this.active = active;
            this.m = m;
            this.n = n;
            this.total = total;
            this.c = c;
            this.a = a;
        }

        /** {@code ε} on the given branch where {@code −F'(ε) = λ}. */
        double epsilonAt(int i, boolean branchA, double lambda) {
            double wMinus1;
            if (branchA) {
                double r = 2 * lambda / c[i];
                wMinus1 = r / (Math.sqrt(1 + r) + 1);
            } else {
                double kk = 4 * lambda / Math.sqrt(a[i] * c[i]);
                double delta = quarticDelta(kk, version);
                wMinus1 = delta * (2 + delta);
            }
            return log1p(2 / wMinus1, version);
        }

        double sumAt(boolean[] branchA, double lambda) {
            double s = 0;
            for (int i = 0; i < c.length; i++) {
                s += epsilonAt(i, branchA[i], lambda);
            }
            return s;
        }

        Candidate solve(boolean[] branchA) {
            // Σ ε(λ) is strictly decreasing in λ; bisect on log λ.
            double lo = -745;
            double hi = 709;
            for (int it = 0; it < 200 && hi - lo > 1e-13 * Math.max(1, Math.abs(lo)); it++) {
                double mid = 0.5 * (lo + hi);
                double s = sumAt(branchA, StrictMath.exp(mid));
                if (s > total) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            double lambda = StrictMath.exp(0.5 * (lo + hi));
            double[] epsActive = new double[c.length];
            double s = 0;
            for (int i = 0; i < c.length; i++) {
                epsActive[i] = epsilonAt(i, branchA[i], lambda);
                s += epsActive[i];
            }
            double[] eps = new double[levels.size()];
            for (int i = 0; i < c.length; i++) {
                eps[active.get(i)] = epsActive[i] * (total / s);
            }
            eps = capSum(eps, cap);
            return new Candidate(eps, predictedError(levels, m, n, eps, version));
        }

        Candidate localSearch(boolean[] start, List<Integer> ambiguousIdx) {
            boolean[] branch = start.clone();
            Candidate cur = solve(branch);
            boolean improved = true;
            while (improved) {
                improved = false;
                for (int i : ambiguousIdx) {
                    branch[i] = !branch[i];
                    Candidate cand = solve(branch);
                    if (cand.error < cur.error) {
                        cur = cand;
                        improved = true;
                    } else {
                        branch[i] = !branch[i];
                    }
                }
            }
            return cur;
        }
    }

    /**
     * The root {@code δ > 0} of {@code (1+δ)⁴ − K(1+δ) − 1 = 0}, i.e. {@code v = 1 + δ} with
     * {@code v⁴ − Kv − 1 = 0} ({@code K > 0}), written in {@code δ} to keep precision when
     * {@code δ ≈ K/4} is tiny. The function is convex in {@code v} and negative at {@code v = 1}, so
     * Newton's method from a point right of the root decreases monotonically to it.
     */
    static double quarticDelta(double kk) {
        return quarticDelta(kk, 1);
    }

    static double quarticDelta(double kk, int version) {
        if (!(kk > 0)) {
            return 0.0;
        }
        double delta = Math.max(1.0, cbrt(kk, version)); // v = 2 + K^{1/3}-ish: f > 0 there
        for (int it = 0; it < 200; it++) {
            double f = delta * (4 + delta * (6 + delta * (4 + delta))) - kk * (1 + delta);
            double v = 1 + delta;
            double fp = 4 * v * v * v - kk;
            double next = delta - f / fp;
            if (!(next < delta) || next <= 0) {
                if (next <= 0) {
                    // cannot happen in exact arithmetic; fall back to the small-K expansion
                    return kk / 4;
                }
                break;
            }
            delta = next;
        }
        return delta;
    }
}
