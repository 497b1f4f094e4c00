package io.privacygateway.app.dashboard;

import java.util.List;

/**
 * Where the dashboard finds the true values of an answer, when something knows them (the demo's simulator does; a
 * production gateway does not and passes {@code null}). The values are looked up by the answer's own labels, so an
 * answer whose labels are data (heavy hitters: the strings found) gets the true share of each string it names, and a
 * string the devices never sent gets 0.
 */
@FunctionalInterface
public interface TruthSource {

    /**
     * The true mean answers of one window, aligned with {@code labels}.
     *
     * @param workloadId the workload
     * @param windowStart the window's start, epoch milliseconds
     * @param labels the published answer's labels, in order
     * @return one true value per label, or {@code null} when the window's truth is not known
     */
    double[] trueAnswers(String workloadId, long windowStart, List<String> labels);
}
