package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.linalg.WalshHadamard;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The estimator of {@link FourierMarginals} (its class comment, "Server"): the unbiased Fourier coefficients
 * {@code θ̂_β}, {@code 1 <= |β| <= t}, from the output counts, the frequencies {@code p̂ = 2^{−d}(1 + Σ θ̂_β χ_β)}, and
 * the exact covariance of that estimate for a fixed dataset.
 */
final class FourierEstimator extends OracleEstimator<FourierMarginals> {
    private final int outputs;
    private final int way;
    private final int r;
    private final double[] lambda; // λ_w, w = 0..r
    private final double[] cover; // P_w, w = 0..d (0 above r)
    private final int[] betas; // the coefficients 1 <= |β| <= t, increasing
    private final int[] betaIndex; // β -> its index in betas (for the β of betas)
    private final int[][] subsetBetas; // per subset: the indices of the β ⊆ S
    private final int[][] subsetBetasRestricted; // per subset: those β restricted to S's r bits

    FourierEstimator(FourierMarginals oracle) {
        super(oracle);
        this.outputs = oracle.outputs();
        this.way = oracle.way;
        this.r = oracle.r;
        this.lambda = oracle.lambda;
        this.cover = oracle.cover;
        this.betas = oracle.betas;
        this.betaIndex = oracle.betaIndex;
        this.subsetBetas = oracle.subsetBetas;
        this.subsetBetasRestricted = oracle.subsetBetasRestricted;
    }

    /** {@code θ̂_β} for every β of {@link FourierMarginals#betas}, from the output counts of {@code n} reports. */
    double[] coefficients(long[] state, long n) {
        double[] sums = new double[betas.length];
        int mask = (1 << r) - 1;
        for (int o = 0; o < outputs; o++) {
            long c = state[o];
            if (c == 0) {
                continue;
            }
            int s = o >>> r;
            int y = o & mask;
            int[] idx = subsetBetas[s];
            int[] res = subsetBetasRestricted[s];
            for (int i = 0; i < idx.length; i++) {
                sums[idx[i]] += (Integer.bitCount(res[i] & y) & 1) == 0 ? c : -c;
            }
        }
        double[] theta = new double[betas.length];
        for (int i = 0; i < betas.length; i++) {
            int w = Integer.bitCount(betas[i]);
            theta[i] = sums[i] / (n * cover[w] * lambda[w]);
        }
        return theta;
    }

    @Override
    public double[] estimate(long[] state, long n) {
        checkIndexCounts(state, n);
        double[] theta = coefficients(state, n);
        double[] a = new double[k];
        a[0] = 1;
        for (int i = 0; i < betas.length; i++) {
            a[betas[i]] = theta[i];
        }
        WalshHadamard.transform(a);
        double scale = 1.0 / k;
        for (int x = 0; x < k; x++) {
            a[x] *= scale;
        }
        return a;
    }

    /** {@code θ = H f}: the Fourier coefficients of the frequencies, the covariance's only data-dependent part. */
    private static double[] coefficientsOf(double[] f) {
        double[] theta = f.clone();
        WalshHadamard.transform(theta);
        return theta;
    }

    /**
     * One entry {@code C_{ββ'}} of the per-report covariance of the θ̂ at {@code θ = H f} (class comment), computed
     * on demand so that no {@code b × b} matrix is held (b = 4,095 coefficients at d = t = 12). Symmetric bit for bit:
     * the arguments are ordered before the arithmetic.
     */
    private double covariance(double[] theta, int beta1, int beta2) {
        int bi = Math.max(beta1, beta2);
        int bj = Math.min(beta1, beta2);
        int wi = Integer.bitCount(bi);
        int wj = Integer.bitCount(bj);
        int union = Integer.bitCount(bi | bj);
        int diff = bi ^ bj;
        double joint = union <= r ? cover[union] * lambda[Integer.bitCount(diff)] : 0;
        return theta[diff] * (joint / (cover[wi] * cover[wj] * lambda[wi] * lambda[wj]) - 1);
    }

    /** {@code ĉ = H c} restricted to the estimated coefficients. */
    private double[] transformed(double[] c) {
        double[] t = c.clone();
        WalshHadamard.transform(t);
        double[] out = new double[betas.length];
        for (int i = 0; i < betas.length; i++) {
            out[i] = t[betas[i]];
        }
        return out;
    }

    /** The indices of the non-zero entries of {@code ch}. */
    private static int[] nonZeros(double[] ch) {
        int[] idx = new int[ch.length];
        int m = 0;
        for (int i = 0; i < ch.length; i++) {
            if (ch[i] != 0) {
                idx[m++] = i;
            }
        }
        return Arrays.copyOf(idx, m);
    }

    /** {@code ĉᵀ C ĉ} over the non-zero entries of ĉ only. */
    private double quadratic(double[] theta, double[] ch) {
        int[] nz = nonZeros(ch);
        double s = 0;
        for (int i : nz) {
            double t = 0;
            for (int j : nz) {
                t += covariance(theta, betas[i], betas[j]) * ch[j];
            }
            s += ch[i] * t;
        }
        return s;
    }

    @Override
    double queryVarianceAt(double n, double[] f, double[] c) {
        return Math.max(0, quadratic(coefficientsOf(f), transformed(c))) / ((double) k * k * n);
    }

    /**
     * Every query's variance. A query that is a marginal cell up to scale, {@code c = α·[x_S = v]} with
     * {@code |S| <= t} (every query of a marginals workload), has {@code ĉ_β = α·2^{d−|S|}·χ_β(v)} on the non-empty
     * {@code β ⊆ S} and 0 elsewhere, so {@code ĉᵀCĉ = (α 2^{d−|S|})² Σ_{γ⊆S} χ_γ(v) g_S(γ)} with
     * {@code g_S(γ) = Σ_{β⊕β'=γ} C_{ββ'}} over the non-empty {@code β, β' ⊆ S}: one Walsh–Hadamard transform of
     * {@code g_S} gives all {@code 2^|S|} cells of S, in {@code O(4^|S|)} for the whole marginal instead of
     * {@code O(8^|S|)} cell by cell (at d = t = 12: 1.7·10⁷ instead of 6.9·10¹⁰ terms). Any other query takes the
     * sparse quadratic form.
     */
    @Override
    double[] queryVariancesAt(double n, double[] f, PointSet answers) {
        double[] theta = coefficientsOf(f);
        double scale = 1.0 / ((double) k * k * n);
        Map<Integer, double[]> cells = new HashMap<>();
        return o.perQuery(answers, c -> {
            double[] ch = transformed(c);
            int[] nz = nonZeros(ch);
            int set = 0;
            for (int i : nz) {
                set |= betas[i];
            }
            int size = Integer.bitCount(set);
            double alpha = cellScale(ch, nz, set);
            if (nz.length == 0 || size > way || nz.length != (1 << size) - 1 || !(alpha > 0)) {
                return Math.max(0, quadratic(theta, ch)) * scale;
            }
            int v = 0; // the cell: bit a set where ĉ of the singleton {a} is negative
            for (int s = set; s != 0; s &= s - 1) {
                int a = s & -s;
                if (ch[betaIndex[a]] < 0) {
                    v |= a;
                }
            }
            for (int i : nz) { // verify ĉ_β = α·χ_β(v) on every β ⊆ S
                double expected = (Integer.bitCount(betas[i] & v) & 1) == 0 ? alpha : -alpha;
                if (Math.abs(ch[i] - expected) > 1e-12 * alpha) {
                    return Math.max(0, quadratic(theta, ch)) * scale;
                }
            }
            double[] byCell = cells.computeIfAbsent(set, sset -> cellQuadratics(theta, sset));
            return Math.max(0, alpha * alpha * byCell[FourierMarginals.restrict(v, set)]) * scale;
        });
    }

    /** {@code |ĉ_{a}|} of the singletons of S when they all agree (and S is non-empty), else 0. */
    private double cellScale(double[] ch, int[] nz, int set) {
        if (nz.length == 0) {
            return 0;
        }
        double alpha = -1;
        for (int s = set; s != 0; s &= s - 1) {
            int a = s & -s;
            double m = Math.abs(ch[betaIndex[a]]);
            if (alpha < 0) {
                alpha = m;
            } else if (m != alpha) {
                return 0;
            }
        }
        return alpha;
    }

    /** {@code Σ_{γ⊆S} χ_γ(u) g_S(γ)} for every cell u of S (indexed by {@link FourierMarginals#restrict}). */
    private double[] cellQuadratics(double[] theta, int set) {
        int size = Integer.bitCount(set);
        double[] g = new double[1 << size];
        for (int b1 = set; b1 != 0; b1 = (b1 - 1) & set) {
            for (int b2 = set; b2 != 0; b2 = (b2 - 1) & set) {
                g[FourierMarginals.restrict(b1 ^ b2, set)] += covariance(theta, b1, b2);
            }
        }
        WalshHadamard.transform(g);
        return g;
    }

    @Override
    double[] variancesAt(double n, double[] f) {
        double[] theta = coefficientsOf(f);
        // Var(p̂_x) = k^-2 Σ_{β,β'} χ_β(x) χ_β'(x) C_{ββ'} = k^-2 (H g)_x with g_γ = Σ_{β⊕β'=γ} C_{ββ'}
        double[] g = new double[k];
        for (int bi : betas) {
            for (int bj : betas) {
                g[bi ^ bj] += covariance(theta, bi, bj);
            }
        }
        WalshHadamard.transform(g);
        double scale = 1.0 / ((double) k * k * n);
        for (int x = 0; x < k; x++) {
            g[x] = Math.max(0, g[x]) * scale;
        }
        return g;
    }

    @Override
    double[] covarianceTimesAt(double n, double[] f, double[] u) {
        double[] theta = coefficientsOf(f);
        double[] uh = transformed(u);
        int[] nz = nonZeros(uh);
        double[] a = new double[k];
        for (int bi : betas) {
            double s = 0;
            for (int j : nz) {
                s += covariance(theta, bi, betas[j]) * uh[j];
            }
            a[bi] = s;
        }
        WalshHadamard.transform(a);
        double scale = 1.0 / ((double) k * k * n);
        for (int x = 0; x < k; x++) {
            a[x] *= scale;
        }
        return a;
    }
}
