package io.privacygateway.mechanisms.central;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.central.sampling.DiscreteLaplace;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.workload.NeighbourRelation;

/**
 * How a central release learns a window's report count n, the first output of every central release.
 *
 * <ul>
 *   <li>{@link Public} (replace-one neighbours): neighbouring windows have the same n, so n is public and
 *       costs nothing.</li>
 *   <li>{@link Noisy} (add/remove): n changes by up to L when one device is added or removed, so it is
 *       released as {@code ñ = n + η}, η discrete Laplace of scale {@code t >= L/ε_count} (rounded up from the
 *       exact quotient): pure {@code ε_count}-DP. Everything after it may use ñ (adaptive composition).</li>
 * </ul>
 *
 * <p>ñ may be 0 or negative (always possible, and typical for an empty window). The answer publishes
 * {@link #published} = {@code max(0, ñ)} and divides sums by {@link #divisor} = {@code max(1, ñ)}; both are
 * post-processing of ñ, so neither an empty window nor a tiny count can divide by zero or throw.
 */
public sealed interface CountRelease permits CountRelease.Public, CountRelease.Noisy {

    /** The count the release works with: n itself, or {@code n + η}. */
    long release(long n, RandomBits secret);

    /** The privacy cost of {@link #release}: 0 for a public count. */
    PrivacyCost.Pure cost();

    /**
     * With probability at least {@code 1 − β}: {@code |n − ñ| <= relativeBound·divisor(ñ)}; {@code +∞} when
     * the released count is below 1 (then it says nothing about the relative error of a mean).
     */
    double relativeBound(double beta, long released);

    /** The count as published: {@code max(0, ñ)}. */
    static long published(long released) {
        return Math.max(0, released);
    }

    /** The divisor of window sums: {@code max(1, ñ)}. */
    static long divisor(long released) {
        return Math.max(1, released);
    }

    /** The rule: the count is public exactly when neighbouring windows have the same count (replace-one). */
    static boolean isPublic(NeighbourRelation relation) {
        return relation == NeighbourRelation.REPLACE_ONE;
    }

    /** The count release the neighbour relation calls for, with {@code epsilonCount} (ignored when public). */
    static CountRelease of(NeighbourRelation relation, int contributions, double epsilonCount) {
        if (isPublic(relation)) {
            return new Public();
        }
        return new Noisy(new DiscreteLaplace(PrivacySplit.dyadicUp(contributions, epsilonCount)), epsilonCount);
    }

    /** The count is public (replace-one). */
    record Public() implements CountRelease {
        @Override
        public long release(long n, RandomBits secret) {
            return n;
        }

        @Override
        public PrivacyCost.Pure cost() {
            return new PrivacyCost.Pure(0);
        }

        @Override
        public double relativeBound(double beta, long released) {
            return released >= 1 ? 0 : Double.POSITIVE_INFINITY;
        }
    }

    /**
     * The count plus discrete Laplace noise.
     *
     * @param noise the noise, scale {@code >= L/epsilon}
     * @param epsilon the ε share spent on the count
     */
    record Noisy(DiscreteLaplace noise, double epsilon) implements CountRelease {
        @Override
        public long release(long n, RandomBits secret) {
            return Math.addExact(n, noise.sample(secret));
        }

        @Override
        public PrivacyCost.Pure cost() {
            return new PrivacyCost.Pure(epsilon);
        }

        /** {@code t·ln(2/β)/ñ}: {@code P(|η| > t ln(2/β)) = 2e^{−(⌊t ln(2/β)⌋+1)/t}/(1 + e^{−1/t}) <= β}. */
        @Override
        public double relativeBound(double beta, long released) {
            if (released < 1) {
                return Double.POSITIVE_INFINITY;
            }
            return noise.scaleDouble() * Math.log(2 / beta) / released;
        }
    }
}
