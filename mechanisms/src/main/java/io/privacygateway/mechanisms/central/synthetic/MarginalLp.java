package io.privacygateway.mechanisms.central.synthetic;

import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.projection.SimplexProjection;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The linear program that turns noisy marginal tables into one consistent distribution (certified private data
 * release paper, eq. (12), restricted to a candidate support as in its §5.1):
 *
 * <pre>
 *   minimise over α ∈ Δ_C:   P(α) = max_b ½ ‖u_b − (Aα)_b‖₁
 * </pre>
 *
 * where {@code u_b} is table b of the noisy (normalised) marginals, C candidate records carry the weights α, and
 * {@code (Aα)_b} is the marginal table b of the distribution {@code Σ_c α_c δ_{x_c}}. Every α on the simplex is
 * a probability distribution, so its marginals are consistent by construction; the LP picks the one closest to the
 * noisy tables in the loss the certificate uses (the largest total-variation distance over tables).
 *
 * <p><b>Solver.</b> The LP is the saddle point {@code min_{α∈Δ} max_{z∈Z} ⟨z, u − Aα⟩} with
 * {@code Z = {z : Σ_b ‖z_b‖_∞ ≤ ½}} (the dual ball of the objective's norm). It is solved by the primal–dual
 * hybrid gradient method (Chambolle and Pock 2011; with restarts to the average and the primal-weight update of
 * Applegate et al., "Practical large-scale linear programming using primal-dual hybrid gradient", NeurIPS 2021,
 * the method behind PDLP): exact Euclidean projections onto Δ (sort-based) and onto Z (bisection on the
 * multiplier of its constraint, then a rescale into Z). The step sizes satisfy {@code τσ‖AP‖² < 1} with
 * {@code P} the projection onto sum-zero vectors (the simplex projection ignores the all-ones direction, so the
 * iterates are those of PDHG on the affine hull of Δ).
 *
 * <p><b>Guarantee.</b> Whatever the iteration budget, the result carries a certified gap: {@link Solution#objective}
 * is {@code P(α)} evaluated at the returned α, and {@link Solution#lowerBound} is the dual value
 * {@code D(z) = ⟨z, u⟩ − max_c (Aᵀz)_c} of a point z in Z, which is at most the LP optimum by weak duality. So
 * {@code objective − lowerBound} bounds the distance to the optimum. Nothing downstream needs optimality: the
 * certificate is evaluated on the records actually released.
 *
 * <p>Post-processing only: the LP sees the noisy tables and public parameters, never the data.
 */
public final class MarginalLp {
    private final MarginalLayout layout;
    private final int[] candidates;
    /** {@code index[i·K + b]}: the cell (in {@code [0, 2^s)}) of candidate i in table b. */
    private final byte[] index;
    private final int s;
    private final int c;
    private final int k;
    private final int w;
    private final double opNorm;

    /**
     * @param layout the tables
     * @param candidates the candidate support (records of {@code {0,1}^d}, at least one)
     */
    public MarginalLp(MarginalLayout layout, int[] candidates) {
        this.layout = Require.nonNull("layout", layout);
        Require.nonNull("candidates", candidates);
        if (candidates.length == 0) {
            throw new IllegalArgumentException("candidates must hold at least one record");
        }
        for (int i = 0; i < candidates.length; i++) {
            if (!layout.isRecord(candidates[i])) {
                throw new IllegalArgumentException("candidates[" + i + "] is not a record of " + layout + ": "
                        + candidates[i]);
            }
        }
        this.candidates = candidates.clone();
        this.c = candidates.length;
        this.k = layout.blocks();
        this.w = layout.cellsPerBlock();
        this.s = layout.way();
        this.index = layout.cellIndex(this.candidates);
        this.opNorm = sumZeroNorm();
    }

    /** The candidate records (a copy). */
    public int[] candidates() {
        return candidates.clone();
    }

    /**
     * The LP's solution within a budget.
     *
     * @param alpha weights over the candidates (on the simplex up to rounding)
     * @param objective {@code P(α)}, evaluated at {@code alpha}
     * @param lowerBound a certified lower bound on the LP optimum (a dual value)
     * @param iterations PDHG iterations run
     */
    public record Solution(double[] alpha, double objective, double lowerBound, int iterations) {
        /** {@code objective − lowerBound}: how far {@code objective} can be above the optimum. */
        public double gap() {
            return Math.max(0, objective - lowerBound);
        }
    }

    /**
     * Solves the LP for the targets {@code u} (length {@code K·2^s}, finite).
     *
     * @param u the noisy marginal tables, normalised (each table sums to about 1)
     * @param start starting weights (non-negative, positive sum; projected onto the simplex), or null for uniform
     * @param maxIterations the iteration budget, {@code >= 1}
     * @param relativeGap stop when {@code gap <= relativeGap·objective}
     */
    public Solution solve(double[] u, double[] start, int maxIterations, double relativeGap) {
        checkInputs(u, maxIterations, relativeGap);
        SimplexProjection simplex = new SimplexProjection(c);
        double[] alpha = startingWeights(start, simplex);
        int m = u.length;
        double[] z = new double[m];
        double[] aAlpha = apply(alpha);
        double eta = 0.95 / opNorm;
        double omega = initialOmega();
        Best best = new Best(alpha.clone(), objective(aAlpha, u), z.clone(), dual(z, u));
        double[] sumAlpha = new double[c];
        double[] sumZ = new double[m];
        double[] lastRestartAlpha = alpha.clone();
        double[] lastRestartZ = z.clone();
        int sinceRestart = 0;
        double restartScore = Double.POSITIVE_INFINITY;
        int it = 0;
        double[] y = new double[m];
        double[] step = new double[c];
        while (it < maxIterations) {
            it++;
            double tau = eta / omega;
            double sigma = eta * omega;
            double[] alphaNew = simplex.project(primalStep(alpha, tau, applyTransposed(z), step)).point();
            double[] aNew = apply(alphaNew);
            double[] zNew = projectDual(dualStep(z, sigma, u, aNew, aAlpha, y));
            alpha = alphaNew;
            aAlpha = aNew;
            z = zNew;
            addTo(sumAlpha, alpha);
            addTo(sumZ, z);
            sinceRestart++;
            boolean check = sinceRestart >= 16 && (sinceRestart & (sinceRestart - 1)) == 0 || it == maxIterations
                    || sinceRestart >= 256;
            if (!check) {
                continue;
            }
            // Evaluate the current and the averaged iterate; keep the best certified pair.
            double[] avgAlpha = divided(sumAlpha, sinceRestart);
            double[] avgZ = intoDualBall(divided(sumZ, sinceRestart));
            double pCur = objective(aAlpha, u);
            double dCur = dual(z, u);
            double[] aAvg = apply(avgAlpha);
            double pAvg = objective(aAvg, u);
            double dAvg = dual(avgZ, u);
            best.primal(pCur, alpha);
            best.primal(pAvg, avgAlpha);
            best.dual(dCur, z);
            best.dual(dAvg, avgZ);
            if (best.p - best.d <= relativeGap * best.p) {
                break;
            }
            double gapCur = pCur - dCur;
            double gapAvg = pAvg - dAvg;
            boolean useAvg = gapAvg < gapCur;
            double score = Math.min(gapCur, gapAvg);
            if (sinceRestart >= 256 || score <= 0.5 * restartScore) {
                double[] ra = useAvg ? avgAlpha : alpha.clone();
                double[] rz = useAvg ? avgZ : z.clone();
                double da = distance(ra, lastRestartAlpha);
                double dz = distance(rz, lastRestartZ);
                if (da > 1e-12 && dz > 1e-12) {
                    omega = Math.exp(0.5 * Math.log(dz / da) + 0.5 * Math.log(omega));
                }
                alpha = ra;
                z = rz;
                aAlpha = useAvg ? aAvg : aAlpha;
                lastRestartAlpha = alpha.clone();
                lastRestartZ = z.clone();
                Arrays.fill(sumAlpha, 0);
                Arrays.fill(sumZ, 0);
                sinceRestart = 0;
                restartScore = score;
            }
        }
        double[] a = renormalised(best.alpha);
        double p = objective(apply(a), u);
        return new Solution(a, p, Math.min(best.d, p), it);
    }

    private void checkInputs(double[] u, int maxIterations, double relativeGap) {
        Require.nonNull("u", u);
        if (u.length != layout.cells()) {
            throw new IllegalArgumentException("u must have " + layout.cells() + " entries, got " + u.length);
        }
        for (int i = 0; i < u.length; i++) {
            if (!Double.isFinite(u[i])) {
                throw new IllegalArgumentException("u[" + i + "] must be finite, got " + u[i]);
            }
        }
        Require.positive("maxIterations", maxIterations);
        Require.finiteNonNegative("relativeGap", relativeGap);
    }

    /** The uniform weights, or {@code start} projected onto the simplex. */
    private double[] startingWeights(double[] start, SimplexProjection simplex) {
        if (start == null) {
            double[] alpha = new double[c];
            Arrays.fill(alpha, 1.0 / c);
            return alpha;
        }
        if (start.length != c) {
            throw new IllegalArgumentException("start must have " + c + " entries, got " + start.length);
        }
        return simplex.project(start).point();
    }

    /** {@code step = alpha + τ·g}, in {@code step}. */
    private static double[] primalStep(double[] alpha, double tau, double[] g, double[] step) {
        for (int i = 0; i < step.length; i++) {
            step[i] = alpha[i] + tau * g[i];
        }
        return step;
    }

    /** {@code y = z + σ·(u − (2·A α_new − A α))}, in {@code y}. */
    private static double[] dualStep(double[] z, double sigma, double[] u, double[] aNew, double[] aAlpha,
            double[] y) {
        for (int i = 0; i < y.length; i++) {
            y[i] = z[i] + sigma * (u[i] - (2 * aNew[i] - aAlpha[i]));
        }
        return y;
    }

    /** The best primal (lowest objective) and dual (highest bound) iterates seen, each a copy. */
    private static final class Best {
        double[] alpha;
        double p;
        double[] z;
        double d;

        Best(double[] alpha, double p, double[] z, double d) {
            this.alpha = alpha;
            this.p = p;
            this.z = z;
            this.d = d;
        }

        void primal(double value, double[] candidate) {
            if (value < p) {
                p = value;
                alpha = candidate.clone();
            }
        }

        void dual(double value, double[] candidate) {
            if (value > d) {
                d = value;
                z = candidate.clone();
            }
        }
    }

    private static void addTo(double[] sum, double[] x) {
        for (int i = 0; i < sum.length; i++) {
            sum[i] += x[i];
        }
    }

    private static double[] divided(double[] sum, int n) {
        double[] out = new double[sum.length];
        for (int i = 0; i < sum.length; i++) {
            out[i] = sum[i] / n;
        }
        return out;
    }

    /** The weights renormalised exactly onto the simplex (rounding negatives clipped), in place. */
    private static double[] renormalised(double[] a) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            a[i] = Math.max(0, a[i]);
            s += a[i];
        }
        for (int i = 0; i < a.length; i++) {
            a[i] /= s;
        }
        return a;
    }

    /**
     * The Euclidean alternative: {@code min over α ∈ Δ_C of ½‖Aα − u‖²} by FISTA (Beck and Teboulle 2009) with the
     * exact simplex projection and step {@code 1/‖AP‖²} (the simplex projection ignores the all-ones direction).
     * It does not minimise the certificate's fit term, but averages the noise over overlapping tables (the existing
     * central mode's projection does the same over the whole domain); the certificate holds for its records too.
     *
     * @param start starting weights or null for uniform
     * @param iterations {@code >= 1}
     */
    public double[] leastSquares(double[] u, double[] start, int iterations) {
        Require.nonNull("u", u);
        if (u.length != layout.cells()) {
            throw new IllegalArgumentException("u must have " + layout.cells() + " entries, got " + u.length);
        }
        Require.positive("iterations", iterations);
        SimplexProjection simplex = new SimplexProjection(c);
        double[] x = start == null ? uniform() : simplex.project(start).point();
        double[] y = x.clone();
        double tk = 1;
        double step = 1 / (opNorm * opNorm);
        double[] tmp = new double[c];
        for (int it = 0; it < iterations; it++) {
            double[] ay = apply(y);
            for (int i = 0; i < ay.length; i++) {
                ay[i] -= u[i];
            }
            double[] g = applyTransposed(ay);
            for (int i = 0; i < c; i++) {
                tmp[i] = y[i] - step * g[i];
            }
            double[] xNew = simplex.project(tmp).point();
            double tNew = (1 + Math.sqrt(1 + 4 * tk * tk)) / 2;
            double mom = (tk - 1) / tNew;
            for (int i = 0; i < c; i++) {
                y[i] = xNew[i] + mom * (xNew[i] - x[i]);
            }
            x = xNew;
            tk = tNew;
        }
        return x;
    }

    private double[] uniform() {
        double[] a = new double[c];
        Arrays.fill(a, 1.0 / c);
        return a;
    }

    /** {@code Aα}: the marginal tables of the weights. */
    double[] apply(double[] alpha) {
        double[] out = new double[k * w];
        byte[] idx = index;
        int kk = k;
        int sh = s;
        for (int i = 0; i < c; i++) {
            double a = alpha[i];
            if (a == 0) {
                continue;
            }
            int off = i * kk;
            for (int b = 0; b < kk; b++) {
                out[(b << sh) + idx[off + b]] += a;
            }
        }
        return out;
    }

    /** {@code Aᵀz}: for every candidate the sum of z over the cells it falls into. */
    double[] applyTransposed(double[] z) {
        double[] out = new double[c];
        byte[] idx = index;
        int kk = k;
        int sh = s;
        for (int i = 0; i < c; i++) {
            int off = i * kk;
            double sum = 0;
            for (int b = 0; b < kk; b++) {
                sum += z[(b << sh) + idx[off + b]];
            }
            out[i] = sum;
        }
        return out;
    }

    /** {@code P = max_b ½‖u_b − a_b‖₁}. */
    double objective(double[] a, double[] u) {
        double worst = 0;
        for (int b = 0; b < k; b++) {
            double s = 0;
            for (int i = b * w; i < (b + 1) * w; i++) {
                s += Math.abs(u[i] - a[i]);
            }
            worst = Math.max(worst, 0.5 * s);
        }
        return worst;
    }

    /** The dual value {@code ⟨z, u⟩ − max_c (Aᵀz)_c} of a z in Z (a lower bound on the optimum). */
    double dual(double[] z, double[] u) {
        double s = 0;
        for (int i = 0; i < u.length; i++) {
            s += z[i] * u[i];
        }
        double[] g = applyTransposed(z);
        double best = Double.NEGATIVE_INFINITY;
        for (double v : g) {
            best = Math.max(best, v);
        }
        return s - best;
    }

    /** Scales z into Z if rounding left it just outside. */
    private double[] intoDualBall(double[] z) {
        double t = 0;
        for (int b = 0; b < k; b++) {
            double mx = 0;
            for (int i = b * w; i < (b + 1) * w; i++) {
                mx = Math.max(mx, Math.abs(z[i]));
            }
            t += mx;
        }
        if (t > 0.5) {
            double f = 0.5 / t * (1 - 1e-15);
            for (int i = 0; i < z.length; i++) {
                z[i] *= f;
            }
        }
        return z;
    }

    /**
     * The Euclidean projection onto {@code Z = {Σ_b ‖z_b‖_∞ ≤ ½}}: {@code z_b = clip(y_b, λ_b(θ))} with
     * {@code Σ_i (|y_bi| − λ_b)⁺ = θ} (the Moreau decomposition of the prox of {@code θ‖·‖_∞}), θ found by
     * bisection so that {@code Σ_b min(λ_b, ‖y_b‖_∞) = ½}; then scaled into Z.
     */
    double[] projectDual(double[] y) {
        double[][] sorted = new double[k][];
        double total = 0;
        double maxL1 = 0;
        for (int b = 0; b < k; b++) {
            double[] a = new double[w];
            double l1 = 0;
            for (int i = 0; i < w; i++) {
                a[i] = Math.abs(y[b * w + i]);
                l1 += a[i];
            }
            Arrays.sort(a);
            sorted[b] = a;
            total += a[w - 1];
            maxL1 = Math.max(maxL1, l1);
        }
        if (total <= 0.5) {
            return y.clone();
        }
        double lo = 0;
        double hi = maxL1;
        double[] lambda = new double[k];
        for (int iter = 0; iter < 100; iter++) {
            double theta = 0.5 * (lo + hi);
            double sum = 0;
            for (int b = 0; b < k; b++) {
                sum += level(sorted[b], theta);
            }
            if (sum > 0.5) {
                lo = theta;
            } else {
                hi = theta;
            }
            if (hi - lo <= 1e-15 * Math.max(1, hi)) {
                break;
            }
        }
        for (int b = 0; b < k; b++) {
            lambda[b] = level(sorted[b], hi);
        }
        double[] z = new double[y.length];
        for (int b = 0; b < k; b++) {
            for (int i = b * w; i < (b + 1) * w; i++) {
                z[i] = Math.max(-lambda[b], Math.min(lambda[b], y[i]));
            }
        }
        return intoDualBall(z);
    }

    /** The λ ≥ 0 with {@code Σ (a_i − λ)⁺ = θ} for sorted non-negative a (0 when {@code Σ a ≤ θ}). */
    private static double level(double[] a, double theta) {
        int n = a.length;
        double suffix = 0;
        for (int j = n - 1; j >= 0; j--) {
            suffix += a[j];
            int count = n - j;
            double lam = (suffix - theta) / count;
            double below = j > 0 ? a[j - 1] : 0;
            if (lam >= below) {
                return Math.max(0, Math.min(lam, a[n - 1]));
            }
        }
        return 0;
    }

    private double initialOmega() {
        // Balance the expected movement of α (about 1/√C) against z's (about √(2^s)/(2√K)).
        double za = Math.sqrt(w) / (2 * Math.sqrt(k));
        double aa = 1 / Math.sqrt(c);
        return za / aa;
    }

    /** An upper estimate of {@code ‖AP‖₂} (power iteration on sum-zero vectors, plus 5%). */
    private double sumZeroNorm() {
        double[] v = new double[c];
        SplittableRandom r = new SplittableRandom(0x5EED);
        for (int i = 0; i < c; i++) {
            v[i] = r.nextDouble() - 0.5;
        }
        double lambda = 0;
        for (int iter = 0; iter < 40; iter++) {
            centre(v);
            double nv = norm(v);
            if (nv == 0) {
                return 1;
            }
            for (int i = 0; i < c; i++) {
                v[i] /= nv;
            }
            double[] av = apply(v);
            double[] atav = applyTransposed(av);
            centre(atav);
            lambda = norm(atav);
            v = atav;
        }
        return Math.sqrt(Math.max(lambda, 1e-12)) * 1.05 + 1e-9;
    }

    private static void centre(double[] v) {
        double mean = 0;
        for (double x : v) {
            mean += x;
        }
        mean /= v.length;
        for (int i = 0; i < v.length; i++) {
            v[i] -= mean;
        }
    }

    private static double norm(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x * x;
        }
        return Math.sqrt(s);
    }

    private static double distance(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            double d = a[i] - b[i];
            s += d * d;
        }
        return Math.sqrt(s);
    }
}
