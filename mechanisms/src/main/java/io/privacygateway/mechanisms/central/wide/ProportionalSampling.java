package io.privacygateway.mechanisms.central.wide;

import io.privacygateway.mechanisms.param.Require;

/**
 * Proportional sampling (purification paper Algorithm 15): m independent draws from a distribution over a finite
 * universe, by inverse transform on the cumulative sums: each draw takes a uniform 53-bit fraction
 * ({@link ReleaseDraws#uniform}) and a binary search, {@code O(N + m log N)} in all.
 *
 * <p>The distribution is the (ε, δ)-DP output of MWEM; sampling it with randomness independent of the data is
 * post-processing, so the sample is (ε, δ)-DP whatever the randomness (its law only affects utility: a draw lands
 * on point x with probability {@code p(x)} up to the 2^−53 grid of the fraction and the rounding of the cumulative
 * sums, both far below the sampling error {@code 1/√m} that the bound accounts for).
 */
public final class ProportionalSampling {
    private ProportionalSampling() {}

    /**
     * @param p non-negative weights (not all 0; normalised here)
     * @param m the number of draws, {@code >= 1}
     * @return m universe indices
     */
    public static int[] sample(double[] p, int m, ReleaseDraws draws) {
        Require.nonNull("p", p);
        Require.inRange("m", m, 1, Integer.MAX_VALUE);
        double[] cumulative = new double[p.length];
        double total = 0;
        for (int x = 0; x < p.length; x++) {
            if (!(p[x] >= 0) || !Double.isFinite(p[x])) {
                throw new IllegalArgumentException("p[" + x + "] must be a finite weight >= 0, got " + p[x]);
            }
            total += p[x];
            cumulative[x] = total;
        }
        if (!(total > 0)) {
            throw new IllegalArgumentException("p must have positive total weight");
        }
        int[] out = new int[m];
        for (int i = 0; i < m; i++) {
            double u = draws.uniform(1L << 53) * 0x1p-53 * total;
            int lo = 0;
            int hi = p.length - 1;
            while (lo < hi) { // first x with cumulative[x] > u
                int mid = (lo + hi) >>> 1;
                if (cumulative[mid] > u) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            out[i] = lo;
        }
        return out;
    }
}
