package io.privacygateway.mechanisms.continual;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The public parameters of a continual release.
 *
 * @param epsilonPerWindow the pure ε the whole stream of running totals costs each window's contributions (charged
 *     once per window in which a device contributes, whatever the number of horizons and answers)
 * @param depth the tree depth h: a tree covers {@code 2^h} windows and each window lies in {@code h + 1} nodes, so
 *     every node's noise has scale {@code (h + 1)·Δ₁/ε}; choose {@code 2^h} at least the longest periodic horizon in
 *     windows ({@link #depthFor}). Since-activation totals beyond {@code 2^h} windows add one node per further tree.
 * @param horizons the running totals to answer, distinct labels, at least one
 */
public record ContinualSettings(Epsilon epsilonPerWindow, int depth, List<Horizon> horizons) {
    /** Largest tree depth. */
    public static final int MAX_DEPTH = 40;
    /** Most horizons per counter. */
    public static final int MAX_HORIZONS = 16;

    public ContinualSettings {
        Require.nonNull("epsilonPerWindow", epsilonPerWindow);
        Require.inRange("depth", depth, 0, MAX_DEPTH);
        horizons = List.copyOf(Require.nonNull("horizons", horizons));
        Require.inRange("horizons.size", horizons.size(), 1, MAX_HORIZONS);
        Set<String> labels = new HashSet<>();
        for (Horizon h : horizons) {
            if (!labels.add(h.label())) {
                throw new IllegalArgumentException("horizons must have distinct labels, got " + h.label() + " twice");
            }
        }
    }

    /** The number of nodes every window lies in: {@code h + 1}. */
    public int levels() {
        return depth + 1;
    }

    /** The smallest depth whose trees cover {@code span} in windows of {@code window}: {@code ⌈log₂(span/window)⌉}. */
    public static int depthFor(Duration window, Duration span) {
        long w = Require.nonNull("window", window).toMillis();
        long s = Require.nonNull("span", span).toMillis();
        if (w <= 0 || s <= 0) {
            throw new IllegalArgumentException("window and span must be positive, got " + window + " and " + span);
        }
        long windows = Math.max(1, (s + w - 1) / w);
        int h = 64 - Long.numberOfLeadingZeros(windows - 1);
        return Math.min(h, MAX_DEPTH);
    }
}
