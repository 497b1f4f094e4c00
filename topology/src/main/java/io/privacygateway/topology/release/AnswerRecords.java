package io.privacygateway.topology.release;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.amplification.AmplificationBound;
import io.privacygateway.mechanisms.central.synthetic.CertifiedSyntheticRelease;
import io.privacygateway.mechanisms.central.wide.MarginalWorkload;
import io.privacygateway.mechanisms.central.wide.SyntheticRecords;
import io.privacygateway.mechanisms.continual.HorizonAnswer;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.runtime.CentralFallback;
import io.privacygateway.mechanisms.runtime.CentralWorkload;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.AmplifiedGuarantee;
import io.privacygateway.schemas.avro.AnswerItem;
import io.privacygateway.schemas.avro.AnswerLevel;
import io.privacygateway.schemas.avro.PrivacyCostRecord;
import io.privacygateway.schemas.avro.SyntheticData;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.topology.identity.DeviceAuthentication;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/** Turns a released {@link Answer} into the {@link WindowAnswer} record of the answers topic. */
public final class AnswerRecords {
    private AnswerRecords() {}

    /**
     * The record of an answer.
     *
     * @param cumulativeEpsilon central mode: the workload's ε released so far, this answer included; local: 0
     * @param releasedAt the stream time recorded as the release time (central: the window's close time, which
     *     does not depend on the data)
     */
    public static WindowAnswer toRecord(Answer a, ResolvedWorkload w, long windowStart, double cumulativeEpsilon,
            long releasedAt) {
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
                .setCumulativeEpsilon(cumulativeEpsilon)
                .setItems(a.extras().items().isEmpty() ? null : a.extras().items().stream()
                        .map(i -> AnswerItem.newBuilder().setLabel(i.label()).setEstimate(i.estimate())
                                .setLower(i.lower()).setUpper(i.upper()).build()).toList())
                .setScalars(a.extras().scalars().isEmpty() ? null : new TreeMap<String, Double>(
                        a.extras().scalars()))
                .setMaxErrorBound(a.extras().maxErrorBound().isPresent()
                        ? a.extras().maxErrorBound().getAsDouble() : null)
                .build();
    }

    /**
     * The synthetic-data record of a wide window: the released records (bit j attribute j), the attribute names, and
     * the answer's ñ, ε, confidence and published l∞ bound (the records' marginals are the answer's estimates), δ = 0;
     * for certified-synthetic also the certificate (which is the answer's l∞ bound) and the query class it covers.
     *
     * @param releasedAt the window's close time, as on the answer
     */
    public static SyntheticData synthetic(
            SyntheticRecords records, Answer a, ResolvedWorkload w,
            long windowStart, long releasedAt) {
        // certified-synthetic: its certificate (the answer's l∞ bound) and the query class it covers
        boolean certified = a.mechanism() == MechanismId.CERTIFIED_SYNTHETIC;
        Double certificate = certified ? a.extras().maxErrorBound().orElse(1.0) : null;
        String certificateQueries = certified ? CertifiedSyntheticRelease
                .queryClass(records.workload().way()) : null;
        List<Long> rows = new ArrayList<>(records.size());
        for (long r : records.records()) {
            rows.add(r);
        }
        return SyntheticData.newBuilder()
                .setWorkloadId(w.id())
                .setWorkloadVersion(w.spec().version())
                .setContentHash(w.contentHash())
                .setWindowStart(Instant.ofEpochMilli(windowStart))
                .setWindowEnd(Instant.ofEpochMilli(w.window().endOf(windowStart)))
                .setMechanism(a.mechanism().wireName())
                .setEpsilon(records.cost().epsilon())
                .setDelta(0.0) // PrivacyCost.Pure by its type
                .setAttributes(records.workload().attributes())
                .setRecords(rows)
                .setN(a.n())
                .setConfidence(a.confidence())
                .setMaxErrorBound(a.extras().maxErrorBound().orElse(1.0))
                .setReleasedAtStreamTime(releasedAt)
                .setCertificate(certificate)
                .setCertificateQueries(certificateQueries)
                .build();
    }

    /** The mechanism name of answers over a horizon released by the continual-release tree (central mode). */
    public static final String RUNNING_TOTAL_MECHANISM = "continual-tree";

    /**
     * The record of a central running total over a horizon: the span's first window start to the end of the last
     * window it covers, {@code horizon} set, the mechanism {@value #RUNNING_TOTAL_MECHANISM}, and the cost of the
     * running totals per window ({@code central.epsilonPerRunningTotal}).
     */
    public static WindowAnswer runningTotal(HorizonAnswer h,
            ResolvedWorkload w, long releasedAt) {
        WindowAnswer r = toRecord(h.answer(), w, h.start(), 0.0, releasedAt);
        r.setWindowEnd(Instant.ofEpochMilli(h.end()));
        r.setHorizon(h.horizon().wireName());
        r.setMechanism(RUNNING_TOTAL_MECHANISM);
        return r;
    }

    /**
     * The record of a central window whose release could not finish: the data-independent answer of
     * {@link io.privacygateway.mechanisms.runtime.CentralFallback} (a function of public parameters only, and of the
     * public count under replace-one) with {@code fallback} set; the caller charges it exactly as a computed answer.
     *
     * @param n the window's report count (published only under replace-one, where it is public)
     * @param releasedAt the window's close time, as on every central answer
     */
    public static WindowAnswer centralFallback(CentralWorkload c,
            long windowStart, long n, long releasedAt) {
        WindowAnswer r = toRecord(CentralFallback.answer(c, n), c, windowStart,
                0.0, releasedAt);
        r.setFallback(true);
        return r;
    }

    /**
     * The synthetic-data record of a window of a workload with {@code central.synthetic} whose release could not
     * finish: no records, the trivial bound 1 (and certificate 1 for certified-synthetic), the release's public cost,
     * {@code fallback} set. Every such window still has exactly one synthetic record.
     */
    public static SyntheticData syntheticFallback(
            CentralWorkload c, long windowStart, long n, long releasedAt) {
        MarginalWorkload m = c.wide().orElseThrow();
        boolean certified = c.spec().mechanism() == MechanismId.CERTIFIED_SYNTHETIC;
        Answer a = CentralFallback.answer(c, n);
        return SyntheticData.newBuilder()
                .setWorkloadId(c.id())
                .setWorkloadVersion(c.spec().version())
                .setContentHash(c.contentHash())
                .setWindowStart(Instant.ofEpochMilli(windowStart))
                .setWindowEnd(Instant.ofEpochMilli(c.window().endOf(windowStart)))
                .setMechanism(c.spec().mechanism().wireName())
                .setEpsilon(a.cost().epsilon())
                .setDelta(0.0)
                .setAttributes(m.attributes())
                .setRecords(List.of())
                .setN(a.n())
                .setConfidence(a.confidence())
                .setMaxErrorBound(1.0)
                .setReleasedAtStreamTime(releasedAt)
                .setCertificate(certified ? 1.0 : null)
                .setCertificateQueries(certified
                        ? CertifiedSyntheticRelease.queryClass(m.way())
                        : null)
                .setFallback(true)
                .build();
    }

    /**
     * The record of a running total whose update could not finish: the horizon's span and cost as {@code h} (the
     * tree after the window was added with zero counts), the data-independent fallback answer with {@code n = 0},
     * {@code fallback} set.
     */
    public static WindowAnswer runningTotalFallback(HorizonAnswer h,
            CentralWorkload c, long releasedAt) {
        Answer f = CentralFallback.answer(c, 0);
        Answer a = new Answer(f.mechanism(), h.answer().cost(), 0, f.labels(), f.estimates(), f.unprojected(),
                f.standardErrors(), f.lower(), f.upper(), f.confidence(), f.expectedRmsError(),
                f.rmsErrorBoundAtConfidence(), List.of(), f.workloadHash());
        WindowAnswer r = toRecord(a, c, h.start(), 0.0, releasedAt);
        r.setWindowEnd(Instant.ofEpochMilli(h.end()));
        r.setHorizon(h.horizon().wireName());
        r.setMechanism(RUNNING_TOTAL_MECHANISM);
        r.setFallback(true);
        return r;
    }

    /**
     * Adds to a local answer of {@code n} reports over a span of {@code spanMillis} (a window or a horizon span) its
     * amplified central (ε, δ): the guarantee against someone who sees only the answers, by amplification by
     * shuffling ({@link io.privacygateway.mechanisms.amplification.AmplificationBound}), for the most reports one
     * device can have in the span and the workload's declared δ, over the crowd the device identity vouches for
     * ({@link io.privacygateway.topology.identity.DeviceAuthentication#vouchedCrowd}: every report of enrolled devices,
     * or the operator's declared lower bound on honest reports), named in the answer. Nothing is added when the
     * mechanism does not qualify (its reports are read with coins derived from the device), the answer has no
     * reports, or no crowd is vouched for (open identities without a declaration). Never throws for a
     * valid workload: the bound accepts every n and every per-device count k (a one-day span of a workload with a 1 s
     * period and 16 reports per period has k = 1,382,400; for such k the figure is usually the unamplified k·ε₀).
     */
    public static void amplify(WindowAnswer record, LocalWorkload w, long n,
            long spanMillis, DeviceAuthentication identity) {
        long crowd = identity.vouchedCrowd(n);
        if (crowd < 1
                || !AmplificationBound.appliesTo(w.spec().mechanism())) {
            return;
        }
        var g = AmplificationBound.amplified(w.spec().epsilonPerReport(), crowd,
                w.maxReportsPerDeviceIn(spanMillis),
                ((WorkloadSpec.Local) w.spec().modeParameters())
                        .amplificationDeltaOrDefault());
        record.setAmplified(AmplifiedGuarantee.newBuilder().setEpsilon(g.epsilon())
                .setDelta(g.delta()).setMethod(g.method()).setCrowd(identity.crowdBasis()).setCrowdReports(crowd)
                .build());
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
     * The record of a local-mode window without reports: n = 0 and no estimates (the arrays are empty), so a
     * dashboard sees that the window passed and was empty.
     */
    public static WindowAnswer emptyLocal(ResolvedWorkload w, long windowStart, long releasedAt) {
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
                .setLevels(List.of())
                .setCumulativeEpsilon(0.0)
                .build();
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
