package io.privacygateway.mechanisms.planner;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalEstimate;
import io.privacygateway.mechanisms.local.LocalEstimator;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.local.gaussian.GaussianLevel;
import io.privacygateway.mechanisms.local.gaussian.GaussianSignProtocol;
import io.privacygateway.mechanisms.local.mean.MeanProtocol;
import io.privacygateway.mechanisms.local.mean.ScalarRandomizer;
import io.privacygateway.mechanisms.local.vector.VectorMeanEstimator;
import io.privacygateway.mechanisms.param.Alpha;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.pipeline.VectorMeanPipeline;
import io.privacygateway.mechanisms.protocols.LocalEstimators;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.reference.ReferenceData;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.QueryFamily;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;

/**
 * Predicts the error of every applicable local mechanism for a workload, ε and n, and resolves
 * {@code auto} (issue: "closed form where known, otherwise a quick simulation").
 *
 * <p><b>Closed forms</b>: the unprojected standard error of each mechanism and the §3 bound after
 * projection, evaluated at n.
 *
 * <p><b>Simulation</b>: the projected error depends on the data, which the planner never sees, so it
 * is simulated on public {@link ReferenceData} (uniform, Zipf(1.1), sparse on 3 values). Each candidate
 * runs the real device and server code on {@code n_sim = min(n, }{@value #SIMULATED_REPORTS}{@code )}
 * reports of the reference data; the noise of its unbiased estimate is rescaled by
 * {@code √(n_sim/n)} around the estimator's known expectation ({@link LocalProtocol#expectedLevelMean}),
 * which is exact for the variance (an average of independent reports) and Gaussian-accurate for the
 * shape; then the real projections and release run at n. All randomness is seeded (public), so a plan
 * is a deterministic function of (workload, ε, n).
 *
 * <p><b>Choice</b>: minimax regret: the candidate whose worst ratio to the best candidate, over the
 * reference distributions, is smallest (ties: lower mean error, then candidate order).
 */
public final class LocalPlanner {
    /** Reports simulated per candidate, reference and trial. */
    public static final int SIMULATED_REPORTS = 4_000;
    /** Independent trials per candidate and reference when reports are simulated one by one. */
    public static final int TRIALS = 8;
    /** Trials per candidate and reference with the Gaussian model of the estimate ({@link NoiseModel}). */
    public static final int MODEL_TRIALS = 48;
    /** α values tried for coarse projection and chaining when the workload does not fix α. */
    public static final double[] ALPHA_GRID = {1.0 / 2, 1.0 / 4, 1.0 / 8, 1.0 / 16};

    private LocalPlanner() {}

    /** The candidates considered for a local-mode workload. */
    public static List<Candidate> candidates(WorkloadSpec spec) {
        List<Candidate> out = new ArrayList<>();
        if (spec.family() == QueryFamily.HEAVY_HITTERS) { // open domain: one protocol answers it
            out.add(new Candidate(MechanismId.PREFIX_TREE_SKETCH, null, null));
            return out;
        }
        if (spec.domain() instanceof Domain.Ball) { // the mean of a ball: one protocol answers it
            out.add(new Candidate(MechanismId.PRIVUNIT_G, null, null));
            return out;
        }
        if (spec.family() == QueryFamily.MEAN) { // numeric means (a range or a box): the scalar randomizers
            for (MechanismId id : MechanismId.MEAN_MECHANISMS) {
                out.add(new Candidate(id, null, null));
            }
            return out;
        }
        out.add(new Candidate(MechanismId.LOCAL_PROJECTION, null, null));
        List<Alpha> alphas = new ArrayList<>();
        if (spec.alpha() != null) {
            alphas.add(spec.alpha());
        } else {
            for (double a : ALPHA_GRID) {
                alphas.add(new Alpha(a));
            }
        }
        for (Alpha a : alphas) {
            out.add(new Candidate(MechanismId.LOCAL_COARSE_PROJECTION, a, null));
        }
        for (Alpha a : alphas) {
            out.add(new Candidate(MechanismId.LOCAL_CHAINING, a, spec.epsilonSplit()));
        }
        for (MechanismId id : List.of(MechanismId.GRR, MechanismId.OUE, MechanismId.OLH, MechanismId.SUBSET_SELECTION,
                MechanismId.HADAMARD_RESPONSE)) {
            out.add(new Candidate(id, null, null));
        }
        if (hasOrderedBuckets(spec)) {
            out.add(new Candidate(MechanismId.TREE, null, null));
        }
        if (offersFactorization(spec)) {
            out.add(new Candidate(MechanismId.FACTORIZATION, null, null));
        }
        if (spec.family() == QueryFamily.MARGINALS
                && ((Domain.Attributes) spec.domain()).names().size() <= WorkloadSpec.MAX_FOURIER_ATTRIBUTES) {
            out.add(new Candidate(MechanismId.FOURIER, null, null));
        }
        return out;
    }

    /**
     * Whether workload factorization is a candidate of {@code auto}: cdf, range, marginals and point-set workloads
     * of at most {@link WorkloadSpec#MAX_FACTORIZATION_BUCKETS} values (the strategy is built once per workload and
     * ε, and cached). Not histograms: the identity workload gains nothing from a strategy over the frequency oracles,
     * whose variances are already optimal for it, and the build would only slow planning down.
     */
    static boolean offersFactorization(WorkloadSpec s) {
        if (s.family() == QueryFamily.HISTOGRAM) {
            return false;
        }
        int values = WorkloadSpec.factorizationUniverse(s.family(), s.domain());
        return values >= 2 && values <= WorkloadSpec.MAX_FACTORIZATION_BUCKETS;
    }

    static boolean hasOrderedBuckets(WorkloadSpec s) {
        return s.family().rules().hasOrderedBuckets(s.domain());
    }

    /** Plans for a local-mode workload at per-report ε and n reports per window. */
    public static Plan plan(WorkloadSpec spec, Epsilon epsilon, long n) {
        return plan(spec, epsilon, n, candidates(spec));
    }

    /** Plans over the given candidates. */
    public static Plan plan(WorkloadSpec spec, Epsilon epsilon, long n, List<Candidate> candidates) {
        if (spec.mode() != Mode.LOCAL) {
            throw new IllegalArgumentException("mode must be local for the local planner, got " + spec.mode().wireName());
        }
        if (n < 1) {
            throw new IllegalArgumentException("n must be >= 1, got " + n);
        }
        if (spec.family() == QueryFamily.HEAVY_HITTERS) {
            return planHeavyHitters(spec, epsilon, n, candidates);
        }
        if (spec.isVectorMean()) {
            return planVectorMean(spec, epsilon, n, candidates);
        }
        List<ReferenceData> refs = ReferenceData.all();
        if (spec.family() == QueryFamily.MEAN) {
            return planMean(spec, epsilon, n, candidates, refs);
        }
        int size = candidates.size();
        Prediction[] preds = new Prediction[size];
        // Candidates that build the very same protocol (e.g. a coarse net that keeps every point is the
        // plain projection) share one simulation, so identical mechanisms get identical predictions.
        int[] sameAs = new int[size];
        List<Object> fingerprints = new ArrayList<>();
        // A few candidates at a time, each pipeline dropped once predicted: on the largest workloads (e.g. 3-way
        // marginals of 12 attributes) every pipeline holds hundreds of megabytes, and holding all of them at once
        // took more than 2 GB of heap.
        int chunk = Math.max(1, Runtime.getRuntime().availableProcessors());
        for (int start = 0; start < size; start += chunk) {
            int from = start;
            int to = Math.min(size, start + chunk);
            LocalPipeline[] pipelines = new LocalPipeline[to - from];
            String[] notes = new String[to - from];
            IntStream.range(from, to).parallel().forEach(i -> {
                try {
                    pipelines[i - from] = LocalPipeline.of(Workload.of(candidates.get(i).apply(spec, epsilon, n)));
                } catch (IllegalArgumentException e) {
                    notes[i - from] = e.getMessage();
                }
            });
            for (int i = from; i < to; i++) {
                sameAs[i] = i;
                Object fp = pipelines[i - from] == null ? null : fingerprint(pipelines[i - from]);
                fingerprints.add(fp);
                for (int j = 0; j < i && fp != null; j++) {
                    if (fp.equals(fingerprints.get(j))) {
                        sameAs[i] = j;
                        break;
                    }
                }
            }
            IntStream.range(from, to).parallel().filter(i -> sameAs[i] == i).forEach(i -> preds[i] =
                    pipelines[i - from] == null
                            ? Prediction.notApplicable(candidates.get(i), notes[i - from], refs.size())
                            : predict(pipelines[i - from], n, candidates.get(i), i, refs));
        }
        for (int i = 0; i < size; i++) {
            if (sameAs[i] != i) {
                Prediction p = preds[sameAs[i]];
                preds[i] = new Prediction(candidates.get(i), p.applicable(),
                        "same protocol as " + candidates.get(sameAs[i]).label(), p.unprojectedRms(), p.boundRms(),
                        p.simulatedRms(), p.regret());
            }
        }
        List<Prediction> list = withRegrets(List.of(preds), refs.size());
        Prediction choice = choose(list);
        WorkloadSpec resolved = choice.candidate().apply(spec, epsilon, n);
        return new Plan(epsilon.value(), n, refs, list, choice, resolved,
                "simulation: " + TRIALS + " trials × " + Math.min(n, SIMULATED_REPORTS)
                        + " reports per reference distribution, noise rescaled to n; closed forms for the unprojected"
                        + " error and the §3 bound");
    }

    // ---- numeric means (family mean; docs/local-accuracy.md) -------------------------------------------------

    /**
     * The mean family's plan, all in closed form: each randomizer's exact variance {@code Var(t̂ | x)} averaged
     * over each reference distribution of the levels gives the RMS error of the unprojected mean at n,
     * {@code (hi − lo)/2 · √(Σ_x h_x Var(t̂|x) / n)} (clipping to {@code [lo, hi]} can only lower it); the
     * unprojected and bound columns are the worst case over levels, {@code (hi − lo)/2 · √(V_max/n)}.
     */
    private static Plan planMean(WorkloadSpec spec, Epsilon epsilon, long n, List<Candidate> candidates,
            List<ReferenceData> refs) {
        Domain.Range range = (Domain.Range) spec.domain();
        double half = (range.hi() - range.lo()) / 2;
        List<Prediction> preds = new ArrayList<>();
        for (Candidate c : candidates) {
            ScalarRandomizer r;
            try {
                r = MeanProtocol.randomizer(c.id(), range.levels(), epsilon);
            } catch (IllegalArgumentException e) {
                preds.add(Prediction.notApplicable(c, e.getMessage(), refs.size()));
                continue;
            }
            double[] simulated = new double[refs.size()];
            for (int i = 0; i < refs.size(); i++) {
                simulated[i] = half * Math.sqrt(r.varianceUnder(refs.get(i).frequencies(range.levels())) / n);
            }
            double worst = half * Math.sqrt(r.worstVariance() / n);
            preds.add(new Prediction(c, true, "", worst, worst, simulated, Double.NaN));
        }
        List<Prediction> list = withRegrets(preds, refs.size());
        Prediction choice = choose(list);
        return new Plan(epsilon.value(), n, refs, list, choice, choice.candidate().apply(spec, epsilon, n),
                "closed form: each randomizer's exact variance per level, averaged over each reference distribution"
                        + " (worst case over levels for the unprojected and bound columns)");
    }

    // ---- vector means (family mean over a ball or a box; issue 13 §2) -----------------------------------------

    /** How a vector-mean plan is obtained, for plan output. */
    public static final String VECTOR_MEAN_METHOD = "closed form: each candidate protocol's public worst-case standard"
            + " error of one coordinate at n (VectorMeanEstimator.worstStandardError), the largest over feasible"
            + " values; the projection onto the feasible set can only lower the error";

    /**
     * The vector-mean plan, in closed form: both columns are the candidate protocol's worst-case per-coordinate
     * standard error at n ({@link io.privacygateway.mechanisms.local.vector.VectorMeanEstimator#worstStandardError});
     * no reference distributions (the worst case is over every feasible value). {@code auto} picks the smallest: on
     * a box, the scalar randomizer with the smallest worst-case variance.
     */
    private static Plan planVectorMean(WorkloadSpec spec, Epsilon epsilon, long n, List<Candidate> candidates) {
        List<Prediction> preds = new ArrayList<>();
        double best = Double.POSITIVE_INFINITY;
        for (Candidate c : candidates) {
            try {
                WorkloadSpec resolved = c.apply(spec, epsilon, n);
                double se = VectorMeanEstimator.of(
                        VectorMeanPipeline.protocol(resolved,
                                CanonicalForm.contentHash(resolved)))
                        .worstStandardError(n);
                preds.add(new Prediction(c, true, "", se, se, new double[0], se));
                best = Math.min(best, se);
            } catch (IllegalArgumentException e) {
                preds.add(Prediction.notApplicable(c, e.getMessage(), 0));
            }
        }
        List<Prediction> scored = new ArrayList<>();
        for (Prediction p : preds) { // regret: the ratio to the best candidate's standard error
            scored.add(p.applicable() ? p.withRegret(best > 0 ? p.unprojectedRms() / best : 1) : p);
        }
        Prediction choice = choose(scored);
        return new Plan(epsilon.value(), n, List.of(), scored, choice, choice.candidate().apply(spec, epsilon, n),
                VECTOR_MEAN_METHOD);
    }

    // ---- open-domain heavy hitters (family heavy-hitters; docs/heavy-hitters.md) ---------------------------------

    /**
     * The heavy-hitters plan, in closed form from the protocol's variance ({@link HeavyHitterPrediction}): the
     * unprojected column is the standard error of a share-0 item's estimate on one level, the bound column the
     * predicted detection threshold (the threshold share); no reference distributions (the domain is open).
     */
    private static Plan planHeavyHitters(WorkloadSpec spec, Epsilon epsilon, long n, List<Candidate> candidates) {
        List<Prediction> preds = new ArrayList<>();
        for (Candidate c : candidates) {
            try {
                HeavyHitterPrediction h = HeavyHitterPrediction.of(c.apply(spec, epsilon, n), n);
                preds.add(new Prediction(c, true, "", h.standardErrorAtZero(), h.thresholdShare(), new double[0], 0));
            } catch (IllegalArgumentException e) {
                preds.add(Prediction.notApplicable(c, e.getMessage(), 0));
            }
        }
        Prediction choice = choose(preds);
        return new Plan(epsilon.value(), n, List.of(), preds, choice, choice.candidate().apply(spec, epsilon, n),
                HeavyHitterPrediction.METHOD);
    }

    static List<Prediction> withRegrets(List<Prediction> preds, int refs) {
        double[] best = new double[refs];
        Arrays.fill(best, Double.POSITIVE_INFINITY);
        for (Prediction p : preds) {
            if (p.applicable()) {
                for (int r = 0; r < refs; r++) {
                    best[r] = Math.min(best[r], p.simulatedRms()[r]);
                }
            }
        }
        List<Prediction> out = new ArrayList<>();
        for (Prediction p : preds) {
            double regret = Double.POSITIVE_INFINITY;
            if (p.applicable()) {
                regret = 0;
                for (int r = 0; r < refs; r++) {
                    regret = Math.max(regret, best[r] > 0 ? p.simulatedRms()[r] / best[r] : 1);
                }
            }
            out.add(p.withRegret(regret));
        }
        return out;
    }

    static Prediction choose(List<Prediction> preds) {
        Prediction best = null;
        for (Prediction p : preds) {
            if (!p.applicable()) {
                continue;
            }
            if (best == null || p.regret() < best.regret()
                    || (p.regret() == best.regret() && p.meanSimulatedRms() < best.meanSimulatedRms())) {
                best = p;
            }
        }
        if (best == null) {
            throw new IllegalStateException("no mechanism applies to this workload");
        }
        return best;
    }

    /**
     * What determines a protocol's behaviour apart from its public coins: the mechanism family and, for
     * Gaussian-sign protocols, each level's ε, value vectors and hull (by content). Two pipelines with
     * equal fingerprints produce identical answers from identical randomness.
     */
    public static Object fingerprint(LocalPipeline pipeline) {
        LocalProtocol p = pipeline.protocol();
        if (p instanceof GaussianSignProtocol g) {
            List<Object> levels = new ArrayList<>();
            for (GaussianLevel l : g.levels()) {
                // a level projected onto K is the same as one projected onto the hull of all answer vectors
                levels.add(List.of(l.epsilon().value(), l.valueVectors().contentKey(),
                        (l.hull() == null ? pipeline.workload().points() : l.hull()).contentKey()));
            }
            return List.of("gaussian-sign", levels);
        }
        return List.of(p.id(), p.epsilon().value());
    }

    private static Prediction predict(LocalPipeline pipeline, long n, Candidate c, int index, List<ReferenceData> refs) {
        Workload w = pipeline.workload();
        LocalProtocol protocol = pipeline.protocol();
        int nSim = (int) Math.min(n, SIMULATED_REPORTS);
        double scale = Math.sqrt(nSim / (double) n);
        double[] simulated = new double[refs.size()];
        double unprojected = Double.NaN;
        double bound = Double.NaN;
        for (int r = 0; r < refs.size(); r++) {
            int[] values = refs.get(r).stratified(w.universeSize(), nSim);
            double[] hist = new double[w.universeSize()];
            for (int v : values) {
                hist[v] += 1.0 / nSim;
            }
            double[] truth = w.answersOf(hist);
            NoiseModel model = NoiseModel.of(protocol, w.points(), hist, n);
            if (model != null) {
                // Gaussian model of the window estimate: many cheap trials
                double sumSq = 0;
                for (int t = 0; t < MODEL_TRIALS; t++) {
                    UniformRandomProvider rng =
                            RandomSource.XO_RO_SHI_RO_128_PP.create(0x5EEDL + 1_000_003L * r + t);
                    Answer a = pipeline.release().releaseEstimate(model.sample(rng), n);
                    sumSq += squaredError(a.estimates(), truth);
                    if (r == 0 && t == 0) {
                        unprojected = rms(a.standardErrors().orElseThrow());
                        bound = a.expectedRmsError();
                    }
                }
                simulated[r] = Math.sqrt(sumSq / MODEL_TRIALS);
                continue;
            }
            double sumSq = 0;
            LocalEstimator estimator = LocalEstimators.of(protocol);
            for (int t = 0; t < TRIALS; t++) {
                // common random numbers: every candidate sees the same secret and public coins per (reference,
                // trial), so similar mechanisms are compared on the same noise
                SeededRandomBits secret = new SeededRandomBits(0x91A7L + 7919L * r + 104729L * t);
                long[] state = new long[protocol.stateLength()];
                for (int i = 0; i < nSim; i++) {
                    ReportCoordinates coords = new ReportCoordinates("plan-" + t + "-" + i, 0, 0);
                    protocol.accumulate(protocol.randomize(values[i], coords, secret), coords, state);
                }
                LocalEstimate scaled = rescale(protocol, estimator.estimate(state, nSim), hist, scale);
                Answer a = pipeline.release().releaseEstimate(scaled, n);
                sumSq += squaredError(a.estimates(), truth);
                if (r == 0 && t == 0) {
                    unprojected = rms(a.standardErrors().orElseThrow());
                    bound = a.expectedRmsError();
                }
            }
            simulated[r] = Math.sqrt(sumSq / TRIALS);
        }
        return new Prediction(c, true, "", unprojected, bound, simulated, Double.NaN);
    }

    /** Rescales each level's noise by {@code scale} around the level's expectation for the data. */
    static LocalEstimate rescale(LocalProtocol protocol, LocalEstimate est, double[] hist, double scale) {
        List<LocalEstimate.Level> levels = new ArrayList<>();
        for (int j = 0; j < est.levels().size(); j++) {
            LocalEstimate.Level l = est.levels().get(j);
            double[] expect = LocalEstimators.of(protocol).expectedLevelMean(j, hist);
            double[] mean = new double[expect.length];
            double[] se = new double[expect.length];
            for (int q = 0; q < mean.length; q++) {
                mean[q] = expect[q] + (l.mean()[q] - expect[q]) * scale;
                se[q] = l.standardErrors()[q] * scale;
            }
            levels.add(new LocalEstimate.Level(mean, se, l.noiseScale() * scale, l.hull(), l.epsilon(), l.radius()));
        }
        return new LocalEstimate(levels, est.biasBound());
    }

    static double rms(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x * x;
        }
        return Math.sqrt(s / v.length);
    }

    static double squaredError(double[] a, double[] b) {
        double s = 0;
        for (int q = 0; q < a.length; q++) {
            s += (a[q] - b[q]) * (a[q] - b[q]);
        }
        return s / a.length;
    }
}
