package io.privacygateway.mechanisms.continual;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.workload.Horizon;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
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
 *     every node's noise has scale {@code (h + 1)·Δ₁/ε}; choose {@code 2^h} at least the longest span in windows
 *     ({@link #depthFor}). Since-activation totals beyond {@code 2^h} windows add one node per further tree.
 * @param horizons the running totals to answer (the workload's {@code window.horizons}): epoch-aligned
 *     {@link Horizon.Span}s and {@link Horizon.SinceActivation}; distinct, at least one
 */
public record ContinualSettings(Epsilon epsilonPerWindow, int depth, List<Horizon> horizons) {
    /** Largest tree depth. */
    public static final int MAX_DEPTH = 40;
    /** Most horizons per counter. */
    public static final int MAX_HORIZONS = 16;
    /** The span a tree covers when the only horizon is since-activation: a year of windows. */
    public static final Duration SINCE_ACTIVATION_SPAN = Duration.ofDays(366);

    public ContinualSettings {
        Require.nonNull("epsilonPerWindow", epsilonPerWindow);
        Require.inRange("depth", depth, 0, MAX_DEPTH);
        horizons = List.copyOf(Require.nonNull("horizons", horizons));
        Require.inRange("horizons.size", horizons.size(), 1, MAX_HORIZONS);
        Set<String> labels = new HashSet<>();
        for (Horizon h : horizons) {
            if (!labels.add(h.wireName())) {
                throw new IllegalArgumentException("horizons must be distinct, got " + h.wireName() + " twice");
            }
        }
    }

    /**
     * The settings for a central-mode workload's declared horizons ({@code window.horizons}), with the depth that
     * covers its longest span ({@link #SINCE_ACTIVATION_SPAN} when it declares since-activation only).
     *
     * @param epsilonPerWindow the ε the running totals cost per contributing window
     */
    public static ContinualSettings forWorkload(Workload workload, Epsilon epsilonPerWindow) {
        WorkloadSpec.Window window = Require.nonNull("workload", workload).spec().window();
        if (window.horizons().isEmpty()) {
            throw new IllegalArgumentException("window.horizons: the workload declares no horizon to keep a running"
                    + " total over");
        }
        Duration longest = SINCE_ACTIVATION_SPAN;
        boolean anySpan = false;
        for (Horizon h : window.horizons()) {
            if (h instanceof Horizon.Span s) {
                longest = anySpan && longest.compareTo(s.size()) >= 0 ? longest : s.size();
                anySpan = true;
            }
        }
        return new ContinualSettings(epsilonPerWindow, depthFor(window.size(), longest), window.horizons());
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

    /**
     * The period a window starting at {@code windowStart} (epoch milliseconds) belongs to: {@code ⌊start/span⌋} for a
     * span, 0 for since-activation. A horizon's running total restarts when this changes.
     */
    public static long periodOf(Horizon horizon, long windowStart) {
        return horizon instanceof Horizon.Span s ? Math.floorDiv(windowStart, s.millis()) : 0;
    }

    /** Checks that every window falls into one period: every span is a whole number of windows. */
    static void checkAgainst(Horizon horizon, Duration windowSize) {
        if (horizon instanceof Horizon.Span s && s.millis() % windowSize.toMillis() != 0) {
            throw new IllegalArgumentException("horizon " + horizon.wireName() + " must be a whole number of windows of "
                    + windowSize);
        }
    }
}
