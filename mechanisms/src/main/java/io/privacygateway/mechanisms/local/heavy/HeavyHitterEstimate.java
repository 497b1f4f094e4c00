package io.privacygateway.mechanisms.local.heavy;

import io.privacygateway.mechanisms.param.Epsilon;
import java.util.List;

/**
 * The heavy hitters of one window ({@link HeavyHitterEstimator#estimate}).
 *
 * @param items the reported items, sorted by estimated share, largest first (ties by value)
 * @param thresholdShare the detection floor: the largest of the levels' thresholds. Every reported item's
 *     prefixes cleared their level's threshold, and a prefix's share is at least its item's, so an item whose
 *     share is well below this value is found only by chance (see {@code docs/heavy-hitters.md}); {@code 1}
 *     when some level received no report (then nothing is reported)
 * @param n the number of reports of the window
 * @param epsilon the per-report ε
 */
public record HeavyHitterEstimate(List<Item> items, double thresholdShare, long n, Epsilon epsilon) {
    public HeavyHitterEstimate {
        items = List.copyOf(items);
    }

    /**
     * One reported item.
     *
     * @param value the item
     * @param share the estimated share of the population holding it (unbiased over the randomizer, the split of
     *     reports over levels and rows, and a random hash key; may be read as a fraction of {@code n})
     * @param standardError an approximate 1-σ standard error of {@code share}: the randomizer's exact variance,
     *     the sampling of reports over levels, and an upper estimate of the hash-collision term (a normal
     *     approximation; a ±2σ bar covers about 95%)
     */
    public record Item(String value, double share, double standardError) {}
}
