package io.privacygateway.mechanisms.local.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.DrawTree;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Edge cases of the vector protocols that the statistical tests do not pin down (found by mutation testing). */
class VectorProtocolsBoundaryCasesTest {

    /** ‖u‖ without overflow or underflow: scaled by the largest magnitude. */
    @Test
    void theNormIsScaled() {
        assertThat(BallCandidates.norm(new double[] {0, 0, 0})).isZero();
        assertThat(BallCandidates.norm(new double[] {3e-200, -4e-200})).isCloseTo(5e-200, within(1e-214));
        assertThat(BallCandidates.norm(new double[] {3e200, 4e200})).isCloseTo(5e200, within(1e186));
        assertThat(BallCandidates.norm(new double[] {-2})).isEqualTo(2);
        assertThat(BallCandidates.norm(new double[] {1, Double.POSITIVE_INFINITY})).isInfinite();
        assertThat(BallCandidates.norm(new double[] {0.6, 0.8})).isCloseTo(1, within(1e-15));
    }

    /**
     * A value so small that its squares underflow still has a direction: ρ rounds to a half-half norm step between
     * ±u/ρ, which differs (for some report) from the ±e₀ of the zero value and from the one-sided law on the sphere.
     */
    @Test
    void aTinyValueKeepsItsDirection() {
        BallCandidates p = BallCandidates.of(2, 1, Epsilon.of(2), VectorFixtures.HASH, 3, 1);
        boolean differsFromZero = false;
        for (int i = 0; i < 6; i++) {
            long base = VectorFixtures.base(i);
            Map<Byte, Rational> tinyPlus = DrawTree.law(d -> p.randomize(new double[] {0, 1e-300}, base, d)[0]);
            Map<Byte, Rational> tinyMinus = DrawTree.law(d -> p.randomize(new double[] {0, -1e-300}, base, d)[0]);
            Map<Byte, Rational> unitPlus = DrawTree.law(d -> p.randomize(new double[] {0, 1}, base, d)[0]);
            Map<Byte, Rational> zero = DrawTree.law(d -> p.randomize(new double[] {0, 0}, base, d)[0]);
            assertThat(same(tinyPlus, tinyMinus)).isTrue();
            assertThat(same(unitPlus, tinyPlus)).isFalse();
            differsFromZero |= !same(tinyPlus, zero);
        }
        assertThat(differsFromZero).isTrue();
    }

    private static boolean same(Map<Byte, Rational> a, Map<Byte, Rational> b) {
        for (int y = 0; y < 256; y++) {
            Rational pa = a.getOrDefault((byte) y, Rational.ZERO);
            Rational pb = b.getOrDefault((byte) y, Rational.ZERO);
            if (pa.compareTo(pb) != 0) {
                return false;
            }
        }
        return true;
    }

    /** ε too small for the grid: π/s would equal (1 − π)/(N − s) and κ would be 0, so construction refuses. */
    @Test
    void anEpsilonTooSmallForTheGridIsRefused() {
        assertThatThrownBy(() -> BallCandidates.of(3, 1, Epsilon.of(1e-18), VectorFixtures.HASH, 2, 1))
                .hasMessageContaining("cannot be realised");
        BallCandidates ok = BallCandidates.of(3, 1, Epsilon.of(1e-9), VectorFixtures.HASH, 2, 1);
        assertThat(ok.kappa()).isPositive();
    }

    /** The device-cost cap: (N/2)·d is at most 2^15 for every allowed (t, d), so the cap of 2^16 never binds. */
    @Test
    void theDeviceCostCapHolds() {
        BallCandidates p = BallCandidates.of(256, 1, Epsilon.of(1), VectorFixtures.HASH, 8, 1);
        assertThat((long) p.candidateCount() / 2 * p.dimension()).isLessThanOrEqualTo(BallCandidates.MAX_DEVICE_GAUSSIANS);
        assertThat(BallCandidates.optimalParameters(256, Epsilon.of(8))[0]).isEqualTo(8);
    }

    /** Projection at the boundary: a point exactly on the sphere is unchanged. */
    @Test
    void projectionKeepsTheSphere() {
        BallCandidates p = BallCandidates.of(2, 5, Epsilon.of(1), VectorFixtures.HASH);
        assertThat(VectorMeanEstimator.of(p).project(new double[] {5, 0})).containsExactly(5, 0);
        assertThat(VectorMeanEstimator.of(p).project(new double[] {0, -5.5})).containsExactly(0, -5);
    }

    /** The box estimate of a single known report, term by term: (d/k)·t̂ for the sampled coordinates, 0 elsewhere. */
    @Test
    void theBoxEstimateOfOneReport() {
        BoxCoordinates p = BoxCoordinates.of(5, -1, 3, 5, MechanismId.DUCHI, Epsilon.of(1), VectorFixtures.HASH, 2);
        ReportCoordinates c = VectorFixtures.coordinates(9);
        long[] state = new long[p.stateLength()];
        assertThat(p.accumulate(new byte[] {0, 1, 0, 0}, c, state)).isTrue(); // + for the first, − for the second
        int[] s = p.sampledCoordinates(c);
        VectorMeanEstimate e = VectorMeanEstimator.of(p).estimate(state, 1);
        double plus = p.scalar().estimateOf(1);
        double minus = p.scalar().estimateOf(0);
        for (int k = 0; k < 5; k++) {
            double t = k == s[0] ? 2.5 * plus : k == s[1] ? 2.5 * minus : 0;
            assertThat(e.mean()[k]).as("coordinate %d", k).isCloseTo(-1 + 2 * (t + 1), within(1e-12));
        }
        assertThat(e.standardError()[0]).isCloseTo(2 * Math.sqrt(2.5 * p.scalar().worstVariance() + 1.5), within(1e-12));
    }

    /** The ball estimate of one known report: r/κ times the candidate (to the fixed point's 2^-32). */
    @Test
    void theBallEstimateOfOneReport() {
        BallCandidates p = BallCandidates.of(3, 2, Epsilon.of(1), VectorFixtures.HASH, 3, 2);
        ReportCoordinates c = VectorFixtures.coordinates(3);
        long[] state = new long[3];
        p.accumulate(new byte[] {5}, c, state);
        double[] cand = p.candidate(VectorFixtures.base(3), 1);
        VectorMeanEstimate e = VectorMeanEstimator.of(p).estimate(state, 2);
        for (int k = 0; k < 3; k++) {
            assertThat(e.mean()[k]).isCloseTo(-2 * cand[k] / p.kappa() / 2, within(1e-8));
        }
        assertThat(e.n()).isEqualTo(2);
        assertThat(e.standardError()[1]).isCloseTo(2 * Math.sqrt(Math.max(p.scoreSquare(), 1)) / p.kappa() / Math.sqrt(2),
                within(1e-12));
        assertThat(VectorMeanEstimator.of(p).worstStandardError(4)).isCloseTo(VectorMeanEstimator.of(p).worstStandardError(1) / 2, within(1e-15));
        assertThatThrownBy(() -> VectorMeanEstimator.of(p).worstStandardError(0)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Sampled coordinates when every coordinate is drawn, and the box split at k = 1. */
    @Test
    void theBoxAtOneCoordinateSamplesItAndKeepsTheWholeEpsilon() {
        BoxCoordinates one = BoxCoordinates.of(1, 0, 1, 2, MechanismId.DUCHI, Epsilon.of(1), VectorFixtures.HASH);
        assertThat(one.sampledCoordinates()).isEqualTo(1);
        assertThat(one.sampledCoordinates(VectorFixtures.coordinates(0))).containsExactly(0);
        assertThat(BoxCoordinates.share(Epsilon.of(1.5), 1)).isEqualTo(Epsilon.of(1.5));
        assertThatThrownBy(() -> BoxCoordinates.share(Epsilon.of(1), 17)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BoxCoordinates.share(Epsilon.of(1), 0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(VectorMeanEstimator.of(one).worstStandardError(4)).isCloseTo(VectorMeanEstimator.of(one).worstStandardError(1) / 2, within(1e-15));
        assertThatThrownBy(() -> VectorMeanEstimator.of(one).worstStandardError(0)).isInstanceOf(IllegalArgumentException.class);
    }

    /** The norm slack's boundary: a norm of exactly 1 + slack (in double) is accepted, the next double is not. */
    @Test
    void theSlackBoundaryIsInclusive() {
        BallCandidates p = BallCandidates.of(1, 1, Epsilon.of(1), VectorFixtures.HASH, 1, 1);
        double edge = 1 + BallCandidates.NORM_SLACK;
        p.checkValue(new double[] {edge});
        p.checkValue(new double[] {-edge});
        assertThatThrownBy(() -> p.checkValue(new double[] {Math.nextUp(edge)})).hasMessageContaining("norm");
    }

    /** The coordinate-by-coordinate accumulate checks its coordinates and the state like the object form. */
    @Test
    void theCoordinateAccumulateRefusesBadCoordinatesAndStates() {
        BallCandidates ball = BallCandidates.of(3, 1, Epsilon.of(1), VectorFixtures.HASH, 2, 1);
        BoxCoordinates box = BoxCoordinates.of(3, 0, 1, 3, MechanismId.DUCHI, Epsilon.of(1), VectorFixtures.HASH, 2);
        for (VectorMeanProtocol p : new VectorMeanProtocol[] {ball, box}) {
            byte[] y = new byte[p.payloadBytes()];
            long[] state = new long[p.stateLength()];
            assertThatThrownBy(() -> p.accumulate(y, "d", -1, 0, state)).as("%s", p)
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> p.accumulate(y, "", 0, 0, state)).as("%s", p)
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> p.accumulate(y, "d", 0, 0, new long[p.stateLength() + 1])).as("%s", p)
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> p.accumulate(y, "d", 0, 0, null)).as("%s", p)
                    .isInstanceOf(IllegalArgumentException.class);
            assertThat(state).containsOnly(0);
            assertThat(p.accumulate(y, "d", 0, 0, state)).isTrue();
        }
    }

    /** The default form with secret bits gives the same payload as the exact sampler over the same bits. */
    @Test
    void theRandomBitsFormUsesTheExactSampler() {
        BallCandidates p = BallCandidates.of(4, 1, Epsilon.of(2), VectorFixtures.HASH);
        double[] x = {0.1, -0.2, 0.3, 0.4};
        ReportCoordinates c = VectorFixtures.coordinates(6);
        for (long seed = 0; seed < 20; seed++) {
            byte[] a = p.randomize(x, c, new io.privacygateway.mechanisms.random.SeededRandomBits(seed));
            byte[] b = p.randomize(x, c, io.privacygateway.mechanisms.random.ExactSampler.draws(
                    new io.privacygateway.mechanisms.random.SeededRandomBits(seed)));
            assertThat(a).isNotNull().containsExactly(b);
        }
    }

    /** Below ε* the hybrid randomizer is Duchi's: an exact tie, which best() breaks for duchi (the first). */
    @Test
    void bestBreaksTiesByTheFirstMechanism() {
        BoxCoordinates.Choice c = BoxCoordinates.best(32, 1025, Epsilon.of(0.5));
        assertThat(BoxCoordinates.bestSampled(32, 1025, MechanismId.HYBRID, Epsilon.of(0.5)).worstVariance())
                .isEqualTo(c.worstVariance());
        assertThat(c.scalar()).isEqualTo(MechanismId.DUCHI);
    }

    /**
     * The scan's ideal variance in closed form: N = 2, s = 1 is Duchi's one bit, κ = √(2/π)(e − 1)/(e + 1), G = 1, so
     * (d − 1 + G)/κ² = d·(π/2)·((e + 1)/(e − 1))²; and s = N/2 gives the same for any N (the same κ and G).
     */
    @Test
    void theIdealVarianceOfTheScan() {
        double e = Math.exp(1.5);
        double a1 = Math.sqrt(2 / Math.PI);
        double expected = 5 * Math.PI / 2 * Math.pow((e + 1) / (e - 1), 2);
        assertThat(BallCandidates.idealTotalVariance(5, e, 2, 1, a1, 1)).isCloseTo(expected, within(1e-12 * expected));
        assertThat(BallCandidates.idealTotalVariance(5, e, 16, 8, 8 * a1, 8)).isCloseTo(expected, within(1e-12 * expected));
        // and a general point against the formula written out: N = 8, s = 2, A = 2.5, B = 3
        double den = e * 2 + 6;
        double kappa = (e - 1) / den * 2.5;
        double g = (e * 3 + (8 - 3)) / den;
        assertThat(BallCandidates.idealTotalVariance(5, e, 8, 2, 2.5, 3)).isCloseTo((4 + g) / (kappa * kappa),
                within(1e-12));
    }
}
