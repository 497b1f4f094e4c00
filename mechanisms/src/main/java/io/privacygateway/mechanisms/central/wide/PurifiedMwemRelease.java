package io.privacygateway.mechanisms.central.wide;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.central.CountRelease;
import io.privacygateway.mechanisms.central.PrivacySplit;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.release.ErrorBars;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Pure ε-DP release of all k-way marginals over d binary attributes, with a synthetic dataset: MWEM under zCDP,
 * proportional subsampling, binary embedding and purification (purification paper §6, Algorithms 14–16), from the
 * window's exact marginal counts ({@link MarginalCounts}) alone.
 *
 * <h2>Steps</h2>
 * <ol>
 *   <li><b>Count</b> ({@link CountRelease}): ñ = n + discrete Laplace (pure ε_count) under add/remove; public n
 *       under replace-one. Everything after uses the divisor {@code D = max(1, ñ)}.</li>
 *   <li><b>MWEM</b> ({@link PrivateMultiplicativeWeights} on {@link BinaryMarginalUniverse}): T rounds, each
 *       selecting a marginal by the exact exponential mechanism and measuring its 2^k cell counts with discrete
 *       Gaussian noise; ρ-zCDP in all, hence (ε_apx, δ)-DP. Output: the average distribution p̄ over
 *       {@code {0,1}^d} (dense, {@code 2^d} doubles).</li>
 *   <li><b>Subsample</b> m records from p̄ ({@link ProportionalSampling}, Algorithm 15): post-processing.</li>
 *   <li><b>Purify</b> the {@code m·d} bits ({@link BinaryCubePurifier}, Algorithm 2 with a chosen ω): the records
 *       are pure {@code (ε_apx + ε′)}-DP. They are published ({@link SyntheticRecords}).</li>
 *   <li><b>Answer</b>: the records' marginals (post-processing of the pure records, so every answer has δ = 0).</li>
 *   <li><b>Check</b> ({@link MaxErrorCheck}): the achieved max error of those answers against the data, released
 *       with pure ε_check.</li>
 * </ol>
 * Total: pure {@code ε_count + ε_apx + ε′ + ε_check} by sequential composition ({@link #cost()}), the exact sum of
 * the shares rounded up, at most the declared ε.
 *
 * <h2>Published bound</h2>
 * {@code maxErrorBound = min(B_theory, B_check)}, each a function of ñ, the pure check and public parameters:
 * {@code B_theory = B_mw(ñ) + √(ln(2K/β_s)/(2m)) + F/m} (MWEM's bound, Hoeffding for the m draws, the flipped
 * records' quantile; the mixing event ω is one of the excluded events) and {@code B_check} the measured bound.
 * Both hold together with probability at least the confidence ({@link Failures}). The bars are the estimates
 * ± the bound, clipped to [0, 1]. With ñ &lt; 1 (add/remove) no bound exists and the bars are [0, 1].
 *
 * <h2>Published fields</h2>
 * Functions of ñ, the purified records, the noisy check M̃ and public parameters only. p̄, the pre-purification
 * records and the selected marginals never leave {@link #release}.
 */
public final class PurifiedMwemRelease implements WideRelease {
    private final MarginalWorkload workload;
    private final WideSettings settings;
    private final MechanismId mechanism;
    private final MwemParameters params;
    private final BinaryMarginalUniverse universe;
    private final PrivateMultiplicativeWeights.Schedule schedule;
    private final BinaryCubePurifier purifier;
    private final CountRelease count;
    private final MaxErrorCheck check;
    private final Failures failures;
    private final List<String> labels;
    private final double trivialRms;

    private PurifiedMwemRelease(MarginalWorkload workload, WideSettings settings, MechanismId mechanism,
            MwemParameters params) {
        this.workload = workload;
        this.settings = settings;
        this.mechanism = mechanism;
        this.params = params;
        this.universe = new BinaryMarginalUniverse(workload);
        this.schedule = PrivateMultiplicativeWeights.schedule(universe, settings.neighbour(), settings.contributions(),
                params.rho(), params.rounds(), params.selectShare());
        this.purifier = new BinaryCubePurifier(params.records() * workload.attributeCount(),
                Epsilon.exactly(new BigDecimal(params.epsilonPrime())), new LogDelta(params.logDelta()), params.omega());
        this.count = CountRelease.of(settings.neighbour(), settings.contributions(), params.epsilonCount());
        this.check = new MaxErrorCheck(settings.contributions(), params.epsilonCheck());
        this.failures = Failures.of(settings.beta(), settings.countPublic());
        this.labels = workload.labels();
        this.trivialRms = workload.trivialRms();
    }

    /**
     * The release for a wide marginal workload, with parameters chosen for its declared ε and planned count.
     *
     * @param mechanism the id the answers carry (the workload's mechanism)
     */
    public static PurifiedMwemRelease of(MarginalWorkload workload, WideSettings settings, MechanismId mechanism) {
        return of(workload, settings, mechanism, MwemParameters.choose(workload, settings));
    }

    /** The release with given parameters (whose shares must not exceed the declared ε). */
    public static PurifiedMwemRelease of(MarginalWorkload workload, WideSettings settings, MechanismId mechanism,
            MwemParameters params) {
        Require.nonNull("workload", workload);
        Require.nonNull("settings", settings);
        Require.nonNull("mechanism", mechanism);
        Require.nonNull("params", params);
        BigDecimal spent = PrivacySplit.exactSum(params.epsilonCount(),
                params.epsilonApprox(), params.epsilonPrime(), params.epsilonCheck());
        if (spent.compareTo(settings.epsilon().exact()) > 0) {
            throw new IllegalArgumentException("parameters spend " + spent + ", more than the declared ε "
                    + settings.epsilon().exact());
        }
        if (settings.countPublic() != (params.epsilonCount() == 0)) {
            throw new IllegalArgumentException("epsilonCount must be 0 exactly when the count is public");
        }
        return new PurifiedMwemRelease(workload, settings, mechanism, params);
    }

    public MarginalWorkload workload() {
        return workload;
    }

    public MwemParameters parameters() {
        return params;
    }

    public PrivateMultiplicativeWeights.Schedule schedule() {
        return schedule;
    }

    public BinaryCubePurifier purifier() {
        return purifier;
    }

    CountRelease count() {
        return count;
    }

    MaxErrorCheck check() {
        return check;
    }

    /** The pure guarantee of every release with data: {@code ε_count + ε_apx + ε′ + ε_check}, rounded up. */
    @Override
    public PrivacyCost.Pure cost() {
        return params.cost();
    }

    /** Releases a window from its exact marginal counts, with secret randomness. */
    @Override
    public WideAnswer release(MarginalCounts counts, RandomBits secret) {
        return release(counts, ReleaseDraws.exact(secret));
    }

    WideAnswer release(MarginalCounts counts, ReleaseDraws draws) {
        Require.nonNull("counts", counts);
        if (!counts.workload().equals(workload)) {
            throw new IllegalArgumentException("counts of " + counts.workload() + ", release for " + workload);
        }
        long n = counts.n();
        if (count instanceof CountRelease.Public && n == 0) {
            return noData();
        }
        long released = draws.releasedCount(count, n);
        long divisor = CountRelease.divisor(released);
        // (ε_apx, δ)-DP intermediates: never published
        PrivateMultiplicativeWeights.Run run = PrivateMultiplicativeWeights.run(universe, counts::subsetCounts,
                schedule, divisor, draws);
        int[] sample = ProportionalSampling.sample(run.average(), params.records(), draws);
        // pure from here on
        long[] records = purifyRecords(sample, draws);
        double[] estimates = answersOf(records);
        long noisyError = check.release(MaxErrorCheck.statistic(estimates, divisor, counts.cellsView(), 1), draws);
        return publish(released, records, estimates, noisyError);
    }

    /** Binary embedding of the records (record i's attribute j is bit i·d + j), purification, decoding. */
    private long[] purifyRecords(int[] sample, ReleaseDraws draws) {
        int d = workload.attributeCount();
        boolean[] bits = new boolean[sample.length * d];
        for (int i = 0; i < sample.length; i++) {
            for (int j = 0; j < d; j++) {
                bits[i * d + j] = ((sample[i] >>> j) & 1) != 0;
            }
        }
        boolean[] pure = purifier.purify(bits, draws);
        long[] out = new long[sample.length];
        for (int i = 0; i < sample.length; i++) {
            long v = 0;
            for (int j = 0; j < d; j++) {
                if (pure[i * d + j]) {
                    v |= 1L << j;
                }
            }
            out[i] = v;
        }
        return out;
    }

    private double[] answersOf(long[] records) {
        MarginalCounts c = MarginalCounts.empty(workload);
        for (long r : records) {
            c.add(r);
        }
        return c.answers();
    }

    /**
     * The theoretical max-error bound at released count ñ (query units), {@code +∞} when none holds (ñ &lt; 1, or a
     * count bound of relative size 1 or more).
     */
    public double theoreticalBound(long released) {
        if (released < 1) {
            return Double.POSITIVE_INFINITY;
        }
        double r = failures.countBound(count, released);
        double theory = failures.theory();
        double mw = PrivateMultiplicativeWeights.bound(universe, schedule, settings.contributions(), released, r,
                theory / 4, theory / 4);
        double pRecord = -Math.expm1(workload.attributeCount() * Math.log1p(-purifier.flipProbability()));
        int m = params.records();
        return mw + Tails.sampling(workload.queryCount(), m, theory / 4)
                + Tails.binomialUpper(m, pRecord, theory / 8) / (double) m;
    }

    /** Everything the answer publishes, from ñ, the purified records, their answers and the noisy check only. */
    WideAnswer publish(long released, long[] records, double[] estimates, long noisyError) {
        long divisor = CountRelease.divisor(released);
        double r = failures.countBound(count, released);
        double theory = theoreticalBound(released);
        double measured = check.bound(noisyError, released, r, failures.check());
        double bound = Math.min(1.0, Math.min(theory, measured));
        boolean valid = released >= 1 && bound < 1.0;
        double[][] bars = ErrorBars.clipped(estimates, bound, valid);
        double expected = Math.min(trivialRms, Math.min(bound, Math.max(0, noisyError) / (double) divisor + r));
        Map<String, Double> scalars = new LinkedHashMap<>();
        scalars.put("theoreticalMaxErrorBound", Math.min(1.0, theory));
        scalars.put("measuredMaxErrorBound", Math.min(1.0, measured));
        scalars.put("noisyMaxError", noisyError / (double) divisor);
        scalars.put("rounds", (double) params.rounds());
        scalars.put("syntheticRecords", (double) params.records());
        scalars.put("epsilonCount", params.epsilonCount());
        scalars.put("epsilonApprox", params.epsilonApprox());
        scalars.put("epsilonPrime", params.epsilonPrime());
        scalars.put("epsilonCheck", params.epsilonCheck());
        scalars.put("logDelta", params.logDelta());
        scalars.put("omega", params.omega());
        scalars.put("rho", schedule.rho());
        Answer.Extras extras = new Answer.Extras(List.of(), scalars, OptionalDouble.of(bound));
        Answer.LevelDetail level = new Answer.LevelDetail(1, new PrivacyCost.Zcdp(schedule.rho()), 1,
                schedule.sigma() / divisor, 0, universe.size(), OptionalDouble.empty());
        Answer answer = new Answer(mechanism, cost(), CountRelease.published(released), labels, estimates,
                Optional.empty(), Optional.empty(), bars[0], bars[1], settings.confidence().value(), expected,
                Math.min(trivialRms, bound), List.of(level), settings.workloadHash(), extras);
        return new WideAnswer(answer, Optional.of(new SyntheticRecords(workload, records, cost())));
    }

    /**
     * A replace-one window without reports: nothing to protect, no mechanism runs; the estimate is the uniform
     * distribution's marginals ({@code 2^−k} per cell), bars [0, 1], cost 0, no records.
     */
    private WideAnswer noData() {
        Answer a = Answer.noData(mechanism, labels, workload.uniformAnswers(), settings.confidence().value(),
                trivialRms, settings.workloadHash(), new Answer.Extras(List.of(), Map.of(), OptionalDouble.of(1.0)));
        return new WideAnswer(a, Optional.empty());
    }
}
