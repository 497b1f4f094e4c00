package io.privacygateway.mechanisms.central.synthetic;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.central.wide.MarginalCounts;
import io.privacygateway.mechanisms.central.wide.MarginalWorkload;
import io.privacygateway.mechanisms.central.wide.SyntheticRecords;
import io.privacygateway.mechanisms.central.wide.WideAnswer;
import io.privacygateway.mechanisms.central.wide.WideRelease;
import io.privacygateway.mechanisms.central.wide.WideSettings;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.release.ErrorBars;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The gateway's per-window release of a wide marginal workload by certified synthetic data
 * ({@link MechanismId#CERTIFIED_SYNTHETIC}; {@code docs/synthetic-data.md}): {@link CertifiedSyntheticData} run on
 * the window's exact k-way marginal cells, which are exactly the tables the certificate is about (the two layouts
 * order subsets and cells alike). <b>Pure ε-DP, δ = 0</b>: the only use of the data is
 * {@link CertifiedSyntheticData#privatize} (noisy count and discrete Laplace coefficients, exact samplers driven by
 * the secret bits handed in, which the gateway draws from {@code SecureRandom}); everything published is a function of
 * its output and public parameters.
 *
 * <p><b>Parameters</b> (all public): the workload's ε per release, neighbour relation, L, confidence (of the
 * certificate) and planned report count (the ε split of the count); the identity noise basis; {@code records} N
 * records per window (the workload's {@code central.synthetic.records}, at most 4,096, so the records are published as
 * they are, one long each); the default candidate budget (4,096).
 *
 * <p><b>Answer</b>: the marginals of the N records (family marginals, query order), so answers and records agree
 * exactly. <b>The certificate is published as {@code maxErrorBound}</b> (and in the scalar {@code certificate},
 * with its terms {@code certificateNoise}, {@code certificateCount}, {@code certificateFit}): with probability at
 * least the confidence, every query on at most k attributes with values in an interval of length 1 differs between
 * the window's reports and the records by at most it; a marginal cell is such a query (its indicator), so it bounds
 * every answer's error at once (an l∞ bound). The bars are the estimates ± the certificate, clipped to [0, 1];
 * {@code rmsErrorBoundAtConfidence} is the same bound (an l2/√m norm is at most the l∞ norm), capped at the trivial
 * one.
 *
 * <p>A replace-one window without reports has nothing to protect: no mechanism runs, no records, cost 0, the uniform
 * marginals with bars [0, 1] (as the other wide releases do). Under add/remove every window, empty ones too, runs the
 * mechanism and has records.
 */
public final class CertifiedSyntheticRelease implements WideRelease {
    private final MarginalWorkload workload;
    private final WideSettings settings;
    private final MechanismId mechanism;
    private final CertifiedSyntheticData data;
    private final List<String> labels;
    private final double trivialRms;

    private CertifiedSyntheticRelease(MarginalWorkload workload, WideSettings settings, MechanismId mechanism,
            CertifiedSyntheticData data) {
        this.workload = workload;
        this.settings = settings;
        this.mechanism = mechanism;
        this.data = data;
        this.labels = workload.labels();
        this.trivialRms = workload.trivialRms();
    }

    /**
     * The release of a wide marginal workload with N synthetic records per window.
     *
     * @param mechanism the id the answers carry (the workload's mechanism)
     * @param records N, in {@code [1, 4096]}
     * @throws IllegalArgumentException for more than {@link MarginalLayout#MAX_ATTRIBUTES} attributes or
     *     {@code k > }{@link MarginalLayout#MAX_WAY}, or N out of range
     */
    public static CertifiedSyntheticRelease of(MarginalWorkload workload, WideSettings settings, MechanismId mechanism,
            int records) {
        Require.nonNull("workload", workload);
        Require.nonNull("settings", settings);
        Require.nonNull("mechanism", mechanism);
        Require.inRange("records", records, 1, 4096);
        return new CertifiedSyntheticRelease(workload, settings, mechanism,
                CertifiedSyntheticData.of(parameters(workload, settings, records)));
    }

    /** The library's parameters for a workload's settings and N (what a consumer re-derives the release with). */
    public static SyntheticParameters parameters(MarginalWorkload workload, WideSettings settings, int records) {
        MarginalLayout layout = MarginalLayout.of(workload.attributeCount(), workload.way());
        return new SyntheticParameters(layout, settings.epsilon(), settings.neighbour(), settings.contributions(),
                NoiseBasis.IDENTITY, settings.confidence(), records, SyntheticParameters.DEFAULT_CANDIDATES,
                settings.plannedReports());
    }

    /**
     * The query class a certificate over k-way tables covers, as published next to it: the paper's s-sparse
     * 1-Lipschitz functions (l∞ metric on {@code [0,1]^d}) with {@code s = k}, which on binary attributes are the
     * functions of at most k attributes with values in an interval of length 1.
     */
    public static String queryClass(int way) {
        Require.inRange("way", way, 1, MarginalLayout.MAX_WAY);
        return "s-sparse 1-Lipschitz, s = " + way + ": every query on at most " + way
                + " attributes with values in an interval of length 1";
    }

    /** The query class of this release's certificate ({@link #queryClass(int)}). */
    public String queryClass() {
        return queryClass(workload.way());
    }

    /** The certified mechanism this release runs. */
    public CertifiedSyntheticData mechanism() {
        return data;
    }

    @Override
    public PrivacyCost.Pure cost() {
        return data.cost();
    }

    /**
     * The certificate's data-independent part at n reports (noise and count radius over n): a lower bound on any
     * window's certificate there, and its prediction when the records fit the noisy tables well.
     */
    public double predictedCertificate(long n) {
        Require.inRange("n", n, 1, Long.MAX_VALUE);
        return Math.min(1, (data.noiseQuantile() + 0.5 * data.countRadius()) / n);
    }

    /** Releases a window from its exact marginal counts, with secret randomness. */
    @Override
    public WideAnswer release(MarginalCounts counts, RandomBits secret) {
        Require.nonNull("counts", counts);
        Require.nonNull("secret", secret);
        if (!counts.workload().equals(workload)) {
            throw new IllegalArgumentException("counts of " + counts.workload() + ", release for " + workload);
        }
        return publish(data.release(counts.cells(), counts.n(), secret));
    }

    /** Everything the answer and the records publish, from the library's release (a function of its private outputs). */
    public WideAnswer publish(SyntheticRelease r) {
        Require.nonNull("release", r);
        if (r.recordCount() == 0) {
            return noData();
        }
        int[] expanded = r.expand();
        long[] records = new long[expanded.length];
        for (int i = 0; i < records.length; i++) {
            records[i] = expanded[i];
        }
        SyntheticRecords synthetic = new SyntheticRecords(workload, records, r.cost());
        double[] estimates = synthetic.answers();
        Certificate c = r.certificate();
        double bound = c.value();
        double[][] bars = ErrorBars.clipped(estimates, bound, true);
        Map<String, Double> scalars = new LinkedHashMap<>();
        scalars.put("certificate", bound);
        scalars.put("certificateNoise", c.noise());
        scalars.put("certificateCount", c.count());
        scalars.put("certificateFit", c.fit());
        scalars.put("certificateWay", (double) workload.way());
        scalars.put("lpObjective", r.lpObjective());
        scalars.put("lpLowerBound", r.lpLowerBound());
        scalars.put("syntheticRecords", (double) records.length);
        scalars.put("epsilonCount", data.epsilonCount());
        scalars.put("epsilonMarginals", data.epsilonMarginals());
        Answer.Extras extras = new Answer.Extras(List.of(), scalars, OptionalDouble.of(bound));
        double q = Math.exp(-1 / data.coefficientNoise().scaleDouble()); // discrete Laplace: variance 2q/(1 − q)²
        double noiseStd = Math.sqrt(2 * q) / (1 - q) / Math.max(1, r.reportCount());
        Answer.LevelDetail level = new Answer.LevelDetail(1, r.cost(), 1, noiseStd, 0, records.length,
                OptionalDouble.empty());
        double rms = Math.min(trivialRms, bound);
        Answer answer = new Answer(mechanism, r.cost(), r.reportCount(), labels, estimates, Optional.empty(),
                Optional.empty(), bars[0], bars[1], c.confidence(), rms, rms, List.of(level), settings.workloadHash(),
                extras);
        return new WideAnswer(answer, Optional.of(synthetic));
    }

    /** A replace-one window without reports: no mechanism ran; uniform marginals, bars [0, 1], cost 0, no records. */
    private WideAnswer noData() {
        Answer a = Answer.noData(mechanism, labels, workload.uniformAnswers(), settings.confidence().value(),
                trivialRms, settings.workloadHash(),
                new Answer.Extras(List.of(), Map.of("certificate", 1.0), OptionalDouble.of(1.0)));
        return new WideAnswer(a, Optional.empty());
    }
}
