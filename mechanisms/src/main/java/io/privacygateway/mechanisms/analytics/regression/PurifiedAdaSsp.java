package io.privacygateway.mechanisms.analytics.regression;

import io.privacygateway.mechanisms.accounting.Conversions;
import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.analytics.AnalyticsBudget;
import io.privacygateway.mechanisms.analytics.CoefficientAnswers;
import io.privacygateway.mechanisms.analytics.ExactPsd;
import io.privacygateway.mechanisms.analytics.GridData;
import io.privacygateway.mechanisms.analytics.Matrices;
import io.privacygateway.mechanisms.analytics.Noise;
import io.privacygateway.mechanisms.analytics.ReleasedCount;
import io.privacygateway.mechanisms.analytics.Sensitivity;
import io.privacygateway.mechanisms.analytics.AbstractWindowMechanism;
import io.privacygateway.mechanisms.central.PrivacySplit;
import io.privacygateway.mechanisms.central.purification.Purifier;
import io.privacygateway.mechanisms.central.sampling.DiscreteGaussian;
import io.privacygateway.mechanisms.central.sampling.DiscreteLaplace;
import io.privacygateway.mechanisms.central.sampling.LqNorm;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Pure-DP linear regression: AdaSSP (Wang 2018, Algorithm 2) localized, clipped and purified (purification paper
 * §5.3, Algorithm 13).
 *
 * <ol>
 *   <li><b>λ_min, pure</b> (share ε_λ): {@code q = ⌊λ_min(XᵀX)/s⌋} computed exactly ({@link ExactPsd}) plus discrete
 *       Laplace noise of scale {@code >= ⌈Δ_λ/s⌉/ε_λ}, {@code Δ_λ = L·max_x‖Φ_x‖²} (Weyl: one device's reports change
 *       XᵀX by a matrix of operator norm at most Δ_λ under both neighbour relations; the floor of a quotient moves
 *       by at most the ceiling of the move). <em>Difference from the paper</em>: AdaSSP releases λ_min with Gaussian
 *       noise inside its (ε, δ) part; releasing it purely makes the ridge, the trust region and the published error
 *       estimate functions of pure outputs.</li>
 *   <li><b>Sufficient statistics, Gaussian</b> (share ε_apx): the integer sums {@code upper(XᵀX)} and {@code Xᵀy} on
 *       the grid of {@link GridData} plus discrete Gaussian noise, each with half of ρ, ρ the largest with
 *       {@code (ε_apx, δ)} ({@link Conversions#largestRho}); the l2 sensitivities are exact
 *       ({@link Sensitivity#l2Squared}). So the noisy statistics are {@code (ε_apx, δ)}-DP given the released
 *       count and λ̃.</li>
 *   <li><b>Post-processing</b>: ridge {@code λ = max(0, 2τ₁ − λ_lo)} (τ₁ a 1 − ζ bound on ‖E₁‖_op, λ_lo a 1 − ζ lower
 *       bound on λ_min from λ̃), so that {@code λ_min(XᵀX + E₁ + λI) >= τ₁} with probability 1 − 2ζ;
 *       {@code θ̃ = (XᵀX + E₁ + λI)^{-1}(Xᵀy + E₂)}; the trust region (Algorithm 13, lines 3–4)
 *       {@code R̃ = (n_hi·‖𝒳‖·‖𝒴‖ + τ₂)/(λ_lo + λ − τ₁)} from the released count, λ̃ and public bounds, and
 *       θ̃ projected onto the l2 ball of radius R̃.</li>
 *   <li><b>Purification</b> (share ε'): {@link Purifier} on that ball (l2, diameter 2R̃) with the δ of step 2 and
 *       mixing weight ω: pure {@code ε_apx + ε'} given the released count and λ̃ (Theorem 1; the ball is a function of
 *       earlier pure outputs, so the guarantee holds for every value they take).</li>
 * </ol>
 * Total: {@code ε_count + ε_λ + ε_apx + ε'}, the exact sum of the shares rounded up ({@link #cost()}).
 *
 * <p><b>Planning</b> (public, once per workload): ε' and (δ, ω) minimise a closed-form prediction of the error at
 * the planned n on the uniform distribution over the feature grid ({@link #predictedError}).
 */
public final class PurifiedAdaSsp extends AbstractWindowMechanism {
    /** Failure probability of the high-probability bounds used for the ridge and the trust region. */
    static final double ZETA = 0.01;
    private static final double LAMBDA_SHARE = 0.1;
    private static final double[] PURIFICATION_SHARES = {0.1, 0.2, 0.3, 0.4};
    private static final double[] OMEGAS = {1e-3, 1e-5, 1e-7, 1e-9};

    private final GridData grid;
    private final long[][] xxVectors;
    private final long[][] xyVectors;
    private final long lambdaStep;
    private final long lambdaSensitivity;
    private final DiscreteLaplace lambdaNoise;
    private final double epsilonLambda;
    private final double epsilonApprox;
    private final double epsilonPrime;
    private final LogDelta logDelta;
    private final double omega;
    private final double rho;
    private final DiscreteGaussian xxNoise;
    private final DiscreteGaussian xyNoise;
    private final double sigmaXx;
    private final double sigmaXy;
    private final double predicted;

    public PurifiedAdaSsp(Workload workload, AnalyticsBudget budget) {
        super(MechanismId.REGRESSION_ADASSP, workload, budget);
        this.grid = GridData.of(workload);
        this.xxVectors = grid.secondMomentVectors();
        this.xyVectors = grid.crossMomentVectors();
        int l = budget.contributions();
        BigInteger xx2 = Sensitivity.l2Squared(xxVectors, budget.relation(), l);
        BigInteger xy2 = Sensitivity.l2Squared(xyVectors, budget.relation(), l);
        long maxNormSq = 0;
        for (int x = 0; x < grid.cells(); x++) {
            long s = 0;
            for (long v : grid.gridFeatures(x)) {
                s = Math.addExact(s, v * v);
            }
            maxNormSq = Math.max(maxNormSq, s);
        }
        long dLambda = Math.multiplyExact(maxNormSq, (long) l);
        this.lambdaStep = Math.max(1, dLambda / 64);
        long kLambda = Math.max(1, (dLambda + lambdaStep - 1) / lambdaStep);
        this.lambdaSensitivity = kLambda;
        Plan best = null;
        for (double pur : PURIFICATION_SHARES) {
            double[] parts = PrivacySplit.split(budget.epsilon(), LAMBDA_SHARE, 1 - LAMBDA_SHARE - pur, pur);
            for (double omegaTry : OMEGAS) {
                for (int lk = 1; lk <= 24; lk++) {
                    double lnKappa = -1.5 * lk;
                    double ld = grid.dimension() * lnKappa + Math.log(2 * omegaTry);
                    Plan p = Plan.of(this, parts, omegaTry, ld, xx2, xy2, kLambda);
                    if (p != null && (best == null || p.error < best.error)) {
                        best = p;
                    }
                }
            }
        }
        if (best == null) {
            throw new IllegalArgumentException("adassp: no parameters fit ε = " + budget.epsilon()
                    + " (the noise would exceed the samplers' limits)");
        }
        this.epsilonLambda = best.parts[0];
        this.epsilonApprox = best.parts[1];
        this.epsilonPrime = best.parts[2];
        this.omega = best.omega;
        this.logDelta = best.logDelta;
        this.rho = best.rho;
        this.xxNoise = best.xxNoise;
        this.xyNoise = best.xyNoise;
        this.lambdaNoise = best.lambdaNoise;
        this.sigmaXx = Noise.sigma(xxNoise) / (grid.featureScale() * grid.featureScale());
        this.sigmaXy = Noise.sigma(xyNoise) / (grid.featureScale() * grid.responseScale());
        this.predicted = best.error;
        charge(epsilonLambda, epsilonApprox,
                epsilonPrime);
    }

    /** One parameter choice and its predicted error at the planned n. */
    private record Plan(double[] parts, double omega, LogDelta logDelta, double rho, DiscreteGaussian xxNoise,
            DiscreteGaussian xyNoise, DiscreteLaplace lambdaNoise, double error) {
        static Plan of(PurifiedAdaSsp m, double[] parts, double omega, double ld, BigInteger xx2, BigInteger xy2,
                long kLambda) {
            try {
                LogDelta logDelta = new LogDelta(ld);
                double rho = Conversions.largestRho(parts[1], logDelta);
                double[] half = PrivacySplit.split(rho, 0.5, 0.5);
                DiscreteGaussian gxx = Noise.gaussian(xx2, half[0]);
                DiscreteGaussian gxy = Noise.gaussian(xy2, half[1]);
                DiscreteLaplace lam = Noise.laplace(BigInteger.valueOf(kLambda), parts[0]);
                GridData g = m.grid;
                double s2 = g.featureScale() * g.featureScale();
                double sxx = Noise.sigma(gxx) / s2;
                double sxy = Noise.sigma(gxy) / (g.featureScale() * g.responseScale());
                double n = m.budget.plannedReports();
                double lambdaRef = Math.max(0, Matrices.lambdaMin(g.uniformSecondMoment())) * n;
                double thetaRef = g.maxAbsResponse() / Math.max(1e-300, g.maxFeatureNorm());
                Estimate e = m.estimate(n, n, lambdaRef, lambdaRef, thetaRef, sxx, sxy,
                        new Purification(parts[2], logDelta, omega));
                return new Plan(parts, omega, logDelta, rho, gxx, gxy, lam, e.excessMse(g));
            } catch (IllegalArgumentException | ArithmeticException e) {
                return null;
            }
        }
    }

    private record Purification(double epsilonPrime, LogDelta logDelta, double omega) {}

    /**
     * The ridge, trust region, purifier and error estimate for given (pure or planned) inputs.
     *
     * @param nHigh an upper bound on n
     * @param lambdaLower a lower bound on λ_min(XᵀX)
     * @param lambdaEstimate a point estimate of λ_min(XᵀX)
     * @param thetaNorm an estimate of ‖θ‖
     */
    private Estimate estimate(double nHigh, double nEstimate, double lambdaLower, double lambdaEstimate,
            double thetaNorm, double sxx, double sxy, Purification p) {
        int d = grid.dimension();
        double tau1 = Noise.symmetricOperatorTail(sxx, d, ZETA);
        double tau2 = Math.sqrt(d) * Noise.gaussianTail(sxy, ZETA / d);
        double ridge = Math.max(0, 2 * tau1 - lambdaLower);
        double floor = Math.max(tau1, lambdaLower + ridge - tau1);
        double radius = (nHigh * grid.maxFeatureNorm() * grid.maxAbsResponse() + tau2) / Math.max(floor, 1e-300);
        radius = Math.min(Math.max(radius, 1e-6), 1e12);
        Purifier purifier = new Purifier(LqNorm.L2, new double[d], 2 * radius,
                Epsilon.exactly(new BigDecimal(p.epsilonPrime)), p.logDelta, p.omega);
        double denom = Math.max(lambdaEstimate, 0) + ridge;
        double noise = Math.sqrt(d * (sxy * sxy + sxx * sxx * thetaNorm * thetaNorm)) / Math.max(denom, 1e-300);
        double bias = ridge * thetaNorm / Math.max(denom, 1e-300);
        double pur = Math.sqrt(2.0 * d) * purifier.noiseScale() + p.omega * 2 * radius + d * purifier.gridStep();
        double err = Math.sqrt(noise * noise + bias * bias + pur * pur);
        return new Estimate(ridge, tau1, radius, purifier, Math.min(err, 2 * radius + pur), nEstimate);
    }

    private record Estimate(double ridge, double tau1, double radius, Purifier purifier, double error, double n) {
        /** The excess MSE of an error of this size on the uniform design: ½·(tr Σ/d)·err². */
        double excessMse(GridData g) {
            double[][] s = g.uniformSecondMoment();
            double tr = 0;
            for (int i = 0; i < s.length; i++) {
                tr += s[i][i];
            }
            return 0.5 * tr / s.length * error * error;
        }
    }

    @Override
    public double predictedError() {
        return predicted;
    }

    /** ρ of the Gaussian part (split equally between XᵀX and Xᵀy). */
    public double rho() {
        return rho;
    }

    public LogDelta logDelta() {
        return logDelta;
    }

    // ---- for tests: the calibrated pieces ----
    long lambdaStep() {
        return lambdaStep;
    }

    /** The sensitivity of {@code ⌊λ_min/s⌋} (steps): {@code ⌈L·max‖Φ‖²/s⌉}. */
    long lambdaSensitivity() {
        return lambdaSensitivity;
    }

    DiscreteLaplace lambdaNoise() {
        return lambdaNoise;
    }

    DiscreteGaussian xxNoise() {
        return xxNoise;
    }

    DiscreteGaussian xyNoise() {
        return xyNoise;
    }

    double[] shares() {
        return new double[] {epsilonLambda, epsilonApprox, epsilonPrime};
    }

    @Override
    public List<Parameter> parameters() {
        return List.of(new Parameter("epsilonLambda", epsilonLambda), new Parameter("epsilonApprox", epsilonApprox),
                new Parameter("rho", rho), new Parameter("logDelta", logDelta.value()),
                new Parameter("epsilonPurification", epsilonPrime), new Parameter("omega", omega),
                new Parameter("sigmaXtX", sigmaXx), new Parameter("sigmaXty", sigmaXy),
                new Parameter("predictedExcessMse", predicted));
    }

    /** The pure release of {@code ⌊λ_min(XᵀX)/s⌋} (integer units of the grid), exact before the noise. */
    long releaseLambdaSteps(long[][] xtx, RandomBits secret) {
        double estimate = Matrices.lambdaMin(toDouble(xtx));
        return ExactPsd.floorLambdaMin(xtx, lambdaStep, estimate) + lambdaNoise.sample(secret);
    }

    private static double[][] toDouble(long[][] m) {
        double[][] out = new double[m.length][m.length];
        for (int i = 0; i < m.length; i++) {
            for (int j = 0; j < m.length; j++) {
                out[i][j] = m[i][j];
            }
        }
        return out;
    }

    @Override
    public Answer release(long[] counts, ReleasedCount count, RandomBits secret) {
        int d = grid.dimension();
        double s2 = grid.featureScale() * grid.featureScale();
        long[] xxUpper = GridData.windowSum(xxVectors, counts);
        long[] xy = GridData.windowSum(xyVectors, counts);
        // 1. λ_min, pure
        long q = releaseLambdaSteps(grid.symmetricExact(xxUpper), secret);
        double lambdaTilde = (double) q * lambdaStep / s2;
        double lambdaTail = lambdaNoise.scaleDouble() * Math.log(2 / ZETA) * lambdaStep / s2;
        double lambdaLower = Math.max(0, lambdaTilde - lambdaTail);
        // 2. the Gaussian sufficient statistics ((ε_apx, δ) part)
        long[] noisyUpper = new long[xxUpper.length];
        for (int k = 0; k < xxUpper.length; k++) {
            noisyUpper[k] = Math.addExact(xxUpper[k], xxNoise.sample(secret));
        }
        double[] noisyXy = new double[d];
        for (int j = 0; j < d; j++) {
            noisyXy[j] = Math.addExact(xy[j], xyNoise.sample(secret)) / (grid.featureScale() * grid.responseScale());
        }
        double[][] noisyXx = grid.symmetric(noisyUpper, s2);
        // 3. ridge, trust region (from the pure count and λ̃), clipping
        Estimate plan = estimate(count.upper(ZETA), count.divisor(), lambdaLower, lambdaTilde, 0, sigmaXx, sigmaXy,
                new Purification(epsilonPrime, logDelta, omega));
        double[] theta = Matrices.solve(noisyXx, plan.ridge, noisyXy);
        for (double v : theta) {
            if (!Double.isFinite(v)) {
                theta = new double[d];
                break;
            }
        }
        double[] clipped = Matrices.projectToBall(theta, plan.radius);
        // 4. purification: the only value published from the (ε_apx, δ) part
        double[] pure = plan.purifier.purify(clipped, secret);
        Estimate published = estimate(count.upper(ZETA), count.divisor(), lambdaLower, lambdaTilde,
                Matrices.norm(pure), sigmaXx, sigmaXy, new Purification(epsilonPrime, logDelta, omega));
        Map<String, Double> s = new LinkedHashMap<>();
        s.put("ridge", plan.ridge);
        s.put("trustRadius", plan.radius);
        s.put("lambdaMinEstimate", lambdaTilde);
        s.put("epsilonLambda", epsilonLambda);
        s.put("epsilonApprox", epsilonApprox);
        s.put("rho", rho);
        s.put("logDelta", logDelta.value());
        s.put("epsilonPurification", epsilonPrime);
        s.put("purificationNoiseScale", plan.purifier.noiseScale());
        List<Answer.LevelDetail> levels = List.of(
                new Answer.LevelDetail(1, new PrivacyCost.Pure(epsilonLambda), grid.maxFeatureNorm(),
                        lambdaNoise.scaleDouble() * lambdaStep / s2, 0, grid.cells(), OptionalDouble.empty()),
                new Answer.LevelDetail(2, new PrivacyCost.Zcdp(rho), grid.maxFeatureNorm(), sigmaXx, 0, grid.cells(),
                        OptionalDouble.empty()));
        return CoefficientAnswers.of(workload, id(), cost(), count.published(), pure, published.error,
                budget.confidence(), levels, s);
    }
}
