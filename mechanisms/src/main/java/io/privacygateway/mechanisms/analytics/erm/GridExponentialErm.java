package io.privacygateway.mechanisms.analytics.erm;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.analytics.AbstractWindowMechanism;
import io.privacygateway.mechanisms.analytics.AnalyticsBudget;
import io.privacygateway.mechanisms.analytics.CoefficientAnswers;
import io.privacygateway.mechanisms.analytics.ExactRationals;
import io.privacygateway.mechanisms.analytics.LogisticModel;
import io.privacygateway.mechanisms.analytics.Matrices;
import io.privacygateway.mechanisms.analytics.ReleasedCount;
import io.privacygateway.mechanisms.central.sampling.BernoulliExp;
import io.privacygateway.mechanisms.param.DirectedDoubles;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The regularized exponential mechanism (DP-ERM paper §2, Algorithm 1: sample θ with probability
 * {@code ∝ exp(−k(F(θ) + μ‖θ‖²/2))}), made pure and sampled <b>exactly</b> on a finite grid.
 *
 * <p><b>The target.</b> Θ_h: the points of the cubic grid of step h (m points per axis, {@code m^d <= 65 536})
 * inside the ball {@code ‖θ‖ <= B}. Each report's loss is rounded to an integer {@code ℓ̂(θ; x) =
 * clamp(round(ℓ(θ; x)·P), 0, M)} (P a power of two, M a public bound on {@code ℓ·P}), so
 * {@code F̂(θ) = Σ_reports ℓ̂(θ; x)} is an <em>exact</em> integer and exactly additive over reports; the regulariser
 * {@code μ = ñ·λ} (the released count times the model's λ) enters as the data-independent integer
 * {@code round(μ‖θ‖²/2·P)}.
 *
 * <p><b>Privacy (pure).</b> One device changes F̂ at every θ by its own at most L terms, each in [0, M]: under
 * add/remove by {@code Δ ∈ [0, L·M]} (monotone, so {@code k = ε/(L·M)} gives ε-DP exactly as for the exponential
 * mechanism with a monotone utility), under replace-one by {@code Δ ∈ [−L·M, L·M]} ({@code k = ε/(2L·M)}).
 * <em>Difference from the paper</em>: §2 calibrates k by Gaussian DP (Gopi et al. 2022, for continuous log-concave
 * densities with strong convexity), which gives only (ε, δ) and would need purification; on a finite grid the
 * pure calibration by the loss range is exact and needs no δ. The regulariser μ keeps the paper's form (it shrinks
 * toward 0 and is the model's own λ), not its privacy role.
 *
 * <p><b>The sampler and its accuracy.</b> A uniform grid index ({@link ExactSampler#uniformInt}) accepted with
 * probability exactly {@code e^{−k(Ê(θ) − Ê_min)}} ({@link BernoulliExp} with the exact rational exponent) returns
 * θ with probability exactly {@code ∝ e^{−k·Ê(θ)}}: the sampler is exact for the discretised target, so it
 * changes neither ε nor δ. All approximation is in the target itself, which is what the privacy argument is about:
 * the grid (a θ within {@code h√d/2} of any point, costing at most {@code n·‖𝒳‖·h√d/2} in F) and the loss rounding
 * (at most {@code n/(2P)} in F) cost accuracy only. Expected proposals: {@code |Θ_h|/Σ_θ e^{−k(Ê(θ)−Ê_min)}}, at
 * most {@code |Θ_h|}.
 */
public final class GridExponentialErm extends AbstractWindowMechanism {
    /** The most grid points. */
    public static final int MAX_POINTS = 1 << 16;
    /** Loss resolution: {@code M = ⌈ℓ_max·P⌉ + 1 <= 2^(LOSS_BITS+1)}. */
    static final int LOSS_BITS = 20;

    private final LogisticModel model;
    private final double[][] points;
    private final double step;
    private final double lossScale;
    private final long maxUnit;
    private final double k;
    private final Rational kExact;
    private final double spent;

    public GridExponentialErm(Workload workload, AnalyticsBudget budget) {
        super(MechanismId.ERM_EXPONENTIAL, workload, budget);
        this.model = LogisticModel.of(workload);
        int d = model.grid().dimension();
        int m = (int) Math.floor(Math.pow(MAX_POINTS, 1.0 / d) + 1e-9);
        if (m % 2 == 0) {
            m--;
        }
        if (m < 5) {
            throw new IllegalArgumentException("erm-exponential: " + d + " features leave fewer than 5 grid points per"
                    + " axis (at most " + MAX_POINTS + " points); use purified-dpsgd or output-perturbation");
        }
        double b = model.radius();
        this.step = 2 * b / (m - 1);
        List<double[]> pts = new ArrayList<>();
        int[] idx = new int[d];
        while (true) {
            double[] t = new double[d];
            for (int j = 0; j < d; j++) {
                t[j] = -b + idx[j] * step;
            }
            if (Matrices.norm(t) <= b * (1 + 1e-12)) {
                pts.add(t);
            }
            int j = 0;
            while (j < d && ++idx[j] == m) {
                idx[j] = 0;
                j++;
            }
            if (j == d) {
                break;
            }
        }
        this.points = pts.toArray(new double[0][]);
        double maxLoss = model.maxLoss();
        this.lossScale = Math.scalb(1.0, LOSS_BITS - Math.getExponent(Math.max(maxLoss, 1e-300)) - 1);
        this.maxUnit = (long) Math.ceil(maxLoss * lossScale * (1 + 1e-12)) + 1;
        long factor = budget.addRemove() ? 1 : 2;
        BigInteger sensitivity = BigInteger.valueOf(maxUnit).multiply(BigInteger.valueOf(budget.contributions()))
                .multiply(BigInteger.valueOf(factor));
        this.k = ExactRationals.floorQuotient(budget.epsilon(), sensitivity);
        Require.finitePositive("k", k);
        this.kExact = ExactRationals.of(k);
        this.spent = DirectedDoubles.ceil(new BigDecimal(k).multiply(new BigDecimal(sensitivity)));
        charge(spent);
    }

    /** The grid Θ_h (copies). */
    public List<double[]> grid() {
        List<double[]> out = new ArrayList<>();
        for (double[] p : points) {
            out.add(p.clone());
        }
        return out;
    }

    /** |Θ_h|: the number of grid points (public). */
    public int gridPoints() {
        return points.length;
    }

    /**
     * The worst case of a release's running time, from the public grid, with ≈ 2.5× headroom over the 2-core reference
     * machine: {@link #exponents} evaluates the loss at every grid point for every occupied cell (45–61 ns per point and
     * cell measured there, here 150 ns, every cell occupied), and the sampler's expected proposals are at most
     * {@code |Θ_h|} (here 5 µs each).
     */
    public Duration worstCaseReleaseTime() {
        double nanos = (double) points.length * model.grid().cells() * 150 + (double) points.length * 5_000;
        return Duration.ofNanos((long) Math.ceil(nanos));
    }

    /** k in units of one rounded loss unit (the exponent of θ is {@code −k·Ê(θ)}). */
    public double k() {
        return k;
    }

    /** The rounded per-report loss {@code ℓ̂(θ; x) ∈ [0, M]}. */
    public long unitLoss(double[] theta, int x) {
        long v = Math.round(model.loss(theta, x) * lossScale);
        return Math.max(0, Math.min(maxUnit, v));
    }

    /** M: the public bound on a rounded loss. */
    public long maxUnitLoss() {
        return maxUnit;
    }

    /** {@code Ê(θ) = Σ_x c_x ℓ̂(θ; x) + round(μ‖θ‖²/2·P)} at every grid point, exactly. */
    public long[] exponents(long[] counts, double mu) {
        long[] e = new long[points.length];
        for (int i = 0; i < points.length; i++) {
            long s = Math.round(mu * Matrices.dot(points[i], points[i]) / 2 * lossScale);
            for (int x = 0; x < counts.length; x++) {
                if (counts[x] != 0) {
                    s = Math.addExact(s, Math.multiplyExact(counts[x], unitLoss(points[i], x)));
                }
            }
            e[i] = s;
        }
        return e;
    }

    /** One exact draw from {@code ∝ e^{−k·Ê(θ)}} over the grid; returns the grid index. */
    public int sampleIndex(long[] exponents, RandomBits secret) {
        long min = Long.MAX_VALUE;
        for (long v : exponents) {
            min = Math.min(min, v);
        }
        while (true) {
            int i = ExactSampler.uniformInt(secret, exponents.length);
            BigInteger gap = BigInteger.valueOf(exponents[i] - min);
            if (BernoulliExp.sample(secret, kExact.numerator().multiply(gap), kExact.denominator())) {
                return i;
            }
        }
    }

    /** The output probabilities {@code ∝ e^{−k·Ê(θ)}} as doubles (for tests). */
    public double[] probabilities(long[] exponents) {
        long min = Long.MAX_VALUE;
        for (long v : exponents) {
            min = Math.min(min, v);
        }
        double[] p = new double[exponents.length];
        double z = 0;
        for (int i = 0; i < p.length; i++) {
            p[i] = Math.exp(-k * (exponents[i] - min));
            z += p[i];
        }
        for (int i = 0; i < p.length; i++) {
            p[i] /= z;
        }
        return p;
    }

    /** The plug-in estimate of ‖θ̂ − θ*‖: {@code √(tr(H^{-1})/k' + d h²/4)}, H at θ̂ on the uniform design. */
    private double errorEstimate(double[] theta, double n, double mu) {
        double[][] h = model.uniformHessian(theta, n, mu);
        double trInv = 0;
        for (double l : Matrices.eigen(h).values()) {
            trInv += 1 / Math.max(l, 1e-300);
        }
        double kReal = k * lossScale; // the exponent per unit of F
        int d = theta.length;
        return Math.sqrt(trInv / kReal + d * step * step / 4);
    }

    @Override
    public double predictedError() {
        double n = budget.plannedReports();
        double[] zero = new double[model.grid().dimension()];
        double mu = n * model.regularization();
        double e = errorEstimate(zero, n, mu);
        double[][] h = model.uniformHessian(zero, n, mu);
        double tr = 0;
        for (int i = 0; i < h.length; i++) {
            tr += h[i][i];
        }
        return 0.5 * tr / h.length * e * e / n;
    }

    @Override
    public List<Parameter> parameters() {
        return List.of(new Parameter("gridPoints", points.length), new Parameter("gridStep", step),
                new Parameter("k", k * lossScale), new Parameter("lossRangeBound", maxUnit / lossScale),
                new Parameter("epsilon", spent), new Parameter("predictedExcessRisk", predictedError()));
    }

    @Override
    public Answer release(long[] counts, ReleasedCount count, RandomBits secret) {
        double mu = count.divisor() * model.regularization();
        long[] e = exponents(counts, mu);
        double[] theta = points[sampleIndex(e, secret)].clone();
        double n = count.divisor();
        double err = errorEstimate(theta, n, mu);
        double[][] h = model.uniformHessian(theta, n, mu);
        double tr = 0;
        for (int i = 0; i < h.length; i++) {
            tr += h[i][i];
        }
        Map<String, Double> s = new LinkedHashMap<>();
        s.put("predictedExcessRisk", 0.5 * tr / h.length * err * err / n);
        s.put("gridStep", step);
        s.put("gridPoints", (double) points.length);
        s.put("k", k * lossScale);
        s.put("epsilonSampling", spent);
        List<Answer.LevelDetail> levels = List.of(new Answer.LevelDetail(1, new PrivacyCost.Pure(spent),
                model.radius(), 1 / (k * lossScale), 0, points.length, OptionalDouble.empty()));
        return CoefficientAnswers.of(workload, id(), cost(), count.published(), theta, err, budget.confidence(), levels,
                s);
    }
}
