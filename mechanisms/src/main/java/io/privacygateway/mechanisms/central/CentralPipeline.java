package io.privacygateway.mechanisms.central;

import io.privacygateway.mechanisms.central.purification.Purifier;
import io.privacygateway.mechanisms.central.sampling.DiscreteGaussian;
import io.privacygateway.mechanisms.central.sampling.DiscreteLaplace;
import io.privacygateway.mechanisms.errors.GaussianWidth;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.nets.ChainingDecomposition;
import io.privacygateway.mechanisms.nets.NestedNets;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.projection.ConvexProjection;
import io.privacygateway.mechanisms.projection.Projections;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * A central-mode release (trusted gateway, MECHANISMS.md §4): from a window's exact counts per universe
 * value, an answer that is <b>pure ε-DP (δ = 0)</b> for every device, whatever the data.
 *
 * <ul>
 *   <li>{@code central-projection}: discrete Gaussian noise (Canonne–Kamath–Steinke) on the integer
 *       window sum, ρ-zCDP; mean over the (pure, discrete-Laplace) noisy count; projection onto K. That
 *       output is (ε_apx, δ)-DP; it is purified (Algorithm 1, discretised: {@link Purifier}) into
 *       (ε_apx + ε')-DP and projected onto K again. Total: ε = ε_count + ε_apx + ε'.
 *   <li>{@code central-chaining}: the same with the chaining decomposition (Lemma 4.2): one noisy sum per
 *       level (ρ_j, zCDP adds up), each projected onto its level set, summed, projected onto K, purified,
 *       projected.
 *   <li>{@code laplace}: the pure-DP baseline: discrete Laplace noise with the workload's l1 sensitivity
 *       on the sum (and on the count), projection onto K.
 * </ul>
 *
 * <p><b>Why the Gaussian part is ρ-zCDP.</b> The sums are integer vectors (see {@link CentralGeometry});
 * for integers μ, ν, {@code D_α(N_ℤ(μ,σ²) ‖ N_ℤ(ν,σ²)) ≤ α(μ−ν)²/(2σ²)} (CKS 2020, Thm. 4), and Rényi
 * divergence adds over independent coordinates, so the product noise gives {@code Δ₂²/(2σ²)}-zCDP for an
 * l2 sensitivity Δ₂. σ² is rounded up to a dyadic rational (more noise). The count is released first
 * with pure ε_count and is public to the rest (adaptive composition), so only pure outputs are published:
 * the intermediate (ε, δ) values never leave this class.
 *
 * <p><b>Error bars</b> use public quantities only (the published count, the noise parameters): an l2
 * bound on the total error, valid with probability at least the workload's confidence (the mixing
 * event's ω is charged to the failure probability), reported for every answer.
 */
public final class CentralPipeline {
    /** The n parameters are planned for when the spec gives none. */
    public static final long DEFAULT_PLANNED_REPORTS = 10_000;
    private static final BigInteger DYADIC = BigInteger.ONE.shiftLeft(20);

    private final Workload workload;
    private final CentralGeometry geometry;
    private final CentralParameters params;
    private final ConvexProjection feasible;
    private final List<Level> levels;
    private final double[] offset;
    private final DiscreteLaplace countNoise;
    private final DiscreteLaplace sumNoise;
    private final Purifier purifier;
    private final double widthK;
    private final double diameterK;

    /** One noisy level: integer components per universe value, its hull and its noise. */
    private record Level(long[][] components, PointSet hull, ConvexProjection projection, DiscreteGaussian noise,
            double sigma, double width, double diameter, double maxNorm) {}

    private CentralPipeline(Workload workload, CentralGeometry geometry, CentralParameters params, List<Level> levels,
            double[] offset, DiscreteLaplace countNoise, DiscreteLaplace sumNoise, Purifier purifier) {
        this.workload = workload;
        this.geometry = geometry;
        this.params = params;
        this.feasible = Projections.forWorkload(workload);
        this.levels = levels;
        this.offset = offset;
        this.countNoise = countNoise;
        this.sumNoise = sumNoise;
        this.purifier = purifier;
        this.widthK = GaussianWidth.of(workload.points()).upper();
        this.diameterK = diameter(workload.points());
    }

    /** Builds the release a resolved central-mode workload names. */
    public static CentralPipeline of(Workload w) {
        WorkloadSpec s = w.spec();
        if (s.mode() != Mode.CENTRAL) {
            throw new IllegalArgumentException("mode must be central for a central pipeline, got " + s.mode().wireName());
        }
        if (s.mechanism() == MechanismId.AUTO) {
            throw new IllegalArgumentException("mechanism is auto: resolve it with the planner first");
        }
        CentralGeometry geo = CentralGeometry.of(w);
        long planned = s.expectedReportsPerWindow() > 0 ? s.expectedReportsPerWindow() : DEFAULT_PLANNED_REPORTS;
        int m = w.queryCount();
        int contributions = s.central().contributionsPerWindow();
        NeighbourRelation relation = s.central().neighbour();
        boolean countPublic = relation == NeighbourRelation.REPLACE_ONE;
        double widthK = GaussianWidth.of(w.points()).upper();
        double maxNorm = w.points().maxNorm();
        CentralGeometry.Ball ball = geo.cheapestBall();

        List<long[][]> comps = new ArrayList<>();
        List<PointSet> hulls = new ArrayList<>();
        double[] offset = new double[m];
        if (s.mechanism() == MechanismId.CENTRAL_CHAINING) {
            ChainingDecomposition d = ChainingDecomposition.of(NestedNets.build(w.points(), s.alpha().chainingLevels()));
            int[] previous = null;
            for (int j = 1; j <= d.levels(); j++) {
                int[] chain = d.chain(j);
                if (d.levelSet(j).size() <= 1) {
                    double[] c = d.levelSet(j).row(0); // the same for every device: exact, no noise
                    for (int q = 0; q < m; q++) {
                        offset[q] += c[q];
                    }
                } else {
                    long[][] comp = new long[w.universeSize()][];
                    for (int x = 0; x < comp.length; x++) {
                        long[] cur = geo.gridPoint(chain[x]);
                        if (previous != null) {
                            long[] prev = geo.gridPoint(previous[x]);
                            for (int q = 0; q < m; q++) {
                                cur[q] -= prev[q];
                            }
                        }
                        comp[x] = cur;
                    }
                    comps.add(comp);
                    hulls.add(d.levelSet(j));
                }
                previous = chain;
            }
            if (comps.isEmpty()) {
                throw new IllegalArgumentException("alpha " + s.alpha().value()
                        + " is too large for this workload: every value has the same chaining decomposition");
            }
        } else {
            long[][] comp = new long[w.universeSize()][];
            for (int x = 0; x < comp.length; x++) {
                comp[x] = geo.gridPoint(x);
            }
            comps.add(comp);
            hulls.add(null);
        }
        List<CentralParameterChoice.Level> lv = new ArrayList<>();
        for (int j = 0; j < comps.size(); j++) {
            long d2 = relation == NeighbourRelation.ADD_REMOVE ? CentralGeometry.maxNormSquared(comps.get(j))
                    : CentralGeometry.maxDistanceSquared(comps.get(j));
            double width = hulls.get(j) == null ? widthK : GaussianWidth.of(hulls.get(j)).upper();
            lv.add(new CentralParameterChoice.Level((double) d2 * contributions * contributions, width));
        }
        CentralParameterChoice.Inputs in = new CentralParameterChoice.Inputs(s.central().epsilonPerRelease().value(),
                countPublic, contributions, planned, geo.scale(), m, maxNorm, widthK, ball, lv,
                geo.l1Sensitivity(relation, contributions));
        CentralParameters p = s.mechanism() == MechanismId.LAPLACE ? CentralParameterChoice.laplace(in)
                : CentralParameterChoice.gaussian(s.mechanism(), in);

        DiscreteLaplace countNoise = countPublic ? null : new DiscreteLaplace(dyadicUp(contributions / p.epsilonCount()));
        if (p.mechanism() == MechanismId.LAPLACE) {
            return new CentralPipeline(w, geo, p, List.of(), offset, countNoise, new DiscreteLaplace(dyadicUp(
                    p.laplaceScale())), null);
        }
        List<Level> levels = new ArrayList<>();
        for (int j = 0; j < comps.size(); j++) {
            Rational sigma2 = dyadicUp(lv.get(j).sensitivitySquared() / (2 * p.levelRho()[j]));
            PointSet hull = hulls.get(j);
            levels.add(new Level(comps.get(j), hull, hull == null ? null : Projections.hull(hull),
                    new DiscreteGaussian(sigma2), Math.sqrt(sigma2.doubleValue()), lv.get(j).gaussianWidth(),
                    hull == null ? diameter(w.points()) : diameter(hull), hull == null ? maxNorm : hull.maxNorm()));
        }
        Purifier purifier = new Purifier(ball.norm(), ball.center(), ball.diameter(), new Epsilon(p.epsilonPrime()),
                new LogDelta(p.logDelta()), p.omega());
        return new CentralPipeline(w, geo, p, levels, offset, countNoise, null, purifier);
    }

    /** The smallest dyadic rational (denominator 2^20) at or above {@code x > 0}. */
    static Rational dyadicUp(double x) {
        if (!(x > 0) || !Double.isFinite(x)) {
            throw new IllegalArgumentException("noise parameter must be a finite number > 0, got " + x);
        }
        java.math.BigDecimal scaled = new java.math.BigDecimal(x).multiply(new java.math.BigDecimal(DYADIC));
        BigInteger num = scaled.setScale(0, java.math.RoundingMode.CEILING).toBigIntegerExact();
        return Rational.of(num.max(BigInteger.ONE), DYADIC);
    }

    public Workload workload() {
        return workload;
    }

    public CentralParameters parameters() {
        return params;
    }

    public Purifier purifier() {
        return purifier;
    }

    /**
     * Releases a window from its exact counts per universe value, with secret randomness.
     *
     * @param counts the number of accepted reports of every universe value (each device at most L)
     */
    public Answer release(long[] counts, RandomBits secret) {
        long n = 0;
        for (long c : counts) {
            n = Math.addExact(n, c);
        }
        long published = countNoise == null ? n : Math.max(1, n + countNoise.sample(secret));
        double nG = (double) published * geometry.scale();
        int m = workload.queryCount();
        double[] estimate;
        List<Answer.LevelDetail> details = new ArrayList<>();
        double gaussBound;
        double sigmaSq = 0;
        if (params.mechanism() == MechanismId.LAPLACE) {
            long[] t = geometry.sum(counts);
            double[] y = new double[m];
            for (int q = 0; q < m; q++) {
                y[q] = (t[q] + sumNoise.sample(secret)) / nG;
            }
            estimate = feasible.project(y).point();
            double scale = sumNoise.scaleDouble() / nG;
            sigmaSq = 2 * scale * scale;
            double beta = failure() / 2;
            gaussBound = Math.sqrt(m) * scale * Math.log(2 * m / beta) + countBound(beta, published) * diameterK;
            details.add(new Answer.LevelDetail(1, params.epsilonTotal(), 0, Math.sqrt(sigmaSq), widthK, workload.universeSize(), 0));
        } else {
            double[] sum = offset.clone();
            double beta = failure() / 3;
            gaussBound = 0;
            for (int j = 0; j < levels.size(); j++) {
                Level l = levels.get(j);
                long[] t = new long[m];
                for (int x = 0; x < counts.length; x++) {
                    if (counts[x] != 0) {
                        for (int q = 0; q < m; q++) {
                            t[q] = Math.addExact(t[q], Math.multiplyExact(counts[x], l.components()[x][q]));
                        }
                    }
                }
                double[] y = new double[m];
                for (int q = 0; q < m; q++) {
                    y[q] = (t[q] + l.noise().sample(secret)) / nG;
                }
                var proj = l.projection() == null ? feasible.project(y) : l.projection().project(y);
                for (int q = 0; q < m; q++) {
                    sum[q] += proj.point()[q];
                }
                double s = l.sigma() / nG;
                sigmaSq += s * s;
                gaussBound += levelBound(s, l.width(), l.diameter(), m, beta / levels.size())
                        + l.maxNorm() * countBound(beta, published) / Math.max(1, published);
                details.add(new Answer.LevelDetail(j + 1, params.levelRho()[j], l.maxNorm(), s, l.width(),
                        l.hull() == null ? workload.universeSize() : l.hull().size(), proj.dualityGap()));
            }
            double[] approx = levels.size() == 1 && levels.get(0).projection() == null ? sum : feasible.project(sum).point();
            double[] pure = purifier.purify(approx, secret);
            estimate = feasible.project(pure).point();
            double b = purifier.noiseScale();
            sigmaSq += 2 * b * b;
            gaussBound += Math.sqrt(m) * (b * Math.log(2 * m / beta) + purifier.gridStep());
        }
        double ratio = params.mechanism() == MechanismId.LAPLACE ? 0 : params.omega();
        boolean valid = ratio < failureBudget();
        double[] lo = new double[m];
        double[] hi = new double[m];
        double[] se = new double[m];
        for (int q = 0; q < m; q++) {
            lo[q] = valid ? Math.max(0, estimate[q] - gaussBound) : 0;
            hi[q] = valid ? Math.min(1, estimate[q] + gaussBound) : 1;
            se[q] = Math.sqrt(sigmaSq);
        }
        return new Answer(params.mechanism(), params.epsilonTotal(), 0.0, published, workload.queryLabels(), estimate,
                estimate.clone(), se, lo, hi, workload.spec().confidence().value(), params.predictedRms(),
                valid ? gaussBound / Math.sqrt(m) : Double.POSITIVE_INFINITY, details, workload.contentHash());
    }

    /** The failure probability left for noise tails after the mixing event: {@code 1 − confidence − ω}. */
    private double failure() {
        return Math.max(1e-300, failureBudget() - (params.mechanism() == MechanismId.LAPLACE ? 0 : params.omega()));
    }

    private double failureBudget() {
        return 1 - workload.spec().confidence().value();
    }

    /** With probability ≥ 1 − β, |n − ñ| is below this (0 when the count is public). */
    private double countBound(double beta, long published) {
        if (countNoise == null) {
            return 0;
        }
        return countNoise.scaleDouble() * Math.log(2 / beta) / Math.max(1, published);
    }

    /** The l2 error bound of one projected Gaussian level with failure probability β (cf. {@code ErrorBars}). */
    static double levelBound(double sigma, double width, double diameter, int m, double beta) {
        double t = Math.log(2 / beta);
        double widthBound = sigma * (width + diameter * Math.sqrt(2 * t));
        double chi = sigma * sigma * (m + 2 * Math.sqrt(m * t) + 2 * t);
        return Math.sqrt(Math.min(widthBound, chi));
    }

    static double diameter(PointSet p) {
        double best = 0;
        int m = p.dim();
        double[] lo = new double[m];
        double[] hi = new double[m];
        java.util.Arrays.fill(lo, Double.POSITIVE_INFINITY);
        java.util.Arrays.fill(hi, Double.NEGATIVE_INFINITY);
        for (int i = 0; i < p.size(); i++) {
            for (int q = 0; q < m; q++) {
                lo[q] = Math.min(lo[q], p.get(i, q));
                hi[q] = Math.max(hi[q], p.get(i, q));
            }
        }
        for (int q = 0; q < m; q++) {
            best += (hi[q] - lo[q]) * (hi[q] - lo[q]);
        }
        return Math.min(Math.sqrt(best), 2 * p.maxNorm());
    }
}
