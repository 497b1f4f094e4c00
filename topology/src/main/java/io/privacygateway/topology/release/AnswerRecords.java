package io.privacygateway.topology.release;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.central.synthetic.CertifiedSyntheticRelease;
import io.privacygateway.mechanisms.central.wide.SyntheticRecords;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.runtime.ReleaseResult;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.runtime.WindowRelease;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.schemas.avro.AmplifiedGuarantee;
import io.privacygateway.schemas.avro.AnswerItem;
import io.privacygateway.schemas.avro.AnswerLevel;
import io.privacygateway.schemas.avro.PrivacyCostRecord;
import io.privacygateway.schemas.avro.SyntheticData;
import io.privacygateway.schemas.avro.WindowAnswer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Turns a {@link ReleaseResult} into the records of the answers topic ({@link WindowAnswer}) and the synthetic-data
 * topic ({@link SyntheticData}): a pure mapping, every published value computed before (the answer, its cost, the
 * amplified guarantee in {@code mechanisms}; the workload's cumulative ε by the release step's account).
 */
public final class AnswerRecords {
    private AnswerRecords() {}

    /** No ε released: the cumulative ε of local answers. */
    public static final PrivacyCost.Pure NONE = new PrivacyCost.Pure(0.0);

    /** The mechanism name of answers over a horizon released by the continual-release tree (central mode). */
    public static final String RUNNING_TOTAL_MECHANISM = WindowRelease.RUNNING_TOTAL_MECHANISM;

    /**
     * What an answer covers: a window ({@link #window}), or a horizon span (from its first window's start to the end
     * of the last window it covers).
     *
     * @param horizon the horizon's wire name, null for a window
     */
    public record Span(long start, long end, String horizon) {
        /** The window of {@code w} starting at {@code start}. */
        public static Span window(ResolvedWorkload w, long start) {
            return new Span(start, w.window().endOf(start), null);
        }
    }

    /**
     * The answer record of a release.
     *
     * @param cumulative central mode: the workload's ε released so far, this release included (rounded up);
     *     local: {@link #NONE}
     * @param releasedAt the stream time recorded as the release time (central: the window's close time, which
     *     does not depend on the data)
     */
    public static WindowAnswer toRecord(ReleaseResult r, ResolvedWorkload w, Span span, PrivacyCost.Pure cumulative,
            long releasedAt) {
        WindowAnswer.Builder b = r.answer().isPresent() ? answer(r.answer().get(), w, span.start(), releasedAt)
                : emptyLocal(w, span.start(), releasedAt);
        b.setMechanism(r.mechanism()).setCumulativeEpsilon(cumulative.epsilon())
                .setWindowEnd(Instant.ofEpochMilli(span.end())).setHorizon(span.horizon());
        if (r.fallback()) {
            b.setFallback(true);
        }
        r.amplified().ifPresent(a -> b.setAmplified(AmplifiedGuarantee.newBuilder()
                .setEpsilon(a.guarantee().epsilon()).setDelta(a.guarantee().delta()).setMethod(a.guarantee().method())
                .setCrowd(a.crowdBasis()).setCrowdReports(a.crowdReports()).build()));
        return b.build();
    }

    /** The record of an answer (tools and tests; the release step goes through {@link ReleaseResult}). */
    public static WindowAnswer toRecord(Answer a, ResolvedWorkload w, long windowStart, PrivacyCost.Pure cumulative,
            long releasedAt) {
        return answer(a, w, windowStart, releasedAt).setCumulativeEpsilon(cumulative.epsilon()).build();
    }

    private static WindowAnswer.Builder answer(Answer a, ResolvedWorkload w, long windowStart, long releasedAt) {
        List<AnswerLevel> levels = new ArrayList<>();
        for (Answer.LevelDetail l : a.levels()) {
            levels.add(AnswerLevel.newBuilder().setLevel(l.level())
                    .setEpsilon(l.cost() instanceof PrivacyCost.Pure p ? p.epsilon() : 0.0).setRadius(l.radius())
                    .setNoiseScale(l.noiseScale()).setGaussianWidth(l.gaussianWidth()).setHullSize(l.hullSize())
                    .setProjectionGap(l.projectionGap().orElse(Double.NaN))
                    .setRho(l.cost() instanceof PrivacyCost.Zcdp z ? z.rho() : 0.0)
                    .setCost(cost(l.cost()))
                    .setProjectionGapValue(l.projectionGap().isPresent() ? l.projectionGap().getAsDouble() : null)
                    .build());
        }
        List<Double> unprojected = a.unprojected().map(AnswerRecords::list).orElse(null);
        return base(w, windowStart, releasedAt)
                .setMechanism(a.mechanism().wireName())
                .setEpsilon(a.cost().epsilon())
                .setDelta(0.0) // the cost is PrivacyCost.Pure: δ = 0 by its type
                .setCost(cost(a.cost()))
                .setN(a.n())
                .setConfidence(a.confidence())
                .setLabels(a.labels())
                .setEstimates(list(a.estimates()))
                .setLower(list(a.lower()))
                .setUpper(list(a.upper()))
                .setStandardErrors(list(a.standardErrors().orElse(new double[0])))
                .setUnprojected(unprojected == null ? List.of() : unprojected)
                .setUnprojectedEstimate(unprojected)
                .setExpectedRmsError(a.expectedRmsError())
                .setRmsErrorBoundAtConfidence(a.rmsErrorBoundAtConfidence())
                .setLevels(levels)
                .setItems(a.extras().items().isEmpty() ? null : a.extras().items().stream()
                        .map(i -> AnswerItem.newBuilder().setLabel(i.label()).setEstimate(i.estimate())
                                .setLower(i.lower()).setUpper(i.upper()).build()).toList())
                .setScalars(a.extras().scalars().isEmpty() ? null : new TreeMap<String, Double>(
                        a.extras().scalars()))
                .setMaxErrorBound(a.extras().maxErrorBound().isPresent()
                        ? a.extras().maxErrorBound().getAsDouble() : null);
    }

    /**
     * The synthetic-data record of a wide window (its release's {@link ReleaseResult#synthetic()}): the released
     * records (bit j attribute j), the attribute names, and the answer's ñ, ε, confidence and published l∞ bound (the
     * records' marginals are the answer's estimates), δ = 0; for certified-synthetic also the certificate (which is the
     * answer's l∞ bound) and the query class it covers. A fallback has no records, the trivial bound 1 (certificate 1)
     * and the fallback's public cost, {@code fallback} set: every window of such a workload has exactly one.
     *
     * @param releasedAt the window's close time, as on the answer
     */
    public static SyntheticData synthetic(ReleaseResult r, ResolvedWorkload w, long windowStart, long releasedAt) {
        SyntheticRecords records = r.synthetic().orElseThrow();
        Answer a = r.answer().orElseThrow();
        boolean certified = a.mechanism() == MechanismId.CERTIFIED_SYNTHETIC;
        double bound = a.extras().maxErrorBound().orElse(1.0);
        List<Long> rows = new ArrayList<>(records.size());
        for (long x : records.records()) {
            rows.add(x);
        }
        SyntheticData.Builder b = SyntheticData.newBuilder()
                .setWorkloadId(w.id())
                .setWorkloadVersion(w.spec().version())
                .setContentHash(w.contentHash())
                .setWindowStart(Instant.ofEpochMilli(windowStart))
                .setWindowEnd(Instant.ofEpochMilli(w.window().endOf(windowStart)))
                .setMechanism(r.mechanism())
                .setEpsilon(records.cost().epsilon())
                .setDelta(0.0) // PrivacyCost.Pure by its type
                .setAttributes(records.workload().attributes())
                .setRecords(rows)
                .setN(a.n())
                .setConfidence(a.confidence())
                .setMaxErrorBound(bound)
                .setReleasedAtStreamTime(releasedAt)
                .setCertificate(certified ? bound : null)
                .setCertificateQueries(certified ? CertifiedSyntheticRelease.queryClass(records.workload().way())
                        : null);
        if (r.fallback()) {
            b.setFallback(true);
        }
        return b.build();
    }

    static PrivacyCostRecord cost(PrivacyCost c) {
        if (c instanceof PrivacyCost.Pure p) {
            return PrivacyCostRecord.newBuilder().setKind("pure").setEpsilon(p.epsilon()).setDelta(0.0).build();
        }
        if (c instanceof PrivacyCost.Zcdp z) {
            return PrivacyCostRecord.newBuilder().setKind("zcdp").setEpsilon(0.0).setDelta(0.0).setRho(z.rho()).build();
        }
        throw new IllegalArgumentException("answers carry pure or zCDP costs only, got " + c.kind());
    }

    /**
     * A local-mode window without reports: n = 0 and no estimates (the arrays are empty), so a dashboard sees that the
     * window passed and was empty.
     */
    private static WindowAnswer.Builder emptyLocal(ResolvedWorkload w, long windowStart, long releasedAt) {
        return base(w, windowStart, releasedAt)
                .setMechanism(w.spec().mechanism().wireName())
                .setEpsilon(w.spec().epsilonPerReport().value())
                .setDelta(0.0)
                .setCost(cost(new PrivacyCost.Pure(w.spec().epsilonPerReport().value())))
                .setN(0)
                .setConfidence(w.spec().confidence().value())
                .setLabels(w.queryLabels())
                .setEstimates(List.of())
                .setLower(List.of())
                .setUpper(List.of())
                .setStandardErrors(List.of())
                .setUnprojected(List.of())
                .setExpectedRmsError(Double.NaN)
                .setRmsErrorBoundAtConfidence(Double.NaN)
                .setLevels(List.of());
    }

    private static WindowAnswer.Builder base(ResolvedWorkload w, long windowStart, long releasedAt) {
        return WindowAnswer.newBuilder()
                .setWorkloadId(w.id())
                .setWorkloadVersion(w.spec().version())
                .setContentHash(w.contentHash())
                .setMode(w.mode().wireName())
                .setWindowStart(Instant.ofEpochMilli(windowStart))
                .setWindowEnd(Instant.ofEpochMilli(w.window().endOf(windowStart)))
                .setFamily(w.spec().family().wireName())
                .setReleasedAtStreamTime(releasedAt);
    }

    private static List<Double> list(double[] v) {
        List<Double> out = new ArrayList<>(v.length);
        for (double x : v) {
            out.add(x);
        }
        return out;
    }
}
