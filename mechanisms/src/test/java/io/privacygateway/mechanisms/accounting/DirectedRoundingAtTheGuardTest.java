package io.privacygateway.mechanisms.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import org.junit.jupiter.api.Test;

/**
 * Directed rounding exactly at the underflow guard {@code 2^-969} (where the fma residual is still exact, so an
 * exact result must come back unchanged) and at zero (the exact result, sign included, and NaN for an undefined
 * product). Written against mutants of {@link DirectedRounding} that the edge test ({@link DirectedRoundingAtZeroUnderflowAndOverflowTest})
 * let through because it treats the guard itself as "below the guard".
 */
class DirectedRoundingAtTheGuardTest {
    private static final double GUARD = 0x1p-969;

    /** A product or quotient exactly equal to the guard is exact: neither direction steps it. */
    @Test
    void exactResultsAtTheGuardAreReturnedUnchanged() {
        assertThat(DirectedRounding.mulUp(GUARD, 1.0)).isEqualTo(GUARD);
        assertThat(DirectedRounding.mulDown(GUARD, 1.0)).isEqualTo(GUARD);
        assertThat(DirectedRounding.mulUp(-GUARD, 1.0)).isEqualTo(-GUARD);
        assertThat(DirectedRounding.mulDown(-GUARD, 1.0)).isEqualTo(-GUARD);
        assertThat(DirectedRounding.divUp(GUARD, 1.0)).isEqualTo(GUARD);
        assertThat(DirectedRounding.divDown(GUARD, 1.0)).isEqualTo(GUARD);
        assertThat(DirectedRounding.divUp(-GUARD, 1.0)).isEqualTo(-GUARD);
        assertThat(DirectedRounding.divDown(-GUARD, 1.0)).isEqualTo(-GUARD);
        assertThat(DirectedRounding.divUp(2 * GUARD, 2.0)).isEqualTo(GUARD);
        assertThat(DirectedRounding.divDown(2 * GUARD, 2.0)).isEqualTo(GUARD);
    }

    /** √(2^-969) is irrational: the rounded-down root is the largest double whose square is at most 2^-969. */
    @Test
    void theRootOfTheGuardIsRoundedByTheResidual() {
        BigDecimal x = new BigDecimal(GUARD);
        double down = DirectedRounding.sqrtDown(GUARD);
        double up = DirectedRounding.sqrtUp(GUARD);
        assertThat(new BigDecimal(down).pow(2)).isLessThanOrEqualTo(x);
        assertThat(new BigDecimal(Math.nextUp(down)).pow(2)).isGreaterThan(x);
        assertThat(new BigDecimal(up).pow(2)).isGreaterThanOrEqualTo(x);
        assertThat(new BigDecimal(Math.nextDown(up)).pow(2)).isLessThan(x);
        assertThat(Math.nextUp(down)).isEqualTo(up);
        BigDecimal exact = x.sqrt(new MathContext(60, RoundingMode.HALF_EVEN));
        assertThat(new BigDecimal(down)).isLessThan(exact);
        assertThat(new BigDecimal(up)).isGreaterThan(exact);
    }

    /** A zero operand gives the exact IEEE product, quotient or root, sign of zero included; 0·∞ stays NaN. */
    @Test
    void zeroOperandsGiveTheExactResult() {
        assertThat(Double.doubleToRawLongBits(DirectedRounding.mulUp(-1.0, 0.0))).isEqualTo(Double.doubleToRawLongBits(-0.0));
        assertThat(Double.doubleToRawLongBits(DirectedRounding.mulDown(0.0, -3.0))).isEqualTo(Double.doubleToRawLongBits(-0.0));
        assertThat(DirectedRounding.mulUp(0.0, Double.POSITIVE_INFINITY)).isNaN();
        assertThat(DirectedRounding.mulDown(Double.NEGATIVE_INFINITY, 0.0)).isNaN();
        assertThat(Double.doubleToRawLongBits(DirectedRounding.divUp(-0.0, 2.0))).isEqualTo(Double.doubleToRawLongBits(-0.0));
        assertThat(Double.doubleToRawLongBits(DirectedRounding.divDown(-0.0, 2.0))).isEqualTo(Double.doubleToRawLongBits(-0.0));
        assertThat(Double.doubleToRawLongBits(DirectedRounding.sqrtDown(-0.0))).isEqualTo(Double.doubleToRawLongBits(-0.0));
        assertThat(Double.doubleToRawLongBits(DirectedRounding.sqrtUp(-0.0))).isEqualTo(Double.doubleToRawLongBits(-0.0));
    }
}
