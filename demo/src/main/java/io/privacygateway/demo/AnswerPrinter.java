package io.privacygateway.demo;

import io.privacygateway.simulator.WindowTruth;
import io.privacygateway.schemas.avro.WindowAnswer;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * Formats a published answer for a terminal: the window, mechanism and privacy cost, one row per query
 * (estimate, the published interval, and the true value when the simulator knows it), then how far the
 * answer is from the truth and how many true values lie inside the published intervals. Long answers show
 * their first rows only; the summary line covers every row.
 */
public final class AnswerPrinter {
    private final int maxRows;
    private final DateTimeFormatter time;

    /**
     * @param maxRows how many query rows to print per answer (the summary covers all of them)
     * @param zone the zone window bounds are printed in
     */
    public AnswerPrinter(int maxRows, ZoneId zone) {
        if (maxRows < 0) {
            throw new IllegalArgumentException("maxRows must be >= 0, got " + maxRows);
        }
        this.maxRows = maxRows;
        this.time = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT).withZone(zone);
    }

    /** How an answer compares with the truth. */
    public record Comparison(int rows, int inside, double rmsError) {}

    /** Compares an answer with the true answer vector (null if the lengths differ). */
    public static Comparison compare(WindowAnswer a, double[] truth) {
        int m = a.getEstimates().size();
        if (truth == null || truth.length != m) {
            return null;
        }
        int inside = 0;
        double sq = 0;
        for (int q = 0; q < m; q++) {
            double t = truth[q];
            if (a.getLower().get(q) <= t && t <= a.getUpper().get(q)) {
                inside++;
            }
            double d = a.getEstimates().get(q) - t;
            sq += d * d;
        }
        return new Comparison(m, inside, Math.sqrt(sq / Math.max(1, m)));
    }

    private static String rollupKind(WindowAnswer a) {
        return "central".equals(a.getMode()) ? "running total" : "rollup of its windows, no extra ε";
    }

    /** The text block of one answer ({@code truth} may be null). */
    public String format(WindowAnswer a, WindowTruth truth) {
        StringBuilder b = new StringBuilder();
        boolean central = "central".equals(a.getMode());
        b.append(String.format(Locale.ROOT, "── %s v%d · %s %s–%s · %s %s · ε = %s %s, δ = %s",
                a.getWorkloadId(), a.getWorkloadVersion(),
                a.getHorizon() == null ? "window" : "horizon " + a.getHorizon() + " (" + rollupKind(a) + ")",
                time.format(a.getWindowStart()),
                time.format(a.getWindowEnd()), a.getMode(), a.getMechanism(), number(a.getEpsilon()),
                central ? "this release" : "per report", number(a.getDelta())));
        if (central) {
            b.append(String.format(Locale.ROOT, " · ε spent on this workload so far %s",
                    number(a.getCumulativeEpsilon())));
        }
        b.append('\n');
        if (a.getAmplified() != null) {
            b.append(String.format(Locale.ROOT, "   amplified central guarantee (ε, δ) = (%s, %s) against readers of the"
                    + " answers only (amplification by shuffling, %s; crowd: %,d reports, %s)%n",
                    number(a.getAmplified().getEpsilon()), number(a.getAmplified().getDelta()),
                    a.getAmplified().getMethod(), a.getAmplified().getCrowdReports(), a.getAmplified().getCrowd()));
        }
        String noisyCount = central && truth != null && a.getN() != truth.n()
                ? "; in central mode the published count is itself a noisy, private release" : "";
        b.append(String.format(Locale.ROOT, "   n = %,d reports%s%n", a.getN(),
                truth == null ? "" : String.format(Locale.ROOT, " (the simulator sent %,d valid ones%s)", truth.n(),
                        noisyCount)));
        if (a.getEstimates().isEmpty()) {
            b.append("   no reports in this window: nothing to estimate\n");
            return b.toString();
        }
        List<String> labels = a.getLabels();
        double[] t = truth == null ? null : truth.meanAnswerFor(labels);
        int width = Math.min(28, Math.max(8, labels.stream().limit(maxRows).mapToInt(String::length).max().orElse(8)));
        String conf = String.format(Locale.ROOT, "%s%% interval", number(100 * a.getConfidence()));
        b.append(String.format(Locale.ROOT, "   %-" + width + "s  %9s  %-20s%s%n", "query", "estimate", conf,
                t == null ? "" : "      true"));
        int shown = Math.min(maxRows, Math.min(labels.size(), a.getEstimates().size()));
        for (int q = 0; q < shown; q++) {
            String interval = String.format(Locale.ROOT, "[%.4f, %.4f]", a.getLower().get(q), a.getUpper().get(q));
            b.append(String.format(Locale.ROOT, "   %-" + width + "s  %9.4f  %-20s", clip(labels.get(q), width),
                    a.getEstimates().get(q), interval));
            if (t != null && q < t.length) {
                b.append(String.format(Locale.ROOT, "  %8.4f", t[q]));
            }
            b.append('\n');
        }
        if (shown < labels.size()) {
            b.append(String.format(Locale.ROOT, "   … %d more queries%n", labels.size() - shown));
        }
        if (a.getItems() != null && !a.getItems().isEmpty()) { // window analytics: the released label(s)
            b.append(String.format(Locale.ROOT, "   released: %s%s%n", a.getItems().get(0).getLabel(),
                    t == null ? "" : "  (true mode: " + labels.get(argmax(t)) + ")"));
        }
        if (a.getScalars() != null && !a.getScalars().isEmpty()) {
            StringBuilder sc = new StringBuilder();
            for (String k : List.of("stable", "gapForConfidence", "errorEstimate", "predictedExcessRisk", "ridge",
                    "thresholdShare")) {
                Double v = a.getScalars().get(k);
                if (v != null) {
                    sc.append(sc.length() == 0 ? "" : " · ").append(k).append(' ').append(number(v));
                }
            }
            if (sc.length() > 0) {
                b.append("   ").append(sc).append('\n');
            }
        }
        Comparison c = compare(a, t);
        if (c != null) {
            b.append(String.format(Locale.ROOT,
                    "   RMS error vs truth %.4f (published expectation %.4f) · %d of %d true values inside the"
                            + " %s%% intervals%n",
                    c.rmsError(), a.getExpectedRmsError(), c.inside(), c.rows(), number(100 * a.getConfidence())));
        } else {
            b.append(String.format(Locale.ROOT, "   expected RMS error %.4f%n", a.getExpectedRmsError()));
        }
        return b.toString();
    }

    private static int argmax(double[] v) {
        int best = 0;
        for (int i = 1; i < v.length; i++) {
            if (v[i] > v[best]) {
                best = i;
            }
        }
        return best;
    }

    private static String clip(String s, int width) {
        return s.length() <= width ? s : s.substring(0, width - 1) + "…";
    }

    private static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return String.format(Locale.ROOT, "%.4g", v).replaceAll("0+$", "");
    }

    /** The time of day of an instant in this printer's zone. */
    String timeOfDay(Instant i) {
        return time.format(i);
    }
}
