package io.privacygateway.mechanisms.continual;

import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.Horizon;

/**
 * The running total of one horizon after a window, as an answer.
 *
 * @param horizon the horizon (its {@link Horizon#wireName()} is the answer's {@code horizon} field)
 * @param start the start (epoch milliseconds) of the first window the total covers
 * @param end the end (exclusive) of the last window it covers
 * @param windows the number of windows covered
 * @param nodes how many noisy tree nodes the total adds up (its canonical cover, at most {@code 2h} plus one per
 *     further tree)
 * @param noisyTotals the noisy running total of the counts per universe value (the sum of those nodes)
 * @param answer the mean answer vector over the horizon, projected onto K, with its error bars; {@link Answer#n()} is
 *     the published number of reports over the horizon
 */
public record HorizonAnswer(Horizon horizon, long start, long end, long windows, int nodes, long[] noisyTotals,
        Answer answer) {
    public HorizonAnswer {
        Require.nonNull("horizon", horizon);
        Require.nonNull("answer", answer);
        noisyTotals = Require.nonNull("noisyTotals", noisyTotals).clone();
    }

    @Override
    public long[] noisyTotals() {
        return noisyTotals.clone();
    }
}
