package io.privacygateway.mechanisms.local.gaussian;

import io.privacygateway.mechanisms.local.LocalEstimate;
import io.privacygateway.mechanisms.local.LocalEstimator;
import io.privacygateway.mechanisms.param.Require;
import java.util.ArrayList;
import java.util.List;

/**
 * The gateway half of a {@link GaussianSignProtocol}: the levels' estimates from the exact fixed-point aggregate.
 *
 * <p><b>Estimate.</b> Level {@code j}: {@code mean_j = c_j · (state_j / 2^32) / n},
 * {@code c_j = r_j·√(π/2)/b̃_j} ({@link GaussianSignProtocol#decodeScale}), unbiased for the mean of the level
 * vectors up to the bias documented in {@link GaussianSignRandomizer} plus the fixed-point rounding bias, at most
 * {@code r_j·√(π/2)·2^-33} per coordinate. Standard errors are {@code c_j/√n} per coordinate, an upper
 * bound on the exact {@code sqrt(Σ_i (c_j² − v_{i,k}²))/n}; {@code noiseScale = c_j/√n}. A window of more than
 * {@link GaussianSignProtocol#MAX_REPORTS} reports is refused (its aggregate could have overflowed).
 *
 * <p>Immutable and thread-safe.
 */
public final class GaussianSignEstimator implements LocalEstimator {
    private static final double UNSCALE = Math.scalb(1.0, -GaussianSignProtocol.FIXED_POINT_BITS);

    private final GaussianSignProtocol protocol;
    private final List<GaussianLevel> levels;
    private final int levelCount;
    private final int dim;

    public GaussianSignEstimator(GaussianSignProtocol protocol) {
        this.protocol = Require.nonNull("protocol", protocol);
        this.levels = protocol.levels();
        this.levelCount = levels.size();
        this.dim = protocol.dimension();
    }

    @Override
    public GaussianSignProtocol protocol() {
        return protocol;
    }

    @Override
    public LocalEstimate estimate(long[] state, long n) {
        Require.nonNull("state", state);
        if (state.length != protocol.stateLength()) {
            throw new IllegalArgumentException("state must have length " + protocol.stateLength() + ", got "
                    + state.length);
        }
        Require.inRange("n", n, 1, GaussianSignProtocol.MAX_REPORTS);
        double sqrtN = Math.sqrt((double) n);
        List<LocalEstimate.Level> out = new ArrayList<>(levelCount);
        for (int j = 0; j < levelCount; j++) {
            double c = protocol.decodeScale(j);
            double[] mean = new double[dim];
            double[] se = new double[dim];
            int off = j * dim;
            double sigma = c / sqrtN;
            for (int k = 0; k < dim; k++) {
                mean[k] = c * (state[off + k] * UNSCALE) / n;
                se[k] = sigma;
            }
            GaussianLevel level = levels.get(j);
            out.add(new LocalEstimate.Level(mean, se, sigma, level.hull(), level.epsilon().value(),
                    protocol.radius(j)));
        }
        return new LocalEstimate(out, protocol.biasBound());
    }

    @Override
    public double[] expectedLevelMean(int level, double[] histogram) {
        if (level < 0 || level >= levels.size()) {
            throw new IllegalArgumentException("level must be in [0, " + levels.size() + "), got " + level);
        }
        return levels.get(level).valueVectors().combine(histogram);
    }
}
