package io.privacygateway.mechanisms.local.vector;

import io.privacygateway.mechanisms.local.mean.ScalarRandomizer;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.workload.Domain;

/**
 * The estimator of {@link BoxCoordinates}: {@code t̄_c = d/(k n)·Σ_y count_{c,y}·t̂(y)} per coordinate, the mean
 * {@code lo + (hi − lo)(t̄_c + 1)/2}, the public standard error {@code (hi − lo)/2·√(((d/k)·V_max + d/k − 1)/n)}
 * (the protocol's class comment), projected by clipping each coordinate to {@code [lo, hi]}.
 */
public final class BoxCoordinatesEstimator implements VectorMeanEstimator {
    private final BoxCoordinates protocol;
    private final int dim;
    private final int sampled;
    private final int outputs;
    private final Domain.Range range;
    private final double[] estimates;

    public BoxCoordinatesEstimator(BoxCoordinates protocol) {
        this.protocol = Require.nonNull("protocol", protocol);
        this.dim = protocol.dimension();
        this.sampled = protocol.sampledCoordinates();
        this.range = protocol.range();
        ScalarRandomizer scalar = protocol.scalar();
        this.outputs = scalar.outputCount();
        this.estimates = new double[outputs];
        for (int y = 0; y < outputs; y++) {
            estimates[y] = scalar.estimateOf(y);
        }
    }

    @Override
    public BoxCoordinates protocol() {
        return protocol;
    }

    @Override
    public VectorMeanEstimate estimate(long[] state, long n) {
        VectorChecks.state(state, protocol.stateLength());
        Require.inRange("n", n, 1, Long.MAX_VALUE);
        double half = (range.hi() - range.lo()) / 2;
        double factor = (double) dim / ((double) sampled * n);
        double se = worstStandardError(n);
        double[] mean = new double[dim];
        double[] bars = new double[dim];
        for (int c = 0; c < dim; c++) {
            double sum = 0;
            int off = c * outputs;
            for (int y = 0; y < outputs; y++) {
                if (state[off + y] != 0) {
                    sum += state[off + y] * estimates[y];
                }
            }
            mean[c] = range.lo() + half * (factor * sum + 1);
            bars[c] = se;
        }
        return new VectorMeanEstimate(mean, bars, n);
    }

    /** Clips each coordinate to {@code [lo, hi]} (NaN stays NaN). */
    @Override
    public double[] project(double[] mean) {
        VectorChecks.vector("mean", mean, dim);
        double[] out = new double[dim];
        for (int c = 0; c < dim; c++) {
            out[c] = Math.max(range.lo(), Math.min(range.hi(), mean[c]));
        }
        return out;
    }

    /** {@code (hi − lo)/2·√(((d/k)·V_max + d/k − 1)/n)}. */
    @Override
    public double worstStandardError(long n) {
        Require.inRange("n", n, 1, Long.MAX_VALUE);
        return (range.hi() - range.lo()) / 2 * Math.sqrt(protocol.worstVariance() / n);
    }
}
