package io.privacygateway.mechanisms.analytics;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import java.util.List;

/**
 * One window-analytics mechanism (docs/analytics.md): from a window's exact counts per universe value and the
 * already released report count, an answer that is pure ε-DP. The gateway runs it through
 * {@code analytics.release.AnalyticsRelease}, which releases the count first (pure, or public under replace-one) and
 * passes it in; everything a mechanism publishes is a function of its pure outputs, the released count and
 * public parameters.
 *
 * <p>Implementations validate their parameters at construction and report what they spend as
 * {@link #cost()}: the exact sum of the count's share and their own shares, rounded up ({@code Composition}),
 * never a literal.
 */
public interface WindowMechanism {
    MechanismId id();

    Workload workload();

    /** The pure-DP guarantee of every answer: the count's share plus this mechanism's shares, rounded up. */
    PrivacyCost.Pure cost();

    /**
     * The predicted error of an answer at the planned report count on public synthetic data (mode: the
     * probability of not returning the true mode; regression: the excess MSE; erm: the excess empirical risk),
     * or NaN where the mechanism has no closed form.
     */
    double predictedError();

    /** Public parameters as named numbers (what the planner and {@code simulate} print). */
    List<Parameter> parameters();

    /**
     * Releases a window.
     *
     * @param counts the exact count of every universe value (each device at most L reports); may be all 0
     * @param count the released report count (pure, or public)
     * @param secret secret randomness
     */
    Answer release(long[] counts, ReleasedCount count, RandomBits secret);

    /** A named public parameter. */
    record Parameter(String name, double value) {}
}
