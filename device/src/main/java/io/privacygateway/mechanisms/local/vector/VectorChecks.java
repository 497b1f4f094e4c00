package io.privacygateway.mechanisms.local.vector;

/** The argument checks both vector-mean protocols share (messages name sizes, never a coordinate's value). */
final class VectorChecks {
    private VectorChecks() {}

    /** A state of exactly {@code length} counters. */
    static void state(long[] state, int length) {
        if (state == null) {
            throw new IllegalArgumentException("state is required");
        }
        if (state.length != length) {
            throw new IllegalArgumentException("state must have length " + length + ", got " + state.length);
        }
    }

    /** A vector ({@code name}: "value" or "mean") of exactly {@code dimension} coordinates. */
    static void vector(String name, double[] v, int dimension) {
        if (v == null) {
            throw new IllegalArgumentException(name + " is required");
        }
        if (v.length != dimension) {
            throw new IllegalArgumentException(name + " must have " + dimension + " coordinates, got " + v.length);
        }
    }

    /**
     * The relative margin by which a parameter choice must beat the best so far to replace it (see
     * {@link #clearlyBelow}).
     */
    static final double CHOICE_MARGIN = 1e-9;

    /**
     * Whether {@code candidate} beats {@code best} by more than {@link #CHOICE_MARGIN} relative. The device and the
     * gateway each choose a protocol's parameters (the ball's {@code t, s}, the box's {@code k} and scalar) from
     * floating-point variances; library functions such as {@code Erf} may differ by an ulp between JVMs, so a
     * strict {@code <} could let two machines pick differently between near-equal choices, and the gateway would
     * then decode the device's reports with the wrong parameters. With the margin, the earlier choice is kept
     * unless the later is clearly better: the two machines disagree only if two variances differ relatively by
     * {@code 1e-9} to within a few ulps.
     */
    static boolean clearlyBelow(double candidate, double best) {
        return candidate < best * (1 - CHOICE_MARGIN);
    }
}
