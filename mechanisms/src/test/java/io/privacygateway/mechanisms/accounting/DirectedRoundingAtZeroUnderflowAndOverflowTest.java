package io.privacygateway.mechanisms.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.param.DirectedDoubles;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every directed operation on the edge values the random property test ({@link DirectedRoundingTest}) never
 * reaches: zero, results that are exact, results at and below the underflow guard {@code 2^-969}, subnormals,
 * and sums, products and quotients that overflow in either direction. The expected value is the exact result
 * rounded by {@link DirectedDoubles#ceil}/{@link DirectedDoubles#floor} (or, for quotients and roots, the
 * defining inequalities checked in exact arithmetic), so a result one ulp too loose fails as well as one on the
 * wrong side. Below the guard (results, numerators or radicands under {@code 2^-969}) the operations step one
 * ulp unconditionally, as documented: there only the direction is checked.
 *
 * <p>Found by this test: {@code divUp}/{@code divDown} trusted the fma residual when the numerator was below
 * the guard but the quotient was not (e.g. {@code 2^-1074 / (2^-969/3)}); the residual underflowed to 0 and
 * the quotient was returned rounded to nearest, on the unsafe side half the time; and {@code mulUp}/{@code divUp}
 * returned −∞ for a finite product or quotient below −MAX_VALUE (an "upper bound" below the value); and below the
 * guard {@code mulDown} and {@code divDown} stepped a positive value that underflowed to 0 down to −2^-1074, so
 * {@code Conversions.gaussianRho} returned a negative ρ for a σ whose square underflows.
 */
class DirectedRoundingAtZeroUnderflowAndOverflowTest {
    private static final double TINY = 0x1p-969;

    private static List<Double> edges() {
        List<Double> out = new ArrayList<>();
        double[] magnitudes = {0.0, Double.MIN_VALUE, 0x1p-1060, TINY / 3, TINY, Math.nextUp(TINY), 3 * TINY, 0x1p-500,
            1.0 / 3, 0.5, 1.0, 3.0, 0x1p500, 0x1p1000, Double.MAX_VALUE / 3, Double.MAX_VALUE};
        for (double m : magnitudes) {
            out.add(m);
            if (m != 0) {
                out.add(-m);
            }
        }
        return out;
    }

    private static BigDecimal bd(double x) {
        return new BigDecimal(x);
    }

    @Test
    void sumsAndDifferencesAreTheExactSumRoundedInTheirDirection() {
        for (double a : edges()) {
            for (double b : edges()) {
                BigDecimal sum = bd(a).add(bd(b));
                assertThat(DirectedRounding.addUp(a, b)).as("%s + %s up", a, b).isEqualTo(DirectedDoubles.ceil(sum));
                assertThat(DirectedRounding.addDown(a, b)).as("%s + %s down", a, b)
                        .isEqualTo(DirectedDoubles.floor(sum));
                BigDecimal diff = bd(a).subtract(bd(b));
                assertThat(DirectedRounding.subUp(a, b)).as("%s - %s up", a, b).isEqualTo(DirectedDoubles.ceil(diff));
                assertThat(DirectedRounding.subDown(a, b)).as("%s - %s down", a, b)
                        .isEqualTo(DirectedDoubles.floor(diff));
            }
        }
    }

    @Test
    void productsAreTheExactProductRoundedInTheirDirection() {
        for (double a : edges()) {
            for (double b : edges()) {
                BigDecimal p = bd(a).multiply(bd(b));
                double up = DirectedRounding.mulUp(a, b);
                double down = DirectedRounding.mulDown(a, b);
                assertThat(above(up, p)).as("%s * %s up is above", a, b).isTrue();
                assertThat(below(down, p)).as("%s * %s down is below", a, b).isTrue();
                if (p.signum() == 0 || p.abs().compareTo(bd(TINY)) >= 0) { // tight outside the underflow guard
                    assertThat(up).as("%s * %s up", a, b).isEqualTo(DirectedDoubles.ceil(p));
                    assertThat(down).as("%s * %s down", a, b).isEqualTo(DirectedDoubles.floor(p));
                }
            }
        }
    }

    @Test
    void quotientsAreTheExactQuotientRoundedInTheirDirection() {
        for (double a : edges()) {
            for (double b : edges()) {
                if (!(b > 0)) {
                    continue; // the contract: b finite and > 0
                }
                double up = DirectedRounding.divUp(a, b);
                double down = DirectedRounding.divDown(a, b);
                // up: the smallest double q with q·b >= a; down: the largest with q·b <= a
                assertThat(atLeast(up, b, a)).as("%s / %s up is above", a, b).isTrue();
                assertThat(atMost(down, b, a)).as("%s / %s down is below", a, b).isTrue();
                assertThat(a > 0 ? down >= 0 : a == 0 || up <= 0).as("%s / %s keeps its sign", a, b).isTrue();
                if (a == 0 || (Math.abs(a) >= TINY && Math.abs(a / b) >= TINY)) { // tight outside the guard
                    assertThat(atLeast(Math.nextDown(up), b, a)).as("%s / %s up is tight", a, b).isFalse();
                    assertThat(atMost(Math.nextUp(down), b, a)).as("%s / %s down is tight", a, b).isFalse();
                }
            }
        }
    }

    @Test
    void rootsAreTheExactRootRoundedInTheirDirection() {
        for (double x : edges()) {
            if (x < 0) {
                continue;
            }
            if (x == Double.MAX_VALUE) {
                assertThat(DirectedRounding.sqrtDown(Double.POSITIVE_INFINITY)).isEqualTo(Double.MAX_VALUE);
                assertThat(DirectedRounding.sqrtUp(Double.POSITIVE_INFINITY)).isEqualTo(Double.POSITIVE_INFINITY);
            }
            double up = DirectedRounding.sqrtUp(x);
            double down = DirectedRounding.sqrtDown(x);
            assertThat(squareAtLeast(up, x)).as("sqrt %s up is above", x).isTrue();
            assertThat(squareAtMost(down, x)).as("sqrt %s down is below", x).isTrue();
            assertThat(down).as("sqrt %s down is at most one ulp looser than nearest", x)
                    .isGreaterThanOrEqualTo(Math.nextDown(Math.sqrt(x)));
            assertThat(up).as("sqrt %s up is at most one ulp looser than nearest", x)
                    .isLessThanOrEqualTo(Math.nextUp(Math.sqrt(x)));
            if (x == 0 || x >= TINY) { // tight outside the underflow guard
                assertThat(x == 0 ? up == 0 : !squareAtLeast(Math.nextDown(up), x)).as("sqrt %s up is tight", x)
                        .isTrue();
                assertThat(squareAtMost(Math.nextUp(down), x)).as("sqrt %s down is tight", x).isFalse();
            }
        }
    }

    private static boolean above(double r, BigDecimal exact) {
        if (exact.signum() < 0 && r > 0) {
            return false; // an upper bound of a negative value need not be positive: 0 is one
        }
        return r == Double.POSITIVE_INFINITY || (r != Double.NEGATIVE_INFINITY && bd(r).compareTo(exact) >= 0);
    }

    private static boolean below(double r, BigDecimal exact) {
        if (exact.signum() > 0 && r < 0) {
            return false; // a lower bound of a positive value must not turn negative: 0 is one
        }
        return r == Double.NEGATIVE_INFINITY || (r != Double.POSITIVE_INFINITY && bd(r).compareTo(exact) <= 0);
    }

    /** {@code q·b >= a} in exact arithmetic, with ±∞ for q read as beyond every double. */
    private static boolean atLeast(double q, double b, double a) {
        if (q == Double.POSITIVE_INFINITY) {
            return true;
        }
        if (q == Double.NEGATIVE_INFINITY) {
            return false;
        }
        return bd(q).multiply(bd(b)).compareTo(bd(a)) >= 0;
    }

    private static boolean atMost(double q, double b, double a) {
        if (q == Double.NEGATIVE_INFINITY) {
            return true;
        }
        if (q == Double.POSITIVE_INFINITY) {
            return false;
        }
        return bd(q).multiply(bd(b)).compareTo(bd(a)) <= 0;
    }

    private static boolean squareAtLeast(double s, double x) {
        if (s == Double.POSITIVE_INFINITY) {
            return true;
        }
        return s >= 0 && bd(s).multiply(bd(s)).compareTo(bd(x)) >= 0;
    }

    private static boolean squareAtMost(double s, double x) {
        if (s == Double.POSITIVE_INFINITY) {
            return false;
        }
        return s <= 0 || bd(s).multiply(bd(s)).compareTo(bd(x)) <= 0;
    }
}
