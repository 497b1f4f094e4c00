package io.privacygateway.topology.processors;

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
            levels.add(AnswerLevel.newBuilder().setLevel(l.level()).setEpsilon(l.epsilon()).setRadius(l.radius())
                    .setNoiseScale(l.noiseScale()).setGaussianWidth(finite(l.gaussianWidth())).setHullSize(l.hullSize())
                    .setProjectionGap(finite(l.projectionGap())).setRho(l.rho()).build());
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
                .setEpsilon(a.epsilon())
                .setDelta(a.delta())
                .setN(a.n())
                .setConfidence(a.confidence())
                .setLabels(a.labels())
                .setEstimates(list(a.estimates()))
                .setLower(list(a.lower()))
                .setUpper(list(a.upper()))
                .setStandardErrors(list(a.standardErrors()))
                .setUnprojected(list(a.unprojected()))
                .setExpectedRmsError(finite(a.expectedRmsError()))
                .setRmsErrorBoundAtConfidence(finite(a.rmsErrorBoundAtConfidence()))
                .setLevels(levels)
                .setCumulativeEpsilon(cumulativeEpsilon)
                .setReleasedAtStreamTime(streamTime)
                .build();
    }

    private static double finite(double v) {
        return Double.isFinite(v) ? v : -1.0;
    }

    private static List<Double> list(double[] v) {
        List<Double> out = new ArrayList<>(v.length);
        for (double x : v) {
            out.add(x);
        }
        return out;
    }
}
