package io.privacygateway.mechanisms.central.purification;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.central.sampling.DyadicBernoulli;
import io.privacygateway.mechanisms.central.sampling.LqNorm;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import org.junit.jupiter.api.Test;

/**
 * The purifier's transport bound and noise scale against the paper's formula evaluated exactly (above it, and
 * tightly), the noise-scale limit at its boundary, and its draw sequence word for word. Written against
 * mutants that changed a term of a bound or changed the sign of the added noise (same law, different outputs).
 */
class PurifierBoundsAndDrawSequenceTest {
    private static final MathContext MC = new MathContext(60, RoundingMode.HALF_EVEN);

    /** ln 2 to 60 digits. */
    private static final BigDecimal LN2 = new BigDecimal("0.693147180559945309417232121458176568075500134360255254120680");

    /** e^x to 60 digits for |x| <= 50 (Taylor series of e^{|x|}, inverted for negative x). */
    private static BigDecimal exp(BigDecimal x) {
        BigDecimal ax = x.abs();
        BigDecimal term = BigDecimal.ONE;
        BigDecimal sum = BigDecimal.ONE;
        for (int i = 1; i < 400; i++) {
            term = term.multiply(ax, MC).divide(BigDecimal.valueOf(i), MC);
            sum = sum.add(term, MC);
        }
        return x.signum() < 0 ? BigDecimal.ONE.divide(sum, MC) : sum;
    }

    @Test
    void theLn2ConstantIsTheDoubleJustBelowLn2() {
        assertThat(new BigDecimal(Purifier.LN2)).isLessThan(LN2);
        assertThat(new BigDecimal(Math.nextUp(Purifier.LN2))).isGreaterThan(LN2);
    }

    /**
     * κ = (δ/(2ω))^{1/d}, evaluated exactly from ln δ, ln 2 and ln ω; the lattice transport bound must be at least
     * {@code min(4(ρ+s)κ + 4s + 2, 2ρ)} and within 2^-40 of it, Δ_L at least it times the l1 factor and within
     * 2^-50 of that, and the noise scale at least 2Δ_L/ε′ and within 2^-29 of it (it is rounded up to 31 bits).
     * The cases cover each norm, ω = 1/2 (where ln ω cancels ln 2), ω = 1/4 and 1/8, and a dimension where
     * the κ term is small next to the constant terms.
     */
    @Test
    void theTransportBoundAndNoiseScaleAreThePapersFormulaRoundedUpTightly() {
        check(LqNorm.LINF, -1.0, 1, 0.5, 1.0);
        check(LqNorm.LINF, -10_000.0, 1000, 0.5, 1.0);
        check(LqNorm.L1, -3.0, 2, 0.25, 0.5);
        check(LqNorm.L2, -13.8, 3, 0.125, 2.0);
        check(LqNorm.L2, -40.0, 7, 0.25, 0.1);
        check(LqNorm.L1, -20.0, 5, 0.5, 3.0);
    }

    private static void check(LqNorm norm, double lnDelta, int d, double omega, double epsilonPrime) {
        Purifier p = new Purifier(norm, new double[d], 2.0, Epsilon.of(epsilonPrime), new LogDelta(lnDelta), omega);
        // ln κ = (ln δ − ln 2 − ln ω)/d with ω = 2^-k: ln ω = −k ln 2
        int k = -Math.getExponent(omega);
        assertThat(Math.scalb(1.0, -k)).isEqualTo(omega);
        BigDecimal lnKappa = new BigDecimal(lnDelta).subtract(LN2).add(LN2.multiply(BigDecimal.valueOf(k)))
                .divide(BigDecimal.valueOf(d), MC);
        BigDecimal kappa = exp(lnKappa);
        BigDecimal rho = new BigDecimal(p.gridRadius());
        BigDecimal s = new BigDecimal(norm.halfCubeDiagonal(d));
        BigDecimal four = BigDecimal.valueOf(4);
        BigDecimal alpha = four.multiply(rho.add(s)).multiply(kappa).add(four.multiply(s)).add(BigDecimal.valueOf(2));
        BigDecimal exact = alpha.min(rho.multiply(BigDecimal.valueOf(2)));
        assertThat(exact).isLessThan(rho.multiply(BigDecimal.valueOf(2))); // the formula, not the cap, is in force
        BigDecimal lq = new BigDecimal(p.wassersteinBoundLqGridUnits());
        assertThat(lq).isGreaterThanOrEqualTo(exact);
        assertThat(lq).isLessThanOrEqualTo(exact.multiply(BigDecimal.ONE.add(new BigDecimal(0x1p-40))));
        BigDecimal l1 = new BigDecimal(p.wassersteinBoundGridUnits());
        BigDecimal lqTimesFactor = lq.multiply(new BigDecimal(norm.l1Factor(d)));
        assertThat(l1).isGreaterThanOrEqualTo(lqTimesFactor);
        assertThat(l1).isLessThanOrEqualTo(lqTimesFactor.multiply(BigDecimal.ONE.add(new BigDecimal(0x1p-50))));
        BigDecimal scale = new BigDecimal(p.noiseScaleGridUnits().numerator())
                .divide(new BigDecimal(p.noiseScaleGridUnits().denominator()), MC);
        BigDecimal minimum = l1.multiply(BigDecimal.valueOf(2)).divide(new BigDecimal(epsilonPrime), MC);
        assertThat(scale).isGreaterThanOrEqualTo(minimum);
        assertThat(scale).isLessThanOrEqualTo(minimum.multiply(BigDecimal.ONE.add(new BigDecimal(0x1p-29))));
    }

    /**
     * The noise scale limit is inclusive: an ε′ that makes 2Δ_L/ε′ exactly 2^40 grid units is accepted (with that
     * scale), the next smaller ε′ is refused.
     */
    @Test
    void aNoiseScaleOfExactlyTheLimitIsAcceptedAndOneStepBeyondIsRefused() {
        Purifier reference = new Purifier(LqNorm.L2, new double[2], 2.0, Epsilon.of(1.0), LogDelta.ofDelta(1e-6),
                0.5, 6);
        double transport = reference.wassersteinBoundGridUnits();
        double atLimit = Math.scalb(transport, -39); // 2·Δ_L / ε′ = 2^40 exactly (ε′ given as its exact binary value)
        Purifier limit = new Purifier(LqNorm.L2, new double[2], 2.0, Epsilon.exactly(new BigDecimal(atLimit)), LogDelta.ofDelta(1e-6),
                0.5, 6);
        assertThat(limit.wassersteinBoundGridUnits()).isEqualTo(transport);
        assertThat(limit.noiseScaleGridUnits().doubleValue()).isEqualTo(Purifier.MAX_NOISE_SCALE_GRID_UNITS);
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> new Purifier(LqNorm.L2, new double[2], 2.0, Epsilon.exactly(new BigDecimal(Math.nextDown(atLimit))),
                        LogDelta.ofDelta(1e-6), 0.5, 6))
                .withMessageContaining("2^40");
    }

    /**
     * purifyToGrid draws, in this order, the mixing coin (ω), the lattice point only if the coin came up, then one
     * discrete Laplace value per coordinate, added to the rounded point: replayed here from the same seed with
     * the public samplers, output for output.
     */
    @Test
    void purifyToGridIsTheRoundedPointPlusTheNoiseDrawnInOrder() {
        Purifier p = new Purifier(LqNorm.L2, new double[3], 2.0, Epsilon.of(1.0), LogDelta.ofDelta(1e-6), 0.25);
        double[] x = {0.3, -0.2, 0.1};
        for (long seed = 1; seed <= 40; seed++) {
            long[] got = p.purifyToGrid(x, new SeededRandomBits(seed));
            SeededRandomBits replay = new SeededRandomBits(seed);
            long[] expected = new DyadicBernoulli("omega", 0.25).sample(replay)
                    ? p.lattice().sample(replay) : p.roundToLattice(x);
            for (int i = 0; i < 3; i++) {
                expected[i] += p.noiseDistribution().sample(replay);
            }
            assertThat(got).as("seed %d", seed).containsExactly(expected);
        }
    }

    /**
     * The safety net of the rounding to Θ: the largest coordinate (the first on ties) steps toward the centre
     * until the point is in the ball; a point already inside is returned as it is.
     */
    @Test
    void pointsOutsideTheBallStepTheLargestCoordinateTowardTheCentre() {
        Purifier p = new Purifier(LqNorm.L2, new double[2], 10.0, Epsilon.of(1.0), LogDelta.ofDelta(1e-6), 0.5, 0);
        assertThat(p.gridRadius()).isEqualTo(5.0);
        assertThat(p.stepInside(new long[] {5, 5})).containsExactly(3, 4);
        assertThat(p.stepInside(new long[] {-5, -5})).containsExactly(-3, -4);
        assertThat(p.stepInside(new long[] {-7, 0})).containsExactly(-5, 0);
        assertThat(p.stepInside(new long[] {0, 9})).containsExactly(0, 5);
        assertThat(p.stepInside(new long[] {3, -4})).containsExactly(3, -4);
        Purifier cube = new Purifier(LqNorm.LINF, new double[3], 4.0, Epsilon.of(1.0), LogDelta.ofDelta(1e-6), 0.5, 0);
        assertThat(cube.stepInside(new long[] {1, 3, -3})).containsExactly(1, 2, -2);
    }
}
