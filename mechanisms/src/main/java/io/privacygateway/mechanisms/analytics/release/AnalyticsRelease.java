package io.privacygateway.mechanisms.analytics.release;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.analytics.AnalyticsBudget;
import io.privacygateway.mechanisms.analytics.ReleasedCount;
import io.privacygateway.mechanisms.analytics.WindowMechanism;
import io.privacygateway.mechanisms.central.CentralParameters;
import io.privacygateway.mechanisms.central.CentralRelease;
import io.privacygateway.mechanisms.central.CountRelease;
import io.privacygateway.mechanisms.central.PrivacySplit;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.Optional;

/**
 * The central release of the window-analytics families (mode, regression, erm; {@code docs/analytics.md}): the
 * report count first ({@link CountRelease}: public under replace-one, discrete Laplace with a share
 * {@value #COUNT_SHARE} of ε under add/remove), then the family's {@link WindowMechanism} with the rest, given the
 * released count (adaptive composition). Every window is released, empty ones too.
 *
 * <p>The answer's cost is the mechanism's {@link WindowMechanism#cost()}: the exact sum of the count's share and the
 * mechanism's own shares, rounded up, which is at most the declared ε ({@link PrivacySplit}).
 */
public final class AnalyticsRelease implements CentralRelease {
    /** The share of ε spent on the count under add/remove. */
    public static final double COUNT_SHARE = 0.1;

    private final Workload workload;
    private final CountRelease count;
    private final WindowMechanism mechanism;
    private final CentralParameters.Analytics params;

    private AnalyticsRelease(Workload workload, CountRelease count, WindowMechanism mechanism, double epsilonCount) {
        this.workload = workload;
        this.count = count;
        this.mechanism = mechanism;
        this.params = new CentralParameters.Analytics(workload.spec().mechanism(), epsilonCount, mechanism.cost(),
                mechanism.predictedError());
    }

    /** The analytics release a resolved central workload of the mode, regression or erm family names. */
    public static AnalyticsRelease of(Workload w, long planned) {
        WorkloadSpec.Central c = w.spec().central();
        double total = c.epsilonPerRelease().value();
        boolean isPublic = CountRelease.isPublic(c.neighbour());
        double[] parts = isPublic ? new double[] {0, total} : PrivacySplit.split(total, COUNT_SHARE, 1 - COUNT_SHARE);
        CountRelease count = CountRelease.of(c.neighbour(), c.contributionsPerWindow(), parts[0]);
        AnalyticsBudget budget = new AnalyticsBudget(parts[0], parts[1], planned, c.neighbour(),
                c.contributionsPerWindow(), w.spec().confidence().value());
        return new AnalyticsRelease(w, count, AnalyticsMechanisms.of(w, budget), parts[0]);
    }

    @Override
    public Workload workload() {
        return workload;
    }

    @Override
    public CentralParameters.Analytics parameters() {
        return params;
    }

    @Override
    public PrivacyCost.Pure cost() {
        return mechanism.cost();
    }

    /** The family's mechanism. */
    public WindowMechanism mechanism() {
        return mechanism;
    }

    @Override
    public Answer release(long[] counts, RandomBits secret) {
        long n = CentralRelease.checkedTotal(workload, counts);
        long released = count.release(n, secret);
        ReleasedCount rc = count instanceof CountRelease.Noisy noisy
                ? new ReleasedCount(released, Optional.of(noisy.noise()))
                : ReleasedCount.exact(released);
        return mechanism.release(counts, rc, secret);
    }
}
