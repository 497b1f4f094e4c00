package io.privacygateway.mechanisms.central.wide;

import io.privacygateway.mechanisms.central.purification.Purifier;
import io.privacygateway.mechanisms.central.sampling.LqNorm;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.param.Require;
import java.util.Arrays;

/**
 * Purification of an (ε, δ)-DP bit string of length D (purification paper Algorithm 2, binary embedding): the
 * string is a point of the cube {@code Θ = [0,1]^D}, purified by Algorithm 1 ({@link Purifier}: l∞ ball with
 * centre {@code (½,…,½)} and l∞ diameter 1, discretised), and every coordinate is rounded at ½. The output is
 * {@code (ε + ε′)}-DP (Theorem 1 of the paper for any mixing weight ω; the rounding is post-processing).
 *
 * <p>This is {@code central/purification/DiscretePurifier} for long strings: that class embeds an index of at most
 * 62 bits and fixes {@code ω = 2^{−D}}, the paper's choice in Algorithm 2, which is not a double for the
 * {@code D = m·d} bits of a synthetic dataset. Theorem 1 holds for every {@code ω ∈ (0, 1)} (ω only trades the
 * mixing event's probability against κ in {@code Δ = 2D·(δ/(2ω))^{1/D}}), so ω is a parameter here, chosen with
 * the rest of the release's parameters.
 *
 * <p><b>Flips.</b> A bit enters as the grid point {@code z = ±N} ({@code N = 1/(2h)}, an integer: the default grid
 * has {@code h = 2^{−g}}, {@code g >= 1}) and leaves as {@code 1{z + η >= 0}}; without mixing, bit 0 flips iff
 * {@code η >= N} and bit 1 iff {@code η <= −N−1}, each with probability at most {@code β^N/(1+β)},
 * {@code β = e^{−1/t}} ({@link #flipProbability()}), independently per bit.
 */
public final class BinaryCubePurifier {
    private final int bits;
    private final Purifier cube;

    /**
     * @param bits D, in {@code [1, Purifier.MAX_DIMENSION]}
     * @param epsilonPrime ε′
     * @param logDelta ln δ of the upstream (ε, δ)-DP bit string
     * @param omega the mixing weight ω ∈ (0, 1)
     */
    public BinaryCubePurifier(int bits, Epsilon epsilonPrime, LogDelta logDelta, double omega) {
        this.bits = (int) Require.inRange("bits", bits, 1, Purifier.MAX_DIMENSION);
        double[] centre = new double[bits];
        Arrays.fill(centre, 0.5);
        this.cube = new Purifier(LqNorm.LINF, centre, 1.0, epsilonPrime, logDelta, omega);
        if (cube.gridExponent() < 1) {
            throw new IllegalStateException("the cube's grid must have h <= 1/2, got 2^-" + cube.gridExponent());
        }
    }

    public int bits() {
        return bits;
    }

    /** The purifier on the cube. */
    public Purifier cube() {
        return cube;
    }

    /**
     * The purified bit string.
     *
     * @param input D bits, each 0 or 1
     */
    public boolean[] purify(boolean[] input, ReleaseDraws draws) {
        if (input.length != bits) {
            throw new IllegalArgumentException("input must have " + bits + " bits, got " + input.length);
        }
        double[] x = new double[bits];
        for (int i = 0; i < bits; i++) {
            x[i] = input[i] ? 1 : 0;
        }
        long[] z = draws.purify(cube, x);
        boolean[] out = new boolean[bits];
        for (int i = 0; i < bits; i++) {
            out[i] = z[i] >= 0;
        }
        return out;
    }

    /** An upper bound on the probability that one bit flips when the mixing event does not occur. */
    public double flipProbability() {
        double n = cube.gridRadius();
        double t = cube.noiseScaleGridUnits().doubleValue() * (1 + 1e-12);
        return Math.exp(-n / t) / (1 + Math.exp(-1 / t)) * (1 + 1e-12); // rounding allowance upwards
    }

    /** The pure guarantee {@code ε + ε′}. */
    public Epsilon epsilonTotal(Epsilon epsilon) {
        return cube.epsilonTotal(epsilon);
    }
}
