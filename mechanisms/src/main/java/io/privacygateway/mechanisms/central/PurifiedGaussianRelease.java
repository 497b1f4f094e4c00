package io.privacygateway.mechanisms.central;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.central.purification.Purifier;
import io.privacygateway.mechanisms.central.sampling.DiscreteGaussian;
import io.privacygateway.mechanisms.errors.GaussianWidth;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.nets.ChainingDecomposition;
import io.privacygateway.mechanisms.nets.DecompositionBias;
import io.privacygateway.mechanisms.nets.NestedNets;
import io.privacygateway.mechanisms.param.DirectedDoubles;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.projection.ConvexProjection;
import io.privacygateway.mechanisms.projection.HullProjection;
import io.privacygateway.mechanisms.projection.Projections;
import io.privacygateway.mechanisms.projection.SimplexProjection;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.reference.ReferenceData;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.release.ErrorBars;
import io.privacygateway.mechanisms.workload.FeasibleSetShape;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Central projection and central chaining: the count ({@link CountRelease}), discrete Gaussian noise on the
 * window's integer level sums (ρ-zCDP), projection of every level onto its set, the levels summed and
 * projected onto the working space's feasible set; that <em>approximate</em> vector is (ε_apx, δ)-DP and is
 * purified ({@link Purifier}, Algorithm 1 discretised) into a pure {@code (ε_apx + ε')}-DP vector, which is
 * the only thing the answer is computed from.
 *
 * <p><b>Strategy.</b> What differs between the variants is data, chosen once at construction:
 * <ul>
 *   <li>the {@link Space} the noise, projection and purification happen in: the m answers, or the N
 *       universe counts (histogram; answers {@code Σ_x p_x Q(x)}), chosen for central projection by simulating
 *       both on public reference data;</li>
 *   <li>the levels: one (projection: the answer vectors or the identity) or several (chaining, Lemma 4.2:
 *       level components {@code π_j − π_{j−1}}, each projected onto its hull, a constant offset for levels with a
 *       single point), and chaining's deliberate bias (devices contribute their chain end {@code π_k(Q(x))}).</li>
 * </ul>
 *
 * <p><b>Why the Gaussian part is ρ-zCDP.</b> For integers μ, ν,
 * {@code D_α(N_ℤ(μ,σ²) ‖ N_ℤ(ν,σ²)) <= α(μ−ν)²/(2σ²)} (Canonne, Kamath, Steinke 2020, Thm. 4); Rényi divergence
 * adds over independent coordinates, so level j gives {@code Δ_j²/(2σ_j²)}-zCDP with σ_j² rounded up from
 * the exact {@code Δ_j²/(2ρ_j)}; the ρ_j add up exactly to at most ρ ({@link PrivacySplit}), and ρ converts to
 * {@code (ε_apx, δ)} ({@code Conversions.largestRho}). The count is released first, with pure ε_count, and the
 * rest may use it (adaptive composition).
 *
 * <p><b>Published</b> ({@link #publish}): functions of the released count and the purified vector only. The
 * approximate vector and everything computed from it (projection gaps, the level estimates) never leave
 * {@link #release}. <b>Timing</b>: for central projection every projection before purification is exact and
 * non-iterative ({@link #projection}); the projections after purification are post-processing of the pure
 * vector, so their data-dependent running time reveals nothing beyond it. Central chaining projects its levels
 * onto arbitrary hulls with an iterative solver that stops on a data-dependent gap;
 * {@code docs/published-fields.md} records how much that changes the release's duration, measured.
 *
 * <p><b>Error bars</b> (probability split three ways: levels, purification, count, after the mixing event's
 * ω): the l2 bound is {@code ‖P‖_op·(Σ_j B_j + Σ_j r_j·c + √d·(b·ln(2d/β) + h)) + bias·√m}, B_j the
 * high-probability bound of level j ({@link ErrorBars#levelErrorBound}), r_j its radius, c the count's
 * relative bound, b and h purification's noise scale and grid step. In answer space each coordinate's
 * half-width is the distance the final projection moved it plus {@code h + b·ln(2/β)} (purification
 * noise and rounding) plus {@code Σ_j B_j + Σ_j r_j c} (the approximate vector's l2 error: projection gives no
 * per-coordinate guarantee for it) plus the coordinate's bias; in histogram space it is the l2 bound. When
 * ω is not below the failure budget, or the released count is below 1, the bars are [0, 1] and the RMS bound
 * is the trivial {@code diam(K)/√m}.
 */
public final class PurifiedGaussianRelease implements CentralRelease {
    private final Workload workload;
    private final CentralParameters.Gaussian params;
    private final CentralParameterChoice.Inputs model;
    private final FeasibleAnswers feasible;
    private final CountRelease count;
    private final Space space;
    private final List<Level> levels;
    private final double[] offset;
    private final boolean sumNeedsProjection;
    private final double[] coordinateBias;
    private final double biasRms;
    private final Purifier purifier;

    private PurifiedGaussianRelease(Workload workload, CentralParameters.Gaussian params,
            CentralParameterChoice.Inputs model, Space space, List<Level> levels, double[] offset,
            double[] coordinateBias, double biasRms, Purifier purifier) {
        this.workload = workload;
        this.params = params;
        this.model = model;
        this.feasible = FeasibleAnswers.of(workload);
        WorkloadSpec s = workload.spec();
        this.count = CountRelease.of(s.central().neighbour(), s.central().contributionsPerWindow(),
                params.epsilonCount());
        this.space = space;
        this.levels = List.copyOf(levels);
        this.offset = offset.clone();
        this.sumNeedsProjection = levels.size() > 1 || levels.get(0).projection() != space.feasible();
        this.coordinateBias = coordinateBias.clone();
        this.biasRms = biasRms;
        this.purifier = purifier;
    }

    // ---- construction --------------------------------------------------------------------------------

    /**
     * Central projection. The Gaussian intermediate is projected before purification, and that projection must
     * not take data-dependent time (the release's duration is observable): in answer space it is exact only when
     * K is the simplex or the monotone box (sort-based, {@code O(m log m)}); for every other K (ranges, marginals,
     * explicit points) the only exact choice is histogram space, whose intermediate is projected onto the simplex.
     * Where both are exact, the space with the lower error on the public reference distributions at the planned
     * n is chosen (the closed forms compare the two only roughly: projection onto K removes correlated answer
     * errors that the histogram-space model cannot see). The simulation is seeded, so the choice is a
     * deterministic function of the workload.
     */
    public static PurifiedGaussianRelease projection(Workload w, long planned) {
        PurifiedGaussianRelease histogram = histogramSpaceProjection(w, planned);
        if (w.feasibleSetShape() == FeasibleSetShape.HULL) {
            return histogram;
        }
        PurifiedGaussianRelease answers = answerSpaceProjection(w, planned);
        return simulatedError(histogram, planned) < simulatedError(answers, planned) ? histogram : answers;
    }

    private static PurifiedGaussianRelease answerSpaceProjection(Workload w, long planned) {
        CentralGeometry geo = CentralGeometry.of(w);
        WorkloadSpec s = w.spec();
        long[][] vectors = new long[w.universeSize()][];
        for (int x = 0; x < vectors.length; x++) {
            vectors[x] = geo.gridPoint(x);
        }
        long d2 = CentralGeometry.l2SensitivitySquared(vectors, s.central().neighbour(),
                s.central().contributionsPerWindow());
        double widthK = GaussianWidth.of(w.points()).upper();
        CentralParameterChoice.Inputs in = CentralParameterChoice.Inputs.answers(w, geo, planned,
                List.of(new CentralParameterChoice.Level(d2, widthK)), 0);
        CentralParameters.Gaussian p = CentralParameterChoice.gaussian(MechanismId.CENTRAL_PROJECTION, in);
        Space space = Space.answers(w, geo);
        Level level = Level.of(new LevelSum.Vectors(vectors), space.feasible(), d2, p.levelRho()[0], widthK,
                ErrorBars.diameterBound(w.points()), w.points().maxNorm(), w.universeSize());
        return new PurifiedGaussianRelease(w, p, in, space, List.of(level), new double[w.queryCount()],
                new double[w.queryCount()], 0, purifier(in.ball(), p));
    }

    private static PurifiedGaussianRelease histogramSpaceProjection(Workload w, long planned) {
        CentralParameterChoice.Inputs in = CentralParameterChoice.Inputs.histogram(w, planned);
        CentralParameters.Gaussian p = CentralParameterChoice.gaussian(MechanismId.CENTRAL_PROJECTION, in);
        int n = w.universeSize();
        Space space = Space.histogram(w);
        CentralParameterChoice.Level l = in.levels().get(0);
        Level level = Level.of(new LevelSum.Identity(), space.feasible(), (long) l.sensitivitySquared(),
                p.levelRho()[0], l.gaussianWidth(), Math.sqrt(2), 1, n);
        return new PurifiedGaussianRelease(w, p, in, space, List.of(level), new double[n],
                new double[w.queryCount()], 0, purifier(in.ball(), p));
    }

    /** Central chaining (answer space): the decomposition of Lemma 4.2 with ρ split across its levels. */
    public static PurifiedGaussianRelease chaining(Workload w, long planned) {
        CentralGeometry geo = CentralGeometry.of(w);
        WorkloadSpec s = w.spec();
        int m = w.queryCount();
        if (s.alpha() == null) {
            throw new IllegalArgumentException("central-chaining needs alpha (the target average error that sets the"
                    + " number of chaining levels)");
        }
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
        PointSet ends = DecompositionBias.rows(w.points(), d.chain(d.levels()));
        double biasRms = DecompositionBias.normalised(w.points(), ends);
        double[] coordinateBias = DecompositionBias.perCoordinate(w.points(), ends);
        List<CentralParameterChoice.Level> lv = new ArrayList<>();
        long[] d2 = new long[comps.size()];
        for (int j = 0; j < comps.size(); j++) {
            d2[j] = CentralGeometry.l2SensitivitySquared(comps.get(j), s.central().neighbour(),
                    s.central().contributionsPerWindow());
            lv.add(new CentralParameterChoice.Level(d2[j], GaussianWidth.of(hulls.get(j)).upper()));
        }
        CentralParameterChoice.Inputs in = CentralParameterChoice.Inputs.answers(w, geo, planned, lv, biasRms);
        CentralParameters.Gaussian p = CentralParameterChoice.gaussian(MechanismId.CENTRAL_CHAINING, in);
        List<Level> levels = new ArrayList<>();
        for (int j = 0; j < comps.size(); j++) {
            PointSet hull = hulls.get(j);
            levels.add(Level.of(new LevelSum.Vectors(comps.get(j)), Projections.hull(hull), d2[j], p.levelRho()[j],
                    lv.get(j).gaussianWidth(), ErrorBars.diameterBound(hull), hull.maxNorm(), hull.size()));
        }
        return new PurifiedGaussianRelease(w, p, in, Space.answers(w, geo), levels, offset, coordinateBias, biasRms,
                purifier(in.ball(), p));
    }

    private static Purifier purifier(CentralGeometry.Ball ball, CentralParameters.Gaussian p) {
        return new Purifier(ball.norm(), ball.center(), ball.diameter(),
                Epsilon.exactly(new BigDecimal(p.epsilonPrime())), new LogDelta(p.logDelta()), p.omega());
    }

    /** Squared error of a few seeded releases on public reference data at the planned n (public planning). */
    private static double simulatedError(PurifiedGaussianRelease r, long planned) {
        Workload w = r.workload();
        int size = (int) Math.min(planned, 1_000_000);
        double total = 0;
        int k = 0;
        for (ReferenceData ref : ReferenceData.all()) {
            long[] counts = new long[w.universeSize()];
            for (int v : ref.stratified(w.universeSize(), size)) {
                counts[v]++;
            }
            double[] truth = w.meanAnswer(counts);
            for (int t = 0; t < 4; t++) {
                Answer a = r.release(counts, new SeededRandomBits(0x5ACEL + 31L * k++));
                for (int q = 0; q < truth.length; q++) {
                    total += (a.estimates()[q] - truth[q]) * (a.estimates()[q] - truth[q]);
                }
            }
        }
        return total;
    }

    // ---- accessors -----------------------------------------------------------------------------------

    @Override
    public Workload workload() {
        return workload;
    }

    @Override
    public CentralParameters.Gaussian parameters() {
        return params;
    }


    public Purifier purifier() {
        return purifier;
    }

    /** The space the Gaussian part works in. */
    public CentralParameters.Space space() {
        return params.space();
    }

    /** The discrete Gaussian of every level (for the exact privacy checks). */
    List<DiscreteGaussian> levelNoise() {
        return levels.stream().map(Level::noise).toList();
    }

    /** The squared l2 sensitivity of every level's sum. */
    long[] levelSensitivitySquared() {
        return levels.stream().mapToLong(Level::sensitivitySquared).toArray();
    }

    CountRelease count() {
        return count;
    }

    /**
     * Whether every projection before purification is an exact, non-iterative one (simplex or monotone box), so
     * that its running time does not depend on when an iterative solver converges. True for central projection;
     * false for central chaining, whose levels are projected onto arbitrary hulls by an iterative solver.
     */
    boolean approximateStepIsExact() {
        boolean exact = !(space.feasible() instanceof HullProjection);
        for (Level l : levels) {
            exact &= !(l.projection() instanceof HullProjection);
        }
        return exact;
    }

    /** Level j's exact integer sum of {@code counts}. */
    long[] levelSums(int j, long[] counts) {
        return levels.get(j).sums().of(counts);
    }

    // ---- the release ---------------------------------------------------------------------------------

    @Override
    public Answer release(long[] counts, RandomBits secret) {
        long n = CentralRelease.checkedTotal(workload, counts);
        if (count instanceof CountRelease.Public && n == 0) {
            return feasible.noData(params.mechanism());
        }
        long released = count.release(n, secret);
        double[] approximate = approximate(counts, released, secret); // (ε_apx, δ)-DP: never published
        return publish(released, purifier.purify(approximate, secret));
    }

    /** The Gaussian part: noisy level sums, each projected, summed, projected onto the space's set. */
    private double[] approximate(long[] counts, long released, RandomBits secret) {
        double nG = (double) CountRelease.divisor(released) * space.gridScale();
        int d = space.dimension();
        double[] sum = offset.clone();
        for (Level l : levels) {
            long[] t = l.sums().of(counts);
            double[] y = new double[d];
            for (int q = 0; q < d; q++) {
                y[q] = (t[q] + l.noise().sample(secret)) / nG;
            }
            double[] p = l.projection().project(y).point();
            for (int q = 0; q < d; q++) {
                sum[q] += p[q];
            }
        }
        return sumNeedsProjection ? space.feasible().project(sum).point() : sum;
    }

    /**
     * Everything the answer publishes, computed from the pure outputs only: the released count, the purified
     * vector (working space) and public parameters.
     */
    Answer publish(long released, double[] purified) {
        int m = workload.queryCount();
        int d = space.dimension();
        long divisor = CountRelease.divisor(released);
        double nG = (double) divisor * space.gridScale();
        boolean valid = params.omega() < feasible.failureBudget();
        double beta = Math.max(1e-300, feasible.failureBudget() - params.omega()) / 3;
        double relCount = count.relativeBound(beta, released);
        boolean bounded = valid && relCount < Double.POSITIVE_INFINITY;
        double t = Math.log(2 / (beta / levels.size()));
        double levelsBound = 0;
        double variance = 0;
        double[] levelSigma = new double[levels.size()];
        List<Answer.LevelDetail> details = new ArrayList<>();
        for (int j = 0; j < levels.size(); j++) {
            Level l = levels.get(j);
            double s = l.sigma() / nG;
            levelSigma[j] = l.sigma();
            variance += s * s;
            levelsBound += ErrorBars.levelErrorBound(s, d * s * s, l.width(), l.diameter(), t)
                    + (bounded ? l.radius() * relCount : 0);
            details.add(new Answer.LevelDetail(j + 1, new PrivacyCost.Zcdp(l.rho()), l.radius(), s, l.width(),
                    l.hullSize(), OptionalDouble.empty()));
        }
        double b = purifier.noiseScale();
        double h = purifier.gridStep();
        variance += 2 * b * b;
        double work = levelsBound + Math.sqrt(d) * (b * Math.log(2 * d / beta) + h);
        double bound = bounded ? space.answerOperatorNorm() * work + biasRms * Math.sqrt(m) : Double.POSITIVE_INFINITY;

        double[] unprojected = space.answersOf(purified);
        double[] pure = space.feasible().project(purified).point();
        // K ⊆ [0, 1]^m: clamping removes the projection's rounding only
        double[] estimate = ErrorBars.clampedInto(space.finalAnswers(pure, feasible.projection()), 0, 1);
        double[] halfWidth = new double[m];
        double[] se = new double[m];
        double sd = Math.sqrt(variance) * space.answerOperatorNorm();
        for (int q = 0; q < m; q++) {
            halfWidth[q] = !bounded ? Double.POSITIVE_INFINITY
                    : space.perCoordinateBars()
                            ? Math.abs(estimate[q] - purified[q]) + h + b * Math.log(2 / beta) + levelsBound
                                    + coordinateBias[q]
                            : bound;
            se[q] = sd;
        }
        double[][] bars = ErrorBars.clipped(estimate, halfWidth, true);
        double countScale = count instanceof CountRelease.Noisy c ? c.noise().scaleDouble() : 0;
        double expected = CentralParameterChoice.gaussianRms(model, levelSigma, b, params.omega(), countScale, divisor);
        return new Answer(params.mechanism(), cost(), CountRelease.published(released), workload.queryLabels(), estimate,
                Optional.of(unprojected), Optional.of(se), bars[0], bars[1], workload.spec().confidence().value(),
                feasible.capped(expected), feasible.capped(bound / Math.sqrt(m)), details, workload.contentHash());
    }

    // ---- the strategy parts --------------------------------------------------------------------------

    /** How a level's integer sum is formed from the counts. */
    sealed interface LevelSum permits LevelSum.Identity, LevelSum.Vectors {
        long[] of(long[] counts);

        /** The histogram itself. */
        record Identity() implements LevelSum {
            @Override
            public long[] of(long[] counts) {
                return counts.clone();
            }
        }

        /** {@code Σ_x counts[x]·v_x} (exact). */
        record Vectors(long[][] vectors) implements LevelSum {
            @Override
            public long[] of(long[] counts) {
                int d = vectors[0].length;
                long[] t = new long[d];
                for (int x = 0; x < counts.length; x++) {
                    if (counts[x] != 0) {
                        for (int q = 0; q < d; q++) {
                            t[q] = Math.addExact(t[q], Math.multiplyExact(counts[x], vectors[x][q]));
                        }
                    }
                }
                return t;
            }
        }
    }

    /**
     * One noisy level: its sum, the set it is projected onto, its discrete Gaussian (σ² rounded up from the
     * exact {@code Δ²/(2ρ_j)}), the ρ that σ² realises ({@code Δ²/(2σ²) <= ρ_j}), and public geometry of its set.
     */
    record Level(LevelSum sums, ConvexProjection projection, DiscreteGaussian noise, long sensitivitySquared,
            double rho, double sigma, double width, double diameter, double radius, int hullSize) {

        static Level of(LevelSum sums, ConvexProjection projection, long sensitivitySquared, double rhoShare,
                double width, double diameter, double radius, int hullSize) {
            Rational sigma2 = PrivacySplit.dyadicUp(new BigDecimal(sensitivitySquared),
                    new BigDecimal(rhoShare).multiply(BigDecimal.valueOf(2)));
            // Δ²/(2σ²) with σ² = num/den, rounded up (never below what the noise realises, never above ρ_j)
            BigDecimal realised = new BigDecimal(sensitivitySquared).multiply(new BigDecimal(sigma2.denominator()))
                    .divide(new BigDecimal(sigma2.numerator().shiftLeft(1)),
                            new MathContext(40, RoundingMode.CEILING));
            double rho = DirectedDoubles.ceil(realised);
            return new Level(sums, projection, new DiscreteGaussian(sigma2), sensitivitySquared, rho,
                    Math.sqrt(sigma2.doubleValue()), width, diameter, radius, hullSize);
        }
    }

    /** Where the Gaussian part works. */
    sealed interface Space permits Space.Answers, Space.Histogram {
        int dimension();

        /** G: sums are divided by {@code n·G}. */
        long gridScale();

        /** The working space's feasible set (K, or the simplex). */
        ConvexProjection feasible();

        /** A working-space vector in answer space (linear; for {@code unprojected}). */
        double[] answersOf(double[] work);

        /** The estimate from the projected pure vector. */
        double[] finalAnswers(double[] projected, ConvexProjection k);

        /** A bound on the operator norm of {@link #answersOf} (1 in answer space). */
        double answerOperatorNorm();

        /** Whether coordinates get their own bars (answer space), or the l2 bound (histogram space). */
        boolean perCoordinateBars();

        static Space answers(Workload w, CentralGeometry geo) {
            return new Answers(w.queryCount(), geo.scale(), Projections.forWorkload(w));
        }

        static Space histogram(Workload w) {
            return new Histogram(w, new SimplexProjection(w.universeSize()), operatorNorm(w.points()));
        }

        /** The m answers on the grid of scale G. */
        record Answers(int dimension, long gridScale, ConvexProjection feasible) implements Space {
            @Override
            public double[] answersOf(double[] work) {
                return work.clone();
            }

            @Override
            public double[] finalAnswers(double[] projected, ConvexProjection k) {
                return projected;
            }

            @Override
            public double answerOperatorNorm() {
                return 1;
            }

            @Override
            public boolean perCoordinateBars() {
                return true;
            }
        }

        /** The N universe counts; answers {@code Σ_x p_x Q(x)}, projected onto K. */
        record Histogram(Workload workload, ConvexProjection feasible, double answerOperatorNorm) implements Space {
            @Override
            public int dimension() {
                return workload.universeSize();
            }

            @Override
            public long gridScale() {
                return 1;
            }

            @Override
            public double[] answersOf(double[] work) {
                return workload.answersOf(work);
            }

            @Override
            public double[] finalAnswers(double[] projected, ConvexProjection k) {
                return k.project(workload.answersOf(projected)).point();
            }

            @Override
            public boolean perCoordinateBars() {
                return false;
            }
        }
    }

    /** {@code ‖P‖_op = √λ_max(PᵀP)} by power iteration (public), inflated by 1% for safety. */
    static double operatorNorm(PointSet p) {
        int m = p.dim();
        double[] u = new double[m];
        Arrays.fill(u, 1 / Math.sqrt(m));
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
}
