package io.privacygateway.mechanisms.central.purification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.central.sampling.LqNorm;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Parameter validation, extreme parameters, log-space correctness and the rounding step. */
class PurifierParametersTest {
    private static final Epsilon EPS = Epsilon.of(1.0);
    private static final LogDelta LOG_DELTA = new LogDelta(-30);

    private static Purifier cube(double[] c, double diameter, double omega) {
        return new Purifier(LqNorm.LINF, c, diameter, EPS, LOG_DELTA, omega);
    }

    // ---- log space -----------------------------------------------------------------------------------

    /** exp and ln in BigDecimal to 60 digits (argument halving + Taylor; Newton for ln). */
    static final class BigMath {
        static final MathContext MC = new MathContext(60, RoundingMode.HALF_EVEN);

        static BigDecimal exp(BigDecimal x) {
            int halvings = 0;
            BigDecimal y = x;
            while (y.abs().compareTo(new BigDecimal("0.25")) > 0) {
                y = y.divide(BigDecimal.valueOf(2), MC);
                halvings++;
            }
            BigDecimal term = BigDecimal.ONE;
            BigDecimal sum = BigDecimal.ONE;
            for (int i = 1; i < 200; i++) {
                term = term.multiply(y, MC).divide(BigDecimal.valueOf(i), MC);
                sum = sum.add(term, MC);
                if (term.abs().compareTo(BigDecimal.ONE.movePointLeft(70)) < 0) {
                    break;
                }
            }
            for (int i = 0; i < halvings; i++) {
                sum = sum.multiply(sum, MC);
            }
            return sum;
        }

        static BigDecimal ln(BigDecimal x) {
            BigDecimal y = new BigDecimal(Math.log(x.doubleValue()));
            for (int i = 0; i < 6; i++) {
                y = y.subtract(BigDecimal.ONE).add(x.multiply(exp(y.negate()), MC), MC);
            }
            return y;
        }
    }

    @Test
    void deltaOfLogMinus3000InDimension448IsFiniteAndMatchesBigDecimal() {
        int d = 448;
        double lnDelta = -3000;
        double omega = 1e-3;
        assertThat(Math.exp(lnDelta)).as("δ underflows a double").isZero();
        Purifier pur = new Purifier(LqNorm.LINF, new double[d], 1.0, EPS, new LogDelta(lnDelta), omega);
        // ln κ = (ln δ − ln 2 − ln ω)/d, with ω taken as its exact binary value
        BigDecimal lnKappa = new BigDecimal(lnDelta).subtract(BigMath.ln(BigDecimal.valueOf(2)))
                .subtract(BigMath.ln(new BigDecimal(omega))).divide(BigDecimal.valueOf(d), BigMath.MC);
        assertThat(pur.logKappa()).isCloseTo(lnKappa.doubleValue(), within(1e-13));
        // the paper's Δ = 2·d·R·κ (q = ∞, R = 1), in log space
        BigDecimal lnPaper = BigMath.ln(BigDecimal.valueOf(2L * d)).add(lnKappa);
        assertThat(pur.logContinuousWassersteinBound()).isCloseTo(lnPaper.doubleValue(), within(1e-12));
        assertThat(pur.continuousWassersteinBound()).isFinite().isPositive();
        // the lattice bound α = min(4(ρ + ½)κ + 4, 2ρ) in grid units: the code's value is a slightly larger
        // upper bound (certified margin), within 1e-12 relative
        BigDecimal kappa = BigMath.exp(lnKappa);
        BigDecimal rho = new BigDecimal(pur.gridRadius());
        BigDecimal alpha = BigDecimal.valueOf(4).multiply(rho.add(new BigDecimal("0.5"))).multiply(kappa, BigMath.MC)
                .add(BigDecimal.valueOf(4));
        alpha = alpha.min(rho.multiply(BigDecimal.valueOf(2)));
        BigDecimal code = new BigDecimal(pur.wassersteinBoundLqGridUnits());
        assertThat(code).isGreaterThanOrEqualTo(alpha);
        assertThat(code.divide(alpha, BigMath.MC).doubleValue()).isLessThan(1 + 1e-12);
        // Δ = h·d·α in real units: finite, and its log matches
        BigDecimal lnDeltaReal = BigMath.ln(alpha.multiply(BigDecimal.valueOf(d)))
                .subtract(BigMath.ln(BigDecimal.valueOf(2)).multiply(BigDecimal.valueOf(pur.gridExponent())));
        assertThat(pur.logWassersteinBound()).isCloseTo(lnDeltaReal.doubleValue(), within(1e-12));
        assertThat(pur.wassersteinBound()).isFinite().isPositive();
        // the grid adds at most 1/64 of the paper's Δ (default grid, κ <= 1)
        assertThat(pur.wassersteinBound() / pur.continuousWassersteinBound()).isBetween(1.0, 1 + 1.0 / 64);
        // the noise scale is at least 2Δ/ε'
        assertThat(pur.noiseScale()).isGreaterThanOrEqualTo(2 * pur.wassersteinBound() / EPS.value());
        // ln δ = −5000 works the same way
        Purifier deeper = new Purifier(LqNorm.L2, new double[d], 1.0, EPS, new LogDelta(-5000), omega);
        assertThat(deeper.wassersteinBound()).isFinite().isPositive();
        assertThat(deeper.wassersteinBound()).isLessThan(pur.wassersteinBound());
    }

    /**
     * Δ recomputed here from the paper alone (purification paper, Theorem 1 and its proof in F.4; MECHANISMS.md
     * §4): {@code Δ = 2·d^{1−1/q}·R·(δ/(2ω))^{1/d}} with R the l_q <em>diameter</em> of Θ, and Laplace scale
     * {@code 2Δ/ε'}. The purifier's noise scale must be at least that (the lattice adds a little, at most 1/64 of
     * Δ on the default grid when κ ≤ 1) and at most 1/64 + 10⁻⁹ above it: reading R as a radius, dropping the
     * factor 2 of Δ or the 2 of 2Δ/ε', or using the wrong power of d would each miss by a factor ≥ 2 (or √d).
     */
    @ParameterizedTest
    @EnumSource(LqNorm.class)
    void noiseScaleIsTwiceThePapersDeltaOverEpsilonPrime(LqNorm norm) {
        int checked = 0;
        for (int d : new int[] {1, 2, 3, 8, 50}) {
            for (double diameter : new double[] {0.5, 1.0, 2.0, 7.25}) {
                for (double lnDelta : new double[] {-8, -30, -200}) {
                    for (double omega : new double[] {0.2, 0.01, 1e-6}) {
                        double epsPrime = 0.37;
                        double lnKappa = (lnDelta - Math.log(2 * omega)) / d;
                        if (lnKappa > Math.log(0.5)) {
                            continue; // the paper's bound is for κ < 1; the cap 2ρ takes over near 1
                        }
                        double q = switch (norm) {
                            case L1 -> 1;
                            case L2 -> 2;
                            case LINF -> Double.POSITIVE_INFINITY;
                        };
                        double paperDelta = 2 * Math.pow(d, 1 - 1 / q) * diameter * Math.exp(lnKappa);
                        double paperScale = 2 * paperDelta / epsPrime;
                        double[] centre = new double[d];
                        Arrays.fill(centre, 0.3);
                        Purifier pur = new Purifier(norm, centre, diameter, Epsilon.of(epsPrime), new LogDelta(lnDelta),
                                omega);
                        double s = Math.pow(d, 1 / q) / 2; // l_q norm of the half cube diagonal
                        if (pur.gridStep() * (2 + 8 * s) > 2 * diameter * Math.exp(lnKappa) / 64 * (1 + 1e-12)) {
                            continue; // the grid radius was clamped into [64, 2^30]: a larger additive term by design
                        }
                        checked++;
                        double ratio = pur.noiseScale() / paperScale;
                        assertThat(ratio).as("%s d=%d R=%s ln δ=%s ω=%s", norm, d, diameter, lnDelta, omega)
                                .isGreaterThanOrEqualTo(1.0)
                                .isLessThanOrEqualTo(1 + 1.0 / 64 + 1e-9);
                    }
                }
            }
        }
        assertThat(checked).isGreaterThan(60);
    }

    /**
     * Algorithm 2's cube {@code [0,1]^d} is the l∞ ball of diameter 1 with ω = 2^{−d}: the paper's Δ is
     * {@code 2·d·1·(δ/(2·2^{−d}))^{1/d}} (R = 1 the diameter; F.5's "R = d/2" is the radius of the l1 view and
     * would halve it).
     */
    @Test
    void discretePurifierUsesTheCubesDiameter() {
        for (int bits : new int[] {2, 5, 12}) {
            double lnDelta = -4.0 * bits;
            DiscretePurifier dp = new DiscretePurifier(bits, Epsilon.of(0.5), new LogDelta(lnDelta));
            double paperDelta = 2.0 * bits * Math.exp((lnDelta - Math.log(2 * Math.scalb(1.0, -bits))) / bits);
            double ratio = dp.cubePurifier().noiseScale() / (2 * paperDelta / 0.5);
            assertThat(ratio).isBetween(1.0, 1 + 1.0 / 64 + 1e-9);
        }
    }

    @Test
    void extremeLogDeltaGivesTheGridDominatedBound() {
        Purifier pur = new Purifier(LqNorm.LINF, new double[4], 2.0, EPS, new LogDelta(-1e6), 0.05);
        assertThat(pur.gridRadius()).isEqualTo(Purifier.MAX_GRID_RADIUS);
        assertThat(pur.logContinuousWassersteinBound()).isFinite().isLessThan(-2e5);
        // κ ≈ e^{-250000}: α = 4s + 2 = 4 grid units up to the certified margin
        assertThat(pur.wassersteinBoundLqGridUnits()).isBetween(4.0, 4.0 * (1 + 1e-12));
        assertThat(pur.wassersteinBound()).isFinite().isPositive().isLessThan(1e-7);
        assertThat(pur.purify(new double[] {0.1, 0.2, -0.3, 0.9}, new SeededRandomBits(1))).hasSize(4);
        // even ln δ = −1e300 is finite
        assertThat(new Purifier(LqNorm.L1, new double[4], 2.0, EPS, new LogDelta(-1e300), 0.05).wassersteinBound())
                .isFinite().isPositive();
    }

    @Test
    void tinyOmegaIsRealisedExactlyAndAccepted() {
        Purifier pur = cube(new double[3], 2.0, 1e-300);
        assertThat(pur.omega()).isEqualTo(1e-300);
        assertThat(pur.wassersteinBound()).isFinite().isPositive();
        assertThat(cube(new double[3], 2.0, Double.MIN_VALUE).wassersteinBound()).isFinite().isPositive();
        assertThat(pur.purify(new double[] {0.5, -0.5, 0.25}, new SeededRandomBits(2))).hasSize(3);
    }

    @ParameterizedTest
    @EnumSource(LqNorm.class)
    void dimensionTenThousandIsAccepted(LqNorm norm) {
        int d = 10_000;
        Purifier pur = new Purifier(norm, new double[d], 2.0, EPS, new LogDelta(-20 * d), 1e-6);
        assertThat(pur.wassersteinBound()).isFinite().isPositive();
        double[] x = new double[d];
        x[0] = 0.5;
        double[] out = pur.purify(x, new SeededRandomBits(3));
        assertThat(out).hasSize(d);
        // the uniform draw itself works in d = 10,000 (rejection for l1/l2)
        assertThat(pur.lattice().contains(pur.lattice().sample(new SeededRandomBits(4)))).isTrue();
    }

    // ---- validation ----------------------------------------------------------------------------------

    @Test
    void rejectsBadNormCentreAndDimension() {
        assertThatThrownBy(() -> new Purifier(null, new double[2], 2.0, EPS, LOG_DELTA, 0.1))
                .hasMessageContaining("norm is required");
        assertThatThrownBy(() -> cube(null, 2.0, 0.1)).hasMessageContaining("center is required");
        assertThatThrownBy(() -> cube(new double[0], 2.0, 0.1)).hasMessageContaining("dimension")
                .hasMessageContaining("got 0");
        assertThatThrownBy(() -> cube(new double[Purifier.MAX_DIMENSION + 1], 2.0, 0.1))
                .hasMessageContaining("dimension").hasMessageContaining("1048577");
        for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1e301}) {
            assertThatThrownBy(() -> cube(new double[] {0, bad}, 2.0, 0.1)).hasMessageContaining("center[1]")
                    .hasMessageContaining(String.valueOf(bad));
        }
    }

    @Test
    void rejectsBadDiameter() {
        for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, 0.0, -1.0, 1e301, 1e-301}) {
            assertThatThrownBy(() -> cube(new double[2], bad, 0.1)).hasMessageContaining("diameter")
                    .hasMessageContaining(String.valueOf(bad));
        }
        assertThat(cube(new double[2], 1e300, 0.1).wassersteinBound()).isFinite();
        assertThat(cube(new double[2], 1e-300, 0.1).wassersteinBound()).isFinite().isPositive();
    }

    @Test
    void rejectsBadOmega() {
        for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, 0.0, 1.0, -0.1, 1.5}) {
            assertThatThrownBy(() -> cube(new double[2], 2.0, bad)).hasMessageContaining("omega")
                    .hasMessageContaining(String.valueOf(bad));
        }
    }

    @Test
    void rejectsBadEpsilonAndDelta() {
        assertThatThrownBy(() -> new Purifier(LqNorm.L1, new double[2], 2.0, null, LOG_DELTA, 0.1))
                .hasMessageContaining("epsilonPrime is required");
        assertThatThrownBy(() -> new Purifier(LqNorm.L1, new double[2], 2.0, EPS, null, 0.1))
                .hasMessageContaining("logDelta is required");
        for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, 0.0, -1.0, 41.0}) {
            assertThatThrownBy(() -> Epsilon.of(bad)).hasMessageContaining("epsilon")
                    .hasMessageContaining(String.valueOf(bad));
        }
        for (double bad : new double[] {Double.NaN, Double.NEGATIVE_INFINITY, 0.0, 1.0}) {
            assertThatThrownBy(() -> new LogDelta(bad)).hasMessageContaining("log(delta)")
                    .hasMessageContaining(String.valueOf(bad));
        }
        // an ε' so small that the noise scale exceeds the sampler's range is rejected with a clear message
        assertThatThrownBy(() -> new Purifier(LqNorm.LINF, new double[10_000], 2.0, Epsilon.of(1e-9), LOG_DELTA, 0.1))
                .hasMessageContaining("noise scale").hasMessageContaining("epsilonPrime=");
    }

    @Test
    void rejectsBadGridExponent() {
        double[] c = new double[2];
        assertThatThrownBy(() -> new Purifier(LqNorm.L2, c, 2.0, EPS, LOG_DELTA, 0.1, 2000))
                .hasMessageContaining("gridExponent").hasMessageContaining("2000");
        assertThatThrownBy(() -> new Purifier(LqNorm.L2, c, 2.0, EPS, LOG_DELTA, 0.1, -2000))
                .hasMessageContaining("gridExponent").hasMessageContaining("-2000");
        // R = 2: ρ = 2^g must be in [1, 2^30]
        assertThatThrownBy(() -> new Purifier(LqNorm.L2, c, 2.0, EPS, LOG_DELTA, 0.1, -1))
                .hasMessageContaining("gridExponent=-1").hasMessageContaining("0.5");
        assertThatThrownBy(() -> new Purifier(LqNorm.L2, c, 2.0, EPS, LOG_DELTA, 0.1, 31))
                .hasMessageContaining("gridExponent=31");
        assertThat(new Purifier(LqNorm.L2, c, 2.0, EPS, LOG_DELTA, 0.1, 30).gridRadius()).isEqualTo(0x1p30);
        assertThat(new Purifier(LqNorm.L2, c, 2.0, EPS, LOG_DELTA, 0.1, 0).gridRadius()).isEqualTo(1.0);
    }

    @Test
    void rejectsBadInputs() {
        Purifier pur = cube(new double[2], 2.0, 0.1);
        RandomBits bits = new SeededRandomBits(5);
        assertThatThrownBy(() -> pur.purify(null, bits)).hasMessageContaining("xApx is required");
        assertThatThrownBy(() -> pur.purify(new double[3], bits)).hasMessageContaining("xApx must have length 2")
                .hasMessageContaining("got 3");
        assertThatThrownBy(() -> pur.purify(new double[] {0, Double.NaN}, bits)).hasMessageContaining("xApx[1]")
                .hasMessageContaining("NaN");
        assertThatThrownBy(() -> pur.purify(new double[2], null)).hasMessageContaining("secret is required");
        assertThatThrownBy(() -> pur.epsilonTotal(null)).hasMessageContaining("epsilon is required");
        assertThat(pur.epsilonTotal(Epsilon.of(0.5)).value()).isEqualTo(1.5);
    }

    // ---- rounding ------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(LqNorm.class)
    void roundingStaysInTheLatticeBallWithinDTimesH(LqNorm norm) {
        int d = 3;
        double[] c = {0.1, -0.2, 0.3};
        Purifier pur = new Purifier(norm, c, 2.0, EPS, LOG_DELTA, 0.1, 4); // ρ = 16, h = 1/16
        double h = pur.gridStep();
        RandomBits pub = new SeededRandomBits(6);
        for (int k = 0; k < 20_000; k++) {
            double[] u = new double[d];
            for (int i = 0; i < d; i++) {
                u[i] = 2 * io.privacygateway.mechanisms.random.ExactSampler.uniformDouble(pub) - 1;
            }
            // scale u onto a random radius in [0, 1] of the unit l_q ball (points in Θ, many near the boundary)
            double nrm = normOf(norm, u);
            double radius = k % 3 == 0 ? 1.0 : io.privacygateway.mechanisms.random.ExactSampler.uniformDouble(pub);
            double[] x = new double[d];
            for (int i = 0; i < d; i++) {
                x[i] = c[i] + u[i] / nrm * radius * (1 - 1e-12);
            }
            long[] z = pur.roundToLattice(x);
            assertThat(pur.lattice().contains(z)).isTrue();
            double err = 0;
            double[] back = pur.toPoint(z);
            for (int i = 0; i < d; i++) {
                err += Math.abs(back[i] - x[i]);
            }
            assertThat(err).isLessThanOrEqualTo(d * h * (1 + 1e-9));
        }
        // a grid point is its own rounding; points far outside Θ land in L
        assertThat(pur.roundToLattice(pur.toPoint(new long[] {3, -2, 1}))).containsExactly(3, -2, 1);
        assertThat(pur.lattice().contains(pur.roundToLattice(new double[] {1e300, -1e300, 5}))).isTrue();
        assertThat(pur.lattice().contains(pur.roundToLattice(new double[] {0.1, -0.2, 1.3 + 0.3}))).isTrue();
    }

    private static double normOf(LqNorm norm, double[] u) {
        double acc = 0;
        for (double v : u) {
            acc = switch (norm) {
                case L1 -> acc + Math.abs(v);
                case L2 -> acc + v * v;
                case LINF -> Math.max(acc, Math.abs(v));
            };
        }
        return norm == LqNorm.L2 ? Math.sqrt(acc) : acc;
    }
}
