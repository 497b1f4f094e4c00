package io.privacygateway.mechanisms.central.sampling;

import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.Rational;
import java.math.BigInteger;

/**
 * The discrete Laplace distribution on ℤ with rational scale {@code t = a/b > 0}:
 * {@code P(k) = (1 − β)/(1 + β) · β^{|k|}} with {@code β = e^{−1/t}}, sampled exactly (Canonne, Kamath and
 * Steinke 2020, Algorithm 2).
 *
 * <p>Method: {@code U} uniform in {@code {0, …, a−1}} accepted with probability {@code e^{−U/a}}
 * ({@link BernoulliExp}), {@code V} geometric with {@code P(V = v) ∝ e^{−v}} (Bernoulli{@code (e^{−1})} until
 * the first failure); then {@code X = U + a·V} has {@code P(X = x) ∝ e^{−x/a}}, {@code Y = ⌊X/b⌋} has
 * {@code P(Y = y) ∝ e^{−y·b/a}}, and a fair sign with "negative zero" rejected gives
 * {@code P(±y) ∝ e^{−|y|/t}}. Expected cost: a constant number of attempts (the acceptance of {@code U} has
 * probability {@code ≥ 1 − e^{−1}}, the sign rejection at most 1/2), about 10 words for every scale.
 *
 * <p>Parameter limits (checked at construction): {@code a, b < 2^62} (all arithmetic in longs except a
 * 128-bit fallback for {@code U + a·V}) and {@code t <= 2^40}, so the sample fits in a long except with
 * probability {@code < e^{−2^22}} (an {@link ArithmeticException} is thrown in that event).
 */
public final class DiscreteLaplace {
    /** Exclusive bound on the numerator and denominator of the scale. */
    public static final long MAX_COMPONENT = 1L << 62;
    /** Largest accepted scale. */
    public static final double MAX_SCALE = 0x1p40;

    private final Rational scale;
    private final long a;
    private final long b;
    private final double beta;

    /**
     * @param scale {@code t > 0}, numerator and denominator {@code < 2^62}, {@code t <= 2^40}
     */
    public DiscreteLaplace(Rational scale) {
        Require.nonNull("scale", scale);
        if (scale.isZero()) {
            throw new IllegalArgumentException("scale must be > 0, got " + scale);
        }
        if (scale.numerator().bitLength() > 62 || scale.denominator().bitLength() > 62) {
            throw new IllegalArgumentException(
                    "scale must have numerator and denominator < 2^62, got " + scale);
        }
        this.a = scale.numerator().longValueExact();
        this.b = scale.denominator().longValueExact();
        if (scale.numerator().compareTo(scale.denominator().shiftLeft(40)) > 0) {
            throw new IllegalArgumentException("scale must be <= 2^40, got " + scale + " ≈ " + scale.doubleValue());
        }
        this.scale = scale;
        this.beta = Math.exp(-1.0 / scaleDouble());
    }

    /** The discrete Laplace with scale {@code numerator/denominator}. */
    public static DiscreteLaplace withScale(long numerator, long denominator) {
        if (numerator <= 0 || denominator <= 0) {
            throw new IllegalArgumentException(
                    "scale must be a positive fraction, got " + numerator + "/" + denominator);
        }
        return new DiscreteLaplace(Rational.of(numerator, denominator));
    }

    public Rational scale() {
        return scale;
    }

    /** The scale as a double (correctly rounded quotient of the two longs up to one rounding). */
    public double scaleDouble() {
        return (double) a / (double) b;
    }

    /** One exact sample. */
    public long sample(RandomBits bits) {
        while (true) {
            long u = ExactSampler.uniformLong(bits, a);
            if (!BernoulliExp.sample(bits, u, a)) {
                continue;
            }
            long v = 0;
            while (BernoulliExp.sample(bits, 1, 1)) {
                v++;
            }
            long y = floorOfSum(u, v);
            boolean negative = ExactBits.fairCoin(bits);
            if (negative && y == 0) {
                continue;
            }
            return negative ? -y : y;
        }
    }

    /** {@code ⌊(u + a·v)/b⌋}, exact. */
    private long floorOfSum(long u, long v) {
        long hi = Math.multiplyHigh(a, v);
        long lo = a * v;
        if (hi == 0 && lo >= 0 && lo <= Long.MAX_VALUE - u) {
            return (lo + u) / b;
        }
        BigInteger x = BigInteger.valueOf(a).multiply(BigInteger.valueOf(v)).add(BigInteger.valueOf(u));
        return x.divide(BigInteger.valueOf(b)).longValueExact();
    }

    /** {@code β = e^{−1/t}}. */
    public double beta() {
        return beta;
    }

    /** {@code P(X = k) = tanh(1/(2t)) · e^{−|k|/t}} (the same as {@code (1−β)/(1+β) β^{|k|}}). */
    public double pmf(long k) {
        return Math.tanh(0.5 / scaleDouble()) * Math.exp(-Math.abs((double) k) / scaleDouble());
    }

    /** {@code ln P(X = k)}. */
    public double logPmf(long k) {
        return Math.log(Math.tanh(0.5 / scaleDouble())) - Math.abs((double) k) / scaleDouble();
    }

    /** {@code P(X <= k)}: {@code β^{|k|}/(1+β)} for {@code k < 0}, {@code 1 − β^{k+1}/(1+β)} for {@code k >= 0}. */
    public double cdf(long k) {
        if (k < 0) {
            return Math.exp(-Math.abs((double) k) / scaleDouble()) / (1 + beta);
        }
        return 1 - Math.exp(-((double) k + 1) / scaleDouble()) / (1 + beta);
    }

    /** {@code E|X| = 2β/(1 − β²) = 1/sinh(1/t)}; at most {@code t} (the continuous Laplace mean). */
    public double meanAbsolute() {
        return 1.0 / Math.sinh(1.0 / scaleDouble());
    }

    /** {@code Var X = E X² = 2β/(1 − β)²}. */
    public double variance() {
        double x = 1.0 / scaleDouble();
        double s = Math.sinh(x / 2);
        return 0.5 / (s * s); // 2β/(1−β)² = 1/(2 sinh²(1/(2t)))
    }

    /**
     * {@code E e^{λ|X|} = (1−β)/(1+β) · (1 + 2βe^λ/(1 − βe^λ))} for {@code βe^λ < 1} (used for exact
     * Chernoff bounds on sums of {@code |X|}); {@code +∞} otherwise.
     */
    public double absMomentGenerating(double lambda) {
        double be = beta * Math.exp(lambda);
        if (be >= 1) {
            return Double.POSITIVE_INFINITY;
        }
        return Math.tanh(0.5 / scaleDouble()) * (1 + 2 * be / (1 - be));
    }

    @Override
    public String toString() {
        return "DiscreteLaplace(scale=" + scale + ")";
    }
}
