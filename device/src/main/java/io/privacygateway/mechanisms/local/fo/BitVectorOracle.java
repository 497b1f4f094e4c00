package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.param.Epsilon;

/**
 * A support-count oracle whose payload is the supported set itself as a {@code k}-bit map ({@link BitVector}):
 * optimized unary encoding (any set) and subset selection (sets of one size). The server adds one to the count of
 * every value whose bit is set; a payload that is not well formed for the oracle is rejected without touching the
 * state.
 */
abstract class BitVectorOracle extends SupportCountOracle {
    BitVectorOracle(int k, Epsilon eps) {
        super(k, eps);
    }

    /** Whether the payload is one this oracle's device can send (length, padding, and any rule of its own). */
    abstract boolean wellFormed(byte[] payload);

    @Override
    public final boolean accumulate(byte[] payload, long publicBase, long[] state) {
        checkState(state);
        if (!wellFormed(payload)) {
            return false;
        }
        BitVector.addSetBits(payload, state);
        return true;
    }
}
