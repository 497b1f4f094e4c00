package io.privacygateway.mechanisms.analytics.ptr;

import io.privacygateway.mechanisms.central.PrivacySplit;
import io.privacygateway.mechanisms.central.purification.Purifier;
import io.privacygateway.mechanisms.central.sampling.DiscreteLaplace;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.RandomBits;

/**
 * Propose-test-release made pure (purification paper §5.1: Algorithm 9, purified by Algorithm 10), for a
 * vector query on an integer grid: if the {@link DistanceTest} passes, the query plus discrete Laplace noise of
 * scale {@code t >= β/ε_release} per coordinate (β the proposed l1 bound on the local sensitivity, in grid
 * units); otherwise (⊥) an exactly uniform point of the purifier's lattice ball (Algorithm 10, lines 5–6);
 * then {@link Purifier} (Algorithm 1, discretised) turns the {@code (ε_test + ε_release, δ)} output into a pure
 * {@code (ε_test + ε_release + ε')} one.
 *
 * <p><b>Preconditions</b>: the caller's distance is {@link DistanceTest}'s (an integer lower bound on the number
 * of neighbour steps to a dataset whose local l1 sensitivity exceeds β, 1-Lipschitz, 0 whenever the dataset or
 * a neighbour has local sensitivity above β); the query's grid units are the purifier's ({@code value·h}
 * is the real point, h the purifier's grid step times {@code unit}). Privacy of Algorithm 9: Vadhan Proposition
 * 7.3.2 (the paper's Lemma 34); with the discretised noise the released sum changes by at most β in l1 where
 * the test can pass, so the discrete Laplace gives {@code ε_release}.
 */
public final class ProposeTestRelease {
    private final DistanceTest test;
    private final double epsilonRelease;
    private final long beta;
    private final DiscreteLaplace noise;
    private final Purifier purifier;
    private final double unit;

    /**
     * @param test the distance test
     * @param epsilonRelease the ε of the noisy release
     * @param beta the proposed l1 local-sensitivity bound, in grid units ({@code >= 1})
     * @param unit the real length of one grid unit of the query
     * @param purifier the purifier (Θ must contain every released point; points outside are mapped in)
     */
    public ProposeTestRelease(DistanceTest test, double epsilonRelease, long beta, double unit, Purifier purifier) {
        this.test = Require.nonNull("test", test);
        this.epsilonRelease = Require.finitePositive("epsilonRelease", epsilonRelease);
        this.beta = Require.inRange("beta", beta, 1, 1L << 40);
        this.unit = Require.finitePositive("unit", unit);
        this.noise = new DiscreteLaplace(PrivacySplit.dyadicUp(beta, epsilonRelease));
        this.purifier = Require.nonNull("purifier", purifier);
        if (purifier.logDelta().value() < test.logDelta().value()) {
            throw new IllegalArgumentException("the purifier must be built for the test's δ or a larger one: ln δ "
                    + purifier.logDelta().value() + " < " + test.logDelta().value());
        }
    }

    /**
     * The pure release.
     *
     * @param query the query in grid units (the dimension of the purifier)
     * @param distance the distance to high local sensitivity (see the class comment)
     */
    public double[] release(long[] query, long distance, RandomBits secret) {
        double[] apx;
        if (test.passes(distance, secret)) {
            apx = new double[query.length];
            for (int i = 0; i < query.length; i++) {
                apx[i] = (query[i] + noise.sample(secret)) * unit;
            }
        } else {
            apx = purifier.toPoint(purifier.lattice().sample(secret)); // ⊥: uniform on Θ's lattice
        }
        return purifier.purify(apx, secret);
    }

    /** The pure guarantee {@code ε_test + ε_release + ε'}. */
    public Epsilon epsilonTotal() {
        return purifier.epsilonTotal(Epsilon.exactly(new java.math.BigDecimal(test.epsilon())
                .add(new java.math.BigDecimal(epsilonRelease))));
    }

    public DistanceTest test() {
        return test;
    }

    public long beta() {
        return beta;
    }
}
