package io.privacygateway.app.answers;

import io.privacygateway.schemas.avro.AmplifiedGuarantee;
import io.privacygateway.schemas.avro.AnswerItem;
import io.privacygateway.schemas.avro.PrivacyCostRecord;
import io.privacygateway.schemas.avro.WindowAnswer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One row of the answers API: one coordinate (label) of one published answer, with everything needed to read it on
 * its own: which workload, version, horizon and window; the estimate and its error bar at the confidence level; the
 * answer's n, ε, δ and mechanism; and the guarantee (the answer's cost and, for local answers where published, the
 * amplified central guarantee), as fields and as one sentence. Nothing is to be zipped with another array.
 *
 * <p>An answer without coordinates (a local window without reports: n = 0) is one row with {@code index}, {@code
 * label}, {@code estimate}, {@code lower}, {@code upper} null, so an analyst sees the window was answered. Numbers
 * that are not finite (NaN error bounds of such windows) are null. Values are copied from the published record only:
 * the API publishes nothing the answers topic does not.
 *
 * <p>The field order here is the column order of CSV and the property order of JSON ({@link #COLUMNS}).
 */
public record AnswerRow(String workload, int version, String contentHash, String mode, String family, String horizon,
        Instant windowStart, Instant windowEnd, Integer index, String label, Double estimate, Double lower,
        Double upper, Double standardError, double confidence, long n, Double epsilon, Double delta,
        String mechanism, boolean fallback, String guarantee, String guaranteeKind, Double guaranteeEpsilon,
        Double guaranteeDelta, Double guaranteeRho, Double amplifiedEpsilon, Double amplifiedDelta,
        String amplifiedMethod, String amplifiedCrowd, Long amplifiedCrowdReports, Double cumulativeEpsilon,
        Double expectedRmsError, Double rmsErrorBoundAtConfidence, Double maxErrorBound) {

    /** The column names, in order (CSV header, JSON property order). */
    public static final List<String> COLUMNS = List.of("workload", "version", "contentHash", "mode", "family",
            "horizon", "windowStart", "windowEnd", "index", "label", "estimate", "lower", "upper", "standardError",
            "confidence", "n", "epsilon", "delta", "mechanism", "fallback", "guarantee", "guaranteeKind",
            "guaranteeEpsilon", "guaranteeDelta", "guaranteeRho", "amplifiedEpsilon", "amplifiedDelta",
            "amplifiedMethod", "amplifiedCrowd", "amplifiedCrowdReports", "cumulativeEpsilon", "expectedRmsError",
            "rmsErrorBoundAtConfidence", "maxErrorBound");

    /** The values in {@link #COLUMNS} order (nulls where absent). */
    public List<Object> values() {
        List<Object> v = new ArrayList<>(COLUMNS.size());
        v.add(workload);
        v.add(version);
        v.add(contentHash);
        v.add(mode);
        v.add(family);
        v.add(horizon);
        v.add(windowStart.toString());
        v.add(windowEnd.toString());
        v.add(index);
        v.add(label);
        v.add(estimate);
        v.add(lower);
        v.add(upper);
        v.add(standardError);
        v.add(confidence);
        v.add(n);
        v.add(epsilon);
        v.add(delta);
        v.add(mechanism);
        v.add(fallback);
        v.add(guarantee);
        v.add(guaranteeKind);
        v.add(guaranteeEpsilon);
        v.add(guaranteeDelta);
        v.add(guaranteeRho);
        v.add(amplifiedEpsilon);
        v.add(amplifiedDelta);
        v.add(amplifiedMethod);
        v.add(amplifiedCrowd);
        v.add(amplifiedCrowdReports);
        v.add(cumulativeEpsilon);
        v.add(expectedRmsError);
        v.add(rmsErrorBoundAtConfidence);
        v.add(maxErrorBound);
        return v;
    }

    /** The number of rows {@link #of} makes of an answer (at least 1). */
    public static int count(WindowAnswer a) {
        int labels = a.getLabels().size();
        if (labels > 0) {
            return labels;
        }
        return a.getItems() == null || a.getItems().isEmpty() ? 1 : a.getItems().size();
    }

    /**
     * Row {@code i} of an answer, {@code 0 <= i < count(a)}: coordinate i of the labels (with its standard error
     * where published), or item i of a variable set (heavy hitters) when there are no labels, or the one row of an
     * answer without either.
     */
    public static AnswerRow of(WindowAnswer a, int i) {
        Integer index = null;
        String label = null;
        Double est = null;
        Double lo = null;
        Double hi = null;
        Double se = null;
        if (!a.getLabels().isEmpty()) {
            index = i;
            label = a.getLabels().get(i);
            est = finite(at(a.getEstimates(), i));
            lo = finite(at(a.getLower(), i));
            hi = finite(at(a.getUpper(), i));
            se = finite(at(a.getStandardErrors(), i));
        } else if (a.getItems() != null && !a.getItems().isEmpty()) {
            AnswerItem item = a.getItems().get(i);
            index = i;
            label = item.getLabel();
            est = finite(item.getEstimate());
            lo = finite(item.getLower());
            hi = finite(item.getUpper());
        } else if (i != 0) {
            throw new IndexOutOfBoundsException(i);
        }
        PrivacyCostRecord cost = a.getCost();
        String kind = cost == null ? "pure" : cost.getKind();
        Double gEps = finite(cost == null ? a.getEpsilon() : cost.getEpsilon());
        Double gDelta = finite(cost == null ? a.getDelta() : cost.getDelta());
        Double gRho = cost == null ? null : finite(cost.getRho());
        AmplifiedGuarantee amp = a.getAmplified();
        return new AnswerRow(a.getWorkloadId(), a.getWorkloadVersion(), a.getContentHash(), a.getMode(), a.getFamily(),
                a.getHorizon(), a.getWindowStart(), a.getWindowEnd(), index, label, est, lo, hi, se, a.getConfidence(),
                a.getN(), finite(a.getEpsilon()), finite(a.getDelta()), a.getMechanism(), a.getFallback(),
                guaranteeText(a, kind, gEps, gDelta, gRho), kind, gEps, gDelta, gRho,
                amp == null ? null : finite(amp.getEpsilon()), amp == null ? null : finite(amp.getDelta()),
                amp == null ? null : amp.getMethod(), amp == null ? null : amp.getCrowd(),
                amp == null ? null : amp.getCrowdReports(), finite(a.getCumulativeEpsilon()),
                finite(a.getExpectedRmsError()), finite(a.getRmsErrorBoundAtConfidence()), finite(a.getMaxErrorBound()));
    }

    /**
     * The guarantee as one sentence, from the record's fields only: e.g. "0.5-DP (pure, δ = 0) per report, randomized
     * on the device; against observers of the answers only: (0.081, 1.0E-9)-DP by
     * &lt;method&gt; over 1000 reports (enrolled-devices)".
     */
    static String guaranteeText(WindowAnswer a, String kind, Double eps, Double delta, Double rho) {
        StringBuilder b = new StringBuilder();
        if ("zcdp".equals(kind)) {
            b.append(num(rho)).append("-zCDP");
        } else {
            b.append(num(eps)).append("-DP (pure, δ = ").append(num(delta)).append(')');
        }
        if ("local".equals(a.getMode())) {
            b.append(" per report, randomized on the device");
        } else {
            b.append(" per release, noise added by the gateway");
            if (a.getFallback()) {
                b.append(" (data-independent fallback answer)");
            }
        }
        AmplifiedGuarantee amp = a.getAmplified();
        if (amp != null) {
            b.append("; against observers of the answers only: (").append(num(finite(amp.getEpsilon()))).append(", ")
                    .append(num(finite(amp.getDelta()))).append(")-DP by ").append(amp.getMethod()).append(" over ")
                    .append(amp.getCrowdReports()).append(" reports (").append(amp.getCrowd()).append(')');
        }
        return b.toString();
    }

    private static String num(Double v) {
        if (v == null) {
            return "?";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString(v.longValue());
        }
        return String.format(Locale.ROOT, "%.6g", v).replaceAll("(\\.\\d*?)0+(e|$)", "$1$2").replace(".e", "e")
                .replaceAll("\\.$", "");
    }

    private static Double at(List<Double> l, int i) {
        return l != null && i < l.size() ? l.get(i) : null;
    }

    private static Double finite(Double v) {
        return v == null || !Double.isFinite(v) ? null : v;
    }
}
