package io.privacygateway.mechanisms.central.wide;

import io.privacygateway.mechanisms.central.PrivacySplit;
import io.privacygateway.mechanisms.central.sampling.DiscreteLaplace;
import io.privacygateway.mechanisms.param.Require;

/**
 * A private measurement of the largest error of answers that are already pure: the integer
 * {@code M = ⌈max_q |R_q − 2^16·stat_q/unit| / 2^16⌉} with {@code R_q = round(2^16·ñ·a_q)} (public: a function of the
 * pure answers a and the released count ñ) and {@code stat_q} the exact data statistic of query q
 * ({@code Σ_reports unit·q(x)}), released as {@code M̃ = M + η} with η discrete Laplace of scale
 * {@code t >= L/ε_check} (rounded up from the exact quotient): pure {@code ε_check}-DP.
 *
 * <p><b>Sensitivity.</b> One device changes every {@code stat_q} by at most {@code L·unit}, so every
 * {@code 2^16·stat_q/unit} by at most {@code L·2^16} and the maximum by at most as much; {@code ⌈x/2^16⌉} of an
 * integer x is monotone and {@code ⌈(x + L·2^16)/2^16⌉ = ⌈x/2^16⌉ + L}, so M changes by at most L (an exact
 * integer argument: no floating point touches the data).
 *
 * <p><b>Bound</b> ({@link #bound}): {@code P(η <= −k) = β^k/(1+β) <= e^{−k/t}}, so with probability at least
 * {@code 1 − β_check}, {@code M <= M̃ + ⌈t·ln(1/β_check)⌉}, and then
 * {@code ‖a − Q(D)‖∞ <= (M̃ + ⌈t ln(1/β_check)⌉ + 2^{−16})/ñ + r} (r the count's relative bound, which covers
 * dividing by ñ instead of n; {@code 2^{−16}} covers rounding R).
 */
public final class MaxErrorCheck {
    private static final long GRID = 1L << 16;
    private final int contributions;
    private final double epsilon;
    private final DiscreteLaplace noise;

    /**
     * @param contributions L
     * @param epsilon ε_check {@code > 0}
     */
    public MaxErrorCheck(int contributions, double epsilon) {
        this.contributions = (int) Require.inRange("contributions", contributions, 1, 1 << 20);
        this.epsilon = Require.finitePositive("epsilon", epsilon);
        this.noise = new DiscreteLaplace(PrivacySplit.dyadicUp(contributions, epsilon));
    }

    public double epsilon() {
        return epsilon;
    }

    public DiscreteLaplace noise() {
        return noise;
    }

    /**
     * The integer statistic M.
     *
     * @param answers the pure answers a (query units)
     * @param released the divisor ñ the answers are compared at ({@code >= 1})
     * @param statistics the exact data statistics, one per query
     * @param unit the statistics' units per 1.0 (a power of two {@code <= 2^16})
     */
    public static long statistic(double[] answers, long released, long[] statistics, long unit) {
        if (answers.length != statistics.length) {
            throw new IllegalArgumentException("answers and statistics differ in length");
        }
        if (Long.bitCount(unit) != 1 || unit > GRID) {
            throw new IllegalArgumentException("unit must be a power of two <= 2^16, got " + unit);
        }
        long scale = GRID / unit;
        double toGrid = (double) GRID * released;
        long worst = 0;
        for (int q = 0; q < answers.length; q++) {
            long r = Math.round(answers[q] * toGrid);
            worst = Math.max(worst, Math.abs(r - Math.multiplyExact(statistics[q], scale)));
        }
        return Math.floorDiv(worst + GRID - 1, GRID);
    }

    /** {@code M + η}. */
    public long release(long statistic, ReleaseDraws draws) {
        return Math.addExact(statistic, draws.laplace(noise));
    }

    /**
     * The max-error bound in query units, holding with probability at least {@code 1 − betaCheck} given
     * {@code |n − ñ| <= r·ñ}; {@code +∞} when {@code ñ < 1} or {@code r >= 1}.
     */
    public double bound(long noisy, long released, double countRelative, double betaCheck) {
        if (released < 1 || !(countRelative < 1)) {
            return Double.POSITIVE_INFINITY;
        }
        double k = Math.ceil(noise.scaleDouble() * (1 + 1e-12) * Math.log(1 / betaCheck));
        return (Math.max(0, noisy + k) + 1.0 / GRID) / released + countRelative
                + PrivateMultiplicativeWeights.FLOATING_SLACK;
    }

    public int contributions() {
        return contributions;
    }
}
