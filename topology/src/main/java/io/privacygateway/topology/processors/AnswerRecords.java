package io.privacygateway.topology.processors;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.schemas.avro.AnswerLevel;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.topology.state.WindowKey;
import io.privacygateway.topology.workload.ActiveWorkload;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Turns a released {@link Answer} into the {@link WindowAnswer} record of the answers topic. */
public final class AnswerRecords {
    private AnswerRecords() {}

    public static WindowAnswer toRecord(Answer a, ActiveWorkload w, WindowKey window, double cumulativeEpsilon,
            long streamTime) {
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
        long size = w.spec().window().size().toMillis();
        return WindowAnswer.newBuilder()
                .setWorkloadId(w.id())
                .setWorkloadVersion(w.spec().version())
                .setContentHash(w.contentHash())
                .setMode(w.mode().wireName())
                .setWindowStart(Instant.ofEpochMilli(window.start()))
                .setWindowEnd(Instant.ofEpochMilli(window.start() + size))
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
                .setReleasedAtStreamTime(streamTime)
                .build();
    }

    private static List<Double> list(double[] v) {
        List<Double> out = new ArrayList<>(v.length);
        for (double x : v) {
            out.add(x);
        }
        return out;
    }
}
