package io.privacygateway.mechanisms.central.sampling;

import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.Rational;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * An exactly uniform point of {@code L = {z ∈ ℤ^d : ||z||_q <= radius}}, the lattice points of an
 * {@code l_q} ball around the origin, for {@code q ∈ {1, 2, ∞}}. The purifier uses it for the uniform-mixing
 * draw on the grid.
 *
 * <ul>
 *   <li>{@code q = ∞} (radius {@code N}): {@code d} independent uniform integers in {@code [−N, N]}. Cost:
 *       exactly {@code d} uniform draws (about one word each).
 *   <li>{@code q = 1} (radius {@code N}): rejection from the product discrete Laplace
 *       {@code P(z) ∝ e^{−||z||₁/τ}}, accepting a proposal with {@code ||z||₁ <= N} with probability
 *       {@code exp(−(N − ||z||₁)/τ)} ({@link BernoulliExp}); then {@code P(z accepted) = e^{−N/τ}·const} for
 *       every {@code z ∈ L}: exactly uniform. {@code τ} is chosen to maximise the acceptance rate
 *       {@code |L|·β^N/((1+β)/(1−β))^d} with {@code β = e^{−1/τ}}: {@code β* = √((d/N)²+1) − d/N}, i.e.
 *       {@code τ = 1/asinh(d/N)} (rounded to a rational; any τ gives exact uniformity). Expected proposals:
 *       about {@code √(2πd)} when {@code N ≫ d} (the ratio {@code d^d e^{−d}/d!}), and {@code O(1)} when
 *       {@code N ≪ d}; each proposal costs at most {@code d} discrete Laplace draws (a proposal is abandoned
 *       as soon as its partial norm exceeds {@code N}, which does not change the output distribution).
 *   <li>{@code q = 2} (squared radius {@code M}): rejection from the product discrete Gaussian with
 *       parameter {@code σ²}, accepting {@code ||z||₂² <= M} with probability
 *       {@code exp(−(M − ||z||₂²)/(2σ²))}. {@code σ²} minimises the expected number of proposals
 *       {@code Z(σ²)^d e^{M/(2σ²)}/|L|} numerically; for {@code M ≫ d} it is {@code ≈ M/d} and the expected
 *       number of proposals is about {@code √(πd)} (the ratio {@code (d/2)^{d/2}e^{−d/2}/Γ(d/2+1)}); cost
 *       per proposal at most {@code d} discrete Gaussian draws, abandoned early as for {@code q = 1}.
 * </ul>
 *
 * <p>Limits: {@code 1 <= d <= 2^20}; {@code 1 <= N <= 2^30}; {@code 1 <= M <= 2^60}.
 */
public final class UniformBallLattice {
    public static final int MAX_DIMENSION = 1 << 20;
    public static final long MAX_RADIUS = 1L << 30;
    public static final long MAX_RADIUS_SQUARED = 1L << 60;

    private final LqNorm norm;
    private final int dimension;
    /** {@code N} for l1 and l∞, {@code M} (the squared radius) for l2. */
    private final long bound;
    /** Largest absolute coordinate of a point of L. */
    private final long coordinateBound;
    private final DiscreteLaplace laplace;
    private final Rational tau;
    private final DiscreteGaussian gaussian;
    private final Rational sigma2;

    private UniformBallLattice(LqNorm norm, int dimension, long bound) {
        this.norm = Require.nonNull("norm", norm);
        this.dimension = (int) Require.inRange("dimension", dimension, 1, MAX_DIMENSION);
        if (norm == LqNorm.L2) {
            Require.inRange("radiusSquared", bound, 1, MAX_RADIUS_SQUARED);
            this.coordinateBound = DiscreteGaussian.isqrt(bound);
        } else {
            Require.inRange("radius", bound, 1, MAX_RADIUS);
            this.coordinateBound = bound;
        }
        this.bound = bound;
        if (norm == LqNorm.L1) {
            double x = (double) dimension / bound;
            double asinh = Math.log1p(x + x * x / (1 + Math.sqrt(1 + x * x)));
            this.tau = Rationals.ceilDyadic("tau", Math.min(Math.max(1.0 / asinh, 0x1p-30), 0x1p40), 31);
            this.laplace = new DiscreteLaplace(tau);
        } else {
            this.tau = null;
            this.laplace = null;
        }
        if (norm == LqNorm.L2) {
            this.sigma2 = Rationals.ceilDyadic("sigma2", Math.min(Math.max(bestSigma2(dimension, bound), 0x1p-30), 0x1p60), 31);
            this.gaussian = new DiscreteGaussian(sigma2);
        } else {
            this.sigma2 = null;
            this.gaussian = null;
        }
    }

    /** Lattice points of the cube {@code [−N, N]^d}. */
    public static UniformBallLattice lInf(int dimension, long radius) {
        return new UniformBallLattice(LqNorm.LINF, dimension, radius);
    }

    /** Lattice points with {@code ||z||₁ <= N}. */
    public static UniformBallLattice l1(int dimension, long radius) {
        return new UniformBallLattice(LqNorm.L1, dimension, radius);
    }

    /** Lattice points with {@code ||z||₂² <= M}. */
    public static UniformBallLattice l2(int dimension, long radiusSquared) {
        return new UniformBallLattice(LqNorm.L2, dimension, radiusSquared);
    }

    /**
     * The lattice ball for {@code norm}: {@code bound} is the radius {@code N} for l1 and l∞ and the squared
     * radius {@code M} for l2.
     */
    public static UniformBallLattice of(LqNorm norm, int dimension, long bound) {
        return new UniformBallLattice(norm, dimension, bound);
    }

    public LqNorm norm() {
        return norm;
    }

    public int dimension() {
        return dimension;
    }

    /** {@code N} for l1 and l∞, the squared radius {@code M} for l2. */
    public long bound() {
        return bound;
    }

    /** The radius ({@code N}, or {@code √M} for l2) as a double. */
    public double radius() {
        return norm == LqNorm.L2 ? Math.sqrt((double) bound) : bound;
    }

    /** The l1 proposal scale τ (null unless l1). */
    public Rational proposalScale() {
        return tau;
    }

    /** The l2 proposal parameter σ² (null unless l2). */
    public Rational proposalSigma2() {
        return sigma2;
    }

    /** Whether {@code z} is a point of L (exact integer arithmetic). */
    public boolean contains(long[] z) {
        if (z.length != dimension) {
            return false;
        }
        long acc = 0;
        for (long v : z) {
            if (v > coordinateBound || v < -coordinateBound) {
                return false;
            }
            long a = Math.abs(v);
            switch (norm) {
                case LINF -> { }
                case L1 -> acc += a;
                case L2 -> acc += a * a;
            }
            if (acc > bound) {
                return false;
            }
        }
        return true;
    }

    /** One exactly uniform point of L. */
    public long[] sample(RandomBits bits) {
        long[] z = new long[dimension];
        switch (norm) {
            case LINF -> {
                long width = 2 * bound + 1;
                for (int i = 0; i < dimension; i++) {
                    z[i] = ExactSampler.uniformLong(bits, width) - bound;
                }
            }
            case L1 -> {
                while (!proposeL1(bits, z)) {
                    // rejected: propose again
                }
            }
            case L2 -> {
                while (!proposeL2(bits, z)) {
                    // rejected: propose again
                }
            }
        }
        return z;
    }

    private boolean proposeL1(RandomBits bits, long[] z) {
        long acc = 0;
        for (int i = 0; i < dimension; i++) {
            long v = laplace.sample(bits);
            long a = Math.abs(v);
            if (a > bound) {
                return false;
            }
            acc += a;
            if (acc > bound) {
                return false;
            }
            z[i] = v;
        }
        return BernoulliExp.sampleProduct(bits, bound - acc, tau.denominator().longValue(),
                tau.numerator().longValue());
    }

    private boolean proposeL2(RandomBits bits, long[] z) {
        long acc = 0;
        for (int i = 0; i < dimension; i++) {
            long v = gaussian.sample(bits);
            long a = Math.abs(v);
            if (a > coordinateBound) {
                return false;
            }
            acc += a * a; // a² <= M <= 2^60 and acc <= M before adding: no overflow
            if (acc > bound) {
                return false;
            }
            z[i] = v;
        }
        return BernoulliExp.sampleProduct(bits, bound - acc, sigma2.denominator().longValue(),
                2 * sigma2.numerator().longValue());
    }

    /**
     * {@code |L|}, exactly: {@code (2N+1)^d} for l∞; {@code Σ_k 2^k·C(d,k)·C(N,k)} for l1 (points with exactly
     * {@code k} non-zero coordinates: positions, signs, and positive parts summing to at most {@code N}); for l2
     * by dynamic programming over the squared norm, only when {@code d·M·√M <= 5·10^7}
     * (otherwise {@link UnsupportedOperationException}).
     */
    public BigInteger size() {
        switch (norm) {
            case LINF:
                return BigInteger.valueOf(2 * bound + 1).pow(dimension);
            case L1: {
                BigInteger sum = BigInteger.ONE;
                BigInteger term = BigInteger.ONE;
                long kMax = Math.min(dimension, bound);
                for (long k = 1; k <= kMax; k++) {
                    term = term.multiply(BigInteger.valueOf(2 * (dimension - k + 1)))
                            .multiply(BigInteger.valueOf(bound - k + 1))
                            .divide(BigInteger.valueOf(k).multiply(BigInteger.valueOf(k)));
                    sum = sum.add(term);
                }
                return sum;
            }
            default: {
                if (!l2SizeWithinLimit(dimension, bound)) {
                    throw new UnsupportedOperationException(
                            "size() of an l2 lattice ball is only computed for d·M·(√M+1) <= 5e7, got d=" + dimension
                                    + ", M=" + bound);
                }
                int m = (int) bound;
                BigInteger[] counts = new BigInteger[m + 1];
                Arrays.fill(counts, BigInteger.ZERO);
                counts[0] = BigInteger.ONE;
                for (int i = 0; i < dimension; i++) {
                    BigInteger[] next = new BigInteger[m + 1];
                    Arrays.fill(next, BigInteger.ZERO);
                    for (int s = 0; s <= m; s++) {
                        if (counts[s].signum() == 0) {
                            continue;
                        }
                        for (long v = 0; s + v * v <= m; v++) {
                            int target = (int) (s + v * v);
                            next[target] = next[target].add(v == 0 ? counts[s] : counts[s].shiftLeft(1));
                        }
                    }
                    counts = next;
                }
                BigInteger sum = BigInteger.ZERO;
                for (BigInteger c : counts) {
                    sum = sum.add(c);
                }
                return sum;
            }
        }
    }

    /** The σ² minimising {@code d·ln Z(σ²) + M/(2σ²)} (golden-section search on {@code ln σ²}). */
    static double bestSigma2(int d, long m) {
        double centre = StrictMath.log((double) m / d);
        double lo = centre - 15;
        double hi = Math.min(centre + 3, StrictMath.log(0x1p60));
        double g = (Math.sqrt(5) - 1) / 2;
        double x1 = hi - g * (hi - lo);
        double x2 = lo + g * (hi - lo);
        double f1 = objective(d, m, x1);
        double f2 = objective(d, m, x2);
        for (int i = 0; i < 80; i++) {
            if (f1 <= f2) {
                hi = x2;
                x2 = x1;
                f2 = f1;
                x1 = hi - g * (hi - lo);
                f1 = objective(d, m, x1);
            } else {
                lo = x1;
                x1 = x2;
                f1 = f2;
                x2 = lo + g * (hi - lo);
                f2 = objective(d, m, x2);
            }
        }
        return StrictMath.exp((lo + hi) / 2);
    }

    private static double objective(int d, long m, double logSigma2) {
        double s2 = StrictMath.exp(logSigma2);
        return d * StrictMath.log(DiscreteGaussian.computeNormaliser(s2)) + m / (2 * s2);
    }

    @Override
    public String toString() {
        return "UniformBallLattice(" + norm + ", d=" + dimension + (norm == LqNorm.L2 ? ", M=" : ", N=") + bound + ")";
    }

    /** The largest work {@code d·M·(√M+1)} for which {@link #size()} counts an l2 ball (seconds at the limit). */
    static final double MAX_L2_SIZE_WORK = 5e7;

    /** Whether {@link #size()} counts the l2 ball of this dimension and squared radius (the limit itself is in). */
    static boolean l2SizeWithinLimit(long dimension, long bound) {
        return (double) dimension * bound * (Math.sqrt((double) bound) + 1) <= MAX_L2_SIZE_WORK;
    }
}
