package io.privacygateway.mechanisms.analytics;

import io.privacygateway.mechanisms.central.CentralGeometry;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import java.math.BigInteger;

/**
 * Exact sensitivities of window sums {@code Σ_x c_x·v_x} of integer vectors, in {@link BigInteger} (the
 * sufficient statistics of regression and the gridded gradients of erm overflow a long once multiplied by L²).
 * The neighbour rule is {@link CentralGeometry#worstChange}'s, consulted here rather than copied: under add/remove
 * one device's contribution (at most L reports) can appear or vanish, so the sum moves by at most L times the
 * largest vector; under replace-one it can be swapped, so by at most L times the largest difference of two
 * vectors (bounded by twice the largest vector when the universe is too large to compare every pair).
 */
public final class Sensitivity {
    /** Above this many vectors the replace-one distance uses the triangle inequality instead of all pairs. */
    static final int PAIRWISE_LIMIT = 2048;

    private Sensitivity() {}

    private static boolean largestSizeRule(NeighbourRelation relation) {
        return CentralGeometry.worstChange(relation, () -> 1, () -> 0) == 1;
    }

    /** The squared l2 sensitivity (exact integer) of the window sum of {@code vectors}. */
    public static BigInteger l2Squared(long[][] vectors, NeighbourRelation relation, int contributions) {
        BigInteger worst = BigInteger.ZERO;
        if (largestSizeRule(relation) || vectors.length > PAIRWISE_LIMIT) {
            for (long[] v : vectors) {
                worst = worst.max(normSquared(v, null));
            }
            if (!largestSizeRule(relation)) {
                worst = worst.shiftLeft(2); // ‖v − w‖² <= (‖v‖ + ‖w‖)² <= 4 max‖v‖²
            }
        } else {
            for (int a = 0; a < vectors.length; a++) {
                for (int b = a + 1; b < vectors.length; b++) {
                    worst = worst.max(normSquared(vectors[a], vectors[b]));
                }
            }
        }
        BigInteger l = BigInteger.valueOf(contributions);
        return worst.multiply(l).multiply(l);
    }

    /** The l1 sensitivity (exact integer) of the window sum of {@code vectors}. */
    public static BigInteger l1(long[][] vectors, NeighbourRelation relation, int contributions) {
        BigInteger worst = BigInteger.ZERO;
        if (largestSizeRule(relation) || vectors.length > PAIRWISE_LIMIT) {
            for (long[] v : vectors) {
                worst = worst.max(l1(v, null));
            }
            if (!largestSizeRule(relation)) {
                worst = worst.shiftLeft(1);
            }
        } else {
            for (int a = 0; a < vectors.length; a++) {
                for (int b = a + 1; b < vectors.length; b++) {
                    worst = worst.max(l1(vectors[a], vectors[b]));
                }
            }
        }
        return worst.multiply(BigInteger.valueOf(contributions));
    }

    /**
     * The squared l2 sensitivity of a window sum of per-report vectors whose squared norms are at most
     * {@code maxNormSquared}: {@code L²·M} under add/remove, {@code 4L²·M} under replace-one (triangle inequality).
     */
    public static BigInteger l2SquaredFromNormBound(BigInteger maxNormSquared, NeighbourRelation relation,
            int contributions) {
        BigInteger l = BigInteger.valueOf(contributions);
        BigInteger s = maxNormSquared.multiply(l).multiply(l);
        return largestSizeRule(relation) ? s : s.shiftLeft(2);
    }

    /**
     * The sensitivity of a scalar window sum whose per-report terms lie in {@code [0, max]}: L·max under
     * add/remove (and the sum only grows when a device is added: it is monotone), L·max under replace-one (a
     * term in [0, max] swapped for another moves the sum by at most max).
     */
    public static BigInteger scalar(long max, int contributions) {
        if (max < 0) {
            throw new IllegalArgumentException("max must be >= 0, got " + max);
        }
        return BigInteger.valueOf(max).multiply(BigInteger.valueOf(contributions));
    }

    private static BigInteger normSquared(long[] v, long[] w) {
        BigInteger s = BigInteger.ZERO;
        for (int i = 0; i < v.length; i++) {
            BigInteger x = BigInteger.valueOf(v[i]);
            if (w != null) {
                x = x.subtract(BigInteger.valueOf(w[i]));
            }
            s = s.add(x.multiply(x));
        }
        return s;
    }

    private static BigInteger l1(long[] v, long[] w) {
        BigInteger s = BigInteger.ZERO;
        for (int i = 0; i < v.length; i++) {
            BigInteger x = BigInteger.valueOf(v[i]);
            if (w != null) {
                x = x.subtract(BigInteger.valueOf(w[i]));
            }
            s = s.add(x.abs());
        }
        return s;
    }
}
