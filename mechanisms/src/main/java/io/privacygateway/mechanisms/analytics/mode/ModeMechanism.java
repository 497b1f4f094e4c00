package io.privacygateway.mechanisms.analytics.mode;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.analytics.WindowMechanism;
import io.privacygateway.mechanisms.analytics.WindowStatistics;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A mode release: the label a window's devices sent most often. The answer has one coordinate per label: 1 for
 * the released label, 0 elsewhere (all 0 when none was released); its bars are the trivial [0, 1] and its RMS
 * bounds the trivial {@code √(2/k)}, because a pure-DP release of a single label carries no per-window error bar;
 * what can honestly be said is in the extras: the released label as an item, and scalars stating the public
 * conditions under which it is the true mode with a given probability (see each implementation).
 */
public sealed interface ModeMechanism extends WindowMechanism permits ExponentialMode, PurifiedMode {

    /**
     * The probability that a window with these counts is answered with a label of the largest count (exact for
     * the exponential mechanism, a lower bound for the purified test), for planning on public data.
     */
    double probabilityCorrect(long[] counts);

    /** The smallest gap between the two largest counts at which the true mode is released with the confidence. */
    long gapForConfidence();

    /** The labels' count sensitivity step u: how far one neighbour step can move a difference of two counts. */
    static long differenceStep(boolean addRemove, int contributions) {
        return addRemove ? contributions : 2L * contributions;
    }

    /** The answer publishing {@code released} (−1: none) with the extras. */
    static Answer answer(Workload w, MechanismId id, PrivacyCost.Pure cost, long published, int released,
            Map<String, Double> scalars, double confidence, List<Answer.LevelDetail> levels) {
        List<String> labels = ((Domain.Labels) w.spec().domain()).labels();
        int k = labels.size();
        double[] est = new double[k];
        double[] lower = new double[k];
        double[] upper = new double[k];
        Arrays.fill(upper, 1);
        if (released >= 0) {
            est[released] = 1;
        }
        double trivial = Math.sqrt(2.0 / k);
        List<Answer.Item> items = released >= 0 ? List.of(new Answer.Item(labels.get(released), 1, 0, 1)) : List.of();
        return new Answer(id, cost, published, labels, est, Optional.empty(), Optional.empty(), lower, upper,
                confidence, trivial, trivial, levels, w.contentHash(),
                new Answer.Extras(items, scalars, OptionalDouble.empty()));
    }

    /**
     * {@code g(D) = min_{b ≠ a} (c_a − c_b + [a < b]) − 1 >= 0} for the mode a (ties to the first label): how many
     * units the mode beats every other label by, beyond the tie-break. A neighbour step moves every difference
     * {@code c_a − c_b} by at most {@link #differenceStep}.
     */
    static long margin(long[] counts) {
        int a = WindowStatistics.mode(counts);
        long best = Long.MAX_VALUE;
        for (int b = 0; b < counts.length; b++) {
            if (b != a) {
                best = Math.min(best, counts[a] - counts[b] + (a < b ? 1 : 0));
            }
        }
        return best - 1;
    }
}
