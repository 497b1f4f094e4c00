package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.random.SecretDraws;

/**
 * A support-count oracle whose report is a single index in {@code [0, indexRange())}: GRR and OLH. The
 * {@link TreeMechanism} drives its per-level oracles through this interface with its own payload width
 * and state layout.
 */
interface IndexOracle {
    /** Reports are indices in {@code [0, indexRange())}. */
    int indexRange();

    /** The randomized index of {@code value} (validated by the caller). */
    int randomizeIndex(int value, long publicBase, SecretDraws draws);

    /** Adds the supports of index {@code y < indexRange()} to {@code state[offset .. offset + k)}. */
    void accumulateIndex(int y, long publicBase, long[] state, int offset);

    /** The exact probability that {@code value} is randomized to index {@code y}. */
    Rational indexProbability(int value, int y, long publicBase);
}
