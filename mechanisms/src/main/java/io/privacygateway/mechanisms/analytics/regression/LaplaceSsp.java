package io.privacygateway.mechanisms.analytics.regression;

import io.privacygateway.mechanisms.accounting.Composition;
import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.analytics.AbstractWindowMechanism;
import io.privacygateway.mechanisms.analytics.AnalyticsBudget;
import io.privacygateway.mechanisms.analytics.CoefficientAnswers;
import io.privacygateway.mechanisms.analytics.GridData;
import io.privacygateway.mechanisms.analytics.Matrices;
import io.privacygateway.mechanisms.analytics.Noise;
import io.privacygateway.mechanisms.analytics.ReleasedCount;
import io.privacygateway.mechanisms.analytics.Sensitivity;
import io.privacygateway.mechanisms.central.PrivacySplit;
import io.privacygateway.mechanisms.central.sampling.DiscreteLaplace;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The pure-DP baseline for regression: sufficient-statistics perturbation with Laplace noise (Vu and Slavković
 * 2009; Foulds et al. 2016), in <b>unit scale</b>: each feature axis and the response are scaled by a power of two from
 * their public bounds ({@link GridData#unitScaled}: every axis's largest magnitude in (½, 1], each on its own 10-bit
 * integer grid), the integer sums {@code upper(XᵀX)} and {@code Xᵀy} of the scaled grid get discrete Laplace noise of
 * scale {@code >= Δ₁/ε_part} per entry (exact l1 sensitivities of those integer vectors, {@link Sensitivity#l1}: a
 * function of the public grid only; ε split equally), then post-processing: the noisy XᵀX is projected onto the PSD
 * cone (negative eigenvalues set to 0), {@code θ' = (XᵀX + λI)⁻¹ Xᵀy} with the public ridge {@code λ = √(d/2)·b_X}
 * (b_X the XᵀX noise scale in unit scale: a quarter of the typical spectral norm {@code 2√d·√2·b_X} of the d×d noise
 * matrix), and {@code θ_j = θ'_j·f_j/f_y} back in the workload's units. Pure {@code ε_count + ε_XX + ε_Xy}; λ and the
 * scales are public.
 *
 * <p><b>Why unit scale.</b> With one scale for all features (the largest bound) and the ridge in those units, a
 * feature in [0, 1] next to one up to 10⁴ rounded to 0 on the integer grid and the ridge, which grows with the largest
 * bound, pulled every coefficient toward 0, while the bars (noise only) stayed narrow: they covered the non-private
 * coefficients in about a third of the releases (issue 27; {@code LaplaceSspNaturalUnitsTest}). Without any ridge a
 * noisy XᵀX close to singular gives a wild θ once in tens of releases (excess MSE up to 2·10⁷ in 300 releases at
 * d = 3, ε = 1, n = 10³); the ridge bounds {@code ‖θ'‖ <= ‖Xᵀy‖/λ} (factor ¼ chosen on the public reference windows,
 * docs/analytics.md).
 *
 * <p><b>Bars</b> (an estimate from pure outputs and public parameters, {@link #bars}): with A the exact XᵀX of the
 * scaled grid, {@code θ̂' − θ'_OLS = A⁻¹(e − Eθ̂' − λθ̂')} while the projection is inactive; per coefficient the bar
 * is {@code θ̂_j ± (z·se_j + b_j)}: {@code se_j} the noise's standard error {@code √[Â⁻¹CÂ⁻¹]_jj}, and {@code b_j} the
 * ridge's pull {@code |λ(Â⁻¹θ̂')_j|} plus a bound on the integer grid's rounding ({@code Σ_i |Â⁻¹|_ji·w_i},
 * {@code w_i = n⁺(h_i·R + m_i(h_y + Σ_k h_k|θ̂'_k|))}: h the axes' largest rounding errors, m their largest grid
 * magnitudes, R the largest residual over the grid's cells, n⁺ a 1 − {@value #COUNT_BETA} bound on n from the
 * released count; 0 when every grid value is exact), all scaled back to the workload's units. A direction where the
 * noisy XᵀX has no eigenvalue above {@value #EIGEN_FLOOR} noise standard deviations gives capped (infinite) bars.
 */
public final class LaplaceSsp extends AbstractWindowMechanism {
    /**
     * An eigenvalue of the noisy XᵀX at or below this many noise standard deviations (unit scale) leaves its direction
     * undetermined: the bars become infinite (capped) instead of trusting {@code 1/λ}.
     */
    static final double EIGEN_FLOOR = 2;
    /** The probability that the count bound used in the rounding term understates the report count. */
    static final double COUNT_BETA = 0.001;

    private final GridData grid;
    private final long[][] xxVectors;
    private final long[][] xyVectors;
    private final double[] parts;
    private final DiscreteLaplace xxNoise;
    private final DiscreteLaplace xyNoise;
    private final double bXx;
    private final double bXy;
    private final double varXx;
    private final double varXy;

    public LaplaceSsp(Workload workload, AnalyticsBudget budget) {
        super(MechanismId.REGRESSION_SSP, workload, budget);
        this.grid = GridData.unitScaled(workload);
        this.xxVectors = grid.secondMomentVectors();
        this.xyVectors = grid.crossMomentVectors();
        this.parts = PrivacySplit.split(budget.epsilon(), 0.5, 0.5);
        this.xxNoise = Noise.laplace(Sensitivity.l1(xxVectors, budget.relation(), budget.contributions()), parts[0]);
        this.xyNoise = Noise.laplace(Sensitivity.l1(xyVectors, budget.relation(), budget.contributions()), parts[1]);
        this.bXx = xxNoise.scaleDouble() / (grid.featureScale() * grid.featureScale());
        this.bXy = xyNoise.scaleDouble() / (grid.featureScale() * grid.responseScale());
        double xxUnit = grid.featureScale() * grid.featureScale();
        double xyUnit = grid.featureScale() * grid.responseScale();
        this.varXx = xxNoise.variance() / (xxUnit * xxUnit);
        this.varXy = xyNoise.variance() / (xyUnit * xyUnit);
        charge(parts[0], parts[1]);
    }

    /**
     * The closed-form prediction at the planned n on the uniform design (noise only, first order, with the ridge),
     * computed in unit scale and returned in the workload's units (excess MSE scales with the response's unit squared).
     */
    @Override
    public double predictedError() {
        double[][] s = grid.uniformSecondMoment();
        int d = grid.dimension();
        double n = budget.plannedReports();
        double lambda = Math.max(1e-300, Matrices.lambdaMin(s) * n + ridge());
        double theta = grid.maxAbsResponse() / Math.max(1e-300, grid.maxFeatureNorm());
        double err = Math.sqrt(d * (2 * bXy * bXy + 2 * bXx * bXx * theta * theta)) / lambda;
        double tr = 0;
        for (int i = 0; i < d; i++) {
            tr += s[i][i];
        }
        double back = 1 / grid.responseFactor(); // excess MSE scales with the response's unit squared
        return 0.5 * tr / d * err * err * back * back;
    }

    /** The public ridge {@code λ = √(d/2)·b_X} (see the class comment). */
    double ridge() {
        return Math.sqrt(grid.dimension() / 2.0) * bXx;
    }

    /** The unit-scale grid whose integer statistics are perturbed. */
    GridData grid() {
        return grid;
    }

    DiscreteLaplace xxNoise() {
        return xxNoise;
    }

    DiscreteLaplace xyNoise() {
        return xyNoise;
    }

    double[] shares() {
        return parts.clone();
    }

    @Override
    public List<Parameter> parameters() {
        return List.of(new Parameter("epsilonXtX", parts[0]), new Parameter("epsilonXty", parts[1]),
                new Parameter("laplaceScaleXtX", bXx), new Parameter("laplaceScaleXty", bXy),
                new Parameter("predictedExcessMse", predictedError()));
    }

    @Override
    public Answer release(long[] counts, ReleasedCount count, RandomBits secret) {
        int d = grid.dimension();
        long[] xxUpper = GridData.windowSum(xxVectors, counts);
        long[] xy = GridData.windowSum(xyVectors, counts);
        long[] noisyUpper = new long[xxUpper.length];
        for (int k = 0; k < xxUpper.length; k++) {
            noisyUpper[k] = Math.addExact(xxUpper[k], xxNoise.sample(secret));
        }
        double[] noisyXy = new double[d];
        for (int j = 0; j < d; j++) {
            noisyXy[j] = Math.addExact(xy[j], xyNoise.sample(secret)) / (grid.featureScale() * grid.responseScale());
        }
        // post-processing of pure values only, in unit scale
        double[][] psd = Matrices.psdProjection(grid.symmetric(noisyUpper, grid.featureScale() * grid.featureScale()));
        double ridge = ridge();
        double[] unitTheta = Matrices.solve(psd, ridge, noisyXy);
        for (double v : unitTheta) {
            if (!Double.isFinite(v)) {
                unitTheta = new double[d];
                break;
            }
        }
        Matrices.Eigen eigen = Matrices.eigen(psd);
        double lambda = Math.max(eigen.values()[0], 0);
        Bars unit = bars(eigen, unitTheta, ridge, varXx, varXy, grid, count.upper(COUNT_BETA));
        double[] theta = new double[d];
        double[] se = new double[d];
        double[] bias = new double[d];
        for (int j = 0; j < d; j++) { // back to the workload's units: θ_j = θ'_j·f_j/f_y
            double back = grid.featureFactor(j) / grid.responseFactor();
            theta[j] = unitTheta[j] * back;
            se[j] = unit.standardErrors()[j] * back;
            bias[j] = (unit.ridgeBias()[j] + unit.roundingBias()[j]) * back;
        }
        Map<String, Double> s = new LinkedHashMap<>();
        s.put("lambdaMinEstimate", lambda);
        s.put("ridge", ridge);
        s.put("epsilonXtX", parts[0]);
        s.put("epsilonXty", parts[1]);
        List<Answer.LevelDetail> levels = List.of(new Answer.LevelDetail(1,
                new PrivacyCost.Pure(Composition.sumEpsilon(parts[0], parts[1])), grid.maxFeatureNorm(),
                Noise.sigma(xxNoise) / (grid.featureScale() * grid.featureScale()), 0, grid.cells(),
                OptionalDouble.empty()));
        return CoefficientAnswers.of(workload, id(), cost(), count.published(), theta, se, bias, budget.confidence(),
                levels, s);
    }

    /**
     * Per-coefficient standard errors and ridge-bias estimates in unit scale.
     *
     * @param standardErrors {@code √[Â⁻¹ C Â⁻¹]_jj}
     * @param ridgeBias {@code |λ (Â⁻¹ θ̂)_j|}
     * @param roundingBias {@code Σ_i |Â⁻¹|_ji·w_i}, the bound on the grid rounding's effect (class comment)
     */
    record Bars(double[] standardErrors, double[] ridgeBias, double[] roundingBias) {}

    /**
     * The error information of a release (see the class comment), from pure outputs and public parameters only: with
     * {@code A = XᵀX}, {@code Â = A + E} (projected), {@code b̂ = Xᵀy + e}, the identity
     * {@code θ̂ − θ_OLS = A⁻¹(e − Eθ̂ − λθ̂)} (exact while the projection is inactive) splits the error into noise,
     * {@code A⁻¹(e − Eθ̂)}, of covariance {@code A⁻¹CA⁻¹} with {@code C = v_y I + v_X(‖θ̂‖²I + θ̂θ̂ᵀ − diag θ̂²)} (the
     * noise of the symmetric matrix has {@code d(d+1)/2} independent entries of variance {@code v_X}), and the ridge's
     * pull, {@code λA⁻¹θ̂}; A is estimated by Â. A direction where Â has no eigenvalue above the noise level gives
     * infinite bars (capped when published): the data do not determine that coefficient.
     *
     * @param eigen the eigen-decomposition of the projected noisy XᵀX (unit scale)
     * @param theta the released θ̂ (unit scale)
     * @param ridge λ
     * @param varXx {@code v_X}, the variance of each noisy XᵀX entry (unit scale)
     * @param varXy {@code v_y}, the variance of each noisy Xᵀy entry (unit scale)
     * @param grid the unit-scale grid (its rounding errors and magnitudes are public)
     * @param nUpper an upper bound on the window's report count (from the released count)
     */
    static Bars bars(Matrices.Eigen eigen, double[] theta, double ridge, double varXx, double varXy, GridData grid,
            double nUpper) {
        int d = theta.length;
        double[] mu = eigen.values();
        double floor = EIGEN_FLOOR * Math.sqrt(varXx);
        double[] se = new double[d];
        double[] bias = new double[d];
        for (int k = 0; k < d; k++) {
            if (!(mu[k] > floor)) { // not determined above the noise: no finite bar
                Arrays.fill(se, Double.POSITIVE_INFINITY);
                Arrays.fill(bias, Double.POSITIVE_INFINITY);
                return new Bars(se, bias, bias.clone());
            }
        }
        double[][] inv = eigen.matrix(l -> 1 / l);
        double t2 = Matrices.dot(theta, theta);
        double[][] c = new double[d][d];
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                c[i][j] = varXx * theta[i] * theta[j];
            }
            c[i][i] = varXy + varXx * t2;
        }
        for (int j = 0; j < d; j++) {
            double v = 0;
            double pull = 0;
            for (int a = 0; a < d; a++) {
                pull += inv[j][a] * theta[a];
                for (int b = 0; b < d; b++) {
                    v += inv[j][a] * c[a][b] * inv[j][b];
                }
            }
            se[j] = Math.sqrt(Math.max(0, v));
            bias[j] = Math.abs(ridge * pull);
        }
        // the grid's rounding: θ_grid − θ_OLS = A⁻¹w, |w_i| <= n(h_i·R + m_i(h_y + Σ_j h_j|θ_j|)), R = max_x |y_x − φ_xᵀθ|
        double residual = 0;
        for (int x = 0; x < grid.cells(); x++) {
            residual = Math.max(residual, Math.abs(grid.response(x) - Matrices.dot(grid.features(x), theta)));
        }
        double pulled = grid.responseRounding();
        for (int j = 0; j < d; j++) {
            pulled += grid.featureRounding(j) * Math.abs(theta[j]);
        }
        double[] w = new double[d];
        boolean exact = pulled == 0;
        for (int i = 0; i < d; i++) {
            w[i] = nUpper * (grid.featureRounding(i) * residual + grid.maxAbsGridFeature(i) * pulled);
            exact &= grid.featureRounding(i) == 0;
        }
        double[] rounding = new double[d];
        if (!exact) {
            for (int j = 0; j < d; j++) {
                for (int i = 0; i < d; i++) {
                    rounding[j] += Math.abs(inv[j][i]) * w[i];
                }
            }
        }
        return new Bars(se, bias, rounding);
    }
}
