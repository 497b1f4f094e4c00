package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import java.util.function.ToDoubleFunction;

/** Shared parameter validation of the frequency oracles. */
abstract class AbstractOracle implements FrequencyOracle {
    /** Largest supported domain size {@code 2^24}. */
    static final int MAX_DOMAIN = 1 << 24;

    final int k;
    final Epsilon eps;

    AbstractOracle(int k, Epsilon eps) {
        Require.inRange("domainSize", k, 2, MAX_DOMAIN);
        this.k = k;
        this.eps = Require.nonNull("epsilon", eps);
    }

    @Override
    public final Epsilon epsilon() {
        return eps;
    }

    @Override
    public final int domainSize() {
        return k;
    }

    /**
     * Rejects an ε so small that the grid rounding leaves no signal ({@code p* <= q*}: the estimator
     * would divide by zero). Only happens for ε below about {@code k · 2^-53}.
     */
    final void requireInformative(double pStar, double qStar) {
        if (!(pStar > qStar)) {
            throw new IllegalArgumentException("epsilon=" + eps.value() + " is too small to be realised on the 2^-53"
                    + " probability grid for " + id().wireName() + " with domainSize=" + k);
        }
    }

    final void checkValue(int value) {
        Require.inRange("value", value, 0, k - 1);
    }

    final void checkState(long[] state) {
        if (state == null || state.length != stateLength()) {
            throw new IllegalArgumentException("state must have length " + stateLength() + ", got "
                    + (state == null ? "nothing" : Integer.toString(state.length)));
        }
    }

    /**
     * Accumulation for oracles whose state counts reports per payload index: adds one to the count of the index the
     * payload encodes ({@code width} bytes, in {@code [0, range)}).
     *
     * @return {@code false}, leaving {@code state} untouched, if the payload is malformed
     */
    final boolean countIndex(byte[] payload, int width, int range, long[] state) {
        checkState(state);
        int j = IndexCodec.decode(payload, width, range);
        if (j < 0) {
            return false;
        }
        state[j]++;
        return true;
    }

    /**
     * {@code variance} of every query's coefficient column {@code c = (answers.get(x, q))_x}, in query order.
     * Preconditions: {@code answers} has {@code k} points; {@code variance} reads its argument only during the
     * call (one buffer serves every query).
     */
    final double[] perQuery(PointSet answers, ToDoubleFunction<double[]> variance) {
        int m = answers.dim();
        double[] out = new double[m];
        double[] c = new double[k];
        for (int q = 0; q < m; q++) {
            for (int x = 0; x < k; x++) {
                c[x] = answers.get(x, q);
            }
            out[q] = variance.applyAsDouble(c);
        }
        return out;
    }
}
