package io.privacygateway.mechanisms.runtime;

import io.privacygateway.mechanisms.analytics.release.AnalyticsRelease;
import io.privacygateway.mechanisms.central.CentralRelease;
import io.privacygateway.mechanisms.central.LaplaceRelease;
import io.privacygateway.mechanisms.central.PurifiedGaussianRelease;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;

/**
 * The one place a materialised central workload's mechanism id becomes its {@link CentralRelease} (the counterpart of
 * {@link WideReleases}); above {@code central} and {@code analytics}, so that the analytics release may build on central
 * noise without a package cycle. The release step runs it through {@link WindowRelease.Counts}.
 */
public final class CountsReleases {
    private CountsReleases() {}

    /**
     * The release a resolved central-mode workload names, with parameters planned for its
     * {@code expectedReportsPerWindow}.
     *
     * @throws IllegalArgumentException for a workload that is not central, a mechanism still {@code auto}, or one that is
     *     not a central mechanism over counts per universe value
     */
    public static CentralRelease of(Workload w) {
        WorkloadSpec s = w.spec();
        if (s.mode() != Mode.CENTRAL) {
            throw new IllegalArgumentException("mode must be central for a central release, got " + s.mode().wireName());
        }
        long planned = s.plannedReportsPerWindow();
        return switch (s.mechanism()) {
            case LAPLACE -> LaplaceRelease.of(w, planned);
            case CENTRAL_PROJECTION -> PurifiedGaussianRelease.projection(w, planned);
            case CENTRAL_CHAINING -> PurifiedGaussianRelease.chaining(w, planned);
            case MODE_PTR, MODE_EXPONENTIAL, REGRESSION_ADASSP, REGRESSION_SSP, ERM_EXPONENTIAL, ERM_DPSGD,
                    ERM_OUTPUT_PERTURBATION -> AnalyticsRelease.of(w, planned);
            case AUTO -> throw new IllegalArgumentException("mechanism is auto: resolve it with the planner first");
            default -> throw new IllegalArgumentException("mechanism " + s.mechanism().wireName()
                    + " is not a central mechanism");
        };
    }
}
