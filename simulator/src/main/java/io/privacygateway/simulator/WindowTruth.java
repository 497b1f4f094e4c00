package io.privacygateway.simulator;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The true values a simulator sent in valid reports to one window of one workload version: what a perfect,
 * non-private gateway would publish, for comparison with the released estimate.
 *
 * @param workloadId the workload id
 * @param contentHash the workload version's content hash (as in the answer record)
 * @param windowStart window start, epoch milliseconds (inclusive)
 * @param windowEnd window end, epoch milliseconds (exclusive)
 * @param counts per universe value, how many valid reports carried it; for a wide workload (mwem,
 *     worst-case-chaining), whose {@code 2^d} values are never materialised, a single entry: the number of reports
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

    /**
     * The true value of each of {@code answerLabels}, in their order: {@link #meanAnswer()} when the labels are this
     * truth's own (every universe family); otherwise (heavy-hitters, whose answer labels are the items found in the
     * window) each label's true share, 0 for a string no valid report carried.
     */
    public double[] meanAnswerFor(List<String> answerLabels) {
        if (answerLabels.equals(labels)) {
            return meanAnswer();
        }
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < labels.size(); i++) {
            index.put(labels.get(i), i);
        }
        double[] out = new double[answerLabels.size()];
        for (int q = 0; q < out.length; q++) {
            Integer i = index.get(answerLabels.get(q));
            out[q] = i == null ? 0 : meanAnswer[i];
        }
        return out;
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

    /**
     * The truth of several consecutive windows of one workload version taken together (a longer horizon): the
     * counts added, the mean answer weighted by each window's reports; empty if {@code windows} is empty.
     */
    public static Optional<WindowTruth> combined(List<WindowTruth> windows) {
        if (windows.isEmpty()) {
            return Optional.empty();
        }
        WindowTruth first = windows.get(0);
        long[] counts = new long[first.counts.length];
        double[] mean = new double[first.meanAnswer.length];
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        long n = 0;
        for (WindowTruth w : windows) {
            long wn = w.n();
            for (int i = 0; i < counts.length; i++) {
                counts[i] += w.counts[i];
            }
            for (int q = 0; q < mean.length; q++) {
                mean[q] += wn * w.meanAnswer[q];
            }
            n += wn;
            start = Math.min(start, w.windowStart);
            end = Math.max(end, w.windowEnd);
        }
        for (int q = 0; q < mean.length; q++) {
            mean[q] = n == 0 ? Double.NaN : mean[q] / n;
        }
        return Optional.of(new WindowTruth(first.workloadId, first.contentHash, start, end, counts, mean,
                first.labels));
    }
}
