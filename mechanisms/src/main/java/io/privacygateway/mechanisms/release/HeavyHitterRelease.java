package io.privacygateway.mechanisms.release;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.local.heavy.HeavyHitterEstimate;
import io.privacygateway.mechanisms.local.heavy.HeavyHitterParameters;
import io.privacygateway.mechanisms.param.ConfidenceLevel;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import org.apache.commons.statistics.distribution.NormalDistribution;

/**
 * The published answer of a heavy-hitters window (family heavy-hitters, mechanism prefix-tree-sketch): a function of
 * the protocol's {@link HeavyHitterEstimate} and public parameters only.
 *
 * <ul>
 *   <li><b>coordinates</b>: one per found item, at most {@link #maxItems} (the heaviest; the estimate sorts them by
 *       share, largest first, ties by value): the label is the item string (at most {@code maxBytes} UTF-8
 *       bytes), the estimate its share clamped into [0, 1], the unprojected value its raw share, the standard
 *       error the protocol's, and the bar {@code share ± z·se} ({@link ErrorBars#compute}: the clamp's move added,
 *       clipped to [0, 1]);</li>
 *   <li><b>named scalars</b>: {@code thresholdShare} (the detection floor: an item well below it is found only by
 *       chance), {@code itemsFound} (before the cap) and {@code itemsPublished}, and the sketch's public shape
 *       ({@code levels}, {@code rows}, {@code width}, {@code candidates}, {@code segmentBytes}, {@code maxBytes},
 *       {@code stateLongs});</li>
 *   <li><b>RMS figures</b>: {@code expectedRmsError} is {@code √(mean se²)} over the published items (a normal
 *       approximation, like the bars), {@code rmsErrorBoundAtConfidence} the Bonferroni bound
 *       {@code z_{β/(2m)}·max se} that holds for every item at once (under the same approximation), both capped at
 *       the trivial 1; 0 when nothing is published.</li>
 * </ul>
 * The set of items is itself part of the release: which strings clear the threshold is decided by the estimate
 * alone, so publishing them costs nothing beyond the reports' ε.
 */
public final class HeavyHitterRelease {
    /** The most items one answer publishes (and the record-size rule assumes). */
    public static final int MAX_PUBLISHED_ITEMS = 64;
    /** The names of the scalars an answer publishes. */
    public static final List<String> SCALARS = List.of("thresholdShare", "itemsFound", "itemsPublished", "levels",
            "rows", "width", "candidates", "segmentBytes", "maxBytes", "stateLongs");

    private static final NormalDistribution STANDARD_NORMAL = NormalDistribution.of(0, 1);

    private HeavyHitterRelease() {}

    /** The most items an answer with these parameters can publish: {@code min(T, }{@value #MAX_PUBLISHED_ITEMS}{@code )}. */
    public static int maxItems(HeavyHitterParameters params) {
        return Math.min(params.candidates(), MAX_PUBLISHED_ITEMS);
    }

    /**
     * The answer of a window.
     *
     * @param estimate the protocol's estimate of the window
     * @param params the protocol's parameters
     * @param confidence the confidence of the bars
     * @param workloadHash the workload's content hash
     */
    public static Answer answer(HeavyHitterEstimate estimate, HeavyHitterParameters params, ConfidenceLevel confidence,
            String workloadHash) {
        Require.nonNull("estimate", estimate);
        Require.nonNull("params", params);
        Require.nonNull("confidence", confidence);
        List<String> labels = new ArrayList<>();
        List<HeavyHitterEstimate.Item> kept = new ArrayList<>();
        for (HeavyHitterEstimate.Item i : estimate.items()) {
            if (kept.size() >= maxItems(params)) {
                break;
            }
            if (i.value().getBytes(StandardCharsets.UTF_8).length > params.maxBytes()) {
                continue; // never happens (the decoder's items fit), but the record-size rule relies on it
            }
            kept.add(i);
            labels.add(i.value());
        }
        int m = kept.size();
        double[] raw = new double[m];
        double[] se = new double[m];
        double maxSe = 0;
        double sumSq = 0;
        for (int q = 0; q < m; q++) {
            raw[q] = kept.get(q).share();
            se[q] = kept.get(q).standardError();
            maxSe = Math.max(maxSe, se[q]);
            sumSq += se[q] * se[q];
        }
        double[] published = ErrorBars.clampedInto(raw, 0, 1);
        ErrorBars.Bounds bars = ErrorBars.compute(published, raw, se, null, new ErrorBars.LevelNoise[0], 0, confidence);
        double expected = m == 0 ? 0 : Math.min(1, Math.sqrt(sumSq / m));
        double atConfidence = m == 0 ? 0
                : Math.min(1, STANDARD_NORMAL.inverseCumulativeProbability(1 - confidence.beta() / (2.0 * m)) * maxSe);
        Map<String, Double> scalars = new TreeMap<>();
        scalars.put("thresholdShare", estimate.thresholdShare());
        scalars.put("itemsFound", (double) estimate.items().size());
        scalars.put("itemsPublished", (double) m);
        scalars.put("levels", (double) params.levels());
        scalars.put("rows", (double) params.rows());
        scalars.put("width", (double) params.width());
        scalars.put("candidates", (double) params.candidates());
        scalars.put("segmentBytes", (double) params.segmentBytes());
        scalars.put("maxBytes", (double) params.maxBytes());
        scalars.put("stateLongs", (double) params.stateLength());
        return new Answer(MechanismId.PREFIX_TREE_SKETCH, PrivacyCost.pure(params.epsilon()), estimate.n(), labels,
                published, Optional.of(raw), Optional.of(se), bars.lower(), bars.upper(), confidence.value(), expected,
                atConfidence, List.of(), workloadHash,
                new Answer.Extras(List.of(), scalars, OptionalDouble.empty()));
    }
}
