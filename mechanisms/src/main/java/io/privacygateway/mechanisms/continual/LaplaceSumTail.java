package io.privacygateway.mechanisms.continual;

import io.privacygateway.mechanisms.param.Require;

/**
 * Tail bounds for {@code S = Σ_i w_i·η_i}: independent discrete Laplace variables {@code η_i} of scale t
 * ({@code P(η = k) ∝ e^{−|k|/t}}) with weights {@code 0 <= w_i <= 1} (given as distinct weights with multiplicities).
 *
 * <p><b>Bound.</b> For {@code |s| < 1/t} the moment generating function is
 * {@code M(s) = E e^{sη} = (1 − β)²/((1 − βe^s)(1 − βe^{−s}))} with {@code β = e^{−1/t}}, so for every
 * {@code 0 < λ < 1/(t·max w)} Chernoff's inequality and symmetry give
 * {@code P(|S| >= a) <= 2·exp(Σ_i ln M(λw_i) − λa)}. {@link #halfWidth} returns
 * {@code min_λ (Σ_i ln M(λw_i) + ln(2/β_f))/λ}, minimised by golden-section search: every λ gives a valid bound, so an
 * imprecise minimum only widens the interval, and the value is inflated by {@code 10⁻⁹} relative and absolute to
 * cover the rounding of the logarithms. For many terms this is close to the Gaussian {@code √(2·Var S·ln(2/β_f))};
 * it grows like the square root of the number of terms.
 */
public final class LaplaceSumTail {
    private LaplaceSumTail() {}

    /**
     * An {@code a} with {@code P(|Σ_i w_i η_i| >= a) <= failure}.
     *
     * @param scale the noise scale t, finite and {@code > 0}
     * @param weights distinct weights in {@code [0, 1]}
     * @param multiplicity how many terms have each weight ({@code >= 0})
     * @param failure the allowed probability, in {@code (0, 1)}
     */
    public static double halfWidth(double scale, double[] weights, long[] multiplicity, double failure) {
        return halfWidth(scale, new double[][] {weights}, new long[][] {multiplicity}, failure);
    }

    /**
     * An {@code a} with {@code P(|S_j| >= a) <= failure} for every one of several weighted sums {@code S_j} (weight sets
     * {@code weights[j]} with {@code multiplicity[j]}): {@code min_λ max_j} of the bound, so a weight vector that is
     * unknown but lies between sets where the log-MGF is convex in it (e.g. {@code |Q_x − c|} for c between two ends)
     * is covered by the sets at the ends.
     */
    public static double halfWidth(double scale, double[][] weights, long[][] multiplicity, double failure) {
        Require.finitePositive("scale", scale);
        Require.inOpenRange("failure", failure, 0, 1);
        if (weights.length != multiplicity.length || weights.length == 0) {
            throw new IllegalArgumentException("weights and multiplicity must be non-empty and of the same length");
        }
        double wMax = 0;
        for (int j = 0; j < weights.length; j++) {
            if (weights[j].length != multiplicity[j].length) {
                throw new IllegalArgumentException("weights[" + j + "] and multiplicity[" + j + "] differ in length");
            }
            for (int i = 0; i < weights[j].length; i++) {
                Require.inClosedRange("weights[" + j + "][" + i + "]", weights[j][i], 0, 1);
                if (multiplicity[j][i] < 0) {
                    throw new IllegalArgumentException("multiplicity must be >= 0, got " + multiplicity[j][i]);
                }
                if (multiplicity[j][i] > 0) {
                    wMax = Math.max(wMax, weights[j][i]);
                }
            }
        }
        if (wMax == 0) {
            return 0;
        }
        double c = Math.log(2 / failure);
        double lo = 0;
        double hi = 1;
        double g = (Math.sqrt(5) - 1) / 2;
        double x1 = hi - g * (hi - lo);
        double x2 = lo + g * (hi - lo);
        double f1 = bound(x1, scale, wMax, weights, multiplicity, c);
        double f2 = bound(x2, scale, wMax, weights, multiplicity, c);
        for (int it = 0; it < 60; it++) {
            if (f1 <= f2) {
                hi = x2;
                x2 = x1;
                f2 = f1;
                x1 = hi - g * (hi - lo);
                f1 = bound(x1, scale, wMax, weights, multiplicity, c);
            } else {
                lo = x1;
                x1 = x2;
                f1 = f2;
                x2 = lo + g * (hi - lo);
                f2 = bound(x2, scale, wMax, weights, multiplicity, c);
            }
        }
        double best = Math.min(f1, f2);
        return best * (1 + 1e-9) + 1e-9;
    }

    /** The largest of the sets' bounds at {@code λ = u/(t·wMax)}, {@code 0 < u < 1}; +∞ outside. */
    private static double bound(double u, double scale, double wMax, double[][] w, long[][] mult, double c) {
        if (!(u > 0 && u < 1)) {
            return Double.POSITIVE_INFINITY;
        }
        double lambda = u / (scale * wMax);
        double worst = 0;
        for (int j = 0; j < w.length; j++) {
            double k = 0;
            boolean any = false;
            for (int i = 0; i < w[j].length; i++) {
                if (mult[j][i] > 0 && w[j][i] > 0) {
                    k += mult[j][i] * logMgf(lambda * w[j][i], scale);
                    any = true;
                }
            }
            if (!any) {
                continue; // S_j = 0
            }
            double v = (k + c) / lambda;
            worst = Math.max(worst, Double.isFinite(v) ? v : Double.POSITIVE_INFINITY);
        }
        return worst;
    }

    /**
     * {@code ln E e^{sη}} for discrete Laplace of scale t, {@code |s| < 1/t}:
     * {@code 2 ln(1 − e^{−1/t}) − ln(1 − e^{s − 1/t}) − ln(1 − e^{−s − 1/t})}, with {@code expm1} for accuracy.
     */
    static double logMgf(double s, double scale) {
        double inv = 1 / scale;
        return 2 * Math.log(-Math.expm1(-inv)) - Math.log(-Math.expm1(s - inv)) - Math.log(-Math.expm1(-s - inv));
    }
}
