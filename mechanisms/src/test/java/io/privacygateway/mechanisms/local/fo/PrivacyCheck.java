package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.param.ExpBounds;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/** Exact checks of the ε-LDP ratio over enumerated payloads (test support). */
final class PrivacyCheck {
    private PrivacyCheck() {}

    /** The outcome of an exhaustive check over all payloads of one public base. */
    record Result(boolean ratioOk, boolean sumsToOne, Rational worstRatioNumerator, Rational worstRatioDenominator,
            double worstRatio) {}

    /** Every byte string of the oracle's payload length (at most 2 bytes). */
    static byte[][] allPayloads(FrequencyOracle o) {
        int len = o.payloadBytes();
        if (len > 2) {
            throw new IllegalArgumentException("too many payloads to enumerate: " + len + " bytes");
        }
        int count = 1 << (8 * len);
        byte[][] out = new byte[count][len];
        for (int v = 0; v < count; v++) {
            for (int i = 0; i < len; i++) {
                out[v][i] = (byte) (v >>> (8 * (len - 1 - i)));
            }
        }
        return out;
    }

    /**
     * For one public base: checks {@code max_x P(y|x) <= L · min_x P(y|x)} exactly for every payload y
     * (with {@code L = ExpBounds.lowerBoundExact(ε, 40) <= e^ε}), and {@code Σ_y P(y|x) = 1} exactly for
     * every x.
     */
    static Result exhaustive(FrequencyOracle o, long base) {
        BigDecimal l = ExpBounds.lowerBoundExact(o.epsilon().value(), 40);
        int k = o.domainSize();
        Rational[] sums = new Rational[k];
        java.util.Arrays.fill(sums, Rational.ZERO);
        boolean ok = true;
        Rational worstMax = Rational.ZERO;
        Rational worstMin = Rational.ONE;
        double worst = 0;
        for (byte[] y : allPayloads(o)) {
            Rational max = null;
            Rational min = null;
            for (int x = 0; x < k; x++) {
                Rational p = o.outputProbability(x, y, base);
                sums[x] = sums[x].add(p);
                max = max == null || p.compareTo(max) > 0 ? p : max;
                min = min == null || p.compareTo(min) < 0 ? p : min;
            }
            if (max.isZero()) {
                continue;
            }
            if (!max.ratioAtMost(min, l)) {
                ok = false;
            }
            double r = min.isZero() ? Double.POSITIVE_INFINITY : max.doubleValue() / min.doubleValue();
            if (r > worst) {
                worst = r;
                worstMax = max;
                worstMin = min;
            }
        }
        boolean one = true;
        for (Rational s : sums) {
            one &= s.equals(Rational.ONE);
        }
        return new Result(ok, one, worstMax, worstMin, worst);
    }

    /**
     * An exact upper bound of {@code e^x} for {@code 0 <= x <= 1}: the Taylor sum to degree 40, rounded up,
     * plus the remainder bound {@code 3 x^41/41!} (since {@code e^ξ <= 3}).
     */
    static BigDecimal expUpperUnit(double x) {
        if (!(x >= 0 && x <= 1)) {
            throw new IllegalArgumentException("x must be in [0, 1], got " + x);
        }
        MathContext up = new MathContext(80, RoundingMode.UP);
        BigDecimal bx = new BigDecimal(x);
        BigDecimal term = BigDecimal.ONE;
        BigDecimal sum = BigDecimal.ONE;
        for (int i = 1; i <= 41; i++) {
            term = term.multiply(bx, up).divide(BigDecimal.valueOf(i), up);
            sum = sum.add(i == 41 ? term.multiply(BigDecimal.valueOf(3)) : term, up);
        }
        return sum;
    }
}
