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
 * The purifier's transport bound and noise scale against the paper's formula evaluated exactly, and its draw
 * sequence word for word. Written against mutants that shrank a safety factor or changed the sign of the added
 * noise (same law, different outputs): the bounds here must hold above the exact value, not just approximately.
 */
class PurifierMutationEdgesTest {
    private static final MathContext MC = new MathContext(60, RoundingMode.HALF_EVEN);

    /** e^{-x} for x >= 0 to 60 digits (Taylor series of e^x, inverted). */
    private static BigDecimal expNeg(int x) {
        BigDecimal bx = BigDecimal.valueOf(x);
        BigDecimal term = BigDecimal.ONE;
        BigDecimal sum = BigDecimal.ONE;
        for (int i = 1; i < 400; i++) {
            term = term.multiply(bx, MC).divide(BigDecimal.valueOf(i), MC);
            sum = sum.add(term, MC);
        }
        return BigDecimal.ONE.divide(sum, MC);
    }

    /**
     * With ω = 1/2, κ = (δ/(2ω))^{1/d} = e^{ln δ/d} exactly; the lattice transport bound must be at least
     * {@code min(4(ρ+s)κ + 4s + 2, 2ρ)} and within 2^-40 of it, and Δ_L at least it times d^{1−1/q}.
     * ln δ = −1 (d = 1) leaves the κ margin smaller than the final safety factor; ln δ = −10⁴ (d = 1000)
     * makes the κ margin the larger one: each safety step is checked where it is the one that matters.
     */
    @Test
    void theTransportBoundIsAtLeastThePapersFormulaEvaluatedExactly() {
        check(-1.0, 1, 1);
        check(-10_000.0, 1000, 10);
    }

    private static void check(double lnDelta, int d, int minusLnKappa) {
        Purifier p = new Purifier(LqNorm.LINF, new double[d], 2.0, Epsilon.of(1.0), new LogDelta(lnDelta), 0.5);
        BigDecimal kappa = expNeg(minusLnKappa);
        BigDecimal rho = new BigDecimal(p.gridRadius());
        BigDecimal s = new BigDecimal(LqNorm.LINF.halfCubeDiagonal(d));
        BigDecimal four = BigDecimal.valueOf(4);
        BigDecimal alpha = four.multiply(rho.add(s)).multiply(kappa).add(four.multiply(s)).add(BigDecimal.valueOf(2));
        BigDecimal exact = alpha.min(rho.multiply(BigDecimal.valueOf(2)));
        assertThat(exact).isLessThan(rho.multiply(BigDecimal.valueOf(2))); // the formula, not the cap, is in force
        BigDecimal lq = new BigDecimal(p.wassersteinBoundLqGridUnits());
        assertThat(lq).isGreaterThanOrEqualTo(exact);
        assertThat(lq).isLessThanOrEqualTo(exact.multiply(BigDecimal.ONE.add(new BigDecimal(0x1p-40))));
        BigDecimal l1 = new BigDecimal(p.wassersteinBoundGridUnits());
        BigDecimal lqTimesFactor = lq.multiply(new BigDecimal(LqNorm.LINF.l1Factor(d)));
        assertThat(l1).isGreaterThan(lqTimesFactor);
        BigDecimal scale = new BigDecimal(p.noiseScaleGridUnits().numerator()).divide(new BigDecimal(p.noiseScaleGridUnits().denominator()), MC);
        assertThat(scale).isGreaterThanOrEqualTo(l1.multiply(BigDecimal.valueOf(2)));
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
