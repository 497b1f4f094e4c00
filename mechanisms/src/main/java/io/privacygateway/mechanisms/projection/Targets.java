package io.privacygateway.mechanisms.projection;

/** Validation of projection targets, shared by the implementations of {@link ConvexProjection}. */
final class Targets {
    private Targets() {}

    /** Checks that {@code y} is non-null, has length {@code dim} and only finite entries. */
    static void requireTarget(double[] y, int dim) {
        if (y == null) {
            throw new IllegalArgumentException("y is required");
        }
        if (y.length != dim) {
            throw new IllegalArgumentException("y must have length " + dim + ", got " + y.length);
        }
        for (int i = 0; i < y.length; i++) {
            if (!Double.isFinite(y[i])) {
                throw new IllegalArgumentException("y[" + i + "] must be finite, got " + y[i]);
            }
        }
    }

    /** Checks a dimension argument. */
    static int requireDim(String field, int m) {
        if (m < 1) {
            throw new IllegalArgumentException(field + " must be an integer >= 1, got " + m);
        }
        return m;
    }
}
