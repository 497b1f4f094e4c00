package io.privacygateway.mechanisms.local.mean;

import io.privacygateway.mechanisms.local.LocalEstimate;
import io.privacygateway.mechanisms.local.LocalEstimator;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.workload.Domain;
import java.util.List;

/**
 * The gateway half of a {@link MeanProtocol}: the mean of a window from the counts of its output symbols.
 *
 * <p><b>Estimate.</b> {@code t̄ = (1/n) Σ_y c_y · t̂(y)} ({@code t̂} = {@link ScalarRandomizer#estimateOf}), unbiased
 * for the mean of {@code t(x_i)}; the mean is {@code lo + (hi − lo)(t̄ + 1)/2}. Its standard error is the public
 * worst case {@code (hi − lo)/2 · √(V_max/n)}, {@code V_max = max_x Var(t̂ | x)}
 * ({@link ScalarRandomizer#worstVariance}: closed form, no data involved); the release projects the estimate onto
 * K = {@code [lo, hi]} (clipping) and computes the bar from it. The bias bound is the device rounding's
 * ({@link MeanProtocol#roundingBound()}).
 *
 * <p>Immutable and thread-safe.
 */
public final class MeanEstimator implements LocalEstimator {
    private final MeanProtocol protocol;
    private final Domain.Range range;
    private final double[] estimates;
    private final double worstVariance;

    public MeanEstimator(MeanProtocol protocol) {
        this.protocol = Require.nonNull("protocol", protocol);
        this.range = protocol.range();
        ScalarRandomizer randomizer = protocol.randomizer();
        this.estimates = new double[randomizer.outputCount()];
        for (int y = 0; y < estimates.length; y++) {
            estimates[y] = randomizer.estimateOf(y);
        }
        this.worstVariance = randomizer.worstVariance();
    }

    @Override
    public MeanProtocol protocol() {
        return protocol;
    }

    @Override
    public LocalEstimate estimate(long[] state, long n) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be >= 1, got " + n);
        }
        double sum = 0;
        for (int y = 0; y < state.length; y++) {
            if (state[y] != 0) {
                sum += state[y] * estimates[y];
            }
        }
        double tBar = sum / n;
        double halfWidth = protocol.halfWidth();
        double mean = range.lo() + halfWidth * (tBar + 1);
        double se = halfWidth * Math.sqrt(worstVariance / n);
        return new LocalEstimate(List.of(new LocalEstimate.Level(new double[] {mean}, new double[] {se}, se, null,
                protocol.epsilon().value(), 0)), range.roundingBound());
    }

    @Override
    public double[] expectedLevelMean(int level, double[] histogram) {
        return protocol.workload().answersOf(histogram);
    }
}
