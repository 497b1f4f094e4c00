package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;

/**
 * A frequency oracle whose report is one output index {@code o ∈ [0, outputs)}, sent as {@value #WIDTH} bytes
 * unsigned big-endian, whose server state counts each output, and whose estimate is linear in those counts:
 * {@code n·p̂ = n·c + Σ_o count_o·contribution(o)} for a vector {@code c} that does not depend on the reports. Workload
 * factorization and the Fourier marginals oracle are of this kind.
 *
 * <p>The gateway rejects a payload of any other length or with {@code o >= outputs}, leaving its state untouched.
 * The spread of the contributions over the outputs is how far one report, honest or not, can move the estimate
 * ({@code robustness.OracleInfluence}).
 */
public abstract sealed class OutputCountOracle extends AbstractOracle permits FactorizationOracle, FourierMarginals {
    /** Payload width, bytes. */
    static final int WIDTH = 2;
    /** Most outputs a two-byte index can name. */
    static final int MAX_OUTPUTS = 1 << (8 * WIDTH);

    final int outputs;

    OutputCountOracle(int k, Epsilon eps, int outputs) {
        super(k, eps);
        this.outputs = (int) Require.inRange("outputs", outputs, 2, MAX_OUTPUTS);
    }

    /** The number of outputs. */
    public final int outputs() {
        return outputs;
    }

    @Override
    public final int payloadBytes() {
        return WIDTH;
    }

    @Override
    public final int stateLength() {
        return outputs;
    }

    @Override
    public final boolean accumulate(byte[] payload, long publicBase, long[] state) {
        return countIndex(payload, WIDTH, outputs, state);
    }

    /** The payload of output {@code o}. */
    final byte[] encodeOutput(int o) {
        return IndexCodec.encode(o, WIDTH);
    }

    /** The output a payload names, or {@code −1} if it is malformed. */
    final int decodeOutput(byte[] payload) {
        return IndexCodec.decode(payload, WIDTH, outputs);
    }

    /**
     * What one report with output {@code o} adds to {@code n·p̂}, less any part common to every output (a vector over
     * the {@code k} values).
     *
     * @param o in {@code [0, outputs)}
     */
    public abstract double[] contribution(int o);
}
