package io.privacygateway.mechanisms.audit;

import io.privacygateway.mechanisms.param.ConfidenceLevel;
import io.privacygateway.mechanisms.param.Require;

/**
 * How hard an audit looks.
 *
 * @param samples outputs drawn on each input of the final (test) phase of every row; the search phase
 *     draws about as many again ({@link #screeningSize}, {@link #finalSize}), so a row costs about
 *     {@code 4·samples} runs of the mechanism
 * @param confidence the probability with which <em>every</em> lower bound of the audit holds at once
 *     (the rows share {@code 1 − confidence} by a union bound)
 * @param pairCandidates how many input pairs the search phase tries per row ({@code >= 1})
 * @param coordinateCandidates how many report coordinates (public coins) the search phase tries per pair,
 *     local mode ({@code >= 1})
 */
public record AuditSettings(long samples, ConfidenceLevel confidence, int pairCandidates, int coordinateCandidates) {
    /** The fewest training outputs per input, candidate and phase (fit, select). */
    public static final int MIN_TRAINING = 1000;

    public AuditSettings {
        Require.inRange("samples", samples, 100, 1L << 40);
        Require.nonNull("confidence", confidence);
        Require.inRange("pairCandidates", pairCandidates, 1, 64);
        Require.inRange("coordinateCandidates", coordinateCandidates, 1, 64);
    }

    /** {@code samples} test outputs per side, 4 pairs and 4 coordinate sets per row. */
    public static AuditSettings of(long samples, double confidence) {
        return new AuditSettings(samples, ConfidenceLevel.of(confidence), 4, 4);
    }

    /**
     * Screening outputs per input, candidate and batch (fit, select): {@code samples / (4·candidates)}, at
     * least {@value #MIN_TRAINING} and at most {@code samples}.
     */
    int screeningSize(int candidates) {
        return clamp(samples / (4L * Math.max(1, candidates)));
    }

    /** Outputs per input and batch for each finalist: {@code samples / 8}, at least {@value #MIN_TRAINING}. */
    int finalSize() {
        return clamp(samples / 8);
    }

    private int clamp(long t) {
        return (int) Math.min(Math.min(samples, Integer.MAX_VALUE), Math.max(MIN_TRAINING, t));
    }
}
