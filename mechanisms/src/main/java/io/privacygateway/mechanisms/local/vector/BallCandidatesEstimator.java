package io.privacygateway.mechanisms.local.vector;

import io.privacygateway.mechanisms.local.gaussian.PublicGaussian;
import io.privacygateway.mechanisms.param.Require;

/**
 * The estimator of {@link BallCandidates}: {@code r/(κ n)·Σ c_J} from the fixed-point sum of the chosen candidates,
 * with the public standard error {@code r·√max(G, 1)/(κ√n)} (the protocol's class comment), projected by scaling a
 * mean outside the ball back onto its sphere.
 */
public final class BallCandidatesEstimator implements VectorMeanEstimator {
    private static final double UNSCALE = Math.scalb(1.0, -PublicGaussian.FIXED_POINT_BITS);

    private final BallCandidates protocol;
    private final int dim;
    private final double radius;
    private final double kappa;

    public BallCandidatesEstimator(BallCandidates protocol) {
        this.protocol = Require.nonNull("protocol", protocol);
        this.dim = protocol.dimension();
        this.radius = protocol.radius();
        this.kappa = protocol.kappa();
    }

    @Override
    public BallCandidates protocol() {
        return protocol;
    }

    @Override
    public VectorMeanEstimate estimate(long[] state, long n) {
        VectorChecks.state(state, dim);
        Require.inRange("n", n, 1, BallCandidates.MAX_REPORTS);
        double scale = radius / (kappa * n);
        double se = worstStandardError(n);
        double[] mean = new double[dim];
        double[] bars = new double[dim];
        for (int k = 0; k < dim; k++) {
            mean[k] = scale * (state[k] * UNSCALE);
            bars[k] = se;
        }
        return new VectorMeanEstimate(mean, bars, n);
    }

    /** Scales a mean outside the ball back onto its sphere (a point inside is returned unchanged, as a copy). */
    @Override
    public double[] project(double[] mean) {
        VectorChecks.vector("mean", mean, dim);
        double[] out = mean.clone();
        double norm = BallCandidates.norm(out);
        if (norm > radius) {
            double f = radius / norm;
            for (int k = 0; k < dim; k++) {
                out[k] *= f;
            }
        }
        return out;
    }

    /** {@code r·√max(G, 1)/(κ√n)}. */
    @Override
    public double worstStandardError(long n) {
        Require.inRange("n", n, 1, Long.MAX_VALUE);
        return Math.sqrt(protocol.worstCoordinateVariance() / n);
    }
}
