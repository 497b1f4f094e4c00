package io.privacygateway.mechanisms.analytics.ptr;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.central.PrivacySplit;
import io.privacygateway.mechanisms.central.sampling.DiscreteLaplace;
import io.privacygateway.mechanisms.param.DirectedDoubles;
import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.Rational;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * The test of propose-test-release (purification paper §5.1, Algorithm 9 line 3; Vadhan, "The Complexity of
 * Differential Privacy", Proposition 3.3, the distance-to-instability mechanism), with exact discrete noise:
 * {@link #passes} is {@code distance + Z >= T} for {@code Z} discrete Laplace of scale {@code t >= 1/ε} (rounded
 * up from the exact quotient) and an integer threshold {@code T >= 1}.
 *
 * <p><b>Guarantee</b> (what a caller must provide and what it gets). Let {@code dist} be an integer-valued
 * function of the dataset with {@code |dist(D) − dist(D')| <= 1} for neighbours, and {@code dist(D) = 0}
 * whenever some neighbour D' has {@code f(D') ≠ f(D)} (or, for Algorithm 9, whenever the local sensitivity of
 * D or a neighbour exceeds the proposed bound). Then "output f(D) if the test passes, else ⊥" is
 * {@code (ε, δ)}-DP with {@code δ = P(Z >= T) = β^T/(1+β) < e^{−T/t}} ({@code β = e^{−1/t}}):
 * <ul>
 *   <li>if f(D) = f(D'), the outputs are {f(D), ⊥} on both sides and the probability of each changes by at most
 *       {@code e^{1/t} <= e^ε} when dist moves by 1 (the discrete Laplace pmf ratio of adjacent integers is at
 *       most {@code e^{1/t}}, so are the ratios of its tails);</li>
 *   <li>if f(D) ≠ f(D'), both distances are 0 and each side outputs a value the other never does only when the
 *       test passes at distance 0: with probability {@code P(Z >= T) <= δ}; ⊥ has the same probability on both
 *       sides.</li>
 * </ul>
 * {@link #logDelta()} is the upper bound {@code −T/t} on {@code ln δ}, rounded toward 0 (so δ is never
 * understated).
 */
public final class DistanceTest {
    private final double epsilon;
    private final long threshold;
    private final DiscreteLaplace noise;
    private final LogDelta logDelta;

    /**
     * @param epsilon the ε of the test (finite, {@code > 0})
     * @param threshold T, an integer {@code >= 1}
     */
    public DistanceTest(double epsilon, long threshold) {
        this.epsilon = Require.finitePositive("epsilon", epsilon);
        this.threshold = Require.inRange("threshold", threshold, 1, 1L << 40);
        Rational t = PrivacySplit.dyadicUp(1, epsilon);
        this.noise = new DiscreteLaplace(t);
        // ln δ <= −T/t: T/t = T·den/num computed exactly and rounded down, so −T/t is rounded up (toward 0)
        BigDecimal ratio = new BigDecimal(t.denominator().multiply(BigInteger.valueOf(threshold)))
                .divide(new BigDecimal(t.numerator()), new MathContext(40, RoundingMode.FLOOR));
        this.logDelta = new LogDelta(-DirectedDoubles.floor(ratio));
    }

    /** Whether the test passes at this distance (one exact discrete Laplace draw). */
    public boolean passes(long distance, RandomBits secret) {
        Require.inRange("distance", distance, 0, Long.MAX_VALUE / 4);
        return distance + noise.sample(secret) >= threshold;
    }

    /** {@code P(distance + Z >= T) = P(Z >= T − distance)} (a double, for planning and tests). */
    public double passProbability(long distance) {
        return upperTail(threshold - distance);
    }

    /** {@code P(Z >= a)}. */
    public double upperTail(long a) {
        return 1 - noise.cdf(a - 1);
    }

    /** The smallest distance at which the test passes with probability at least {@code p} (p < 1). */
    public long distanceFor(double p) {
        Require.inOpenRange("p", p, 0, 1);
        long d = 0;
        long hi = threshold;
        while (passProbability(hi) < p) {
            hi *= 2;
        }
        while (d < hi) {
            long mid = d + (hi - d) / 2;
            if (passProbability(mid) >= p) {
                hi = mid;
            } else {
                d = mid + 1;
            }
        }
        return d;
    }

    public double epsilon() {
        return epsilon;
    }

    public long threshold() {
        return threshold;
    }

    /** The test's noise (scale {@code t >= 1/ε}). */
    public DiscreteLaplace noise() {
        return noise;
    }

    /** An upper bound on {@code ln δ}: {@code −T/t}. */
    public LogDelta logDelta() {
        return logDelta;
    }

    /** The test's guarantee {@code (ε, δ)} (never a published cost: purification turns it pure). */
    public PrivacyCost.Approximate cost() {
        return new PrivacyCost.Approximate(epsilon, logDelta);
    }
}
