package io.privacygateway.mechanisms.central.purification;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.central.sampling.LqNorm;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.LogDelta;
import org.junit.jupiter.api.Test;

/**
 * The purifier's deterministic parts at their edges (written against the mutants PIT found unchecked;
 * docs/mutation-testing.md): the default grid's clamping of the grid radius to exactly its limits, and the
 * rounding of inputs into the lattice ball on the boundary, just inside it and outside it, in each norm.
 */
class PurifierGridClampingAndBallRoundingTest {
    private static final Epsilon EPS = Epsilon.of(1.0);
    private static final LogDelta DELTA = LogDelta.ofDelta(1e-6);

    /** A purifier with grid step 1 (grid exponent 0) and the given radius, centred at the origin. */
    private static Purifier unitGrid(LqNorm norm, int d, double radius) {
        return new Purifier(norm, new double[d], 2 * radius, EPS, DELTA, 0.5, 0);
    }

    @Test
    void theDefaultGridIsRaisedToExactlySixtyFourGridUnits() {
        // κ = (δ/2ω)^{1/d} = 250: the formula's grid is coarser than 64 units of radius; it is refined to exactly 64
        Purifier p = new Purifier(LqNorm.LINF, new double[1], 2.0, EPS, LogDelta.ofDelta(0.5), 1e-3);
        assertThat(p.gridRadius()).isEqualTo(Purifier.MIN_DEFAULT_GRID_RADIUS);
        assertThat(p.gridExponent()).isEqualTo(6);
    }

    @Test
    void theDefaultGridIsCappedAtExactlyTwoToTheThirtyGridUnits() {
        // δ = 1e-10 in one dimension asks for a grid of about 2^41 units of radius; it is capped at 2^30
        Purifier p = new Purifier(LqNorm.LINF, new double[1], 2.0, EPS, LogDelta.ofDelta(1e-10), 0.5);
        assertThat(p.gridRadius()).isEqualTo(Purifier.MAX_GRID_RADIUS);
        assertThat(p.gridExponent()).isEqualTo(30);
    }

    @Test
    void aPointOnTheBoundaryOfTheCubeRoundsToTheLatticeBoundary() {
        Purifier p = unitGrid(LqNorm.LINF, 2, 10);
        assertThat(p.roundToLattice(new double[] {10, -10})).containsExactly(10, -10);
        assertThat(p.roundToLattice(new double[] {9.6, 0.4})).containsExactly(10, 0);
        assertThat(p.roundToLattice(new double[] {25, -1e9})).containsExactly(10, -10);
    }

    @Test
    void aPointInsideTheBallWhoseNearestLatticePointIsOutsideIsTruncated() {
        Purifier p = unitGrid(LqNorm.L2, 2, 10); // L: z1² + z2² <= 100
        // nearest lattice point (5, 9) has norm² 106: truncation toward the centre gives (5, 8), not a radial shrink
        assertThat(p.roundToLattice(new double[] {5.0, 8.6})).containsExactly(5, 8);
        assertThat(p.roundToLattice(new double[] {6.0, 8.0})).containsExactly(6, 8); // on the sphere: kept
    }

    @Test
    void aPointOutsideTheBallIsShrunkRadiallyThenTruncated() {
        Purifier l2 = unitGrid(LqNorm.L2, 2, 10);
        assertThat(l2.roundToLattice(new double[] {30, 0})).containsExactly(9, 0);
        assertThat(l2.roundToLattice(new double[] {-30, 40})).containsExactly(-5, 7); // λ = 10/50 → (−6, 8)·(1 − 2^-40)
        Purifier l1 = unitGrid(LqNorm.L1, 2, 10); // L: |z1| + |z2| <= 10
        assertThat(l1.roundToLattice(new double[] {30, 0})).containsExactly(9, 0);
        assertThat(l1.roundToLattice(new double[] {-15, 15})).containsExactly(-4, 4); // λ = 1/3 → (−5, 5)·(1 − 2^-40)
    }

    @Test
    void accessorsGiveBackTheParameters() {
        Purifier p = new Purifier(LqNorm.L2, new double[] {0.25, -3}, 8.0, EPS, DELTA, 0.5);
        assertThat(p.center()).containsExactly(0.25, -3);
        assertThat(p.diameter()).isEqualTo(8.0);
        assertThat(p.dimension()).isEqualTo(2);
        assertThat(p.roundingErrorBound()).isEqualTo(2 * p.gridStep());
        assertThat(p.expectedL1ErrorBound())
                .isEqualTo(p.mixingErrorBound() + p.noiseErrorBound() + p.roundingErrorBound());
        assertThat(p.noiseErrorBound()).isPositive();
        assertThat(p.mixingErrorBound()).isPositive();
        assertThat(p.toString()).startsWith("Purifier(L2, d=2, R=8.0, ε=1, ");
        DiscretePurifier dp = new DiscretePurifier(3, EPS, DELTA);
        assertThat(dp.toString()).startsWith("DiscretePurifier(bits=3, Purifier(LINF, d=3, R=1.0");
    }

    @Test
    void theCubeCentreCountsAsOne() {
        assertThat(DiscretePurifier.bitOf(0)).isEqualTo(1);
        assertThat(DiscretePurifier.bitOf(5)).isEqualTo(1);
        assertThat(DiscretePurifier.bitOf(-1)).isZero();
    }

    /**
     * On the coarsest grid (N = 1 grid unit from the centre) flips are likely, so every term of the bound
     * {@code (1 − ω)·(1 − β^N/(1+β))^d} matters; recomputed here from the noise's β and the cube's parameters.
     */
    @Test
    void theProbabilityThatTheChoiceSurvivesMatchesItsFormula() {
        DiscretePurifier dp = new DiscretePurifier(3, EPS, DELTA, 1);
        Purifier cube = dp.cubePurifier();
        assertThat(cube.gridRadius()).isEqualTo(1.0);
        double beta = cube.noiseDistribution().beta();
        double flip = Math.pow(beta, cube.gridRadius()) / (1 + beta);
        assertThat(flip).isGreaterThan(0.01); // the test has teeth: flips are not negligible here
        double expected = (1 - cube.omega()) * Math.pow(1 - flip, 3);
        assertThat(dp.probabilityUnchangedLowerBound()).isCloseTo(expected, org.assertj.core.data.Offset.offset(1e-12));
    }
}
