package io.privacygateway.mechanisms.analytics.erm;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.analytics.AbstractWindowMechanism;
import io.privacygateway.mechanisms.analytics.AnalyticsBudget;
import io.privacygateway.mechanisms.analytics.CoefficientAnswers;
import io.privacygateway.mechanisms.analytics.LogisticModel;
import io.privacygateway.mechanisms.analytics.Matrices;
import io.privacygateway.mechanisms.analytics.Noise;
import io.privacygateway.mechanisms.analytics.ReleasedCount;
import io.privacygateway.mechanisms.central.sampling.DiscreteLaplace;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The pure-DP baseline for erm: output perturbation (Chaudhuri, Monteleoni and Sarwate 2011, Algorithm 1) with
 * discrete Laplace noise. The minimiser θ* of the Λ-strongly convex {@code J = F + (Λ/2)‖θ‖²} over the ball is
 * computed to a certified accuracy τ, put on the grid {@code h·ℤ^d}, and discrete Laplace noise is added to every
 * coordinate; the result is projected onto the ball (post-processing).
 *
 * <p><b>Privacy.</b> One device adds or removes at most L reports, i.e. a function {@code g} that is
 * {@code L‖𝒳‖}-Lipschitz (each loss is {@code ‖φ‖}-Lipschitz), so the minimiser moves by at most
 * {@code L‖𝒳‖/Λ} (the standard bound for Λ-strongly convex objectives over a convex set; {@code 2L‖𝒳‖/Λ} under
 * replace-one). The computed point is within τ of θ* by the certificate {@code ‖θ − θ*‖ <= √(2·gap/Λ)} (Frank–Wolfe
 * gap, strong convexity); the solver stops at {@code √(2·gap/Λ) <= τ/2}, the factor 2 covering the floating-point
 * error of the certificate itself (the only place where a floating-point computation enters a sensitivity bound
 * here). So the computed point moves by at most {@code Δ₂ = L‖𝒳‖/Λ + 2τ} in l2, its grid point by at most
 * {@code Δ₁ = ⌈√d·Δ₂/h⌉ + d} in l1 (grid units), and discrete Laplace noise of scale {@code >= Δ₁/ε} per coordinate
 * is pure ε. If the solver does not certify, the release fails rather than publishing an uncertified point (the
 * gateway publishes the window's data-independent fallback instead, at the same cost).
 *
 * <p><b>Λ</b> = {@code max(ñλ, Λ₀)}, both public given the released count: {@code Λ₀ = √(2√2·ñ·d·L·‖𝒳‖²/(ε·B²))}
 * balances the regularisation bias {@code Λ₀B²/2} against the noise's cost {@code ñ‖𝒳‖·√2·d·L‖𝒳‖/(Λ₀ε)}.
 */
public final class OutputPerturbationErm extends AbstractWindowMechanism {
    /** Grid step of the released point, relative to B. */
    static final double GRID = 0x1p-24;
    /** Certified accuracy of the minimiser, relative to the sensitivity {@code L‖𝒳‖/Λ}. */
    static final double TOLERANCE = 1e-3;

    /** The most solver steps spent on certifying the minimiser of one window. */
    public static final int MAX_STEPS = 2_000_000;

    private final LogisticModel model;
    private final double h;
    private final int maxSteps;

    public OutputPerturbationErm(Workload workload, AnalyticsBudget budget) {
        this(workload, budget, MAX_STEPS);
    }

    /**
     * The mechanism with another step limit for the certified minimiser (tests force a certification failure with a
     * tiny one; the gateway uses {@link #MAX_STEPS}).
     *
     * @param maxSteps the most solver steps per window, {@code >= 1}
     */
    public OutputPerturbationErm(Workload workload, AnalyticsBudget budget, int maxSteps) {
        super(MechanismId.ERM_OUTPUT_PERTURBATION, workload, budget);
        this.model = LogisticModel.of(workload);
        this.h = model.radius() * GRID;
        this.maxSteps = Require.positive("maxSteps", maxSteps);
        charge(budget.epsilon());
    }

    /** Λ for a released count. */
    public double lambda(double n) {
        int d = model.grid().dimension();
        double x = model.lipschitz();
        double b = model.radius();
        double l0 = Math.sqrt(2 * Math.sqrt(2) * n * d * budget.contributions() * x * x / (budget.epsilon() * b * b));
        return Math.max(n * model.regularization(), Math.max(l0, 1e-9));
    }

    /** The l2 sensitivity of the certified minimiser for a given Λ (τ included). */
    double l2Sensitivity(double lambda) {
        double base = budget.contributions() * model.lipschitz() / lambda * (budget.addRemove() ? 1 : 2);
        return base * (1 + 2 * TOLERANCE);
    }

    /** The noise for a given Λ: discrete Laplace of scale {@code >= (⌈√d·Δ₂/h⌉ + d)/ε} (grid units). */
    DiscreteLaplace noise(double lambda) {
        int d = model.grid().dimension();
        BigDecimal l1 = new BigDecimal(Math.sqrt(d)).multiply(new BigDecimal(l2Sensitivity(lambda)))
                .divide(new BigDecimal(h), new MathContext(30, RoundingMode.CEILING))
                .multiply(new BigDecimal(1 + 1e-12), new MathContext(30, RoundingMode.CEILING))
                .setScale(0, RoundingMode.CEILING).add(BigDecimal.valueOf(d));
        return Noise.laplace(l1.toBigIntegerExact(), budget.epsilon());
    }

    @Override
    public double predictedError() {
        double n = budget.plannedReports();
        double lambda = lambda(n);
        return excessRisk(new double[model.grid().dimension()], n, lambda, thetaError(lambda));
    }

    private double thetaError(double lambda) {
        int d = model.grid().dimension();
        return Math.sqrt(d * noise(lambda).variance()) * h;
    }

    private double excessRisk(double[] theta, double n, double lambda, double err) {
        double[][] hs = model.uniformHessian(theta, n, n * model.regularization());
        double tr = 0;
        for (int i = 0; i < hs.length; i++) {
            tr += hs[i][i];
        }
        double t = Matrices.norm(theta) > 0 ? Matrices.norm(theta) : model.radius() / 2; // plug-in ‖θ‖ (B/2 planned)
        double bias = Math.max(0, lambda - n * model.regularization()) * t * t / 2;
        return (0.5 * tr / hs.length * err * err + bias) / n;
    }

    @Override
    public List<Parameter> parameters() {
        double n = budget.plannedReports();
        double lambda = lambda(n);
        return List.of(new Parameter("lambdaAtPlannedN", lambda), new Parameter("gridStep", h),
                new Parameter("laplaceScale", noise(lambda).scaleDouble() * h), new Parameter("epsilon", budget.epsilon()),
                new Parameter("predictedExcessRisk", predictedError()));
    }

    /**
     * The minimiser of J for Λ, certified to {@code √(2·gap/Λ) <= τ/2}.
     *
     * @throws IllegalStateException if the solver cannot certify it within the step limit (this depends on the data:
     *     the gateway then publishes the window's data-independent fallback at the same cost,
     *     {@code docs/published-fields.md} §Failure paths)
     */
    double[] certifiedMinimiser(long[] counts, double lambda) {
        double tau = TOLERANCE * budget.contributions() * model.lipschitz() / lambda;
        double gapTolerance = lambda * tau * tau / 8;
        LogisticModel.Fit fit = model.minimise(counts, lambda, gapTolerance, maxSteps);
        if (!(Math.sqrt(2 * fit.gap() / lambda) <= tau / 2)) {
            // the message names no data-dependent value (the gap is one): logs are not a release channel
            throw new IllegalStateException("output-perturbation: the minimiser could not be certified within "
                    + maxSteps + " steps");
        }
        return fit.theta();
    }

    @Override
    public Answer release(long[] counts, ReleasedCount count, RandomBits secret) {
        double n = count.divisor();
        double lambda = lambda(n);
        double[] theta = certifiedMinimiser(counts, lambda);
        DiscreteLaplace noise = noise(lambda);
        int d = theta.length;
        double[] out = new double[d];
        for (int j = 0; j < d; j++) {
            long z = Math.round(theta[j] / h);
            out[j] = (double) Math.addExact(z, noise.sample(secret)) * h;
        }
        out = Matrices.projectToBall(out, model.radius());
        double err = thetaError(lambda);
        Map<String, Double> s = new LinkedHashMap<>();
        s.put("predictedExcessRisk", excessRisk(out, n, lambda, err));
        s.put("lambda", lambda);
        s.put("laplaceScale", noise.scaleDouble() * h);
        List<Answer.LevelDetail> levels = List.of(new Answer.LevelDetail(1, new PrivacyCost.Pure(budget.epsilon()),
                model.radius(), Math.sqrt(noise.variance()) * h, 0, counts.length, OptionalDouble.empty()));
        return CoefficientAnswers.of(workload, id(), cost(), count.published(), out, err, budget.confidence(), levels,
                s);
    }

    /** Exposed for tests: the sensitivity bound's inputs. */
    BigInteger l1GridSensitivity(double lambda) {
        return BigInteger.valueOf((long) Math.ceil(Math.sqrt(model.grid().dimension()) * l2Sensitivity(lambda) / h)
                + model.grid().dimension());
    }
}
