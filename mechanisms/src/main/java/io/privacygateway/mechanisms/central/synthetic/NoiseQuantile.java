package io.privacygateway.mechanisms.central.synthetic;

import io.privacygateway.mechanisms.central.sampling.DiscreteLaplace;
import io.privacygateway.mechanisms.param.Require;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.commons.numbers.gamma.RegularizedBeta;

/**
 * Upper bounds on the quantiles the certificate needs (the paper's "privatization error" term
 * {@code q_{1−β}(G(0, η))} of eq. (4)), computed from public parameters only, never by Monte Carlo.
 *
 * <p><b>Table noise.</b> Every table b carries {@code η_b = Φξ_b} (count units), ξ_b i.i.d. discrete Laplace of
 * scale t on {@code 2^s} coefficients, independent across tables. {@link #tableNoise} returns a z with
 * {@code P(max_b ½‖η_b‖₁ > z) <= β} by the union bound over the K tables:
 * <ul>
 *   <li>identity ({@code Φ = I}): the exact tail of {@code Σ_i |ξ_i|}. {@code |ξ|} is 0 with probability
 *       {@code p₀ = (1−q)/(1+q)} ({@code q = e^{−1/t}}) and otherwise {@code 1 + G} with G geometric
 *       ({@code P(G = g) = (1−q)q^g}); a sum of j such terms is {@code j + NB(j, 1−q)}, whose tail is the
 *       regularized incomplete beta {@code P(NB > y) = I_q(y+1, j)}. So
 *       {@code P(Σ|ξ_i| > x) = Σ_j C(m,j)(1−p₀)^j p₀^{m−j}·P(NB(j) > x − j)}, evaluated in floating point
 *       (relative error far below 10⁻⁶, immaterial for a failure probability), and x is the smallest
 *       integer with {@code K·P(Σ|ξ_i| > x) <= β}; z = x/2.</li>
 *   <li>Haar ({@code Φ = M_s}): {@code ‖Φξ‖₁ = max_σ σᵀΦξ} over sign vectors σ, so
 *       {@code P(‖Φξ‖₁ > x) <= Σ_σ P(σᵀΦξ > x)}, each bounded by Chernoff with the exact moment generating
 *       function {@code E e^{uξ} = (1−q)²/((1−qe^u)(1−qe^{−u}))} ({@code |u| < 1/t}); sign vectors with the
 *       same multiset of {@code |Φᵀσ|} share one bound.</li>
 * </ul>
 *
 * <p><b>Count noise.</b> {@link #countRadius}: the smallest integer r with
 * {@code P(|η| > r) = 2q^{r+1}/(1+q) <= β} for the discrete Laplace on the count.
 */
public final class NoiseQuantile {
    private NoiseQuantile() {}

    /**
     * A z (count units) with {@code P(max over K tables of ½‖Φξ_b‖₁ > z) <= beta}.
     *
     * @param basis Φ's basis
     * @param way s (tables of {@code 2^s} cells)
     * @param tables K
     * @param noise the coefficient noise (scale t)
     * @param beta the failure probability, in (0, 1)
     */
    public static double tableNoise(NoiseBasis basis, int way, int tables, DiscreteLaplace noise, double beta) {
        Require.nonNull("basis", basis);
        Require.positive("tables", tables);
        Require.nonNull("noise", noise);
        Require.inOpenRange("beta", beta, 0, 1);
        double perTable = beta / tables;
        if (basis == NoiseBasis.IDENTITY) {
            return 0.5 * identityQuantile(1 << way, noise, perTable);
        }
        return 0.5 * signPatternQuantile(basis.synthesis(way), noise, perTable);
    }

    /** The smallest integer r with {@code P(|η| > r) <= beta} for η discrete Laplace. */
    public static long countRadius(DiscreteLaplace noise, double beta) {
        Require.nonNull("noise", noise);
        Require.inOpenRange("beta", beta, 0, 1);
        double t = noise.scaleDouble();
        double q = noise.beta();
        // 2q^{r+1}/(1+q) <= beta  ⇔  (r+1)/t >= ln(2/(beta(1+q)))
        double r = Math.ceil(t * Math.log(2 / (beta * (1 + q)))) - 1;
        long out = (long) Math.max(0, r);
        while (absTail(noise, out) > beta) {
            out++;
        }
        return out;
    }

    /** {@code P(|η| > r) = 2q^{r+1}/(1+q)}. */
    static double absTail(DiscreteLaplace noise, long r) {
        double q = noise.beta();
        return 2 * Math.exp(-(r + 1) / noise.scaleDouble()) / (1 + q);
    }

    /** {@code P(Σ_{i<m} |ξ_i| > x)}, exact up to floating point. */
    static double sumAbsTail(int m, DiscreteLaplace noise, long x) {
        double t = noise.scaleDouble();
        double q = noise.beta();
        double oneMinusQ = -Math.expm1(-1 / t);
        double p0 = oneMinusQ / (1 + q);
        double tail = 0;
        for (int j = 1; j <= m; j++) {
            double weight = Math.exp(logBinomial(m, j) + j * Math.log1p(-p0) + (m - j) * Math.log(p0));
            double nb = x < j ? 1 : RegularizedBeta.value(q, x - j + 1.0, j);
            tail += weight * nb;
        }
        return Math.min(1, tail);
    }

    private static double identityQuantile(int m, DiscreteLaplace noise, double beta) {
        long hi = 1;
        while (sumAbsTail(m, noise, hi) > beta) {
            hi *= 2;
        }
        long lo = 0;
        if (sumAbsTail(m, noise, 0) <= beta) {
            return 0;
        }
        while (hi - lo > 1) { // tail(lo) > beta >= tail(hi)
            long mid = (lo + hi) >>> 1;
            if (sumAbsTail(m, noise, mid) > beta) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return hi;
    }

    private static double signPatternQuantile(long[][] synthesis, DiscreteLaplace noise, double beta) {
        int m = synthesis.length;
        // Φ = synthesis / m; a = Φᵀσ; group sign vectors by the sorted |a|.
        Map<String, double[]> groups = new HashMap<>();
        Map<String, Integer> mult = new HashMap<>();
        for (long sigma = 0; sigma < (1L << m); sigma++) {
            double[] a = new double[m];
            for (int j = 0; j < m; j++) {
                long s = 0;
                for (int i = 0; i < m; i++) {
                    s += ((sigma >>> i) & 1) == 1 ? -synthesis[i][j] : synthesis[i][j];
                }
                a[j] = Math.abs((double) s / m);
            }
            Arrays.sort(a);
            String key = Arrays.toString(a);
            groups.putIfAbsent(key, a);
            mult.merge(key, 1, Integer::sum);
        }
        double t = noise.scaleDouble();
        double hi = t;
        while (signPatternTail(groups, mult, t, hi) > beta) {
            hi *= 2;
        }
        double lo = 0;
        for (int i = 0; i < 100 && hi - lo > 1e-7 * hi; i++) {
            double mid = 0.5 * (lo + hi);
            if (signPatternTail(groups, mult, t, mid) > beta) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return hi;
    }

    private static double signPatternTail(Map<String, double[]> groups, Map<String, Integer> mult, double t, double x) {
        double total = 0;
        for (Map.Entry<String, double[]> e : groups.entrySet()) {
            total += mult.get(e.getKey()) * Math.exp(chernoffLog(e.getValue(), t, x));
        }
        return Math.min(1, total);
    }

    /** {@code min_λ [−λx + Σ_j ln E e^{λ a_j ξ}]} for ξ discrete Laplace of scale t (golden-section on λ). */
    static double chernoffLog(double[] a, double t, double x) {
        double amax = 0;
        for (double v : a) {
            amax = Math.max(amax, v);
        }
        if (amax == 0) {
            return x >= 0 ? Double.NEGATIVE_INFINITY : 0;
        }
        double lo = 0;
        double hi = (1 / t) / amax * (1 - 1e-9);
        double g = (Math.sqrt(5) - 1) / 2;
        double x1 = hi - g * (hi - lo);
        double x2 = lo + g * (hi - lo);
        double f1 = logBound(a, t, x, x1);
        double f2 = logBound(a, t, x, x2);
        for (int i = 0; i < 200 && hi - lo > 1e-9 * (1 / t) / amax; i++) {
            if (f1 < f2) {
                hi = x2;
                x2 = x1;
                f2 = f1;
                x1 = hi - g * (hi - lo);
                f1 = logBound(a, t, x, x1);
            } else {
                lo = x1;
                x1 = x2;
                f1 = f2;
                x2 = lo + g * (hi - lo);
                f2 = logBound(a, t, x, x2);
            }
        }
        return Math.min(0, Math.min(f1, f2));
    }

    private static double logBound(double[] a, double t, double x, double lambda) {
        double s = -lambda * x;
        double ln1mq = Math.log(-Math.expm1(-1 / t));
        for (double aj : a) {
            double u = lambda * aj;
            // ln[(1−q)²/((1−qe^u)(1−qe^{−u}))], q = e^{−1/t}
            s += 2 * ln1mq - Math.log(-Math.expm1(u - 1 / t)) - Math.log(-Math.expm1(-u - 1 / t));
        }
        return s;
    }

    private static double logBinomial(int n, int k) {
        double s = 0;
        for (int i = 1; i <= k; i++) {
            s += Math.log(n - k + i) - Math.log(i);
        }
        return s;
    }
}
