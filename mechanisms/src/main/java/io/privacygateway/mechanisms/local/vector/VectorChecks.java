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
}
