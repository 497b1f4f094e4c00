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
import io.privacygateway.mechanisms.projection.SimplexProjection;
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
 *   <li>central projection works either on the m answers or, when cheaper by the predicted error, on the
 *       N universe counts (noise on the histogram, projection onto the simplex, purification in an l1 ball
 *       around the simplex whose cost does not grow with N, answers {@code Σ_x p_x Q(x)} ∈ K);
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
 * <p><b>Error bars</b> use pure-DP quantities only (the published count, the noise parameters, and the
 * Laplace or purified output before its final projection; never the Gaussian intermediate): an l2 bound
 * on the total error ({@code rmsErrorBoundAtConfidence} × √m), and per-coordinate intervals, each valid
 * with probability at least the workload's confidence (the mixing event's ω is charged to the failure
 * probability). A coordinate's half-width is the distance the final projection moved it plus the noise
 * tail of that coordinate: {@code s·ln(2/β)} for the Laplace baseline (plus the count's share), and for a
 * purified answer in answer space {@code h + b·ln(2/β)} plus the l2 bound of the approximate release
 * (projection gives no per-coordinate guarantee for the Gaussian part); in histogram space, the l2 bound.
 */
public final class CentralPipeline {
    /** The n parameters are planned for when the spec gives none. */
    public static final long DEFAULT_PLANNED_REPORTS = 10_000;
    private static final BigInteger DYADIC = BigInteger.ONE.shiftLeft(20);

    private final Workload workload;
    private final CentralGeometry geometry;
    private final CentralParameters params;
    private final ConvexProjection feasibleAnswers;
    private final ConvexProjection feasibleWork;
    private final boolean histogramSpace;
    private final double answerOperatorNorm;
    private final List<Level> levels;
    private final double[] offset;
    private final DiscreteLaplace countNoise;
    private final DiscreteLaplace sumNoise;
    private final Purifier purifier;
    private final double widthK;
    private final double diameterK;
    /** {@code max_x max_q |Q(x)_q|}: bounds every true answer coordinate. */
    private final double maxAbsAnswer;

    /**
     * One noisy level in the working space: integer components per universe value ({@code null} means
     * the identity: the histogram), the set it is projected onto ({@code null}: the working space's
     * feasible set), and its noise.
     */
    private record Level(long[][] components, ConvexProjection projection, DiscreteGaussian noise, double sigma,
            double width, double diameter, double maxNorm, int hullSize) {}

    private CentralPipeline(Workload workload, CentralGeometry geometry, CentralParameters params,
            ConvexProjection feasibleWork, boolean histogramSpace, double answerOperatorNorm, List<Level> levels,
            double[] offset, DiscreteLaplace countNoise, DiscreteLaplace sumNoise, Purifier purifier) {
        this.workload = workload;
        this.geometry = geometry;
        this.params = params;
        this.feasibleAnswers = Projections.forWorkload(workload);
        this.feasibleWork = feasibleWork;
        this.histogramSpace = histogramSpace;
        this.answerOperatorNorm = answerOperatorNorm;
        this.levels = levels;
        this.offset = offset;
        this.countNoise = countNoise;
        this.sumNoise = sumNoise;
        this.purifier = purifier;
        this.widthK = GaussianWidth.of(workload.points()).upper();
        this.diameterK = diameter(workload.points());
        this.maxAbsAnswer = maxAbs(workload.points());
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
        int contributions = s.central().contributionsPerWindow();
        NeighbourRelation relation = s.central().neighbour();
        boolean countPublic = relation == NeighbourRelation.REPLACE_ONE;
        DiscreteLaplace countNoise;
        if (s.mechanism() == MechanismId.LAPLACE) {
            CentralParameters p = CentralParameterChoice.laplace(answerInputs(w, geo, planned, List.of(), null));
            countNoise = countPublic ? null : new DiscreteLaplace(dyadicUp(contributions / p.epsilonCount()));
            return new CentralPipeline(w, geo, p, Projections.forWorkload(w), false, 1, List.of(), new double[w.queryCount()],
                    countNoise, new DiscreteLaplace(dyadicUp(p.laplaceScale())), null);
        }
        if (s.mechanism() == MechanismId.CENTRAL_CHAINING) {
            return chaining(w, geo, planned);
        }
        // central projection: answer space or histogram space, whichever predicts the lower error
        long[][] identityFree = new long[w.universeSize()][];
        for (int x = 0; x < identityFree.length; x++) {
            identityFree[x] = geo.gridPoint(x);
        }
        double widthK = GaussianWidth.of(w.points()).upper();
        long d2 = relation == NeighbourRelation.ADD_REMOVE ? CentralGeometry.maxNormSquared(identityFree)
                : CentralGeometry.maxDistanceSquared(identityFree);
        List<CentralParameterChoice.Level> lv = List.of(new CentralParameterChoice.Level(
                (double) d2 * contributions * contributions, widthK));
        CentralParameters answers = CentralParameterChoice.gaussian(MechanismId.CENTRAL_PROJECTION,
                answerInputs(w, geo, planned, lv, geo.cheapestBall()));
        CentralParameterChoice.Inputs hin = histogramInputs(w, planned);
        CentralParameters histogram = CentralParameterChoice.gaussian(MechanismId.CENTRAL_PROJECTION, hin);
        countNoise = countPublic ? null : new DiscreteLaplace(dyadicUp(contributions / answers.epsilonCount()));
        Rational sigma2 = dyadicUp(lv.get(0).sensitivitySquared() / (2 * answers.levelRho()[0]));
        Level level = new Level(identityFree, null, new DiscreteGaussian(sigma2), Math.sqrt(sigma2.doubleValue()),
                widthK, diameter(w.points()), w.points().maxNorm(), w.universeSize());
        CentralGeometry.Ball ball = geo.cheapestBall();
        Purifier purifier = new Purifier(ball.norm(), ball.center(), ball.diameter(),
                new Epsilon(answers.epsilonPrime()), new LogDelta(answers.logDelta()), answers.omega());
        CentralPipeline inAnswers = new CentralPipeline(w, geo, answers, Projections.forWorkload(w), false, 1,
                List.of(level), new double[w.queryCount()], countNoise, null, purifier);

        int n = w.universeSize();
        DiscreteLaplace hCount = countPublic ? null
                : new DiscreteLaplace(dyadicUp(contributions / histogram.epsilonCount()));
        CentralParameterChoice.Level hl = hin.levels().get(0);
        Rational hSigma2 = dyadicUp(hl.sensitivitySquared() / (2 * histogram.levelRho()[0]));
        Level hLevel = new Level(null, null, new DiscreteGaussian(hSigma2), Math.sqrt(hSigma2.doubleValue()),
                hl.gaussianWidth(), Math.sqrt(2), 1, n);
        Purifier hPurifier = new Purifier(hin.ball().norm(), hin.ball().center(), hin.ball().diameter(),
                new Epsilon(histogram.epsilonPrime()), new LogDelta(histogram.logDelta()), histogram.omega());
        CentralPipeline inHistogram = new CentralPipeline(w, geo, histogram, new SimplexProjection(n), true,
                operatorNorm(w.points()), List.of(hLevel), new double[n], hCount, null, hPurifier);
        // The closed forms compare the two spaces only roughly (projection onto K removes correlated answer errors
        // that the histogram-space model cannot see), so the space is chosen by simulating both real releases on
        // the public reference distributions (seeded: a deterministic function of the spec).
        return simulatedError(inHistogram, planned) < simulatedError(inAnswers, planned) ? inHistogram : inAnswers;
    }

    /** Mean squared error of a few seeded releases on public reference data at the planned n (public planning). */
    static double simulatedError(CentralPipeline p, long planned) {
        Workload w = p.workload();
        int size = (int) Math.min(planned, 1_000_000);
        double total = 0;
        int k = 0;
        for (io.privacygateway.mechanisms.planner.ReferenceData r : io.privacygateway.mechanisms.planner.ReferenceData.all()) {
            long[] counts = new long[w.universeSize()];
            for (int v : r.stratified(w.universeSize(), size)) {
                counts[v]++;
            }
            double[] truth = w.meanAnswer(counts);
            for (int t = 0; t < 4; t++) {
                Answer a = p.release(counts, new io.privacygateway.mechanisms.random.SeededRandomBits(0x5ACEL + 31L * k++));
                for (int q = 0; q < truth.length; q++) {
                    total += (a.estimates()[q] - truth[q]) * (a.estimates()[q] - truth[q]);
                }
            }
        }
        return total;
    }

    private static CentralPipeline chaining(Workload w, CentralGeometry geo, long planned) {
        WorkloadSpec s = w.spec();
        int m = w.queryCount();
        int contributions = s.central().contributionsPerWindow();
        NeighbourRelation relation = s.central().neighbour();
        ChainingDecomposition d = ChainingDecomposition.of(NestedNets.build(w.points(), s.alpha().chainingLevels()));
        List<long[][]> comps = new ArrayList<>();
        List<PointSet> hulls = new ArrayList<>();
        double[] offset = new double[m];
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
        List<CentralParameterChoice.Level> lv = new ArrayList<>();
        for (int j = 0; j < comps.size(); j++) {
            long d2 = relation == NeighbourRelation.ADD_REMOVE ? CentralGeometry.maxNormSquared(comps.get(j))
                    : CentralGeometry.maxDistanceSquared(comps.get(j));
            lv.add(new CentralParameterChoice.Level((double) d2 * contributions * contributions,
                    GaussianWidth.of(hulls.get(j)).upper()));
        }
        CentralGeometry.Ball ball = geo.cheapestBall();
        CentralParameters p = CentralParameterChoice.gaussian(MechanismId.CENTRAL_CHAINING,
                answerInputs(w, geo, planned, lv, ball));
        List<Level> levels = new ArrayList<>();
        for (int j = 0; j < comps.size(); j++) {
            Rational sigma2 = dyadicUp(lv.get(j).sensitivitySquared() / (2 * p.levelRho()[j]));
            PointSet hull = hulls.get(j);
            levels.add(new Level(comps.get(j), Projections.hull(hull), new DiscreteGaussian(sigma2),
                    Math.sqrt(sigma2.doubleValue()), lv.get(j).gaussianWidth(), diameter(hull), hull.maxNorm(),
                    hull.size()));
        }
        Purifier purifier = new Purifier(ball.norm(), ball.center(), ball.diameter(), new Epsilon(p.epsilonPrime()),
                new LogDelta(p.logDelta()), p.omega());
        DiscreteLaplace countNoise = relation == NeighbourRelation.REPLACE_ONE ? null
                : new DiscreteLaplace(dyadicUp(contributions / p.epsilonCount()));
        return new CentralPipeline(w, geo, p, Projections.forWorkload(w), false, 1, levels, offset, countNoise, null,
                purifier);
    }

    private static CentralParameterChoice.Inputs answerInputs(Workload w, CentralGeometry geo, long planned,
            List<CentralParameterChoice.Level> levels, CentralGeometry.Ball ball) {
        WorkloadSpec s = w.spec();
        int contributions = s.central().contributionsPerWindow();
        NeighbourRelation relation = s.central().neighbour();
        return new CentralParameterChoice.Inputs(s.central().epsilonPerRelease().value(),
                relation == NeighbourRelation.REPLACE_ONE, contributions, planned, geo.scale(), w.queryCount(),
                w.points().maxNorm(), GaussianWidth.of(w.points()).upper(), ball, levels,
                geo.l1Sensitivity(relation, contributions), 1.0, false);
    }

    /**
     * Inputs in histogram space: N counts, sensitivity L (add/remove) or √2·L (replace-one), the simplex's
     * Gaussian width bounded by {@code √(2 ln N)}, the l1 ball of centre {@code 1/N} and radius
     * {@code 2(1 − 1/N)} around it, and the factor {@code ‖P‖_F/√m} from per-count to per-answer RMS.
     */
    private static CentralParameterChoice.Inputs histogramInputs(Workload w, long planned) {
        WorkloadSpec s = w.spec();
        int n = w.universeSize();
        int contributions = s.central().contributionsPerWindow();
        NeighbourRelation relation = s.central().neighbour();
        double d2 = (relation == NeighbourRelation.ADD_REMOVE ? 1.0 : 2.0) * contributions * contributions;
        double width = Math.sqrt(2 * Math.log(n));
        double[] center = new double[n];
        java.util.Arrays.fill(center, 1.0 / n);
        CentralGeometry.Ball ball = new CentralGeometry.Ball(io.privacygateway.mechanisms.central.sampling.LqNorm.L1,
                center, 4 * (1 - 1.0 / n) * (1 + 1e-9));
        double frob = 0;
        PointSet pts = w.points();
        for (int x = 0; x < n; x++) {
            double r = pts.norm(x);
            frob += r * r;
        }
        double factor = Math.sqrt(frob / w.queryCount());
        return new CentralParameterChoice.Inputs(s.central().epsilonPerRelease().value(),
                relation == NeighbourRelation.REPLACE_ONE, contributions, planned, 1, n, 1.0, width, ball,
                List.of(new CentralParameterChoice.Level(d2, width)), 0, factor, true);
    }

    /** {@code ‖P‖_op = √λ_max(PᵀP)} by power iteration (public), inflated by 1% for safety. */
    static double operatorNorm(PointSet p) {
        int m = p.dim();
        double[] u = new double[m];
        java.util.Arrays.fill(u, 1 / Math.sqrt(m));
        double lambda = 0;
        for (int it = 0; it < 200; it++) {
            double[] c = new double[p.size()];
            for (int x = 0; x < c.length; x++) {
                c[x] = p.dot(x, u);
            }
            double[] v = p.combine(c);
            double norm = 0;
            double next = 0;
            for (int q = 0; q < m; q++) {
                norm += v[q] * v[q];
                next += u[q] * v[q];
            }
            norm = Math.sqrt(norm);
            if (norm == 0) {
                break;
            }
            for (int q = 0; q < m; q++) {
                u[q] = v[q] / norm;
            }
            boolean done = Math.abs(next - lambda) <= 1e-9 * next;
            lambda = next;
            if (done) {
                break;
            }
        }
        return 1.01 * Math.sqrt(Math.max(lambda, 0));
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
        int m = workload.queryCount();
        double[] estimate;
        List<Answer.LevelDetail> details = new ArrayList<>();
        double bound;
        double[] halfWidth = new double[m];
        double sigmaSq = 0;
        if (params.mechanism() == MechanismId.LAPLACE) {
            double nG = (double) published * geometry.scale();
            long[] t = geometry.sum(counts);
            double[] y = new double[m];
            for (int q = 0; q < m; q++) {
                y[q] = (t[q] + sumNoise.sample(secret)) / nG;
            }
            estimate = feasibleAnswers.project(y).point();
            double scale = sumNoise.scaleDouble() / nG;
            sigmaSq = 2 * scale * scale;
            double beta = failure() / 2;
            bound = Math.sqrt(m) * scale * Math.log(2 * m / beta) + countBound(beta, published) * diameterK;
            // per coordinate: y_q − x̄_q = N_q/(ñG) + x̄_q (n − ñ)/ñ, and y is itself pure DP, so the distance the
            // projection moved each coordinate may be published
            double tail = scale * Math.log(2 / beta) + maxAbsAnswer * countBound(beta, published);
            for (int q = 0; q < m; q++) {
                halfWidth[q] = Math.abs(estimate[q] - y[q]) + tail;
            }
            details.add(new Answer.LevelDetail(1, params.epsilonTotal(), 0, Math.sqrt(sigmaSq), widthK,
                    workload.universeSize(), 0, 0.0));
        } else {
            double nG = (double) published * (histogramSpace ? 1 : geometry.scale());
            int d = offset.length;
            double[] sum = offset.clone();
            double beta = failure() / 3;
            double work = 0;
            for (int j = 0; j < levels.size(); j++) {
                Level l = levels.get(j);
                double[] y = new double[d];
                if (l.components() == null) {
                    for (int x = 0; x < d; x++) {
                        y[x] = (counts[x] + l.noise().sample(secret)) / nG;
                    }
                } else {
                    long[] t = new long[d];
                    for (int x = 0; x < counts.length; x++) {
                        if (counts[x] != 0) {
                            for (int q = 0; q < d; q++) {
                                t[q] = Math.addExact(t[q], Math.multiplyExact(counts[x], l.components()[x][q]));
                            }
                        }
                    }
                    for (int q = 0; q < d; q++) {
                        y[q] = (t[q] + l.noise().sample(secret)) / nG;
                    }
                }
                var proj = l.projection() == null ? feasibleWork.project(y) : l.projection().project(y);
                for (int q = 0; q < d; q++) {
                    sum[q] += proj.point()[q];
                }
                double s = l.sigma() / nG;
                sigmaSq += s * s;
                work += levelBound(s, l.width(), l.diameter(), d, beta / levels.size())
                        + l.maxNorm() * countBound(beta, published);
                details.add(new Answer.LevelDetail(j + 1, 0.0, l.maxNorm(), s, l.width(), l.hullSize(),
                        proj.dualityGap(), params.levelRho()[j]));
            }
            double[] approx = levels.size() == 1 && levels.get(0).projection() == null ? sum
                    : feasibleWork.project(sum).point();
            double[] purified = purifier.purify(approx, secret);
            double[] pure = feasibleWork.project(purified).point();
            estimate = histogramSpace ? feasibleAnswers.project(workload.answersOf(pure)).point() : pure;
            double b = purifier.noiseScale();
            sigmaSq += 2 * b * b;
            double levelsBound = work;
            work += Math.sqrt(d) * (b * Math.log(2 * d / beta) + purifier.gridStep());
            bound = answerOperatorNorm * work;
            for (int q = 0; q < m; q++) {
                // answer space: |a_q − x̄_q| ≤ |a_q − v_q| + |v_q − x_q| + ‖x − x̄‖₂ with v the purified (pure DP)
                // output and x the approximate one; |v_q − x_q| ≤ h + b ln(2/β) unless the mixing event occurred
                halfWidth[q] = histogramSpace ? bound
                        : Math.abs(estimate[q] - purified[q]) + purifier.gridStep() + b * Math.log(2 / beta) + levelsBound;
            }
            if (histogramSpace) {
                sigmaSq *= answerOperatorNorm * answerOperatorNorm; // a per-answer scale, conservatively
            }
        }
        boolean valid = (params.mechanism() == MechanismId.LAPLACE ? 0 : params.omega()) < failureBudget();
        double[] lo = new double[m];
        double[] hi = new double[m];
        double[] se = new double[m];
        for (int q = 0; q < m; q++) {
            double h = halfWidth[q];
            lo[q] = valid ? Math.max(0, estimate[q] - h) : 0;
            hi[q] = valid ? Math.min(1, estimate[q] + h) : 1;
            se[q] = Math.sqrt(sigmaSq);
        }
        return new Answer(params.mechanism(), params.epsilonTotal(), 0.0, published, workload.queryLabels(), estimate,
                estimate.clone(), se, lo, hi, workload.spec().confidence().value(), params.predictedRms(),
                valid ? bound / Math.sqrt(m) : Double.POSITIVE_INFINITY, details, workload.contentHash());
    }

    /** The failure probability left for noise tails after the mixing event: {@code 1 − confidence − ω}. */
    private double failure() {
        return Math.max(1e-300, failureBudget() - (params.mechanism() == MechanismId.LAPLACE ? 0 : params.omega()));
    }

    private double failureBudget() {
        return 1 - workload.spec().confidence().value();
    }

    /** With probability ≥ 1 − β, |n − ñ|/ñ is below this (0 when the count is public). */
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

    static double maxAbs(PointSet p) {
        double best = 0;
        for (int i = 0; i < p.size(); i++) {
            for (int q = 0; q < p.dim(); q++) {
                best = Math.max(best, Math.abs(p.get(i, q)));
            }
        }
        return best;
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
