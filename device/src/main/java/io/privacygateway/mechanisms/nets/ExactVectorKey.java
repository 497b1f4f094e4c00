package io.privacygateway.mechanisms.nets;

import java.util.Arrays;

/**
 * A hash key for a vector by its exact content (every double compared by {@link Arrays#equals(double[], double[])}),
 * for de-duplicating the rows of a decomposition or a list of vectors. For lookups and insertion-ordered sets only:
 * the order of a hash map of these is not used.
 *
 * @param v the vector (not copied: do not change it while it is a key)
 */
public record ExactVectorKey(double[] v) {
    @Override
    public boolean equals(Object o) {
        return o instanceof ExactVectorKey other && Arrays.equals(v, other.v);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(v);
    }

    @Override
    public String toString() {
        return Arrays.toString(v);
    }
}
