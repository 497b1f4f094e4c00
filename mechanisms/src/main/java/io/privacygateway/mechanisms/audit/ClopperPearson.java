package io.privacygateway.mechanisms.audit;

import io.privacygateway.mechanisms.param.Require;
import org.apache.commons.statistics.distribution.BetaDistribution;

/**
 * Exact (Clopper–Pearson) one-sided confidence bounds for a binomial proportion.
 *
 * <p><b>Guarantee.</b> For {@code K ~ Binomial(n, p)} and every {@code p ∈ [0, 1]}:
 * {@code P(lower(K, n, a) > p) ≤ a} and {@code P(upper(K, n, a) < p) ≤ a}. This follows from the duality
 * between the binomial tail and the Beta distribution, {@code P(Bin(n, p) ≥ k) = P(Beta(k, n−k+1) ≤ p)}
 * (Clopper and Pearson, Biometrika 1934); the bounds are conservative for every {@code n}, with no
 * normal approximation.
 */
public final class ClopperPearson {
    private ClopperPearson() {}

    /**
     * The largest {@code p} such that {@code P(Bin(n, p) ≥ k) ≤ a}: a lower confidence bound at level
     * {@code 1 − a} ({@code 0} when {@code k = 0}).
     *
     * @param k observed successes, in {@code [0, n]}
     * @param n trials, {@code >= 1}
     * @param a error probability, in {@code (0, 1)}
     */
    public static double lower(long k, long n, double a) {
        check(k, n, a);
        if (k == 0) {
            return 0.0;
        }
        return BetaDistribution.of(k, n - k + 1.0).inverseCumulativeProbability(a);
    }

    /**
     * The smallest {@code p} such that {@code P(Bin(n, p) ≤ k) ≤ a}: an upper confidence bound at level
     * {@code 1 − a} ({@code 1} when {@code k = n}).
     */
    public static double upper(long k, long n, double a) {
        check(k, n, a);
        if (k == n) {
            return 1.0;
        }
        return BetaDistribution.of(k + 1.0, (double) (n - k)).inverseSurvivalProbability(a);
    }

    private static void check(long k, long n, double a) {
        Require.inRange("n", n, 1, Long.MAX_VALUE);
        Require.inRange("k", k, 0, n);
        Require.inOpenRange("a", a, 0.0, 1.0);
    }
}
