package io.privacygateway.mechanisms.central.purification;

import static io.privacygateway.mechanisms.accounting.DirectedRounding.addUp;
import static io.privacygateway.mechanisms.accounting.DirectedRounding.divUp;
import static io.privacygateway.mechanisms.accounting.DirectedRounding.expUp;
import static io.privacygateway.mechanisms.accounting.DirectedRounding.logDown;
import static io.privacygateway.mechanisms.accounting.DirectedRounding.mulUp;
import static io.privacygateway.mechanisms.accounting.DirectedRounding.subUp;

import io.privacygateway.mechanisms.central.sampling.DiscreteLaplace;
import io.privacygateway.mechanisms.central.sampling.DyadicBernoulli;
import io.privacygateway.mechanisms.central.sampling.LqNorm;
import io.privacygateway.mechanisms.central.sampling.Rationals;
import io.privacygateway.mechanisms.central.sampling.UniformBallLattice;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.Rational;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Purification of an (ε, δ)-DP output into an (ε + ε′)-DP output (Algorithm 1 of
 * purification-approx-to-pure-dp, MECHANISMS.md §4), discretised so that all secret randomness is exact
 * and grid-based. The argument that the discretised version keeps the pure-DP guarantee, and the
 * derivation of the {@code Δ} used here, are in {@code docs/purification-discretised.md}.
 *
 * <p>Θ is the {@code l_q} ball ({@code q ∈ {1, 2, ∞}}) with centre {@code c} and {@code l_q} <em>diameter</em>
 * {@code R} (radius {@code r = R/2}) in dimension {@code d}; the grid is {@code c + hℤ^d} with
 * {@code h = 2^{−g}}; in grid units {@code ρ = r/h} (an exact double) and the lattice ball is
 * {@code L = Θ_h = {z ∈ ℤ^d : ||z||_q <= ρ}}. {@link #purifyToGrid}:
 * <ol>
 *   <li><b>Round</b> {@code x_apx} into {@code L} (deterministic post-processing, {@link #roundToLattice}):
 *       coordinatewise nearest integer of {@code u = (x − c)/h}; for l∞ clamped to {@code [−⌊ρ⌋, ⌊ρ⌋]}; for
 *       l1/l2, if the nearest point leaves {@code L}, each coordinate is instead truncated toward the centre
 *       ({@code |z_i| <= |u_i|}, so {@code ||z||_q <= ||u||_q <= ρ} for every input in Θ); inputs outside Θ
 *       are first shrunk radially. For inputs in Θ the rounding moves the point by at most {@code d·h} in l1.
 *   <li><b>Mix</b>: with probability exactly ω (a double is a dyadic rational and {@link DyadicBernoulli}
 *       realises it without rounding; were rounding needed, it would have to be <em>up</em>, since the proof
 *       needs at least ω of uniform mass) replace the point by an exactly uniform point of {@code L}
 *       ({@link UniformBallLattice}).
 *   <li><b>Noise</b>: add i.i.d. discrete Laplace noise of grid scale {@code t >= 2Δ_L/ε′} to every coordinate,
 *       where {@code Δ_L} (grid units, l1) is the lattice transport bound
 *       {@code Δ_L = d^{1−1/q}·min(4(ρ + s)κ + 4s + 2, 2ρ)}, {@code s = d^{1/q}/2},
 *       {@code κ = (δ/(2ω))^{1/d}} computed in log space and rounded up with a certified margin, and
 *       {@code t} rounded up to a dyadic rational with 31 significant bits (more noise only helps privacy).
 * </ol>
 * In real units {@code Δ = h·Δ_L <= Δ_paper + h·d^{1−1/q}(2 + 4s(1 + κ))} with the paper's
 * {@code Δ_paper = 2d^{1−1/q}R(δ/(2ω))^{1/d}}: the lattice version needs a slightly larger Δ (the additive
 * grid term) and uses it.
 *
 * <p><b>Default grid</b>: the largest {@code h = 2^{−g}} with {@code h·(2 + 8s) <= Δ_paper,q/64}
 * ({@code Δ_paper,q = 2Rκ}), so that the grid adds at most 1/64 ≈ 1.6% to Δ when {@code κ <= 1}; then
 * {@code ρ} is clamped into {@code [64, 2^30]} (at the upper clamp Δ is dominated by the grid term, which is
 * still valid and at most about {@code r·2^{−30}·d(2 + 4s)} in real units).
 *
 * <p><b>Utility</b> (Theorem 1 generalised, {@link #expectedL1ErrorBound()}): for {@code x_apx ∈ Θ},
 * {@code E||x_pure − x_apx||₁ <= ω·Diam₁(Θ) + d·h·E|η| + d·h}, where {@code Diam₁(Θ) = d^{1−1/q}R},
 * {@code E|η| = 1/sinh(1/t) <= t} is the exact mean absolute value of the discrete Laplace of grid scale
 * {@code t} (so {@code h·E|η| <= b = h·t}, the real noise scale), and {@code d·h} bounds the rounding. Proof:
 * {@code x_pure − x_apx = h·η + h(z_mix − z) + (c + hz − x_apx)}; the middle term is non-zero only on the
 * mixing event (probability ω) and is then at most {@code Diam₁(Θ_h) <= Diam₁(Θ)}.
 *
 * <p>The caller projects the output onto its feasible set afterwards (post-processing). Timing: the mixing
 * branch and the rejection samplers take data-independent but random time; the draw of the uniform point
 * happens only on the mixing event, whose probability does not depend on the data.
 */
public final class Purifier {
    /** Largest accepted dimension. */
    public static final int MAX_DIMENSION = 1 << 20;
    /** Largest grid radius {@code ρ = r/h} (grid units). */
    public static final double MAX_GRID_RADIUS = 0x1p30;
    /** Smallest grid radius chosen by the default grid rule. */
    public static final double MIN_DEFAULT_GRID_RADIUS = 64;
    /** The default grid keeps the grid's additive term in Δ below {@code Δ/GRID_OVERHEAD_DIVISOR}. */
    public static final double GRID_OVERHEAD_DIVISOR = 64;
    /** Largest accepted grid scale of the noise (the discrete Laplace sampler's limit). */
    public static final double MAX_NOISE_SCALE_GRID_UNITS = DiscreteLaplace.MAX_SCALE;
    /** Bound on |centre| coordinates and the diameter range. */
    public static final double MAX_MAGNITUDE = 1e300;
    public static final double MIN_DIAMETER = 1e-300;

    /** The double just below ln 2 (ln 2 = 0.693147180559945309…; this is 0.693147180559945286…). */
    static final double LN2 = 0x1.62e42fefa39efp-1;

    private final LqNorm norm;
    private final int dimension;
    private final double[] center;
    private final double diameter;
    private final Epsilon epsilonPrime;
    private final LogDelta logDelta;
    private final double omega;
    private final int gridExponent;
    private final double gridStep;
    private final double gridRadius;
    private final UniformBallLattice lattice;
    private final DyadicBernoulli mixCoin;
    private final double logKappa;
    private final double kappaUpper;
    private final double transportLq;
    private final double transportL1;
    private final Rational noiseScaleGrid;
    private final DiscreteLaplace noise;

    /** A purifier with the default grid (see the class comment). */
    public Purifier(LqNorm norm, double[] center, double diameter, Epsilon epsilonPrime, LogDelta logDelta,
            double omega) {
        this(norm, center, diameter, epsilonPrime, logDelta, omega, null);
    }

    /**
     * A purifier on the grid {@code h = 2^{−gridExponent}}.
     *
     * @param norm the norm of the ball Θ
     * @param center the centre {@code c} of Θ (its length is the dimension {@code d})
     * @param diameter the {@code l_q} diameter {@code R} of Θ (twice the radius)
     * @param epsilonPrime the additional budget ε′
     * @param logDelta {@code ln δ} of the upstream mechanism
     * @param omega the mixing weight ω ∈ (0, 1)
     * @param gridExponent {@code g} with {@code h = 2^{−g}}; {@code (R/2)·2^g} must lie in {@code [1, 2^30]}
     */
    public Purifier(LqNorm norm, double[] center, double diameter, Epsilon epsilonPrime, LogDelta logDelta,
            double omega, int gridExponent) {
        this(norm, center, diameter, epsilonPrime, logDelta, omega, Integer.valueOf(gridExponent));
    }

    private Purifier(LqNorm norm, double[] center, double diameter, Epsilon epsilonPrime, LogDelta logDelta,
            double omega, Integer requestedGridExponent) {
        this.norm = Require.nonNull("norm", norm);
        Require.nonNull("center", center);
        this.dimension = (int) Require.inRange("dimension", center.length, 1, MAX_DIMENSION);
        this.center = center.clone();
        for (int i = 0; i < dimension; i++) {
            Require.inClosedRange("center[" + i + "]", center[i], -MAX_MAGNITUDE, MAX_MAGNITUDE);
        }
        this.diameter = Require.inClosedRange("diameter", diameter, MIN_DIAMETER, MAX_MAGNITUDE);
        this.epsilonPrime = Require.nonNull("epsilonPrime", epsilonPrime);
        this.logDelta = Require.nonNull("logDelta", logDelta);
        this.omega = Require.inOpenRange("omega", omega, 0.0, 1.0);
        this.mixCoin = new DyadicBernoulli("omega", omega);

        int d = dimension;
        double lnDelta = logDelta.value();
        double lnOmega = Math.log(omega);
        this.logKappa = (lnDelta - LN2 - lnOmega) / d;
        // Certified upper bound on ln κ = (ln δ − ln 2 − ln ω)/d: ln δ is the exact input, LN2 is below ln 2,
        // ln ω is bounded below, and every operation rounds up. No clamp is needed: e^x rounded up is a valid
        // bound for every x (nextUp(0) when it underflows; +∞ when it overflows, and then the cap 2ρ below
        // is the transport bound).
        double lnKappaUp = divUp(subUp(subUp(lnDelta, LN2), logDown(omega)), d);
        this.kappaUpper = expUp(lnKappaUp);

        double radius = diameter / 2; // exact
        double s = norm.halfCubeDiagonal(d);
        this.gridExponent = requestedGridExponent != null
                ? validatedGridExponent(requestedGridExponent, radius)
                : defaultGridExponent(radius, s);
        this.gridStep = Math.scalb(1.0, -gridExponent);
        this.gridRadius = Math.scalb(radius, gridExponent); // exact: scaling by a power of two
        this.lattice = UniformBallLattice.of(norm, d, latticeBound(norm, gridRadius));

        // Every step rounds up (the multiplications by 2 and 4 are exact), so each bound is at least the
        // formula's exact value on the same inputs.
        double alpha = addUp(mulUp(4 * addUp(gridRadius, s), kappaUpper), addUp(4 * s, 2));
        this.transportLq = Math.min(alpha, 2 * gridRadius);
        this.transportL1 = mulUp(transportLq, norm.l1Factor(d));
        double t = divUp(2 * transportL1, epsilonPrime.value());
        if (!(t <= MAX_NOISE_SCALE_GRID_UNITS)) {
            throw new IllegalArgumentException("noise scale 2Δ/ε' must be at most 2^40 grid units, got " + t
                    + " (epsilonPrime=" + epsilonPrime.value() + ", gridExponent=" + gridExponent
                    + "): epsilonPrime too small for this grid");
        }
        this.noiseScaleGrid = Rationals.ceilDyadic("noiseScale", t, 31);
        this.noise = new DiscreteLaplace(noiseScaleGrid);
    }

    private static int validatedGridExponent(int g, double radius) {
        Require.inRange("gridExponent", g, -1074, 1074);
        double rho = Math.scalb(radius, g);
        if (!(rho >= 1 && rho <= MAX_GRID_RADIUS)) {
            throw new IllegalArgumentException("gridExponent=" + g + " gives grid radius (diameter/2)·2^"
                    + g + " = " + rho + ", must be in [1, 2^30]");
        }
        return g;
    }

    private int defaultGridExponent(double radius, double s) {
        // target h* = 2Rκ / (64 (2 + 8s)) in log space; g = ⌈−log2 h*⌉ so that h = 2^-g <= h*
        double lnTarget = Math.log(2 * diameter) + logKappa - Math.log(GRID_OVERHEAD_DIVISOR * (2 + 8 * s));
        double gReal = Math.ceil(-lnTarget / LN2);
        int g = (int) Math.max(-1074, Math.min(1074, gReal));
        while (g < 1074 && Math.scalb(radius, g) < MIN_DEFAULT_GRID_RADIUS) {
            g++;
        }
        while (g > -1074 && Math.scalb(radius, g) > MAX_GRID_RADIUS) {
            g--;
        }
        return g;
    }

    /** {@code ⌊ρ⌋} for l1 and l∞, {@code ⌊ρ²⌋} (exact) for l2. */
    private static long latticeBound(LqNorm norm, double rho) {
        if (norm == LqNorm.L2) {
            BigDecimal r = new BigDecimal(rho);
            return r.multiply(r).setScale(0, RoundingMode.FLOOR).longValueExact();
        }
        return (long) Math.floor(rho);
    }

    // ---- the mechanism -------------------------------------------------------------------------------

    /**
     * The purified output {@code c + h·z} (see {@link #purifyToGrid}); the conversion to doubles is
     * deterministic post-processing.
     */
    public double[] purify(double[] xApx, RandomBits secret) {
        return toPoint(purifyToGrid(xApx, secret));
    }

    /**
     * The purified output in grid units: {@code z + η} where {@code z} is the rounded input, replaced with
     * probability ω by a uniform point of {@code L}, and {@code η} is i.i.d. discrete Laplace noise.
     *
     * @param xApx the (ε, δ)-DP output, a finite vector of length {@code d} (points outside Θ are mapped into
     *     {@code L} deterministically, see {@link #roundToLattice}); a wrong length or a non-finite coordinate is
     *     rejected with an exception, which would itself depend on the data, so upstream mechanisms must only
     *     emit finite vectors of the declared dimension
     * @param secret the secret randomness
     */
    public long[] purifyToGrid(double[] xApx, RandomBits secret) {
        Require.nonNull("secret", secret);
        long[] z = roundToLattice(xApx);
        if (mixCoin.sample(secret)) {
            z = lattice.sample(secret);
        }
        for (int i = 0; i < dimension; i++) {
            z[i] += noise.sample(secret);
        }
        return z;
    }

    /**
     * The deterministic rounding of {@code x} into {@code L} (grid units, offsets from the centre). For
     * {@code x ∈ Θ} the result is within {@code h/2} per coordinate of {@code x} when the nearest lattice point
     * lies in {@code L}, and within {@code h} otherwise; so {@code ||c + hz − x||₁ <= d·h}.
     */
    public long[] roundToLattice(double[] x) {
        Require.nonNull("xApx", x);
        if (x.length != dimension) {
            throw new IllegalArgumentException("xApx must have length " + dimension + ", got " + x.length);
        }
        double[] u = new double[dimension];
        for (int i = 0; i < dimension; i++) {
            if (!Double.isFinite(x[i])) {
                throw new IllegalArgumentException("xApx[" + i + "] must be a finite number, got " + x[i]);
            }
            u[i] = Math.scalb(x[i] - center[i], gridExponent);
        }
        long[] z = new long[dimension];
        double cap = (double) coordinateBound() + 1;
        if (norm == LqNorm.LINF) {
            long n = lattice.bound();
            for (int i = 0; i < dimension; i++) {
                z[i] = Math.max(-n, Math.min(n, (long) Math.rint(clamp(u[i], cap))));
            }
            return z;
        }
        for (int i = 0; i < dimension; i++) {
            z[i] = (long) Math.rint(clamp(u[i], cap));
        }
        if (lattice.contains(z)) {
            return z;
        }
        for (int i = 0; i < dimension; i++) {
            z[i] = (long) clamp(u[i], cap); // truncation toward the centre
        }
        if (lattice.contains(z)) {
            return z;
        }
        // outside Θ: shrink radially, truncate, then step toward the centre until inside
        double lambda = Math.min(1.0, gridRadius / normOf(u)) * (1 - 0x1p-40);
        for (int i = 0; i < dimension; i++) {
            z[i] = (long) clamp(u[i] * lambda, cap);
        }
        return stepInside(z);
    }

    /**
     * Steps the coordinate of largest magnitude (the first on ties) one unit toward the centre until {@code z}
     * lies in Θ, and returns it. A safety net: after the radial shrink by {@code (1 − 2^-40)} the point is
     * inside unless rounding in the norm's sum (large {@code d}) ate the margin.
     */
    long[] stepInside(long[] z) {
        while (!lattice.contains(z)) {
            int j = 0;
            for (int i = 1; i < dimension; i++) {
                if (Math.abs(z[i]) > Math.abs(z[j])) {
                    j = i;
                }
            }
            z[j] -= Long.signum(z[j]);
        }
        return z;
    }

    private static double clamp(double v, double cap) {
        return Math.max(-cap, Math.min(cap, v));
    }

    private double normOf(double[] u) {
        double acc = 0;
        for (double v : u) {
            double a = Math.abs(v);
            acc = switch (norm) {
                case L1 -> acc + a;
                case L2 -> acc + a * a;
                case LINF -> Math.max(acc, a);
            };
        }
        return norm == LqNorm.L2 ? Math.sqrt(acc) : acc;
    }

    /** {@code ⌊ρ⌋}: no lattice point of the ball has a coordinate beyond it, in every norm. */
    private long coordinateBound() {
        return (long) Math.floor(gridRadius);
    }

    /** {@code c + h·z} in real units. */
    public double[] toPoint(long[] z) {
        if (z.length != dimension) {
            throw new IllegalArgumentException("grid point must have length " + dimension + ", got " + z.length);
        }
        double[] x = new double[dimension];
        for (int i = 0; i < dimension; i++) {
            x[i] = center[i] + Math.scalb((double) z[i], -gridExponent);
        }
        return x;
    }

    // ---- parameters ----------------------------------------------------------------------------------

    public LqNorm norm() {
        return norm;
    }

    public int dimension() {
        return dimension;
    }

    public double[] center() {
        return center.clone();
    }

    /** The {@code l_q} diameter {@code R} of Θ. */
    public double diameter() {
        return diameter;
    }

    /** {@code Diam₁(Θ) = d^{1−1/q}·R}. */
    public double l1Diameter() {
        return norm.l1Factor(dimension) * diameter;
    }

    public Epsilon epsilonPrime() {
        return epsilonPrime;
    }

    public LogDelta logDelta() {
        return logDelta;
    }

    public double omega() {
        return omega;
    }

    /** {@code g} with grid step {@code h = 2^{−g}}. */
    public int gridExponent() {
        return gridExponent;
    }

    /** The grid step {@code h}. */
    public double gridStep() {
        return gridStep;
    }

    /** {@code ρ = r/h}, the radius of Θ in grid units (exact). */
    public double gridRadius() {
        return gridRadius;
    }

    /** The lattice ball {@code L = Θ_h} in grid units and its exact uniform sampler. */
    public UniformBallLattice lattice() {
        return lattice;
    }

    /** {@code ln κ = ln((δ/(2ω))^{1/d}) = (ln δ − ln 2 − ln ω)/d}. */
    public double logKappa() {
        return logKappa;
    }

    /** The paper's {@code Δ = 2d^{1−1/q}R(δ/(2ω))^{1/d}} in log space (the continuous formula, not used). */
    public double logContinuousWassersteinBound() {
        return Math.log(2 * norm.l1Factor(dimension)) + Math.log(diameter) + logKappa;
    }

    /** The paper's Δ (may underflow to 0; see {@link #logContinuousWassersteinBound()}). */
    public double continuousWassersteinBound() {
        return Math.exp(logContinuousWassersteinBound());
    }

    /**
     * The lattice transport bound in {@code l_q}, grid units (an upper bound of
     * {@code min(4(ρ + s)κ + 4s + 2, 2ρ)}).
     */
    public double wassersteinBoundLqGridUnits() {
        return transportLq;
    }

    /** {@code Δ_L}: the bound on {@code W∞^{l1}} used for the noise, in grid units (an upper bound). */
    public double wassersteinBoundGridUnits() {
        return transportL1;
    }

    /** {@code Δ = h·Δ_L} in real units. */
    public double wassersteinBound() {
        return Math.scalb(transportL1, -gridExponent);
    }

    /** {@code ln Δ}. */
    public double logWassersteinBound() {
        return Math.log(transportL1) - gridExponent * LN2;
    }

    /** The noise scale {@code t >= 2Δ_L/ε′} in grid units (exact rational). */
    public Rational noiseScaleGridUnits() {
        return noiseScaleGrid;
    }

    /** The per-coordinate noise distribution on ℤ (grid units). */
    public DiscreteLaplace noiseDistribution() {
        return noise;
    }

    /** The noise scale {@code b = h·t >= 2Δ/ε′} in real units. */
    public double noiseScale() {
        return Math.scalb(noiseScaleGrid.doubleValue(), -gridExponent);
    }

    /** {@code ω·Diam₁(Θ)}: the mixing term of the utility bound. */
    public double mixingErrorBound() {
        return omega * l1Diameter();
    }

    /** {@code d·h·E|η|} with {@code E|η| = 1/sinh(1/t)}: the noise term (exact expectation). */
    public double noiseErrorBound() {
        return dimension * Math.scalb(noise.meanAbsolute(), -gridExponent);
    }

    /** {@code d·h}: the rounding term (for inputs in Θ). */
    public double roundingErrorBound() {
        return dimension * gridStep;
    }

    /** {@code E||x_pure − x_apx||₁ <= ω·Diam₁(Θ) + d·h·E|η| + d·h} for every {@code x_apx ∈ Θ}. */
    public double expectedL1ErrorBound() {
        return mixingErrorBound() + noiseErrorBound() + roundingErrorBound();
    }

    /** The pure-DP guarantee {@code ε + ε′} of the purified output of an (ε, δ)-DP mechanism. */
    public Epsilon epsilonTotal(Epsilon epsilon) {
        Require.nonNull("epsilon", epsilon);
        return epsilon.plus(epsilonPrime);
    }

    @Override
    public String toString() {
        return "Purifier(" + norm + ", d=" + dimension + ", R=" + diameter + ", " + epsilonPrime + ", " + logDelta
                + ", ω=" + omega + ", h=2^-" + gridExponent + ", Δ=" + wassersteinBound() + ", b=" + noiseScale()
                + ")";
    }
}
