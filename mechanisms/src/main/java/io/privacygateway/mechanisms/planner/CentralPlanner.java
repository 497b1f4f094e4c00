package io.privacygateway.mechanisms.planner;

import io.privacygateway.mechanisms.central.CentralRelease;
import io.privacygateway.mechanisms.runtime.CountsReleases;
import io.privacygateway.mechanisms.central.synthetic.CertifiedSyntheticRelease;
import io.privacygateway.mechanisms.central.wide.MarginalWorkload;
import io.privacygateway.mechanisms.central.wide.PurifiedMwemRelease;
import io.privacygateway.mechanisms.central.wide.WideReference;
import io.privacygateway.mechanisms.central.wide.WideRelease;
import io.privacygateway.mechanisms.central.worstcase.WorstCaseChainingRelease;
import io.privacygateway.mechanisms.param.Alpha;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.reference.ReferenceData;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.runtime.CentralWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.QueryFamily;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * Predicts the error of every central mechanism (purified Gaussian projection, purified chaining, the
 * Laplace baseline) for a workload, a total pure ε per release and n, and resolves {@code auto} in
 * central mode. Closed form: the parameter choice's predicted RMS ({@code CentralParameterChoice}).
 * Simulation: the real release (exact samplers, seeded here because this is public planning) on the
 * public reference data at n reports; central noise is added to sums, so a simulated release costs the
 * same whatever n is. The choice is the minimax-regret candidate, as in {@link LocalPlanner}.
 */
public final class CentralPlanner {
    /** Simulated releases per candidate and reference distribution. */
    public static final int TRIALS = 12;
    /** Simulated releases per wide candidate (one wide reference distribution; a release takes up to seconds). */
    public static final int WIDE_TRIALS = 3;
    /** The largest d whose wide candidates are simulated; above it their closed forms are compared. */
    public static final int MAX_SIMULATED_ATTRIBUTES = 20;

    private CentralPlanner() {}

    public static List<Candidate> candidates(WorkloadSpec spec) {
        List<Candidate> out = new ArrayList<>();
        if (wideOnly(spec)) { // the universe is not materialised: only the wide releases apply
            out.add(new Candidate(MechanismId.MWEM, null, null));
            if (spec.central().synthetic() == null) {
                out.add(new Candidate(MechanismId.WORST_CASE_CHAINING, null, null));
            }
            if (spec.mechanism() == MechanismId.CERTIFIED_SYNTHETIC) { // plan shows it where named; auto never picks it
                out.add(new Candidate(MechanismId.CERTIFIED_SYNTHETIC, null, null));
            }
            return out;
        }
        if (spec.family().isWindowAnalytics()) { // window analytics: the family's own mechanisms (docs/analytics.md)
            for (MechanismId id : spec.family().centralMechanisms()) {
                out.add(new Candidate(id, null, null));
            }
            return out;
        }
        out.add(new Candidate(MechanismId.CENTRAL_PROJECTION, null, null));
        List<Alpha> alphas = new ArrayList<>();
        if (spec.alpha() != null) {
            alphas.add(spec.alpha());
        } else {
            for (double a : LocalPlanner.ALPHA_GRID) {
                alphas.add(new Alpha(a));
            }
        }
        for (Alpha a : alphas) {
            out.add(new Candidate(MechanismId.CENTRAL_CHAINING, a, null));
        }
        out.add(new Candidate(MechanismId.LAPLACE, null, null));
        return out;
    }

    /** Plans for a central-mode workload at total pure ε per release and n reports per window. */
    public static Plan plan(WorkloadSpec spec, Epsilon epsilon, long n) {
        if (spec.mode() != Mode.CENTRAL) {
            throw new IllegalArgumentException("mode must be central for the central planner, got "
                    + spec.mode().wireName());
        }
        if (n < 1) {
            throw new IllegalArgumentException("n must be >= 1, got " + n);
        }
        List<Candidate> candidates = candidates(spec);
        List<ReferenceData> refs = ReferenceData.all();
        Prediction[] preds = new Prediction[candidates.size()];
        IntStream.range(0, candidates.size()).parallel()
                .forEach(i -> preds[i] = predict(spec, epsilon, n, candidates.get(i), refs));
        List<Prediction> list = LocalPlanner.withRegrets(List.of(preds), refs.size());
        Prediction choice = LocalPlanner.choose(list);
        String method = spec.family().isWindowAnalytics() ? AnalyticsPlanning.method(spec.family())
                : wideOnly(spec) ? "simulation: the mean over " + WIDE_TRIALS + " releases through the real wide mechanism"
                        + " (exact samplers, seeded) of the largest error over all marginals, on the wide reference"
                        + " data at n (up to d = " + MAX_SIMULATED_ATTRIBUTES + "; above it the closed form); closed"
                        + " form: the predicted maximum error (mwem: its parameter choice's model; worst-case chaining:"
                        + " its theoretical l-inf bound)"
                : "simulation: " + TRIALS + " releases per reference distribution through the real central mechanism"
                        + " (exact samplers, seeded); closed form: the parameter choice's predicted error";
        return new Plan(epsilon.value(), n, refs, list, choice, choice.candidate().apply(spec, epsilon, n), method);
    }

    /**
     * Whether {@code auto} chooses among the wide releases only: a central marginals workload whose universe is larger
     * than a materialised workload may be ({@link WorkloadSpec#MAX_UNIVERSE}: more than 16 attributes), or that
     * declares {@code central.synthetic} (only mwem yields records). Smaller marginal workloads keep the materialised
     * candidates (the wide ones can still be named explicitly).
     */
    static boolean wideOnly(WorkloadSpec spec) {
        if (spec.family() != QueryFamily.MARGINALS || spec.mode() != Mode.CENTRAL) {
            return false;
        }
        int d = ((Domain.Attributes) spec.domain()).names().size();
        return (1L << d) > WorkloadSpec.MAX_UNIVERSE || spec.central().synthetic() != null;
    }

    /**
     * The wide releases' <b>maximum</b> error at n, simulated on the wide reference data (the same figure for
     * every reference distribution of the other families), next to its closed form: mwem, its planner's predicted
     * max error ({@code MwemParameters}); worst-case chaining, its theoretical l∞ bound at n; certified synthetic
     * data, its certificate's noise and count terms (not simulated: {@code auto} never picks it). Both closed forms
     * are bounds of different tightness, so comparing them favoured mwem whatever the data; the simulation compares
     * like with like. Above {@link #MAX_SIMULATED_ATTRIBUTES} the closed forms are compared.
     */
    private static Prediction predictWide(WorkloadSpec spec, Epsilon epsilon, long n, Candidate c,
            List<ReferenceData> refs) {
        double predicted;
        double simulated;
        try {
            WorkloadSpec s = c.apply(spec, epsilon, n);
            var w = (CentralWorkload) ResolvedWorkload.of(s);
            var release = w.wideRelease();
            if (release instanceof PurifiedMwemRelease m) {
                predicted = m.parameters().predictedMaxError();
            } else if (release instanceof CertifiedSyntheticRelease cs) {
                predicted = cs.predictedCertificate(n); // its certificate's noise and count terms (the fit adds to it)
            } else {
                predicted = ((WorstCaseChainingRelease) release)
                        .theoreticalBound(n);
            }
            var marginals = w.wide().orElseThrow();
            simulated = marginals.attributeCount() <= MAX_SIMULATED_ATTRIBUTES
                    && !(release instanceof CertifiedSyntheticRelease)
                    ? simulatedMaxError(release, marginals, n) : predicted;
        } catch (IllegalArgumentException e) {
            return Prediction.notApplicable(c, e.getMessage(), refs.size());
        }
        double[] same = new double[refs.size()];
        Arrays.fill(same, simulated);
        return new Prediction(c, true, "", Double.NaN, predicted, same, Double.NaN);
    }

    /**
     * The mean over {@link #WIDE_TRIALS} seeded releases of the largest error over all marginals, on the wide
     * reference window of about n reports ({@code WideReference.window}): the quantity the wide releases bound.
     */
    static double simulatedMaxError(WideRelease release,
            MarginalWorkload marginals, long n) {
        var window = WideReference.window(marginals, n);
        double[] truth = window.answers();
        double sum = 0;
        for (int t = 0; t < WIDE_TRIALS; t++) {
            double[] est = release.release(window, new SeededRandomBits(0x31DEL + 104729L * t)).answer().estimates();
            double max = 0;
            for (int q = 0; q < truth.length; q++) {
                max = Math.max(max, Math.abs(est[q] - truth[q]));
            }
            sum += max;
        }
        return sum / WIDE_TRIALS;
    }

    private static Prediction predict(WorkloadSpec spec, Epsilon epsilon, long n, Candidate c, List<ReferenceData> refs) {
        if (spec.family().isWindowAnalytics()) {
            return AnalyticsPlanning.predict(spec, epsilon, n, c, refs);
        }
        if (c.id().isWide()) {
            return predictWide(spec, epsilon, n, c, refs);
        }
        return withPipeline(spec, epsilon, n, c, refs, pipeline -> predict(pipeline, n, c, refs));
    }

    /**
     * {@code predict} applied to the candidate's central pipeline, built from {@code c.apply(spec, epsilon, n)} as
     * deployment builds it; a candidate whose construction throws IllegalArgumentException is not applicable, with
     * the exception's message as the note (what is thrown later, by {@code predict}, is not caught).
     */
    static Prediction withPipeline(WorkloadSpec spec, Epsilon epsilon, long n, Candidate c, List<ReferenceData> refs,
            Function<CentralRelease, Prediction> predict) {
        CentralRelease pipeline;
        try {
            pipeline = CountsReleases.of(Workload.of(c.apply(spec, epsilon, n)));
        } catch (IllegalArgumentException e) {
            return Prediction.notApplicable(c, e.getMessage(), refs.size());
        }
        return predict.apply(pipeline);
    }

    /** A linear-family candidate's prediction from its pipeline: closed form and simulated RMS per reference. */
    private static Prediction predict(CentralRelease pipeline, long n, Candidate c, List<ReferenceData> refs) {
        Workload w = pipeline.workload();
        int size = (int) Math.min(n, Integer.MAX_VALUE);
        double[] simulated = new double[refs.size()];
        for (int r = 0; r < refs.size(); r++) {
            long[] counts = new long[w.universeSize()];
            for (int v : refs.get(r).stratified(w.universeSize(), Math.min(size, 1_000_000))) {
                counts[v]++;
            }
            if (size > 1_000_000) { // scale the reference histogram up to n exactly enough for planning
                for (int x = 0; x < counts.length; x++) {
                    counts[x] = Math.round(counts[x] * (size / 1_000_000.0));
                }
            }
            double[] truth = w.meanAnswer(counts);
            double sum = 0;
            for (int t = 0; t < TRIALS; t++) {
                Answer a = pipeline.release(counts, new SeededRandomBits(0xC3A7L + 7919L * r + 104729L * t));
                sum += LocalPlanner.squaredError(a.estimates(), truth);
            }
            simulated[r] = Math.sqrt(sum / TRIALS);
        }
        return new Prediction(c, true, "", Double.NaN, pipeline.parameters().predictedRms(), simulated, Double.NaN);
    }
}
