package io.privacygateway.app.dashboard;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;

/**
 * One published window answer as the dashboard keeps it, read defensively from an answers-topic record
 * ({@code WindowAnswer}): every field is looked up by name in the record's own schema, so a field that a
 * later schema version adds, drops or leaves {@code null} never breaks the dashboard. Missing numbers are
 * {@code NaN}; the per-label lists are padded with {@code NaN} (or truncated) to the number of labels.
 *
 * @param workloadId the workload answered (never blank)
 * @param version the workload version (0 if absent)
 * @param contentHash the resolved spec's content hash ("" if absent)
 * @param mode "local" or "central" ("" if absent)
 * @param mechanism the mechanism's wire name ("" if absent)
 * @param chart how the page draws the labels (from an optional {@code family} field, else from the labels)
 * @param windowStart inclusive window start, epoch milliseconds
 * @param windowEnd exclusive window end, epoch milliseconds ({@code > windowStart})
 * @param n reports (local) or contributions (central) in the window, -1 if absent
 * @param epsilon ε of this answer (per report locally, per release centrally)
 * @param delta δ of this answer
 * @param confidence confidence level of the error bars
 * @param cumulativeEpsilon central mode: ε released so far on the workload, this answer included
 * @param labels one name per answer coordinate
 * @param estimates the published estimates, one per label
 * @param lower lower ends of the error bars, one per label
 * @param upper upper ends of the error bars, one per label
 * @param standardErrors standard errors, one per label
 * @param receivedAt when the dashboard received the answer (epoch milliseconds, from its injected clock)
 * @param items the labels of the answer's items (a mode release's label), empty when none
 * @param scalars the answer's named scalars (window analytics), empty when none
 * @param horizon for an answer over a longer horizon (a rollup or running total, e.g. {@code PT1H}), its name;
 *     {@code ""} for a single window
 * @param amplifiedEpsilon local mode: the amplified central ε of the answer against someone who sees only the answers
 *     (amplification by shuffling), NaN when the answer has none
 * @param amplifiedDelta the δ of that amplified guarantee, NaN when none
 */
public record WindowView(String workloadId, int version, String contentHash, String mode, String mechanism,
        Chart chart, long windowStart, long windowEnd, long n, double epsilon, double delta, double confidence,
        double cumulativeEpsilon, List<String> labels, double[] estimates, double[] lower, double[] upper,
        double[] standardErrors, long receivedAt, List<String> items, Map<String, Double> scalars,
        String horizon, double amplifiedEpsilon, double amplifiedDelta) {

    /** How the page draws a workload's latest window. */
    public enum Chart {
        /** Cumulative distribution: a curve over the thresholds with its band. */
        CDF,
        /** Marginal tables: one small chart per attribute subset. */
        MARGINALS,
        /** Range queries: the one-bucket ranges as bars, any range selectable over time. */
        RANGES,
        /** Anything else (histograms, point queries): bars with error whiskers. */
        BARS,
        /** A mode release: the released label, or none, with what can be said about it. */
        MODE,
        /** Fitted coefficients (regression, erm): signed bars with their approximate error bars. */
        COEFFICIENTS,
        /** The mean of a bounded scalar (family mean): the number on its range with its error bar. */
        MEAN,
        /**
         * The mean of a bounded vector (family mean over a ball or a box): one bar per coordinate with its error bar,
         * like a histogram, on the domain's per-coordinate bounds.
         */
        VECTOR_MEAN,
        /**
         * Heavy hitters (family heavy-hitters): the strings found in the window as a ranked bar list, each share with
         * its error bar, and the threshold share below which strings are found only by chance.
         */
        HEAVY_HITTERS;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    private static final Pattern CDF_LABEL = Pattern.compile("< \\S.*");
    private static final Pattern MARGINAL_LABEL = Pattern.compile("[^=,]+=[01](,[^=,]+=[01])*");
    private static final Pattern INTERVAL_LABEL = Pattern.compile("\\[([^,\\[\\]]+), ([^,\\[\\]]+)[)\\]]");

    public WindowView {
        labels = List.copyOf(labels);
        items = items == null ? List.of() : List.copyOf(items);
        scalars = scalars == null ? Map.of() : Map.copyOf(scalars);
        estimates = estimates.clone();
        lower = lower.clone();
        upper = upper.clone();
        standardErrors = standardErrors.clone();
        horizon = horizon == null ? "" : horizon;
        int m = labels.size();
        if (workloadId == null || workloadId.isBlank() || windowEnd <= windowStart || estimates.length != m
                || lower.length != m || upper.length != m || standardErrors.length != m) {
            throw new IllegalArgumentException("inconsistent window view of " + workloadId);
        }
    }

    /** The estimates (a copy). */
    @Override
    public double[] estimates() {
        return estimates.clone();
    }

    /** The lower ends of the error bars (a copy). */
    @Override
    public double[] lower() {
        return lower.clone();
    }

    /** The upper ends of the error bars (a copy). */
    @Override
    public double[] upper() {
        return upper.clone();
    }

    /** The standard errors (a copy). */
    @Override
    public double[] standardErrors() {
        return standardErrors.clone();
    }

    /**
     * This view, sharing {@code other}'s label list when the labels are equal (consecutive windows of a
     * workload have the same labels: the history keeps them once).
     */
    WindowView sharingLabelsOf(WindowView other) {
        if (other == null || other.labels == labels || !other.labels.equals(labels)) {
            return this;
        }
        return new WindowView(workloadId, version, contentHash, mode, mechanism, chart, windowStart, windowEnd, n,
                epsilon, delta, confidence, cumulativeEpsilon, other.labels, estimates, lower, upper, standardErrors,
                receivedAt, items, scalars, horizon, amplifiedEpsilon, amplifiedDelta);
    }

    /**
     * The series this answer belongs to: the workload id for window answers, {@code "<id> · <horizon>"} for
     * answers over a longer horizon (each horizon is its own series, so a rollup never replaces a window).
     */
    public String series() {
        return horizon.isEmpty() ? workloadId : workloadId + " · " + horizon;
    }

    /** The window length in milliseconds (positive). */
    public long windowMillis() {
        return windowEnd - windowStart;
    }

    /**
     * Reads an answers-topic record; empty if it lacks what every chart needs (a workload id and a window
     * with {@code end > start}).
     */
    public static Optional<WindowView> of(IndexedRecord r, long receivedAt) {
        if (r == null) {
            return Optional.empty();
        }
        String id = text(r, "workloadId", null);
        Long start = millis(r, "windowStart");
        Long end = millis(r, "windowEnd");
        if (id == null || id.isBlank() || start == null || end == null || end <= start) {
            return Optional.empty();
        }
        List<String> labels = new ArrayList<>();
        if (field(r, "labels") instanceof Collection<?> c) {
            for (Object o : c) {
                labels.add(o == null ? "" : o.toString());
            }
        }
        int m = labels.size();
        return Optional.of(new WindowView(id, (int) number(r, "workloadVersion", 0), text(r, "contentHash", ""),
                text(r, "mode", ""), text(r, "mechanism", ""), chart(text(r, "family", null), labels, scalars(r)), start, end,
                (long) number(r, "n", -1), number(r, "epsilon", Double.NaN), number(r, "delta", Double.NaN),
                number(r, "confidence", Double.NaN), number(r, "cumulativeEpsilon", Double.NaN), labels,
                doubles(r, "estimates", m), doubles(r, "lower", m), doubles(r, "upper", m),
                doubles(r, "standardErrors", m), receivedAt, itemLabels(r), scalars(r), text(r, "horizon", ""),
                amplified(r, "epsilon"), amplified(r, "delta")));
    }

    /** A field of the answer's {@code amplified} guarantee, NaN when the answer has none. */
    private static double amplified(IndexedRecord r, String name) {
        return field(r, "amplified") instanceof IndexedRecord a ? number(a, name, Double.NaN) : Double.NaN;
    }

    /**
     * The chart for a workload: from its query family when the record names one, else recognised from the
     * labels the release code writes ({@code "< t"} thresholds of a CDF; {@code "a=0,b=1"} marginal cells;
     * {@code "[a, b)"} intervals, which are a range family unless they are exactly consecutive buckets).
     */
    static Chart chart(String family, List<String> labels, Map<String, Double> scalars) {
        // a vector mean (ball or box) publishes its dimension among its named scalars; a scalar mean does not
        return "mean".equalsIgnoreCase(family) && scalars.containsKey("dimension") ? Chart.VECTOR_MEAN
                : chart(family, labels);
    }

    static Chart chart(String family, List<String> labels) {
        if (family != null) {
            switch (family.toLowerCase(Locale.ROOT)) {
                case "cdf":
                    return Chart.CDF;
                case "marginals":
                    return Chart.MARGINALS;
                case "range":
                    return Chart.RANGES;
                case "histogram":
                case "points":
                    return Chart.BARS;
                case "mode":
                    return Chart.MODE;
                case "regression":
                case "erm":
                    return Chart.COEFFICIENTS;
                case "mean":
                    return Chart.MEAN;
                case "heavy-hitters":
                    return Chart.HEAVY_HITTERS;
                default:
                    break;
            }
        }
        if (labels.isEmpty()) {
            return Chart.BARS;
        }
        if (labels.stream().allMatch(l -> CDF_LABEL.matcher(l).matches())) {
            return Chart.CDF;
        }
        if (labels.stream().allMatch(l -> MARGINAL_LABEL.matcher(l).matches())) {
            return Chart.MARGINALS;
        }
        if (labels.stream().allMatch(l -> INTERVAL_LABEL.matcher(l).matches())) {
            String previousEnd = null;
            for (String l : labels) {
                var g = INTERVAL_LABEL.matcher(l);
                g.matches();
                if (previousEnd != null && !previousEnd.equals(g.group(1))) {
                    return Chart.RANGES;
                }
                previousEnd = g.group(2);
            }
            return Chart.BARS; // consecutive buckets: a histogram over buckets
        }
        return Chart.BARS;
    }

    /** The labels of an optional {@code items} array of records with a {@code label}. */
    private static List<String> itemLabels(IndexedRecord r) {
        List<String> out = new ArrayList<>();
        if (field(r, "items") instanceof Collection<?> c) {
            for (Object o : c) {
                if (o instanceof IndexedRecord item && text(item, "label", null) != null) {
                    out.add(text(item, "label", ""));
                }
            }
        }
        return out;
    }

    /** An optional {@code scalars} map of finite numbers. */
    private static Map<String, Double> scalars(IndexedRecord r) {
        Map<String, Double> out = new TreeMap<>();
        if (field(r, "scalars") instanceof Map<?, ?> m) {
            m.forEach((k, v) -> {
                if (k != null && v instanceof Number n && Double.isFinite(n.doubleValue())) {
                    out.put(k.toString(), n.doubleValue());
                }
            });
        }
        return out;
    }

    private static Object field(IndexedRecord r, String name) {
        Schema.Field f = r.getSchema().getField(name);
        return f == null ? null : r.get(f.pos());
    }

    private static String text(IndexedRecord r, String name, String absent) {
        Object v = field(r, name);
        return v == null ? absent : v.toString();
    }

    private static double number(IndexedRecord r, String name, double absent) {
        return field(r, name) instanceof Number n ? n.doubleValue() : absent;
    }

    private static Long millis(IndexedRecord r, String name) {
        Object v = field(r, name);
        if (v instanceof Instant i) {
            return i.toEpochMilli();
        }
        return v instanceof Number n ? n.longValue() : null;
    }

    private static double[] doubles(IndexedRecord r, String name, int m) {
        double[] out = new double[m];
        Arrays.fill(out, Double.NaN);
        if (field(r, name) instanceof Collection<?> c) {
            int q = 0;
            for (Object o : c) {
                if (q == m) {
                    break;
                }
                out[q++] = o instanceof Number n ? n.doubleValue() : Double.NaN;
            }
        }
        return out;
    }
}
