package io.privacygateway.mechanisms.central.purification;

import io.privacygateway.mechanisms.central.sampling.LqNorm;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.RandomBits;
import java.util.Arrays;

/**
 * Purification of an (ε, δ)-DP choice among {@code 2^d} options (Algorithm 2 of
 * purification-approx-to-pure-dp, MECHANISMS.md §4 "Discrete outputs"): binary-embed the index into
 * {@code {0,1}^d}, purify on the cube {@code Θ = [0,1]^d} with {@code ω = 2^{−d}}, round each coordinate at
 * 1/2 and decode. The output is {@code (ε + ε′)}-DP (the paper takes {@code ε′ = ε}). Use it to release a
 * discrete choice (which mechanism, which bucket) with a pure guarantee.
 *
 * <p>The cube is purified as what it is, the {@code l∞} ball with centre {@code (½, …, ½)} and
 * {@code l∞} diameter 1 ({@link Purifier} with {@link LqNorm#LINF}); the mixing is uniform over the cube's grid
 * points. The paper's Appendix F.5 instead views the cube through the {@code l1} ball
 * {@code a + B₁(d/2)} and plugs "R = d/2" into Algorithm 1; but {@code d/2} is that ball's <em>radius</em>, and
 * with R read as the diameter (MECHANISMS.md §4, F.4's {@code Vol(Θ) = (R/2)^d Vol(B_q)}) the l1 view gives
 * {@code Δ = 2·d·κ}, which is exactly the {@code l∞} view's {@code d·2·1·κ}. So the two views agree and
 * "R = d/2" would under-state Δ by a factor 2. On the grid the discretisation argument of
 * {@code docs/purification-discretised.md} applies unchanged (the cube lattice is an l∞ lattice ball).
 *
 * <p>Rounding at 1/2 is exact on the grid: the centre is a grid point ({@code h = 2^{−g}}, {@code g >= 1}), so
 * coordinate {@code i} of the output is 1 iff its grid offset from the centre is {@code >= 0}.
 */
public final class DiscretePurifier {
    /** Largest accepted number of bits {@code d} (indices are longs). */
    public static final int MAX_BITS = 62;

    private final int bits;
    private final Purifier cube;

    /** With the default grid of {@link Purifier}. */
    public DiscretePurifier(int bits, Epsilon epsilonPrime, LogDelta logDelta) {
        this(bits, epsilonPrime, logDelta, null);
    }

    /** On the grid {@code h = 2^{−gridExponent}} ({@code gridExponent >= 1}, so that ½ is a grid point). */
    public DiscretePurifier(int bits, Epsilon epsilonPrime, LogDelta logDelta, int gridExponent) {
        this(bits, epsilonPrime, logDelta, Integer.valueOf(gridExponent));
    }

    private DiscretePurifier(int bits, Epsilon epsilonPrime, LogDelta logDelta, Integer gridExponent) {
        this.bits = (int) Require.inRange("bits", bits, 1, MAX_BITS);
        double[] centre = new double[bits];
        Arrays.fill(centre, 0.5);
        double omega = Math.scalb(1.0, -bits);
        if (gridExponent != null) {
            Require.inRange("gridExponent", gridExponent, 1, 30);
            this.cube = new Purifier(LqNorm.LINF, centre, 1.0, epsilonPrime, logDelta, omega, gridExponent);
        } else {
            this.cube = new Purifier(LqNorm.LINF, centre, 1.0, epsilonPrime, logDelta, omega);
        }
    }

    public int bits() {
        return bits;
    }

    /** The number of options {@code 2^d}. */
    public long options() {
        return 1L << bits;
    }

    /** The purifier on the cube (ω = {@code 2^{−d}}, l∞, centre ½, diameter 1). */
    public Purifier cubePurifier() {
        return cube;
    }

    /**
     * The purified choice.
     *
     * @param index the (ε, δ)-DP choice in {@code [0, 2^d)}; bit {@code i} is coordinate {@code i}
     * @param secret the secret randomness
     */
    public long purify(long index, RandomBits secret) {
        Require.inRange("index", index, 0, options() - 1);
        double[] x = new double[bits];
        for (int i = 0; i < bits; i++) {
            x[i] = (index >>> i) & 1L;
        }
        long[] z = cube.purifyToGrid(x, secret);
        long out = 0;
        for (int i = 0; i < bits; i++) {
            out |= bitOf(z[i]) << i;
        }
        return out;
    }

    /**
     * The bit a purified cube coordinate (grid units, offset from the centre ½) stands for: 1 from the centre
     * up ({@code z >= 0}), 0 below it. Post-processing; {@link #probabilityUnchangedLowerBound} counts on
     * exactly this threshold.
     */
    static long bitOf(long z) {
        return z >= 0 ? 1L : 0L;
    }

    /**
     * A lower bound on {@code P(output = input)}: {@code (1 − ω)·(1 − β^N/(1+β))^d} with {@code N = 1/(2h)} and
     * {@code β = e^{−1/t}}: without mixing, bit 0 ({@code z = −N}) flips iff {@code η >= N} (probability
     * {@code β^N/(1+β)}) and bit 1 ({@code z = N}) flips iff {@code η <= −N−1} (probability
     * {@code β^{N+1}/(1+β)}), independently per coordinate.
     */
    public double probabilityUnchangedLowerBound() {
        double n = cube.gridRadius();
        double t = cube.noiseScaleGridUnits().doubleValue();
        double beta = cube.noiseDistribution().beta();
        double flip = Math.exp(-n / t) / (1 + beta);
        return (1 - cube.omega()) * Math.exp(bits * Math.log1p(-flip));
    }

    /** The pure-DP guarantee {@code ε + ε′}. */
    public Epsilon epsilonTotal(Epsilon epsilon) {
        return cube.epsilonTotal(epsilon);
    }

    @Override
    public String toString() {
        return "DiscretePurifier(bits=" + bits + ", " + cube + ")";
    }
}
