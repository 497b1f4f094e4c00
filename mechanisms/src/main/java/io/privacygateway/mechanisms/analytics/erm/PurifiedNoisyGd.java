package io.privacygateway.mechanisms.analytics.erm;

import io.privacygateway.mechanisms.accounting.Conversions;
import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.analytics.AbstractWindowMechanism;
import io.privacygateway.mechanisms.analytics.AnalyticsBudget;
import io.privacygateway.mechanisms.analytics.CoefficientAnswers;
import io.privacygateway.mechanisms.analytics.ExactRationals;
import io.privacygateway.mechanisms.analytics.LogisticModel;
import io.privacygateway.mechanisms.analytics.Matrices;
import io.privacygateway.mechanisms.analytics.Noise;
import io.privacygateway.mechanisms.analytics.ReleasedCount;
import io.privacygateway.mechanisms.analytics.Sensitivity;
import io.privacygateway.mechanisms.central.PrivacySplit;
import io.privacygateway.mechanisms.central.purification.Purifier;
import io.privacygateway.mechanisms.central.sampling.DiscreteGaussian;
import io.privacygateway.mechanisms.central.sampling.LqNorm;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Purified DP-SGD (purification paper §4.1, Algorithm 4: an (ε, δ)-DP gradient method, then Algorithm 1), with the
 * gradient method run full-batch on the window's histogram.
 *
 * <ol>
 *   <li>T steps of projected gradient descent on {@code J = F + (Λ/2)‖θ‖²} ({@code Λ = ñλ}) from θ = 0 with step
 *       {@code 1/β}, {@code β = n_hi‖𝒳‖²/4 + Λ} (public: from the released count). The gradient of F at step t is
 *       the exact integer sum {@code Σ_x c_x r_x(θ_t)} of per-report rounded gradients
 *       {@code r_x = round(∇ℓ(θ_t; x)·S)} (S a power of two), with {@code ‖r_x‖² <= ⌈(‖𝒳‖S + √d/2)²⌉ = M} enforced,
 *       plus discrete Gaussian noise of variance {@code >= Δ²/(2ρ/T)}, {@code Δ² = L²M} (add/remove) or
 *       {@code 4L²M} (replace-one). Each step is {@code ρ/T}-zCDP given the earlier (public) iterates; T steps are
 *       ρ-zCDP (adaptive composition), hence {@code (ε_apx, δ)}-DP with ρ the largest for that pair
 *       ({@link Conversions#largestRho}). The output is the average of the last T/2 iterates, inside the ball.</li>
 *   <li>Purification: {@link Purifier} on the l2 ball of radius B (diameter C = 2B, Algorithm 4) with that δ and ω:
 *       pure {@code ε_apx + ε'} given the released count.</li>
 * </ol>
 * <em>Differences from the paper</em>: full batch instead of Poisson-subsampled minibatches (the window's data is a
 * histogram, so a full gradient costs one pass over the grid cells, and the zCDP accounting is exact without the
 * subsampling bound of Lemma 23, whose constant 13 and order restriction would have to be verified); discrete
 * Gaussian noise on integer gradients instead of continuous Gaussian noise; the step 1/β of smooth descent
 * (logistic losses are {@code ‖φ‖²/4}-smooth) instead of Lemma 25's Lipschitz step.
 *
 * <p><b>Planning</b> (public, once per workload): the purification share ε'/ε, ω and δ minimise a closed-form
 * prediction of the excess risk at the planned n ({@link #predictedError}).
 */
public final class PurifiedNoisyGd extends AbstractWindowMechanism {
    /** Gradient steps per release. */
    public static final int STEPS = 200;
    /** Resolution of the gridded gradients: {@code |r_x| <= 2^GRADIENT_BITS} per coordinate. */
    static final int GRADIENT_BITS = 16;
    private static final double[] PURIFICATION_SHARES = {0.1, 0.2, 0.3, 0.4, 0.5};
    private static final double[] OMEGAS = {1e-3, 1e-5, 1e-7};

    private final LogisticModel model;
    private final double scale;
    private final long maxNormSquared;
    private final double epsilonApprox;
    private final double epsilonPrime;
    private final LogDelta logDelta;
    private final double omega;
    private final double rho;
    private final DiscreteGaussian noise;
    private final Purifier purifier;
    private final double predicted;

    public PurifiedNoisyGd(Workload workload, AnalyticsBudget budget) {
        super(MechanismId.ERM_DPSGD, workload, budget);
        this.model = LogisticModel.of(workload);
        int d = model.grid().dimension();
        double x = Math.max(model.lipschitz(), 1e-300);
        this.scale = Math.scalb(1.0, GRADIENT_BITS - Math.getExponent(x) - 1);
        double bound = x * scale + Math.sqrt(d) / 2;
        this.maxNormSquared = (long) Math.ceil(bound * bound * (1 + 1e-12)) + 1;
        BigInteger d2 = Sensitivity.l2SquaredFromNormBound(BigInteger.valueOf(maxNormSquared), budget.relation(),
                budget.contributions());
        Choice best = null;
        for (double pur : PURIFICATION_SHARES) {
            double[] parts = PrivacySplit.split(budget.epsilon(), 1 - pur, pur);
            for (double w : OMEGAS) {
                for (int lk = 1; lk <= 24; lk++) {
                    Choice c = Choice.of(this, parts, w, d * (-1.5 * lk) + Math.log(2 * w), d2);
                    if (c != null && (best == null || c.error < best.error)) {
                        best = c;
                    }
                }
            }
        }
        if (best == null) {
            throw new IllegalArgumentException("purified-dpsgd: no parameters fit ε = " + budget.epsilon());
        }
        this.epsilonApprox = best.parts[0];
        this.epsilonPrime = best.parts[1];
        this.omega = best.omega;
        this.logDelta = best.logDelta;
        this.rho = best.rho;
        this.noise = best.noise;
        this.purifier = best.purifier;
        this.predicted = best.error;
        charge(epsilonApprox, epsilonPrime);
    }

    private record Choice(double[] parts, double omega, LogDelta logDelta, double rho, DiscreteGaussian noise,
            Purifier purifier, double error) {
        static Choice of(PurifiedNoisyGd m, double[] parts, double omega, double ld, BigInteger d2) {
            try {
                LogDelta logDelta = new LogDelta(ld);
                double rho = Conversions.largestRho(parts[0], logDelta);
                double rhoStep = ExactRationals.floorQuotient(rho, BigInteger.valueOf(STEPS));
                DiscreteGaussian g = Noise.gaussian(d2, rhoStep);
                int d = m.model.grid().dimension();
                Purifier p = new Purifier(LqNorm.L2, new double[d], 2 * m.model.radius(),
                        Epsilon.exactly(new BigDecimal(parts[1])), logDelta, omega);
                double n = m.budget.plannedReports();
                double err = m.thetaError(new double[d], n, Noise.sigma(g) / m.scale, p);
                return new Choice(parts, omega, logDelta, rho, g, p, m.excessRisk(new double[d], n, err));
            } catch (IllegalArgumentException | ArithmeticException e) {
                return null;
            }
        }
    }

    /**
     * The plug-in estimate of ‖θ̂ − θ*‖ (H at θ on the uniform design): the noise of the averaged iterates,
     * {@code σ_g·√(tr(H^{-2})·2/T)} (stationary noisy descent averaged over T/2 steps), and purification's
     * {@code √(2d)·b + ω·2B + d·h}.
     */
    private double thetaError(double[] theta, double n, double sigmaReal, Purifier p) {
        double[][] h = model.uniformHessian(theta, n, n * model.regularization());
        double tr2 = 0;
        for (double l : Matrices.eigen(h).values()) {
            tr2 += 1 / (Math.max(l, 1e-300) * Math.max(l, 1e-300));
        }
        int d = theta.length;
        double gd = sigmaReal * Math.sqrt(tr2 * 2.0 / STEPS);
        double pur = Math.sqrt(2.0 * d) * p.noiseScale() + p.omega() * 2 * model.radius() + d * p.gridStep();
        return Math.sqrt(gd * gd + pur * pur);
    }

    /** ½·(tr H/d)·err²/n plus the optimisation error {@code (1 − μ_H/β)^T·β B²/(2n)} of T steps. */
    private double excessRisk(double[] theta, double n, double err) {
        double[][] h = model.uniformHessian(theta, n, n * model.regularization());
        double tr = 0;
        for (int i = 0; i < h.length; i++) {
            tr += h[i][i];
        }
        double beta = n * model.lipschitz() * model.lipschitz() / 4 + n * model.regularization();
        double mu = Math.max(Matrices.lambdaMin(h), 0);
        double opt = Math.pow(Math.max(0, 1 - mu / Math.max(beta, 1e-300)), STEPS) * beta * model.radius()
                * model.radius() / (2 * STEPS / 2.0);
        return (0.5 * tr / h.length * err * err + opt) / n;
    }

    @Override
    public double predictedError() {
        return predicted;
    }

    public double rho() {
        return rho;
    }

    public Purifier purifier() {
        return purifier;
    }

    DiscreteGaussian noise() {
        return noise;
    }

    /** M: the bound on a rounded gradient's squared norm (grid units). */
    long maxNormSquared() {
        return maxNormSquared;
    }

    double epsilonApprox() {
        return epsilonApprox;
    }

    double epsilonPrime() {
        return epsilonPrime;
    }

    LogDelta logDelta() {
        return logDelta;
    }

    @Override
    public List<Parameter> parameters() {
        return List.of(new Parameter("steps", STEPS), new Parameter("epsilonApprox", epsilonApprox),
                new Parameter("rho", rho), new Parameter("logDelta", logDelta.value()),
                new Parameter("epsilonPurification", epsilonPrime), new Parameter("omega", omega),
                new Parameter("gradientNoiseSigma", Noise.sigma(noise) / scale),
                new Parameter("purificationNoiseScale", purifier.noiseScale()),
                new Parameter("predictedExcessRisk", predicted));
    }

    /** The per-report rounded gradient {@code r_x(θ)}, its squared norm capped at M by construction. */
    long[] roundedGradient(double[] theta, int x) {
        double[] g = model.gradient(theta, x);
        long[] r = new long[g.length];
        long s = 0;
        for (int j = 0; j < g.length; j++) {
            r[j] = Math.round(g[j] * scale);
            s += r[j] * r[j];
        }
        if (s > maxNormSquared) { // cannot happen for |g| <= ‖φ‖; kept so that the bound holds by construction
            Arrays.fill(r, 0);
        }
        return r;
    }

    /** The (ε_apx, δ)-DP point: T noisy full-batch gradient steps, the average of the last T/2 iterates. */
    double[] approximate(long[] counts, ReleasedCount count, RandomBits secret) {
        int d = model.grid().dimension();
        double lambda = count.divisor() * model.regularization();
        double beta = count.upper(0.01) * model.lipschitz() * model.lipschitz() / 4 + lambda;
        double[] theta = new double[d];
        double[] avg = new double[d];
        int averaged = 0;
        for (int t = 0; t < STEPS; t++) {
            long[] sum = new long[d];
            for (int x = 0; x < counts.length; x++) {
                if (counts[x] != 0) {
                    long[] r = roundedGradient(theta, x);
                    for (int j = 0; j < d; j++) {
                        sum[j] = Math.addExact(sum[j], Math.multiplyExact(counts[x], r[j]));
                    }
                }
            }
            double[] next = new double[d];
            for (int j = 0; j < d; j++) {
                double g = Math.addExact(sum[j], noise.sample(secret)) / scale + lambda * theta[j];
                next[j] = theta[j] - g / beta;
            }
            theta = Matrices.projectToBall(next, model.radius());
            if (t >= STEPS / 2) {
                for (int j = 0; j < d; j++) {
                    avg[j] += theta[j];
                }
                averaged++;
            }
        }
        for (int j = 0; j < d; j++) {
            avg[j] /= averaged;
        }
        return Matrices.projectToBall(avg, model.radius());
    }

    @Override
    public Answer release(long[] counts, ReleasedCount count, RandomBits secret) {
        double[] pure = purifier.purify(approximate(counts, count, secret), secret);
        double n = count.divisor();
        double err = thetaError(pure, n, Noise.sigma(noise) / scale, purifier);
        Map<String, Double> s = new LinkedHashMap<>();
        s.put("predictedExcessRisk", excessRisk(pure, n, err));
        s.put("steps", (double) STEPS);
        s.put("epsilonApprox", epsilonApprox);
        s.put("rho", rho);
        s.put("logDelta", logDelta.value());
        s.put("epsilonPurification", epsilonPrime);
        s.put("purificationNoiseScale", purifier.noiseScale());
        List<Answer.LevelDetail> levels = List.of(new Answer.LevelDetail(1, new PrivacyCost.Zcdp(rho),
                model.lipschitz(), Noise.sigma(noise) / scale, 0, counts.length, OptionalDouble.empty()));
        return CoefficientAnswers.of(workload, id(), cost(), count.published(), pure, err, budget.confidence(), levels,
                s);
    }
}
