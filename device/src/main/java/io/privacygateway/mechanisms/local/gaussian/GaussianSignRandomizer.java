package io.privacygateway.mechanisms.local.gaussian;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.ExpBounds;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SecretDraws;
import java.math.BigDecimal;

/**
 * The Gaussian-sign randomizer of one level (MECHANISMS.md §2; Błasiok–Nikolov, Definition 5.5 and
 * Claims 5.6–5.9, with the corrected constants of MECHANISMS.md), in its public-coin form: the Gaussian
 * direction {@code Z ~ N(0, I_m)} is public ({@link PublicGaussian} on a public stream) and the device's
 * only secret randomness is one exact Bernoulli draw for the sign {@code S}.
 *
 * <p><b>Parameters.</b> A public radius {@code r > 0}, a pure {@code ε}, a dimension {@code m ≥ 1}. The
 * bias is the dyadic value {@code b̃ = B / 2^53} where {@code B} is the largest integer in
 * {@code [0, 2^53)} with {@code (2^53 + B) / (2^53 − B) ≤ L(ε)}, {@code L(ε) =}
 * {@link ExpBounds#lowerBoundExact ExpBounds.lowerBoundExact(ε, 40)} {@code ≤ e^ε}, certified in exact
 * {@link BigDecimal} arithmetic ({@link #certifiedBiasNumerator}). Hence {@code b̃ ≤ tanh(ε/2)}.
 *
 * <p><b>The device's draw.</b> For an input {@code v} with {@code ||v|| ≤ r} let {@code u = v/r} and
 * {@code B_u = min(B, floor(B · min(1, ||v||/r)))} (so {@code B_u = floor(b̃·||u||·2^53)} up to the
 * rounding of one double product, and never above {@code B}). Then
 * <pre>P(S = +1 | Z = z) = T / 2^54,   T = 2^53 + sgn⟨z, v⟩ · B_u,</pre>
 * realised exactly as {@code (w >>> 10) < T} for one secret 64-bit word {@code w} (a uniform 54-bit
 * integer compared against an integer threshold). {@code sgn 0 = +1} (a tie {@code ⟨z, v⟩ = 0}, including
 * {@code -0.0}, counts as positive; privacy does not depend on the sign rule). {@code u = 0} gives
 * {@code B_u = 0} and {@code P = 1/2}, as the paper's {@code U = ±e_1} rule does.
 *
 * <p><b>Why one Bernoulli suffices.</b> The paper draws {@code U = ±u/||u||} with
 * {@code P(U = +u/||u||) = (1 + ||u||)/2}, then {@code S} with {@code E[S | Z, U] = b·sgn⟨Z, U⟩}. Given
 * {@code Z}, {@code E[S | Z] = b · E_U sgn⟨Z, U⟩ = b · ||u|| · sgn⟨Z, u⟩}; a {@code ±1} variable is
 * determined in law by its mean, so drawing {@code S} directly with
 * {@code P(S = +1 | Z) = (1 + b||u||·sgn⟨Z, u⟩)/2} gives exactly the same joint law of the release
 * {@code (Z, S)} with half the secret draws ({@code U} itself is never released).
 *
 * <p><b>Privacy (exact, every ε in (0, 40]).</b> For every fixed {@code z} and every input, {@code T}
 * lies in {@code [2^53 − B, 2^53 + B]} because {@code B_u ≤ B}; therefore for any two inputs
 * {@code v, v'} and either sign {@code s},
 * {@code P(S = s | z, v) / P(S = s | z, v') ≤ (2^53 + B)/(2^53 − B) ≤ L(ε) ≤ e^ε} (Claim 5.9 with the
 * corrected bias; the paper's {@code ε/3} fails above ε ≈ 2.6). {@code Z} does not depend on the input,
 * so the release {@code (Z, S)} is ε-LDP.
 *
 * <p><b>Decoding (Claim 5.6, corrected constant).</b> {@code W = c · S · Z} with
 * {@code c = r·√(π/2)/b̃}. Since {@code E[Z sgn⟨Z, u⟩] = √(2/π)·u/||u||},
 * {@code E[W] = c · (B_u/2^53) · √(2/π) · u/||u|| = v − β} with
 * {@code ||β|| = (r/b̃)·|B_u/2^53 − b̃·||u||| ≤ (m + 5)·r·2^-53/b̃} (the floor in {@code B_u} and the
 * rounding of {@code ||v||/r}; e.g. {@code 4.7e-12·r} at ε = 10⁻³, m = 16). {@code Cov(W) = c²I − vvᵀ} and {@code E||W||² = c²m}; {@code |W_k| = c·|Z_k|}, so {@code W}
 * is {@code O(c)}-subgaussian (Claim 5.7). The deviation of {@link PublicGaussian} from an exact normal law (table
 * rounding, relative order {@code 2^-50}) adds a bias of the same negligible order.
 *
 * <p>Immutable and thread-safe.
 */
public final class GaussianSignRandomizer {
    /** The grid of {@code b̃}: {@code b̃ = B / 2^53}. */
    public static final long BIAS_ONE = 1L << 53;
    /** {@code 2^53}: the threshold of a fair sign on the {@code 2^54} grid of {@link #plusThreshold}. */
    public static final long FAIR_THRESHOLD = 1L << 53;
    /** The sign's Bernoulli grid: {@code P(S = +1) = T / 2^54}. */
    public static final int THRESHOLD_BITS = 54;
    /** {@code √(π/2)}. */
    static final double SQRT_HALF_PI = Math.sqrt(Math.PI / 2);

    private final double radius;
    private final Epsilon epsilon;
    private final int dimension;
    private final long biasNumerator;
    private final double decodeScale;

    /**
     * A randomizer with the certified bias of {@code epsilon}.
     *
     * @param radius the public radius {@code r}: finite, {@code > 0}
     * @param epsilon the pure ε of one release
     * @param dimension {@code m >= 1}
     */
    public GaussianSignRandomizer(double radius, Epsilon epsilon, int dimension) {
        this(radius, epsilon, dimension, certifiedBiasNumerator(Require.nonNull("epsilon", epsilon)));
    }

    /** With an explicit bias numerator, for tests of the privacy check itself (controls). */
    GaussianSignRandomizer(double radius, Epsilon epsilon, int dimension, long biasNumerator) {
        this.radius = Require.finitePositive("radius", radius);
        this.epsilon = Require.nonNull("epsilon", epsilon);
        this.dimension = Require.positive("dimension", dimension);
        this.biasNumerator = Require.inRange("biasNumerator", biasNumerator, 1, BIAS_ONE);
        this.decodeScale = radius * SQRT_HALF_PI / bias();
    }

    /**
     * {@code B}: the largest integer in {@code [0, 2^53)} with
     * {@code (2^53 + B) ≤ L · (2^53 − B)}, {@code L = ExpBounds.lowerBoundExact(ε, 40) ≤ e^ε}, checked in
     * exact decimal arithmetic (binary search; the condition is monotone in {@code B}). At least 1 for
     * every valid ε.
     */
    public static long certifiedBiasNumerator(Epsilon epsilon) {
        BigDecimal bound = ExpBounds.lowerBoundExact(Require.nonNull("epsilon", epsilon).value(), 40);
        long lo = 0; // certified
        long hi = BIAS_ONE; // not certified (infinite ratio)
        while (hi - lo > 1) {
            long mid = (lo + hi) >>> 1;
            if (certified(mid, bound)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        if (lo < 1) {
            throw new IllegalArgumentException("epsilon " + epsilon.value()
                    + " is too small for the 2^-53 bias grid (the certified bias rounds to 0)");
        }
        return lo;
    }

    /** Whether {@code (2^53 + b) ≤ bound · (2^53 − b)}, exactly. */
    static boolean certified(long b, BigDecimal bound) {
        BigDecimal lhs = BigDecimal.valueOf(BIAS_ONE + b);
        BigDecimal rhs = bound.multiply(BigDecimal.valueOf(BIAS_ONE - b));
        return lhs.compareTo(rhs) <= 0;
    }

    public double radius() {
        return radius;
    }

    public Epsilon epsilon() {
        return epsilon;
    }

    public int dimension() {
        return dimension;
    }

    /** {@code B}, the numerator of {@code b̃} on the {@code 2^-53} grid. */
    public long biasNumerator() {
        return biasNumerator;
    }

    /** {@code b̃ = B · 2^-53} (exact). */
    public double bias() {
        return biasNumerator * 0x1.0p-53;
    }

    /** {@code c = r·√(π/2)/b̃}: the server's decode scale, {@code W = c·S·Z}. */
    public double decodeScale() {
        return decodeScale;
    }

    /**
     * {@code B_u = min(B, floor(B · min(1, ||v||/r)))} with {@code ||v||} the square root of the sum of
     * squares in index order.
     *
     * @throws IllegalArgumentException if {@code v} has the wrong length, a non-finite coordinate, or
     *     {@code ||v|| > r} by more than a relative {@code 1e-9} (a tiny excess is clamped, never
     *     exceeding {@code B})
     */
    public long valueBias(double[] v) {
        checkLength("v", v);
        double s = 0;
        for (double x : v) {
            if (!Double.isFinite(x)) {
                throw new IllegalArgumentException("v must have finite coordinates, got " + x);
            }
            s += x * x;
        }
        double norm = Math.sqrt(s);
        if (norm > radius * (1 + 1e-9)) {
            throw new IllegalArgumentException("||v|| must be <= radius " + radius + ", got " + norm);
        }
        return valueBias(biasNumerator, norm / radius);
    }

    /** {@code min(B, floor(B · min(1, q)))} for {@code q = ||u|| >= 0}. */
    static long valueBias(long biasNumerator, double q) {
        double qq = q < 1 ? q : 1;
        long bu = (long) Math.floor(biasNumerator * qq);
        return Math.min(bu, biasNumerator);
    }

    /**
     * The exact probability of {@code S = +1} given {@code z}, as {@code T / 2^54}: {@code T = 2^53 ±
     * B_u}, + when {@code ⟨z, v⟩ >= 0} (dot product summed in index order).
     */
    public long plusThreshold(double[] v, double[] z) {
        checkLength("z", z);
        long bu = valueBias(v);
        double dot = 0;
        for (int k = 0; k < dimension; k++) {
            dot += z[k] * v[k];
        }
        return threshold(bu, dot);
    }

    /** {@code 2^53 + bu} if {@code dot >= 0} (also for {@code -0.0}), else {@code 2^53 − bu}. */
    static long threshold(long bu, double dot) {
        return dot >= 0 || dot != dot ? FAIR_THRESHOLD + bu : FAIR_THRESHOLD - bu;
    }

    /**
     * The exact Bernoulli: {@code true} (S = +1) with probability exactly {@code threshold / 2^54},
     * consuming one word of {@code secret}: {@code (w >>> 10) < threshold}.
     */
    public static boolean sampleSign(long threshold, RandomBits secret) {
        return ExactSampler.bernoulli(Require.nonNull("secret", secret), threshold, THRESHOLD_BITS);
    }

    /**
     * Device side: the secret sign for input {@code v} and public direction {@code z}; one word of
     * {@code secret}. {@code true} means {@code S = +1}.
     */
    public boolean randomize(double[] v, double[] z, RandomBits secret) {
        return randomize(v, z, ExactSampler.draws(Require.nonNull("secret", secret)));
    }

    /**
     * Device side with explicit draws: exactly one {@code bernoulli(T, 54)} call, {@code T} =
     * {@link #plusThreshold}, whatever {@code v} (also for {@code v = 0}).
     */
    public boolean randomize(double[] v, double[] z, SecretDraws draws) {
        Require.nonNull("draws", draws);
        return draws.bernoulli(plusThreshold(v, z), THRESHOLD_BITS);
    }

    /** Server side: {@code out = c · S · z}. */
    public void decode(boolean plus, double[] z, double[] out) {
        checkLength("z", z);
        checkLength("out", out);
        double a = plus ? decodeScale : -decodeScale;
        for (int k = 0; k < dimension; k++) {
            out[k] = a * z[k];
        }
    }

    private void checkLength(String field, double[] a) {
        Require.nonNull(field, a);
        if (a.length != dimension) {
            throw new IllegalArgumentException(field + " must have length " + dimension + ", got " + a.length);
        }
    }

    @Override
    public String toString() {
        return "GaussianSignRandomizer[r=" + radius + ", " + epsilon + ", m=" + dimension + ", B=" + biasNumerator
                + "]";
    }
}
