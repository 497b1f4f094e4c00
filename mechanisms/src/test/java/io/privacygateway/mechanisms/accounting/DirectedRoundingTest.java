package io.privacygateway.mechanisms.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Every directed operation against exact {@link BigDecimal} arithmetic on random doubles. */
class DirectedRoundingTest {
    private static final int SAMPLES = 20_000;

    /** A double with random sign, mantissa and a decimal exponent in [-lo, hi]. */
    private static double randomDouble(SplittableRandom r, int exponentRange) {
        double m = 1 + r.nextDouble();
        double x = m * Math.pow(2, r.nextInt(-exponentRange, exponentRange + 1));
        return r.nextBoolean() ? x : -x;
    }

    private static BigDecimal bd(double x) {
        return new BigDecimal(x);
    }

    @Test
    void addIsTheExactDirectedRoundingOfTheSum() {
        SplittableRandom r = new SplittableRandom(1);
        for (int i = 0; i < SAMPLES; i++) {
            double a = randomDouble(r, 60);
            double b = r.nextInt(4) == 0 ? -a * (1 + r.nextInt(3) * 0x1p-40) : randomDouble(r, 60);
            BigDecimal exact = bd(a).add(bd(b));
            double up = DirectedRounding.addUp(a, b);
            double down = DirectedRounding.addDown(a, b);
            assertThat(bd(up)).as("%s + %s up", a, b).isGreaterThanOrEqualTo(exact);
            assertThat(bd(Math.nextDown(up))).as("%s + %s up is tight", a, b).isLessThan(exact);
            assertThat(bd(down)).as("%s + %s down", a, b).isLessThanOrEqualTo(exact);
            assertThat(bd(Math.nextUp(down))).as("%s + %s down is tight", a, b).isGreaterThan(exact);
        }
        assertThat(DirectedRounding.addUp(0.5, 0.25)).isEqualTo(0.75); // exact sums stay exact
        assertThat(DirectedRounding.addUp(Double.MAX_VALUE, Double.MAX_VALUE)).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(DirectedRounding.addDown(Double.MAX_VALUE, Double.MAX_VALUE)).isEqualTo(Double.MAX_VALUE);
    }

    @Test
    void multiplyIsTheExactDirectedRoundingInTheNormalRange() {
        SplittableRandom r = new SplittableRandom(2);
        for (int i = 0; i < SAMPLES; i++) {
            double a = randomDouble(r, 300);
            double b = randomDouble(r, 300);
            BigDecimal exact = bd(a).multiply(bd(b));
            double up = DirectedRounding.mulUp(a, b);
            double down = DirectedRounding.mulDown(a, b);
            assertThat(bd(up)).as("%s * %s up", a, b).isGreaterThanOrEqualTo(exact);
            assertThat(bd(down)).as("%s * %s down", a, b).isLessThanOrEqualTo(exact);
            if (Math.abs(a * b) >= 0x1p-960) {
                assertThat(bd(Math.nextDown(up))).as("%s * %s up is tight", a, b).isLessThan(exact);
                assertThat(bd(Math.nextUp(down))).as("%s * %s down is tight", a, b).isGreaterThan(exact);
            }
        }
        // Underflow: the exact product of two tiny positives is > 0, so the upper bound must be too.
        assertThat(DirectedRounding.mulUp(Double.MIN_VALUE, Double.MIN_VALUE)).isEqualTo(Double.MIN_VALUE);
        assertThat(DirectedRounding.mulDown(Double.MIN_VALUE, Double.MIN_VALUE)).isLessThanOrEqualTo(0.0);
    }

    @Test
    void divideAndSqrtBoundTheExactValue() {
        SplittableRandom r = new SplittableRandom(3);
        for (int i = 0; i < SAMPLES; i++) {
            double a = randomDouble(r, 300);
            double b = Math.abs(randomDouble(r, 300));
            double up = DirectedRounding.divUp(a, b);
            double down = DirectedRounding.divDown(a, b);
            // q >= a/b  <=>  q*b >= a  (b > 0), checked exactly.
            assertThat(bd(up).multiply(bd(b))).as("%s / %s up", a, b).isGreaterThanOrEqualTo(bd(a));
            assertThat(bd(down).multiply(bd(b))).as("%s / %s down", a, b).isLessThanOrEqualTo(bd(a));
            if (Math.abs(a / b) >= 0x1p-960 && Double.isFinite(a / b)) {
                assertThat(bd(Math.nextDown(up)).multiply(bd(b))).isLessThan(bd(a));
                assertThat(bd(Math.nextUp(down)).multiply(bd(b))).isGreaterThan(bd(a));
            }
            double x = Math.abs(a);
            double s = DirectedRounding.sqrtUp(x);
            double sd = DirectedRounding.sqrtDown(x);
            assertThat(bd(s).multiply(bd(s))).as("sqrt(%s) up", x).isGreaterThanOrEqualTo(bd(x));
            assertThat(bd(sd).multiply(bd(sd))).as("sqrt(%s) down", x).isLessThanOrEqualTo(bd(x));
            assertThat(bd(Math.nextDown(s)).multiply(bd(Math.nextDown(s)))).isLessThan(bd(x));
        }
        assertThat(DirectedRounding.sqrtUp(4.0)).isEqualTo(2.0);
        assertThat(DirectedRounding.divUp(1.0, 4.0)).isEqualTo(0.25);
        assertThat(DirectedRounding.divUp(Double.MIN_VALUE, 3.0)).isEqualTo(Double.MIN_VALUE);
    }

    @Test
    void logarithmsAndExpBoundTheExactValue() {
        SplittableRandom r = new SplittableRandom(4);
        for (int i = 0; i < 400; i++) {
            double x = Math.abs(randomDouble(r, 300));
            BigDecimal ln = BigMath.ln(x);
            assertThat(bd(DirectedRounding.logUp(x))).as("ln %s up", x).isGreaterThanOrEqualTo(ln);
            assertThat(bd(DirectedRounding.logDown(x))).as("ln %s down", x).isLessThanOrEqualTo(ln);
            double y = x > 1 ? x : -x / (1 + x); // log1p argument in (-1, ∞)
            BigDecimal ln1p = BigMath.ln(BigDecimal.ONE.add(bd(y)));
            assertThat(bd(DirectedRounding.log1pUp(y))).as("log1p %s up", y).isGreaterThanOrEqualTo(ln1p);
            assertThat(bd(DirectedRounding.log1pDown(y))).as("log1p %s down", y).isLessThanOrEqualTo(ln1p);
            double e = r.nextDouble(-700, 700);
            assertThat(bd(DirectedRounding.expUp(e))).as("exp %s up", e).isGreaterThanOrEqualTo(BigMath.exp(bd(e)));
        }
        assertThat(DirectedRounding.logUp(1.0)).isZero();
        assertThat(DirectedRounding.log1pDown(0.0)).isZero();
    }

    @Test
    void bigDecimalToDoubleIsDirected() {
        SplittableRandom r = new SplittableRandom(5);
        for (int i = 0; i < 2000; i++) {
            BigDecimal v = bd(randomDouble(r, 300)).add(bd(randomDouble(r, 300)));
            double up = DirectedRounding.toDoubleUp(v);
            double down = DirectedRounding.toDoubleDown(v);
            assertThat(bd(up)).isGreaterThanOrEqualTo(v);
            assertThat(bd(down)).isLessThanOrEqualTo(v);
            assertThat(Math.nextUp(down)).isGreaterThanOrEqualTo(up);
        }
        BigDecimal tenth = new BigDecimal("0.1");
        assertThat(DirectedRounding.toDoubleUp(tenth)).isEqualTo(0.1); // the double 0.1 is above 1/10
        assertThat(DirectedRounding.toDoubleDown(tenth)).isEqualTo(Math.nextDown(0.1));
        assertThat(DirectedRounding.toDoubleUp(bd(Double.MAX_VALUE).multiply(BigDecimal.TEN)))
                .isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(DirectedRounding.toDoubleDown(bd(Double.MAX_VALUE).multiply(BigDecimal.TEN)))
                .isEqualTo(Double.MAX_VALUE);
    }
}
