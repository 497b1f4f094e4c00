package io.privacygateway.simulator;

import java.util.List;

/**
 * The true values a simulator sent in valid reports to one window of one workload version: what a perfect,
 * non-private gateway would publish, for comparison with the released estimate.
 *
 * @param workloadId the workload id
 * @param contentHash the workload version's content hash (as in the answer record)
 * @param windowStart window start, epoch milliseconds (inclusive)
 * @param windowEnd window end, epoch milliseconds (exclusive)
 * @param counts per universe value, how many valid reports carried it
 * @param meanAnswer the true answer vector ({@code Workload.trueAnswer}): {@code (1/n) Σ Q(x_i)}, or for the
 *     window-analytics families the exact statistic (mode indicator, least-squares θ, fitted model), one value per
 *     query label
 * @param labels the query labels, in answer order (as in the answer record)
 */
public record WindowTruth(String workloadId, String contentHash, long windowStart, long windowEnd, long[] counts,
        double[] meanAnswer, List<String> labels) {

    public WindowTruth {
        counts = counts.clone();
        meanAnswer = meanAnswer.clone();
        labels = List.copyOf(labels);
    }

    /** The number of valid reports sent to the window. */
    public long n() {
        long n = 0;
        for (long c : counts) {
            n += c;
        }
        return n;
    }

    @Override
    public long[] counts() {
        return counts.clone();
    }

    @Override
    public double[] meanAnswer() {
        return meanAnswer.clone();
    }
}
