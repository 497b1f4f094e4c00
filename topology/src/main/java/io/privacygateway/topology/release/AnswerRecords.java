package io.privacygateway.topology.release;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.schemas.avro.AnswerLevel;
import io.privacygateway.schemas.avro.WindowAnswer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

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
            // interim encoding until the record carries the cost and optional fields itself: a level's pure ε or
            // its zCDP ρ (the other 0), and NaN for an absent projection gap (central levels never publish one)
            levels.add(AnswerLevel.newBuilder().setLevel(l.level())
                    .setEpsilon(l.cost() instanceof PrivacyCost.Pure p ? p.epsilon() : 0.0).setRadius(l.radius())
                    .setNoiseScale(l.noiseScale()).setGaussianWidth(l.gaussianWidth()).setHullSize(l.hullSize())
                    .setProjectionGap(l.projectionGap().orElse(Double.NaN))
                    .setRho(l.cost() instanceof PrivacyCost.Zcdp z ? z.rho() : 0.0).build());
        }
        return base(w, windowStart, releasedAt)
                .setMechanism(a.mechanism().wireName())
                .setEpsilon(a.cost().epsilon())
                .setDelta(0.0) // the cost is PrivacyCost.Pure: δ = 0 by its type
                .setN(a.n())
                .setConfidence(a.confidence())
                .setLabels(a.labels())
                .setEstimates(list(a.estimates()))
                .setLower(list(a.lower()))
                .setUpper(list(a.upper()))
                .setStandardErrors(list(a.standardErrors().orElse(new double[0]))) // absent: empty
                .setUnprojected(list(a.unprojected().orElse(new double[0]))) // absent: empty
                .setExpectedRmsError(a.expectedRmsError()) // always finite (Answer checks it)
                .setRmsErrorBoundAtConfidence(a.rmsErrorBoundAtConfidence())
                .setLevels(levels)
                .setCumulativeEpsilon(cumulativeEpsilon)
                .build();
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
                .setN(0)
                .setConfidence(w.spec().confidence().value())
                .setLabels(w.workload().queryLabels())
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
