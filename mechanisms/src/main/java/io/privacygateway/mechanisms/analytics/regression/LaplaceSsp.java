package io.privacygateway.mechanisms.analytics.regression;

import io.privacygateway.mechanisms.accounting.Composition;
import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.analytics.AnalyticsBudget;
import io.privacygateway.mechanisms.analytics.CoefficientAnswers;
import io.privacygateway.mechanisms.analytics.GridData;
import io.privacygateway.mechanisms.analytics.Matrices;
import io.privacygateway.mechanisms.analytics.Noise;
import io.privacygateway.mechanisms.analytics.ReleasedCount;
import io.privacygateway.mechanisms.analytics.Sensitivity;
import io.privacygateway.mechanisms.analytics.AbstractWindowMechanism;
import io.privacygateway.mechanisms.central.PrivacySplit;
import io.privacygateway.mechanisms.central.sampling.DiscreteLaplace;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The pure-DP baseline for regression: sufficient-statistics perturbation with Laplace noise (Vu and Slavković
 * 2009; Foulds et al. 2016): the integer sums {@code upper(XᵀX)} and {@code Xᵀy} plus discrete Laplace noise of scale
 * {@code >= Δ₁/ε_part} per entry (exact l1 sensitivities, {@link Sensitivity#l1}; ε split equally), then
 * post-processing: the noisy XᵀX is projected onto the PSD cone (negative eigenvalues set to 0) and
 * {@code θ = (XᵀX + λI)⁻¹ Xᵀy} with the public ridge {@code λ = √(d/2)·b_X} (b_X the XᵀX noise scale in real units:
 * a quarter of the typical spectral norm {@code 2√d·√2·b_X} of the d×d noise matrix). Without the ridge a noisy XᵀX
 * close to singular gives a wild θ once in tens of releases (excess MSE up to 2·10⁷ in 300 releases at d = 3,
 * ε = 1, n = 10³), so the baseline's mean error, and the planner's choice, were a matter of luck; the ridge bounds
 * {@code ‖θ‖ <= ‖Xᵀy‖/λ}. The factor ¼ was chosen on the public reference windows (docs/analytics.md: the ridge at
 * the full noise norm shrinks typical releases, at 1/20 it leaves tails of 10³). Pure
 * {@code ε_count + ε_XX + ε_Xy}; λ is public.
 *
 * <p>The published error estimate uses only the noisy (pure) statistics:
 * {@code √(d·(2b_y² + 2b_X²‖θ‖²))/(λ_min + λ)} of the projected matrix (b the noise scales in real units), the
 * first-order effect of the noise on θ.
 */
public final class LaplaceSsp extends AbstractWindowMechanism {
    private final GridData grid;
    private final long[][] xxVectors;
    private final long[][] xyVectors;
    private final double[] parts;
    private final DiscreteLaplace xxNoise;
    private final DiscreteLaplace xyNoise;
    private final double bXx;
    private final double bXy;

    public LaplaceSsp(Workload workload, AnalyticsBudget budget) {
        super(MechanismId.REGRESSION_SSP, workload, budget);
        this.grid = GridData.of(workload);
        this.xxVectors = grid.secondMomentVectors();
        this.xyVectors = grid.crossMomentVectors();
        this.parts = PrivacySplit.split(budget.epsilon(), 0.5, 0.5);
        this.xxNoise = Noise.laplace(Sensitivity.l1(xxVectors, budget.relation(), budget.contributions()), parts[0]);
        this.xyNoise = Noise.laplace(Sensitivity.l1(xyVectors, budget.relation(), budget.contributions()), parts[1]);
        this.bXx = xxNoise.scaleDouble() / (grid.featureScale() * grid.featureScale());
        this.bXy = xyNoise.scaleDouble() / (grid.featureScale() * grid.responseScale());
        charge(parts[0], parts[1]);
    }

    /** The closed-form prediction at the planned n on the uniform design (noise only, first order, with the ridge). */
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
        return 0.5 * tr / d * err * err;
    }

    /** The public ridge {@code λ = √(d/2)·b_X} (see the class comment). */
    double ridge() {
        return Math.sqrt(grid.dimension() / 2.0) * bXx;
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
        // post-processing of pure values only
        double[][] psd = Matrices.psdProjection(grid.symmetric(noisyUpper, grid.featureScale() * grid.featureScale()));
        double ridge = ridge();
        double[] theta = Matrices.solve(psd, ridge, noisyXy);
        for (double v : theta) {
            if (!Double.isFinite(v)) {
                theta = new double[d];
                break;
            }
        }
        double lambda = Math.max(Matrices.lambdaMin(psd), 0);
        double t = Matrices.norm(theta);
        double err = Math.sqrt(d * (2 * bXy * bXy + 2 * bXx * bXx * t * t)) / Math.max(lambda + ridge, 1e-300);
        Map<String, Double> s = new LinkedHashMap<>();
        s.put("lambdaMinEstimate", lambda);
        s.put("epsilonXtX", parts[0]);
        s.put("epsilonXty", parts[1]);
        List<Answer.LevelDetail> levels = List.of(new Answer.LevelDetail(1,
                new PrivacyCost.Pure(Composition.sumEpsilon(parts[0], parts[1])), grid.maxFeatureNorm(),
                Noise.sigma(xxNoise) / (grid.featureScale() * grid.featureScale()), 0, grid.cells(),
                OptionalDouble.empty()));
        return CoefficientAnswers.of(workload, id(), cost(), count.published(), theta, err, budget.confidence(), levels,
                s);
    }
}
