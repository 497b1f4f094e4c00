package io.privacygateway.mechanisms.random;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;

/**
 * An exact non-negative rational number {@code numerator / denominator}, used to state the exact output
 * probabilities of the frequency oracles (products of {@code 2^-53}-grid Bernoulli probabilities and
 * {@code 1/n} uniform-integer probabilities, which are not all terminating decimals).
 *
 * <p>Privacy tests compare these exactly against {@link io.privacygateway.mechanisms.param.ExpBounds#lowerBoundExact}
 * through {@link #ratioAtMost}; nothing here is used on the data path. Values are kept in lowest terms.
 *
 * @param numerator the numerator, {@code >= 0}
 * @param denominator the denominator, {@code >= 1}
 */
public record Rational(BigInteger numerator, BigInteger denominator) implements Comparable<Rational> {
    public static final Rational ZERO = new Rational(BigInteger.ZERO, BigInteger.ONE);
    public static final Rational ONE = new Rational(BigInteger.ONE, BigInteger.ONE);

    public Rational {
        if (numerator == null || denominator == null) {
            throw new IllegalArgumentException("numerator and denominator are required");
        }
        if (numerator.signum() < 0) {
            throw new IllegalArgumentException("numerator must be >= 0, got " + numerator);
        }
        if (denominator.signum() <= 0) {
            throw new IllegalArgumentException("denominator must be >= 1, got " + denominator);
        }
        BigInteger g = numerator.gcd(denominator);
        if (numerator.signum() == 0) {
            denominator = BigInteger.ONE;
        } else if (!g.equals(BigInteger.ONE)) {
            numerator = numerator.divide(g);
            denominator = denominator.divide(g);
        }
    }

    public static Rational of(long numerator, long denominator) {
        return new Rational(BigInteger.valueOf(numerator), BigInteger.valueOf(denominator));
    }

    public static Rational of(BigInteger numerator, BigInteger denominator) {
        return new Rational(numerator, denominator);
    }

    /** {@code numerator / 2^53}: a {@link io.privacygateway.mechanisms.random.DyadicProbability} grid value. */
    public static Rational dyadic(long numerator53) {
        return new Rational(BigInteger.valueOf(numerator53), BigInteger.ONE.shiftLeft(53));
    }

    public Rational add(Rational o) {
        return new Rational(numerator.multiply(o.denominator).add(o.numerator.multiply(denominator)),
                denominator.multiply(o.denominator));
    }

    public Rational multiply(Rational o) {
        return new Rational(numerator.multiply(o.numerator), denominator.multiply(o.denominator));
    }

    /** {@code this / n} for an integer {@code n >= 1}. */
    public Rational divide(BigInteger n) {
        return new Rational(numerator, denominator.multiply(n));
    }

    public Rational divide(long n) {
        return divide(BigInteger.valueOf(n));
    }

    public boolean isZero() {
        return numerator.signum() == 0;
    }

    /**
     * Whether {@code this <= bound · other}, exactly ({@code bound} is taken as its exact decimal value).
     * With {@code bound} a certified lower bound of {@code e^ε}, {@code true} proves {@code this/other <= e^ε}.
     */
    public boolean ratioAtMost(Rational other, BigDecimal bound) {
        BigDecimal lhs = new BigDecimal(numerator.multiply(other.denominator));
        BigDecimal rhs = bound.multiply(new BigDecimal(other.numerator.multiply(denominator)));
        return lhs.compareTo(rhs) <= 0;
    }

    /** An approximation for diagnostics. */
    public double doubleValue() {
        return new BigDecimal(numerator).divide(new BigDecimal(denominator), MathContext.DECIMAL64)
                .doubleValue();
    }

    @Override
    public int compareTo(Rational o) {
        return numerator.multiply(o.denominator).compareTo(o.numerator.multiply(denominator));
    }

    @Override
    public String toString() {
        return numerator + "/" + denominator;
    }
}
