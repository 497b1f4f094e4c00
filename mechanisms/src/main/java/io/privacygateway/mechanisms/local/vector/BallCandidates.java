package io.privacygateway.mechanisms.local.vector;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.workload.MechanismId;

/** STUB: the API is fixed, the implementation comes with the vector-mean protocol. */
public final class BallCandidates implements VectorMeanProtocol {
    private BallCandidates() {}

    @Override public MechanismId id() { throw new UnsupportedOperationException("stub"); }
    @Override public Epsilon epsilon() { throw new UnsupportedOperationException("stub"); }
    @Override public int payloadBytes() { throw new UnsupportedOperationException("stub"); }
    @Override public int stateLength() { throw new UnsupportedOperationException("stub"); }
    @Override public boolean accumulate(byte[] payload, ReportCoordinates coordinates, long[] state) { throw new UnsupportedOperationException("stub"); }
    @Override public int dimension() { throw new UnsupportedOperationException("stub"); }
    @Override public void checkValue(double[] value) { throw new UnsupportedOperationException("stub"); }
    @Override public byte[] randomize(double[] value, ReportCoordinates coordinates, SecretDraws draws) { throw new UnsupportedOperationException("stub"); }
    @Override public VectorMeanEstimate estimate(long[] state, long n) { throw new UnsupportedOperationException("stub"); }
    @Override public double[] project(double[] mean) { throw new UnsupportedOperationException("stub"); }
    @Override public double worstStandardError(long n) { throw new UnsupportedOperationException("stub"); }

    /**
     * The ℓ2-ball protocol with the candidate count and top-set size that minimise the worst-case variance.
     *
     * @param dimension the number of coordinates (1..256)
     * @param radius the ball's radius (&gt; 0, finite)
     * @param epsilon the per-report ε
     * @param contentHashHex the workload's content hash (64 hex digits): the key of the public coins
     */
    public static BallCandidates of(int dimension, double radius, Epsilon epsilon, String contentHashHex) {
        throw new UnsupportedOperationException("stub");
    }
}
