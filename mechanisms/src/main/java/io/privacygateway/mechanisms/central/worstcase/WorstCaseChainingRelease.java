package io.privacygateway.mechanisms.central.worstcase;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.central.CentralGeometry;
import io.privacygateway.mechanisms.central.CountRelease;
import io.privacygateway.mechanisms.central.purification.Purifier;
import io.privacygateway.mechanisms.central.sampling.LqNorm;
import io.privacygateway.mechanisms.central.wide.BinaryMarginalUniverse;
import io.privacygateway.mechanisms.central.wide.Failures;
import io.privacygateway.mechanisms.central.wide.Hypercube;
import io.privacygateway.mechanisms.central.wide.MarginalCounts;
import io.privacygateway.mechanisms.central.wide.MarginalWorkload;
import io.privacygateway.mechanisms.central.wide.MaxErrorCheck;
import io.privacygateway.mechanisms.central.wide.MwUniverse;
import io.privacygateway.mechanisms.central.wide.PrivateMultiplicativeWeights;
import io.privacygateway.mechanisms.central.wide.ReleaseDraws;
import io.privacygateway.mechanisms.central.wide.WideAnswer;
import io.privacygateway.mechanisms.central.wide.WideRelease;
import io.privacygateway.mechanisms.central.wide.WideSettings;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Alpha;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.release.ErrorBars;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.Workload;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.IntFunction;

/**
 * Worst-case chaining (instance-optimal query release paper §4.3, Theorem 1.5), pure ε-DP by purification: the
 * decomposition of Lemma 4.2 in l∞ ({@link LinfDecomposition}), private multiplicative weights on every level
 * (Lemma 2.3; {@link PrivateMultiplicativeWeights}) with the level's share of ρ, the levels summed (Lemma 3.3),
 * purified in an l∞ ball around the answers (purification paper Algorithm 1, {@link Purifier}), and clipped to the
 * answers' bounding box. The answer publishes an l∞ bound ({@code extras.maxErrorBound}, and bars of that
 * half-width): with probability at least the confidence, {@code ‖estimates − x̄‖∞ <=} the bound.
 *
 * <h2>Two shapes</h2>
 * <ul>
 *   <li>{@link #forWorkload}: a materialised central workload (counts per universe value). Level j's universe is
 *       the level set {@code X^(j)} with its coordinates rescaled to [0, 1] ({@link PointUniverse}); its data are
 *       the histogram of the reports' level-j components. Levels with one row are a constant (no noise).</li>
 *   <li>{@link #forMarginals}: all k-way marginals over d binary attributes from {@link MarginalCounts}. The
 *       answers are 0/1, so the decomposition has one level, the whole universe {@code {0,1}^d}
 *       ({@link LinfDecomposition}, "0/1 workloads"), and no bias: PMW with the marginals as partition groups
 *       ({@link BinaryMarginalUniverse}).</li>
 * </ul>
 *
 * <h2>Privacy</h2>
 * The count (pure ε_count, or public), the levels (each {@code ρ_j}-zCDP, {@code Σ ρ_j <= ρ} exactly; together
 * {@code (ε_apx, δ)}-DP), purification (pure {@code ε_apx + ε′}; its input is the only thing the levels feed), the
 * max-error check (pure ε_check, on the purified answers): pure {@code ε_count + ε_apx + ε′ + ε_check}
 * ({@link #cost()}), the exact sum of the shares rounded up.
 *
 * <h2>The l∞ bound</h2>
 * {@code min(B_theory, B_check)}: {@code B_theory = Σ_j s_j(B_j + slack_j) + bias + h(⌈t ln(2m/β_p)⌉ + 1)} (each
 * level's PMW bound in its query units times its scale, the decomposition's exact bias, purification's noise and
 * rounding, the mixing event ω excluded), and {@code B_check} the measured bound ({@link MaxErrorCheck}). Clipping
 * to the box moves every coordinate toward an interval that contains {@code x̄}'s, so it never increases a
 * coordinate's error.
 */
public final class WorstCaseChainingRelease implements WideRelease {
    private final WideSettings settings;
    private final MechanismId mechanism;
    private final WorstCaseParameters params;
    private final List<Level> levels;
    private final double[] offset;
    private final double bias;
    private final Purifier purifier;
    private final double[] lo;
    private final double[] hi;
    private final CountRelease count;
    private final MaxErrorCheck check;
    private final Failures failures;
    private final List<String> labels;
    private final double trivialRms;
    private final double[] noDataEstimate;
    private final Workload workload;
    private final CentralGeometry geometry;
    private final MarginalWorkload marginals;

    /**
     * One noisy level.
     *
     * @param rows the level set (explicit workloads), or null (the wide level's answers are its queries)
     * @param componentIndex the row of every universe value's component (explicit), or null
     */
    private record Level(MwUniverse universe, PrivateMultiplicativeWeights.Schedule schedule, double scale,
            double gridSlack, PointSet rows, int[] componentIndex) {}

    private WorstCaseChainingRelease(WideSettings settings, MechanismId mechanism, WorstCaseParameters params,
            List<MwUniverse> universes, List<double[]> shape, double[] offset, double bias, double[] lo, double[] hi,
            List<String> labels, double[] noDataEstimate, Workload workload, MarginalWorkload marginals,
            List<PointSet> rows, List<int[]> componentIndex) {
        this.settings = settings;
        this.mechanism = mechanism;
        this.params = params;
        List<Level> ls = new ArrayList<>();
        for (int j = 0; j < universes.size(); j++) {
            MwUniverse u = universes.get(j);
            var schedule = PrivateMultiplicativeWeights.schedule(u, settings.neighbour(), settings.contributions(),
                    params.levelRho()[j], params.rounds()[j], params.selectShare());
            ls.add(new Level(u, schedule, shape.get(j)[0], shape.get(j)[1], rows.get(j), componentIndex.get(j)));
        }
        this.levels = List.copyOf(ls);
        this.offset = offset;
        this.bias = bias;
        int m = lo.length;
        double[] centre = new double[m];
        double side = 0;
        for (int q = 0; q < m; q++) {
            centre[q] = (lo[q] + hi[q]) / 2;
            side = Math.max(side, hi[q] - lo[q]);
        }
        this.purifier = new Purifier(LqNorm.LINF, centre, Math.max(side, 1e-9) * (1 + 1e-12),
                Epsilon.exactly(new BigDecimal(params.epsilonPrime())), new LogDelta(params.logDelta()), params.omega());
        this.lo = lo;
        this.hi = hi;
        this.count = CountRelease.of(settings.neighbour(), settings.contributions(), params.epsilonCount());
        this.check = new MaxErrorCheck(settings.contributions(), params.epsilonCheck());
        this.failures = Failures.of(settings.beta(), settings.countPublic());
        this.labels = List.copyOf(labels);
        double s2 = 0;
        for (int q = 0; q < m; q++) {
            s2 += (hi[q] - lo[q]) * (hi[q] - lo[q]);
        }
        this.trivialRms = Math.sqrt(s2 / m);
        this.noDataEstimate = noDataEstimate;
        this.workload = workload;
        this.geometry = workload == null ? null : CentralGeometry.of(workload);
        this.marginals = marginals;
    }

    // ---- construction --------------------------------------------------------------------------------

    /**
     * Worst-case chaining for a materialised central workload, with {@code k = α.chainingLevels()} levels (α from
     * the spec, or 1/8 when it declares none; 0/1 workloads always have one level).
     *
     * @param mechanism the id the answers carry
     */
    public static WorstCaseChainingRelease forWorkload(Workload w, MechanismId mechanism) {
        Require.nonNull("workload", w);
        Require.nonNull("mechanism", mechanism);
        if (w.spec().mode() != Mode.CENTRAL) {
            throw new IllegalArgumentException("mode must be central, got " + w.spec().mode().wireName());
        }
        WideSettings s = WideSettings.of(w.spec(), w.contentHash());
        Alpha alpha = w.spec().alpha() != null ? w.spec().alpha() : Alpha.of(0.125);
        LinfDecomposition dec = LinfDecomposition.build(w.points(), alpha.chainingLevels());
        int m = w.queryCount();
        double[] offset = new double[m];
        List<MwUniverse> universes = new ArrayList<>();
        List<double[]> shape = new ArrayList<>();
        List<PointSet> rows = new ArrayList<>();
        List<int[]> index = new ArrayList<>();
        List<WorstCaseParameters.LevelShape> shapes = new ArrayList<>();
        for (int j = 1; j <= dec.levels(); j++) {
            PointSet set = dec.levelSet(j);
            double r = dec.radius(j);
            if (set.size() == 1 || r == 0) {
                double[] c = set.row(0);
                for (int q = 0; q < m; q++) {
                    offset[q] += c[q];
                }
                continue;
            }
            PointUniverse u = new PointUniverse(set, r);
            universes.add(u);
            double slack = 1.0 / PointUniverse.UNIT;
            shape.add(new double[] {2 * r, slack});
            rows.add(set);
            index.add(dec.componentIndex(j));
            shapes.add(new WorstCaseParameters.LevelShape(u, 2 * r, slack, (long) set.size() * m * 2));
        }
        if (universes.isEmpty()) {
            throw new IllegalArgumentException("every value of workload " + w.spec().id()
                    + " has the same answers: there is nothing to release");
        }
        PointSet p = w.points();
        double[] lo = new double[m];
        double[] hi = new double[m];
        double[] centroid = new double[m];
        Arrays.fill(lo, Double.POSITIVE_INFINITY);
        Arrays.fill(hi, Double.NEGATIVE_INFINITY);
        for (int x = 0; x < p.size(); x++) {
            for (int q = 0; q < m; q++) {
                lo[q] = Math.min(lo[q], p.get(x, q));
                hi[q] = Math.max(hi[q], p.get(x, q));
                centroid[q] += p.get(x, q) / p.size();
            }
        }
        double side = 0;
        for (int q = 0; q < m; q++) {
            side = Math.max(side, hi[q] - lo[q]);
        }
        WorstCaseParameters params = WorstCaseParameters.choose(shapes,
                new WorstCaseParameters.AnswerShape(m, Math.max(side, 1e-9), dec.bias()), s);
        return new WorstCaseChainingRelease(s, mechanism, params, universes, shape, offset, dec.bias(), lo, hi,
                w.queryLabels(), centroid, w, null, rows, index);
    }

    /** Worst-case chaining for all k-way marginals over d binary attributes (one level: PMW on {@code {0,1}^d}). */
    public static WorstCaseChainingRelease forMarginals(MarginalWorkload w, WideSettings s, MechanismId mechanism) {
        Require.nonNull("workload", w);
        Require.nonNull("settings", s);
        Require.nonNull("mechanism", mechanism);
        Require.inRange("attributes (dense PMW)", w.attributeCount(), 1, Hypercube.MAX_DENSE_ATTRIBUTES);
        BinaryMarginalUniverse u = new BinaryMarginalUniverse(w);
        int m = w.queryCount();
        double[] lo = new double[m];
        double[] hi = new double[m];
        Arrays.fill(hi, 1.0);
        double[] uniform = w.uniformAnswers();
        long work = (1L << w.attributeCount()) * (w.attributeCount() + 8L);
        WorstCaseParameters params = WorstCaseParameters.choose(
                List.of(new WorstCaseParameters.LevelShape(u, 1, 0, work)),
                new WorstCaseParameters.AnswerShape(m, 1.0, 0), s);
        List<PointSet> rows = new ArrayList<>();
        rows.add(null);
        List<int[]> index = new ArrayList<>();
        index.add(null);
        return new WorstCaseChainingRelease(s, mechanism, params, List.of(u), List.of(new double[] {1, 0}),
                new double[m], 0, lo, hi, w.labels(), uniform, null, w, rows, index);
    }

    public WorstCaseParameters parameters() {
        return params;
    }

    public Purifier purifier() {
        return purifier;
    }

    /** The schedules of the noisy levels. */
    public List<PrivateMultiplicativeWeights.Schedule> schedules() {
        return levels.stream().map(Level::schedule).toList();
    }

    /** The number of noisy levels. */
    public int levels() {
        return levels.size();
    }

    /** The pure guarantee of every release with data. */
    @Override
    public PrivacyCost.Pure cost() {
        return params.cost();
    }

    CountRelease count() {
        return count;
    }

    MaxErrorCheck check() {
        return check;
    }

    // ---- releases ------------------------------------------------------------------------------------

    /** Releases a window of a materialised workload from its counts per universe value. */
    public Answer release(long[] counts, RandomBits secret) {
        return release(counts, ReleaseDraws.exact(secret));
    }

    Answer release(long[] counts, ReleaseDraws draws) {
        if (workload == null) {
            throw new IllegalStateException("this release is for marginal counts");
        }
        Require.nonNull("counts", counts);
        if (counts.length != workload.universeSize()) {
            throw new IllegalArgumentException("counts must have " + workload.universeSize() + " entries, got "
                    + counts.length);
        }
        long n = 0;
        for (long c : counts) {
            if (c < 0) {
                throw new IllegalArgumentException("counts must be >= 0, got " + c);
            }
            n = Math.addExact(n, c);
        }
        IntFunction<PrivateMultiplicativeWeights.Data> data = j -> {
            Level l = levels.get(j);
            long[] h = new long[l.rows().size()];
            int[] idx = l.componentIndex();
            for (int x = 0; x < counts.length; x++) {
                h[idx[x]] += counts[x];
            }
            long[] stats = ((PointUniverse) l.universe()).statistics(h);
            return g -> new long[] {stats[g]};
        };
        return core(n, data, geometry.sum(counts), geometry.scale(), draws);
    }

    /** Releases a window of a wide marginal workload from its exact marginal counts. */
    @Override
    public WideAnswer release(MarginalCounts counts, RandomBits secret) {
        return release(counts, ReleaseDraws.exact(secret));
    }

    WideAnswer release(MarginalCounts counts, ReleaseDraws draws) {
        if (marginals == null) {
            throw new IllegalStateException("this release is for counts per universe value");
        }
        Require.nonNull("counts", counts);
        if (!counts.workload().equals(marginals)) {
            throw new IllegalArgumentException("counts of " + counts.workload() + ", release for " + marginals);
        }
        return new WideAnswer(core(counts.n(), j -> counts::subsetCounts, counts.cells(), 1, draws), Optional.empty());
    }

    private Answer core(long n, IntFunction<PrivateMultiplicativeWeights.Data> data, long[] checkStatistics,
            long checkUnit, ReleaseDraws draws) {
        if (count instanceof CountRelease.Public && n == 0) {
            return noData();
        }
        long released = draws.releasedCount(count, n);
        long divisor = CountRelease.divisor(released);
        // (ε_apx, δ)-DP: the levels' sum, never published
        double[] v = offset.clone();
        for (int j = 0; j < levels.size(); j++) {
            Level l = levels.get(j);
            PrivateMultiplicativeWeights.Run run = PrivateMultiplicativeWeights.run(l.universe(), data.apply(j),
                    l.schedule(), divisor, draws);
            double[] contribution = l.rows() != null ? l.rows().combine(run.average()) : flatten(run.answers());
            for (int q = 0; q < v.length; q++) {
                v[q] += contribution[q];
            }
        }
        // pure from here on
        double[] pure = purifier.toPoint(draws.purify(purifier, v));
        double[] estimates = new double[pure.length];
        for (int q = 0; q < pure.length; q++) {
            estimates[q] = Math.max(lo[q], Math.min(hi[q], pure[q]));
        }
        long noisy = check.release(MaxErrorCheck.statistic(estimates, divisor, checkStatistics, checkUnit), draws);
        return publish(released, estimates, pure, noisy);
    }

    private static double[] flatten(double[][] a) {
        int per = a[0].length;
        double[] out = new double[a.length * per];
        for (int g = 0; g < a.length; g++) {
            System.arraycopy(a[g], 0, out, g * per, per);
        }
        return out;
    }

    /** The theoretical l∞ bound at released count ñ ({@code +∞} when none holds). */
    public double theoreticalBound(long released) {
        if (released < 1) {
            return Double.POSITIVE_INFINITY;
        }
        double r = failures.countBound(count, released);
        double perLevel = failures.theory() / (4.0 * levels.size());
        double total = bias + purificationBound(failures.theory() / 4);
        for (Level l : levels) {
            total += l.scale() * (PrivateMultiplicativeWeights.bound(l.universe(), l.schedule(), settings.contributions(),
                    released, r, perLevel, perLevel) + l.gridSlack());
        }
        return total;
    }

    /** {@code h(⌈t ln(2m/β)⌉ + 1)}: purification's noise and rounding in l∞, except with probability β. */
    double purificationBound(double beta) {
        int m = purifier.dimension();
        double t = purifier.noiseScaleGridUnits().doubleValue() * (1 + 1e-12);
        return purifier.gridStep() * (Math.ceil(t * Math.log(2.0 * m / beta)) + 1);
    }

    /** Everything published: a function of ñ, the purified vector, the noisy check and public parameters. */
    Answer publish(long released, double[] estimates, double[] purified, long noisy) {
        long divisor = CountRelease.divisor(released);
        double r = failures.countBound(count, released);
        double theory = theoreticalBound(released);
        // the check compares with the data on the answer grid (explicit points: answers rounded to 1/G, G = 2^16):
        // the true mean is within 1/(2G) of it
        double gridSlack = geometry != null && geometry.scale() > 1 ? 0.5 / geometry.scale() : 0;
        double measured = check.bound(noisy, released, r, failures.check()) + gridSlack;
        double side = 0;
        for (int q = 0; q < lo.length; q++) {
            side = Math.max(side, hi[q] - lo[q]);
        }
        double bound = Math.min(side, Math.min(theory, measured));
        boolean valid = released >= 1 && bound < side;
        double[][] bars = ErrorBars.clipped(estimates, bound, valid);
        Map<String, Double> scalars = new LinkedHashMap<>();
        scalars.put("theoreticalMaxErrorBound", Math.min(side, theory));
        scalars.put("measuredMaxErrorBound", Math.min(side, measured));
        scalars.put("noisyMaxError", noisy / (double) divisor);
        scalars.put("levels", (double) levels.size());
        scalars.put("epsilonCount", params.epsilonCount());
        scalars.put("epsilonApprox", params.epsilonApprox());
        scalars.put("epsilonPrime", params.epsilonPrime());
        scalars.put("epsilonCheck", params.epsilonCheck());
        scalars.put("logDelta", params.logDelta());
        scalars.put("omega", params.omega());
        scalars.put("bias", bias);
        List<Answer.LevelDetail> details = new ArrayList<>();
        for (int j = 0; j < levels.size(); j++) {
            Level l = levels.get(j);
            details.add(new Answer.LevelDetail(j + 1, new PrivacyCost.Zcdp(l.schedule().rho()), l.scale() / 2,
                    l.scale() * l.schedule().sigma() / ((double) divisor * l.universe().unit()), 0,
                    l.universe().size(), OptionalDouble.empty()));
            scalars.put("rounds" + (j + 1), (double) l.schedule().rounds());
        }
        double expected = Math.min(trivialRms, Math.min(bound, Math.max(0, noisy) / (double) divisor + r));
        return new Answer(mechanism, cost(), CountRelease.published(released), labels, estimates,
                Optional.of(purified.clone()), Optional.empty(), bars[0], bars[1], settings.confidence().value(),
                expected, Math.min(trivialRms, bound), details, settings.workloadHash(),
                new Answer.Extras(List.of(), scalars, OptionalDouble.of(bound)));
    }

    /** A replace-one window without reports: no mechanism runs (cost 0), a fixed estimate, bars [0, 1]. */
    private Answer noData() {
        return Answer.noData(mechanism, labels, noDataEstimate.clone(), settings.confidence().value(), trivialRms,
                settings.workloadHash(), new Answer.Extras(List.of(), Map.of(), OptionalDouble.of(1.0)));
    }
}
