package io.privacygateway.benchmarks.wide;

import io.privacygateway.mechanisms.central.wide.Failures;
import io.privacygateway.mechanisms.central.wide.HypercubeProjection;
import io.privacygateway.mechanisms.central.wide.MarginalCounts;
import io.privacygateway.mechanisms.central.wide.MarginalWorkload;
import io.privacygateway.mechanisms.central.wide.ReleaseDraws;
import io.privacygateway.mechanisms.central.wide.WideAnswer;
import io.privacygateway.mechanisms.central.wide.WideSettings;
import io.privacygateway.mechanisms.accounting.Composition;
import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.central.CountRelease;
import io.privacygateway.mechanisms.central.PrivacySplit;
import io.privacygateway.mechanisms.central.sampling.DiscreteLaplace;
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
 * The pure-DP baseline for wide marginal workloads: discrete Laplace noise on every cell count, then either a
 * consistency projection onto the feasible set K ({@link HypercubeProjection}, where {@code 2^d} is small enough,
 * {@code d <= }{@link #MAX_PROJECTED_ATTRIBUTES}) or clipping to [0, 1].
 *
 * <p><b>Privacy.</b> One device changes the cell counts by at most {@code C(d,k)·L} in l1 under add/remove (each
 * report adds one to one cell of every subset) and {@code 2·C(d,k)·L} under replace-one; noise of scale
 * {@code t >= Δ₁/ε_sum} (rounded up from the exact quotient) on every cell makes them pure ε_sum-DP; the count
 * (add/remove) takes {@value #COUNT_SHARE} of ε. Projection and clipping are post-processing.
 *
 * <p><b>Bound</b> (clipped version): {@code P(|η| >= k) <= 2e^{−k/t}}, so with {@code k = ⌈t ln(2K/β_cells)⌉} every
 * cell is within {@code k/ñ + r} of the truth (clipping moves each cell toward [0, 1], which contains the truth).
 * The projected version publishes the same bound only as the l2 guarantee gives none per coordinate; its bars use
 * the l2 bound {@code ‖y − x̄‖₂} (projection onto a convex set containing x̄ never increases it).
 */
public final class LaplaceMarginalsRelease {
    /** The largest d for which the consistency projection runs (a {@code 2^16}-point simplex). */
    public static final int MAX_PROJECTED_ATTRIBUTES = 16;
    /**
     * Iterations of the consistency projection: it is stopped early (measured on 3-way marginals over 16 attributes,
     * 20,000 reports: the max error was 0.033, 0.037, 0.040, 0.041, 0.042 after 50, 100, 200, 400, 800 iterations, at
     * about 20 ms per iteration), so the figures are those of a 200-step projection, not of the exact one.
     */
    public static final int PROJECTION_ITERATIONS = 200;
    /** The share of ε spent on the count under add/remove. */
    public static final double COUNT_SHARE = 0.05;

    private final MarginalWorkload workload;
    private final WideSettings settings;
    private final MechanismId mechanism;
    private final boolean project;
    private final double epsilonCount;
    private final double epsilonSum;
    private final DiscreteLaplace noise;
    private final CountRelease count;
    private final Failures failures;
    private final HypercubeProjection projection;

    private LaplaceMarginalsRelease(MarginalWorkload workload, WideSettings settings, MechanismId mechanism,
            boolean project) {
        this.workload = workload;
        this.settings = settings;
        this.mechanism = mechanism;
        this.project = project;
        double eps = settings.epsilon().value();
        double[] parts = settings.countPublic() ? new double[] {0, eps} : PrivacySplit.split(eps, COUNT_SHARE,
                1 - COUNT_SHARE);
        this.epsilonCount = parts[0];
        this.epsilonSum = parts[1];
        long l1 = Math.multiplyExact(Math.multiplyExact((long) workload.subsetCount(), settings.contributions()),
                settings.countPublic() ? 2 : 1);
        this.noise = new DiscreteLaplace(PrivacySplit.dyadicUp(l1, epsilonSum));
        this.count = CountRelease.of(settings.neighbour(), settings.contributions(), epsilonCount);
        this.failures = Failures.of(settings.beta(), settings.countPublic());
        this.projection = project ? new HypercubeProjection(workload) : null;
    }

    /**
     * @param project whether to project onto K ({@code d <= 16}) instead of clipping
     */
    public static LaplaceMarginalsRelease of(MarginalWorkload workload, WideSettings settings, MechanismId mechanism,
            boolean project) {
        Require.nonNull("workload", workload);
        Require.nonNull("settings", settings);
        Require.nonNull("mechanism", mechanism);
        if (project) {
            Require.inRange("attributes (projected Laplace)", workload.attributeCount(), 1, MAX_PROJECTED_ATTRIBUTES);
        }
        return new LaplaceMarginalsRelease(workload, settings, mechanism, project);
    }

    public PrivacyCost.Pure cost() {
        return new PrivacyCost.Pure(Composition.sumEpsilon(epsilonCount, epsilonSum));
    }

    public DiscreteLaplace noise() {
        return noise;
    }

    public WideAnswer release(MarginalCounts counts, RandomBits secret) {
        return release(counts, ReleaseDraws.exact(secret));
    }

    WideAnswer release(MarginalCounts counts, ReleaseDraws draws) {
        Require.nonNull("counts", counts);
        long n = counts.n();
        int m = workload.queryCount();
        List<String> labels = workload.labels();
        if (count instanceof CountRelease.Public && n == 0) {
            return new WideAnswer(Answer.noData(mechanism, labels, workload.uniformAnswers(),
                    settings.confidence().value(), 0.5, settings.workloadHash(), Answer.Extras.NONE), Optional.empty());
        }
        long released = draws.releasedCount(count, n);
        double divisor = CountRelease.divisor(released);
        double[] y = new double[m];
        for (int q = 0; q < m; q++) {
            y[q] = (counts.count(q) + draws.laplace(noise)) / divisor;
        }
        double[] est;
        double gap = 0;
        if (project) {
            HypercubeProjection.Result r = projection.project(y, 1e-7, PROJECTION_ITERATIONS);
            est = r.answers();
            gap = r.gap();
        } else {
            est = new double[m];
            for (int q = 0; q < m; q++) {
                est[q] = Math.max(0, Math.min(1, y[q]));
            }
        }
        double beta = failures.theory() + failures.check();
        double rel = failures.countBound(count, released);
        double k = Math.ceil(noise.scaleDouble() * (1 + 1e-12) * Math.log(2.0 * m / beta));
        double cell = released >= 1 ? k / divisor + rel : Double.POSITIVE_INFINITY;
        double bound = project ? cell * Math.sqrt(m) : cell;
        bound = Math.min(1, bound);
        double[][] bars = ErrorBars.clipped(est, bound, true);
        Map<String, Double> scalars = new LinkedHashMap<>();
        scalars.put("projectionGap", gap);
        double sd = Math.sqrt(noise.variance()) / divisor;
        return new WideAnswer(new Answer(mechanism, cost(), CountRelease.published(released), labels, est,
                Optional.of(y), Optional.empty(), bars[0], bars[1], settings.confidence().value(), Math.min(0.5, sd),
                Math.min(0.5, bound), List.of(), settings.workloadHash(),
                new Answer.Extras(List.of(), scalars, OptionalDouble.of(bound))), Optional.empty());
    }
}
