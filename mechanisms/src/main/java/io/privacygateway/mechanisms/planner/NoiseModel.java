package io.privacygateway.mechanisms.planner;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.local.LocalEstimate;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.local.fo.FrequencyOracle;
import io.privacygateway.mechanisms.local.fo.FrequencyOracleEstimator;
import io.privacygateway.mechanisms.local.fo.FrequencyOracleProtocol;
import io.privacygateway.mechanisms.local.gaussian.GaussianLevel;
import io.privacygateway.mechanisms.local.gaussian.GaussianSignProtocol;
import io.privacygateway.mechanisms.protocols.LocalEstimators;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * The Gaussian approximation of a protocol's window estimate at n reports: the estimate is an average
 * of n independent reports, so for the n the planner plans for it is {@code N(E, Σ/n)} to high
 * accuracy, where E is the estimator's expectation on the data ({@link LocalProtocol#expectedLevelMean})
 * and Σ its exact per-dataset covariance:
 * <ul>
 *   <li>Gaussian-sign levels: {@code Cov(W̄) = (c²I − Σ_x f_x v_x v_xᵀ)/n}; the planner uses
 *       {@code c²I/n}, larger by at most {@code r²/(c²m) ≤ 2/(πm)} in relative trace;
 *   <li>frequency oracles: {@code Pᵀ Cov(p̂) P}, with {@code Cov(p̂)} assembled from
 *       {@link FrequencyOracle#covarianceTimes} and factored (semi-definite Cholesky).
 * </ul>
 * Sampling it is cheap, so the planner can afford many trials; protocols it cannot model (or universes
 * too large to factor) return {@code null} and are simulated report by report instead.
 */
final class NoiseModel {
    /** Above this universe size the oracle covariance is not factored. */
    static final int MAX_FACTOR_SIZE = 1024;

    private final List<double[]> expectations;
    private final List<double[]> standardErrors;
    private final List<Double> scales;
    private final List<LocalEstimate.Level> templates;
    private final double[][] factor; // oracle: lower-triangular factor of Cov(p̂) (universe space), else null
    private final PointSet points; // oracle: answer vectors
    private final double biasBound;

    private NoiseModel(List<double[]> expectations, List<double[]> standardErrors, List<Double> scales,
            List<LocalEstimate.Level> templates, double[][] factor, PointSet points, double biasBound) {
        this.expectations = expectations;
        this.standardErrors = standardErrors;
        this.scales = scales;
        this.templates = templates;
        this.factor = factor;
        this.points = points;
        this.biasBound = biasBound;
    }

    /** The model of {@code protocol} on data with histogram {@code hist} at {@code n} reports, or null. */
    static NoiseModel of(LocalProtocol protocol, PointSet answers, double[] hist, long n) {
        if (protocol instanceof GaussianSignProtocol g) {
            double biasBound = g.biasBound();
            List<double[]> ex = new ArrayList<>();
            List<double[]> se = new ArrayList<>();
            List<Double> sc = new ArrayList<>();
            List<LocalEstimate.Level> tpl = new ArrayList<>();
            for (int j = 0; j < g.levels().size(); j++) {
                GaussianLevel l = g.levels().get(j);
                double s = g.decodeScale(j) / Math.sqrt((double) n);
                double[] e = LocalEstimators.of(protocol).expectedLevelMean(j, hist);
                double[] ses = new double[e.length];
                Arrays.fill(ses, s);
                ex.add(e);
                se.add(ses);
                sc.add(s);
                tpl.add(new LocalEstimate.Level(e, ses, s, l.hull(), l.epsilon().value(), l.radius()));
            }
            return new NoiseModel(ex, se, sc, tpl, null, null, biasBound);
        }
        if (protocol instanceof FrequencyOracleProtocol f && answers.size() <= MAX_FACTOR_SIZE) {
            FrequencyOracle o = f.oracle();
            FrequencyOracleEstimator oe = FrequencyOracleEstimator.of(o);
            int k = answers.size();
            double[][] cov = new double[k][];
            double[] unit = new double[k];
            for (int x = 0; x < k; x++) {
                unit[x] = 1;
                cov[x] = oe.covarianceTimes(n, hist, unit);
                unit[x] = 0;
            }
            double[][] l = choleskySemiDefinite(cov);
            int m = answers.dim();
            double[] se = new double[m];
            // Var of answer q = ‖Lᵀ P_q‖² summed over the factor's columns
            for (int c = 0; c < k; c++) {
                for (int q = 0; q < m; q++) {
                    double s = 0;
                    for (int x = c; x < k; x++) {
                        s += l[x][c] * answers.get(x, q);
                    }
                    se[q] += s * s;
                }
            }
            double max = 0;
            for (int q = 0; q < m; q++) {
                se[q] = Math.sqrt(se[q]);
                max = Math.max(max, se[q]);
            }
            double[] e = LocalEstimators.of(protocol).expectedLevelMean(0, hist);
            LocalEstimate.Level tpl = new LocalEstimate.Level(e, se, max, null, o.epsilon().value(), 0);
            return new NoiseModel(List.of(e), List.of(se), List.of(max), List.of(tpl), l, answers, 0.0);
        }
        return null;
    }

    /** One draw of the estimate. */
    LocalEstimate sample(UniformRandomProvider rng) {
        ZigguratSampler.NormalizedGaussian normal = ZigguratSampler.NormalizedGaussian.of(rng);
        List<LocalEstimate.Level> levels = new ArrayList<>();
        for (int j = 0; j < templates.size(); j++) {
            LocalEstimate.Level t = templates.get(j);
            double[] mean = expectations.get(j).clone();
            if (factor == null) {
                double s = scales.get(j);
                for (int q = 0; q < mean.length; q++) {
                    mean[q] += s * normal.sample();
                }
            } else {
                int k = factor.length;
                double[] g = new double[k];
                for (int x = 0; x < k; x++) {
                    g[x] = normal.sample();
                }
                double[] z = new double[k];
                for (int x = 0; x < k; x++) {
                    double s = 0;
                    for (int c = 0; c <= x; c++) {
                        s += factor[x][c] * g[c];
                    }
                    z[x] = s;
                }
                double[] noise = points.combine(z);
                for (int q = 0; q < mean.length; q++) {
                    mean[q] += noise[q];
                }
            }
            levels.add(new LocalEstimate.Level(mean, standardErrors.get(j), t.noiseScale(), t.hull(), t.epsilon(),
                    t.radius()));
        }
        return new LocalEstimate(levels, biasBound);
    }

    /**
     * A lower-triangular L with {@code L·Lᵀ = A} for a symmetric positive semi-definite A (the matrix is
     * symmetrised first; pivots below a relative tolerance are treated as zero, which is exact for the
     * rank-deficient covariances of estimators whose coordinates sum to a near-constant).
     */
    static double[][] choleskySemiDefinite(double[][] a) {
        int k = a.length;
        double[][] l = new double[k][k];
        double maxDiag = 0;
        for (int i = 0; i < k; i++) {
            maxDiag = Math.max(maxDiag, a[i][i]);
        }
        double tol = 1e-12 * maxDiag;
        for (int j = 0; j < k; j++) {
            double d = a[j][j];
            for (int c = 0; c < j; c++) {
                d -= l[j][c] * l[j][c];
            }
            if (d <= tol) {
                continue; // column j stays zero
            }
            double piv = Math.sqrt(d);
            l[j][j] = piv;
            for (int i = j + 1; i < k; i++) {
                double s = 0.5 * (a[i][j] + a[j][i]);
                for (int c = 0; c < j; c++) {
                    s -= l[i][c] * l[j][c];
                }
                l[i][j] = s / piv;
            }
        }
        return l;
    }
}
