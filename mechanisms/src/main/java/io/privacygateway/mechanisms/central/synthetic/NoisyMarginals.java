package io.privacygateway.mechanisms.central.synthetic;

import io.privacygateway.mechanisms.param.Require;

/**
 * The private outputs of one window, the only values computed from the data: the released report count and the
 * noisy coefficients {@code w_b = H·c_b + ξ_b} of every table (exact integers). Everything a synthetic release
 * publishes is a deterministic function of this record and public parameters.
 *
 * @param releasedCount ñ = n + noise (add/remove) or n (replace-one); may be ≤ 0
 * @param coefficients the K·2^s noisy coefficients, layout order (copied)
 */
public record NoisyMarginals(long releasedCount, long[] coefficients) {
    public NoisyMarginals {
        Require.nonNull("coefficients", coefficients);
        coefficients = coefficients.clone();
    }

    @Override
    public long[] coefficients() {
        return coefficients.clone();
    }

    /** {@code max(1, ñ)}: what tables are divided by (post-processing of ñ). */
    public long divisor() {
        return Math.max(1, releasedCount);
    }

    /** {@code 2^s·v_b = synthesis·w_b} for every table: the noisy cell counts times {@code 2^s}, exact. */
    long[] scaledTables(MarginalLayout layout, long[][] synthesis) {
        int w = layout.cellsPerBlock();
        if (coefficients.length != layout.cells()) {
            throw new IllegalArgumentException("coefficients must have " + layout.cells() + " entries, got "
                    + coefficients.length);
        }
        long[] out = new long[coefficients.length];
        for (int b = 0; b < layout.blocks(); b++) {
            for (int i = 0; i < w; i++) {
                long s = 0;
                for (int j = 0; j < w; j++) {
                    s = Math.addExact(s, Math.multiplyExact(synthesis[i][j], coefficients[b * w + j]));
                }
                out[b * w + i] = s;
            }
        }
        return out;
    }
}
