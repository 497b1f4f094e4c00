package io.privacygateway.mechanisms.random;

/**
 * The exact secret draws a device's randomizer may make: Bernoulli draws with a dyadic probability and
 * uniform integers. It is the only way randomizers touch secret randomness; in production it is
 * {@link ExactSampler#draws(RandomBits)} over {@link SecureRandomBits}.
 *
 * <p><b>Why an interface.</b> It is the level at which two guarantees are stated and tested:
 * <ul>
 *   <li><em>Exact laws.</em> Every output probability of a randomizer is a finite sum of products of the
 *       draws' probabilities ({@code numerator/2^gridBits} and {@code 1/n}), so a test implementation can
 *       enumerate the whole draw tree of {@code randomize} with exact rationals and compare the resulting
 *       law with the mechanism's stated one and with {@code e^ε}.</li>
 *   <li><em>Secret-independent cost.</em> Randomizers make a sequence of calls (their count, kinds,
 *       {@code gridBits} and {@code n}) that does not depend on the device's value or on earlier
 *       outcomes. Each call's own cost does not depend on its secret inputs either: a Bernoulli draw is one
 *       word and one comparison whatever its numerator, and the rejection loop of {@link #uniformInt}
 *       depends only on {@code n} and on fresh words, never on the value or on the accepted output. A test
 *       implementation records the sequence and checks it across values and random streams.</li>
 * </ul>
 *
 * <p>Implementations need not be thread-safe; one instance serves one report.
 */
public interface SecretDraws {
    /**
     * {@code true} with probability exactly {@code numerator / 2^gridBits}.
     *
     * @param numerator in {@code [0, 2^gridBits]}
     * @param gridBits in {@code [1, 62]}
     */
    boolean bernoulli(long numerator, int gridBits);

    /** {@code true} with probability exactly {@code p.numerator() / 2^53}. */
    default boolean bernoulli(DyadicProbability p) {
        return bernoulli(p.numerator(), DyadicProbability.BITS);
    }

    /**
     * A uniform integer in {@code [0, n)}, each with probability exactly {@code 1/n}.
     *
     * @param n at least 1
     */
    int uniformInt(int n);
}
