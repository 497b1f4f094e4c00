package io.privacygateway.mechanisms.nets;

import io.privacygateway.mechanisms.linalg.PointSet;

/**
 * The deliberate bias of a mechanism that releases, for a device value x, an approximation {@code a(x)} of
 * its answer vector {@code Q(x)} (coarse projection: the nearest net point; chaining: the end of the chain
 * {@code π_k(Q(x))}). The release then estimates {@code ā = mean a(x)} instead of {@code x̄ = mean Q(x)}, and
 * its error bars must add the distance between the two. Both bounds are worst cases over the public universe,
 * so they hold for every dataset (a mean of vectors within a bound is within it).
 */
public final class DecompositionBias {
    private DecompositionBias() {}

    /**
     * {@code max_x ‖a(x) − Q(x)‖₂/√m}: a bound on {@code ‖ā − x̄‖₂/√m} (at most α/2 for coarse projection and
     * {@code 2^{−k}} for chaining, and often much smaller, e.g. 0 when the finest net keeps every point).
     *
     * @param exact the answer vectors {@code Q(x)}, one row per universe value
     * @param approx the approximations {@code a(x)}, in the same order
     */
    public static double normalised(PointSet exact, PointSet approx) {
        int m = exact.dim();
        double worst = 0;
        for (int x = 0; x < exact.size(); x++) {
            double s = 0;
            for (int q = 0; q < m; q++) {
                double d = approx.get(x, q) - exact.get(x, q);
                s += d * d;
            }
            worst = Math.max(worst, s);
        }
        return Math.sqrt(worst / m);
    }

    /** {@code b_q = max_x |a(x)_q − Q(x)_q|}: a bound on {@code |ā_q − x̄_q|} for every coordinate. */
    public static double[] perCoordinate(PointSet exact, PointSet approx) {
        int m = exact.dim();
        double[] b = new double[m];
        for (int x = 0; x < exact.size(); x++) {
            for (int q = 0; q < m; q++) {
                b[q] = Math.max(b[q], Math.abs(approx.get(x, q) - exact.get(x, q)));
            }
        }
        return b;
    }

    /**
     * The approximations {@code a(x) = points[index[x]]} when every approximation is itself an answer vector
     * (chaining: {@code index} is the chain end {@code π_k(Q(x))} of each value).
     */
    public static PointSet rows(PointSet points, int[] index) {
        int m = points.dim();
        double[] out = new double[index.length * m];
        for (int i = 0; i < index.length; i++) {
            for (int q = 0; q < m; q++) {
                out[i * m + q] = points.get(index[i], q);
            }
        }
        return PointSet.ofRowMajor(index.length, m, out);
    }
}
