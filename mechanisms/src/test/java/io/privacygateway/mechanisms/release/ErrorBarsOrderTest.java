package io.privacygateway.mechanisms.release;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.param.ConfidenceLevel;
import org.junit.jupiter.api.Test;

/**
 * Bars stay ordered when the estimate lies a rounding error outside the box that contains every true answer and the
 * half width is 0 (a query whose answer the mechanism knows exactly, e.g. the whole range): the centre is clamped into
 * the box first, so the bar is the box's end point instead of an empty interval.
 */
class ErrorBarsOrderTest {
    private static final double ABOVE_ONE = Math.nextUp(Math.nextUp(1.0));
    private static final double BELOW_ZERO = -Math.ulp(1.0);

    /** The bar of an estimate just above the box with half width 0 is {@code [hi, hi]}; just below, {@code [lo, lo]}. */
    @Test
    void roundingOutsideTheBoxWithZeroWidthGivesTheEndPoint() {
        assertThat(ErrorBars.barLower(ABOVE_ONE, 0, 0, 1)).isEqualTo(1.0);
        assertThat(ErrorBars.barUpper(ABOVE_ONE, 0, 0, 1)).isEqualTo(1.0);
        assertThat(ErrorBars.barLower(BELOW_ZERO, 0, 0, 1)).isEqualTo(0.0);
        assertThat(ErrorBars.barUpper(BELOW_ZERO, 0, 0, 1)).isEqualTo(0.0);
        assertThat(ErrorBars.barLower(10.5, 0, -2, 10)).isEqualTo(10.0);
    }

    /** Inside the box the bar is {@code [a − h, a + h] ∩ [lo, hi]}, as before. */
    @Test
    void insideTheBoxTheBarIsTheClippedInterval() {
        assertThat(ErrorBars.barLower(0.5, 0.125, 0, 1)).isEqualTo(0.375);
        assertThat(ErrorBars.barUpper(0.5, 0.125, 0, 1)).isEqualTo(0.625);
        assertThat(ErrorBars.barLower(0.05, 0.125, 0, 1)).isEqualTo(0.0);
        assertThat(ErrorBars.barUpper(0.95, 0.125, 0, 1)).isEqualTo(1.0);
    }

    /** Outside the box with a positive half width the bar only widens: it contains the plain clipped interval. */
    @Test
    void clampingTheCentreOnlyWidensTheBar() {
        double a = 1 + 1e-9;
        double h = 0.25;
        assertThat(ErrorBars.barLower(a, h, 0, 1)).isLessThanOrEqualTo(Math.max(0, a - h));
        assertThat(ErrorBars.barUpper(a, h, 0, 1)).isEqualTo(1.0);
    }

    /** Both public entry points use the rule: {@code compute} with a zero standard error and {@code clipped}. */
    @Test
    void computeAndClippedGiveOrderedBars() {
        double[] published = {ABOVE_ONE, BELOW_ZERO};
        ErrorBars.Bounds b = ErrorBars.compute(published, published, new double[] {0, 0}, null,
                new ErrorBars.LevelNoise[0], 0, ConfidenceLevel.of(0.95));
        for (int q = 0; q < 2; q++) {
            assertThat(b.lower()[q]).isLessThanOrEqualTo(b.upper()[q]);
        }
        double[][] c = ErrorBars.clipped(published, new double[] {0, 0}, true);
        assertThat(c[0]).containsExactly(1.0, 0.0);
        assertThat(c[1]).containsExactly(1.0, 0.0);
    }
}
