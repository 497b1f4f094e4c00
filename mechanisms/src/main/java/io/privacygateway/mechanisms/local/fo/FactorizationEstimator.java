package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.local.factorization.FactorizationEstimates;

/**
 * The estimator of a {@link FactorizationOracle}: {@code p̂ = V y/n} with {@code V} the strategy's reconstruction and
 * {@code y} the output counts; its covariance for a fixed dataset with frequencies {@code f} is
 * {@code (V diag(Qf) Vᵀ − diag(f))/n} ({@code VQ = I}), computed from the strategy's law {@code Q} and {@code V}.
 */
final class FactorizationEstimator extends OracleEstimator<FactorizationOracle> {
    private final int outputs;
    private final double[][] q; // [o][x], P(o | x)
    private final double[][] v; // [x][o], reconstruction

    FactorizationEstimator(FactorizationOracle oracle) {
        super(oracle);
        this.outputs = oracle.outputs();
        this.q = oracle.q;
        this.v = oracle.v;
    }

    @Override
    public double[] estimate(long[] state, long n) {
        checkIndexCounts(state, n);
        return FactorizationEstimates.frequencies(o.mechanism(), state, n);
    }

    /** {@code d = Q f}: the probability of each output for a dataset with frequencies f. */
    private double[] outputLaw(double[] f) {
        double[] d = new double[outputs];
        for (int o = 0; o < outputs; o++) {
            double s = 0;
            double[] r = q[o];
            for (int x = 0; x < k; x++) {
                s += r[x] * f[x];
            }
            d[o] = s;
        }
        return d;
    }

    /** {@code Vᵀ c}: the per-output coefficient of the query {@code Σ_x c_x p̂_x} (times n). */
    private double[] outputCoefficients(double[] c) {
        double[] r = new double[outputs];
        for (int x = 0; x < k; x++) {
            double cx = c[x];
            if (cx == 0) {
                continue;
            }
            double[] vx = v[x];
            for (int o = 0; o < outputs; o++) {
                r[o] += cx * vx[o];
            }
        }
        return r;
    }

    @Override
    double[] variancesAt(double n, double[] f) {
        double[] d = outputLaw(f);
        double[] out = new double[k];
        for (int x = 0; x < k; x++) {
            double s = 0;
            double[] vx = v[x];
            for (int o = 0; o < outputs; o++) {
                s += vx[o] * vx[o] * d[o];
            }
            out[x] = Math.max(0, s - f[x]) / n;
        }
        return out;
    }

    @Override
    double queryVarianceAt(double n, double[] f, double[] c) {
        double[] d = outputLaw(f);
        double[] r = outputCoefficients(c);
        double s = 0;
        for (int o = 0; o < outputs; o++) {
            s += r[o] * r[o] * d[o];
        }
        for (int x = 0; x < k; x++) {
            s -= c[x] * c[x] * f[x];
        }
        return Math.max(0, s) / n;
    }

    /** All queries at once through {@code G = V diag(Qf) Vᵀ}, each over its non-zero coefficients only. */
    @Override
    double[] queryVariancesAt(double n, double[] f, PointSet answers) {
        double[] d = outputLaw(f);
        double[][] g = new double[k][k];
        for (int i = 0; i < k; i++) {
            double[] vi = v[i];
            for (int j = 0; j <= i; j++) {
                double[] vj = v[j];
                double s = 0;
                for (int o = 0; o < outputs; o++) {
                    s += vi[o] * d[o] * vj[o];
                }
                g[i][j] = s;
                g[j][i] = s;
            }
        }
        int m = answers.dim();
        double[] out = new double[m];
        int[] nz = new int[k];
        double[] val = new double[k];
        for (int c = 0; c < m; c++) {
            int count = FactorizationOracle.nonZeros(answers, c, nz, val);
            double s = 0;
            for (int i = 0; i < count; i++) {
                double[] gi = g[nz[i]];
                double t = 0;
                for (int j = 0; j < count; j++) {
                    t += gi[nz[j]] * val[j];
                }
                s += val[i] * (t - val[i] * f[nz[i]]);
            }
            out[c] = Math.max(0, s) / n;
        }
        return out;
    }

    /** {@code (V diag(Qf) Vᵀ u − f∘u) / n}. */
    @Override
    double[] covarianceTimesAt(double n, double[] f, double[] u) {
        double[] d = outputLaw(f);
        double[] r = outputCoefficients(u);
        for (int o = 0; o < outputs; o++) {
            r[o] *= d[o];
        }
        double[] out = new double[k];
        for (int x = 0; x < k; x++) {
            double s = 0;
            double[] vx = v[x];
            for (int o = 0; o < outputs; o++) {
                s += vx[o] * r[o];
            }
            out[x] = (s - f[x] * u[x]) / n;
        }
        return out;
    }
}
