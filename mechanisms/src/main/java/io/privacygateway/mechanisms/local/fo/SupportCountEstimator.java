package io.privacygateway.mechanisms.local.fo;

/**
 * The estimator of a support-count oracle (GRR, OLH, OUE, subset selection; {@link SupportCountOracle}):
 * {@code p̂_x = (C_x/n − q*)/(p* − q*)}, unbiased. Its variances are the oracle's closed forms, which stay with the
 * device protocol because the tree derives its level oracles and branching factor from them.
 */
final class SupportCountEstimator extends OracleEstimator<SupportCountOracle> {
    SupportCountEstimator(SupportCountOracle oracle) {
        super(oracle);
    }

    @Override
    public double[] estimate(long[] state, long n) {
        o.checkState(state);
        checkN(n);
        double p = o.pStar();
        double q = o.qStar();
        double[] out = new double[k];
        for (int x = 0; x < k; x++) {
            out[x] = (state[x] / (double) n - q) / (p - q);
        }
        return out;
    }

    @Override
    double[] variancesAt(double n, double[] f) {
        return o.variancesAt(n, f);
    }

    @Override
    double queryVarianceAt(double n, double[] f, double[] c) {
        return o.queryVarianceAt(n, f, c);
    }

    /**
     * {@code Cov(p̂)·u} in {@code O(k)}: for a report with value {@code v} the support vector {@code S}
     * has {@code E S = q·1 + (p−q)·e_v}, {@code E S_x S_y} = {@code r0} for {@code x ≠ y} both {@code ≠ v}
     * and {@code r1} when one of them is {@code v}; averaging {@code E[SSᵀ]u − (E S)(E S)ᵀu} over the
     * frequencies and dividing by {@code n(p−q)²} gives the estimate's covariance times {@code u}.
     */
    @Override
    double[] covarianceTimesAt(double n, double[] f, double[] u) {
        double p = o.pStar();
        double q = o.qStar();
        double r0 = o.pairBothOther();
        double r1 = o.pairWithTrue();
        double s = 0;
        double big = 0; // Σ_v f_v u_v
        double fs = 0;
        for (int x = 0; x < k; x++) {
            s += u[x];
            big += f[x] * u[x];
            fs += f[x];
        }
        double[] out = new double[k];
        double scale = n * (p - q) * (p - q);
        for (int x = 0; x < k; x++) {
            double ux = u[x];
            double fx = f[x];
            double a = (q * fs + (p - q) * fx) * ux;
            double b = (fs - fx) * r0 * (s - ux) + (r1 - r0) * (big - fx * ux);
            double c = fx * r1 * (s - ux);
            double meanPart = q * (q * s * fs + (p - q) * big) + (p - q) * fx * (q * s + (p - q) * ux);
            out[x] = (a + b + c - meanPart) / scale;
        }
        return out;
    }
}
