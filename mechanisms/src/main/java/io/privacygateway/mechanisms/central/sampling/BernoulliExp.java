package io.privacygateway.mechanisms.central.sampling;

import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.Rational;
import java.math.BigInteger;

/**
 * An exact Bernoulli{@code (exp(−γ))} draw for a rational {@code γ = num/den >= 0} (Canonne, Kamath and
 * Steinke, "The Discrete Gaussian for Differential Privacy", NeurIPS 2020, Algorithm 1; von Neumann's
 * method).
 *
 * <p>For {@code γ ∈ [0, 1]}: draw {@code A_k ~ Bernoulli(γ/k)} for {@code k = 1, 2, …} until the first
 * {@code A_k = 0}, and return whether that {@code k} is odd. Since {@code P(K > k) = γ^k/k!},
 * {@code P(K odd) = Σ_j (−γ)^j/j! = e^{−γ}} exactly. Each {@code Bernoulli(γ/k) = Bernoulli(num/(den·k))}
 * is one exact uniform-integer comparison ({@link ExactBits#bernoulli}). For {@code γ > 1}: the product of
 * {@code ⌊γ⌋} draws of Bernoulli{@code (e^{−1})} and one of Bernoulli{@code (e^{−(γ−⌊γ⌋)})}, stopping at the
 * first 0.
 *
 * <p>Cost: at most {@code e^γ ≤ e} uniform draws on average per unit part, and the {@code γ > 1} loop stops
 * at its first failure (probability {@code 1 − e^{−1}} per step), so the expected number of 64-bit words
 * is bounded by a constant (about 5) for every γ.
 */
public final class BernoulliExp {
    /** Largest accepted bit length of γ's numerator and denominator. */
    public static final int MAX_BITS = 4096;

    private final Rational gamma;

    /**
     * @param gamma {@code γ >= 0} (a {@link Rational} is non-negative by construction); numerator and
     *     denominator at most {@link #MAX_BITS} bits
     */
    public BernoulliExp(Rational gamma) {
        Require.nonNull("gamma", gamma);
        if (gamma.numerator().bitLength() > MAX_BITS || gamma.denominator().bitLength() > MAX_BITS) {
            throw new IllegalArgumentException("gamma must have numerator and denominator of at most " + MAX_BITS
                    + " bits, got " + gamma.numerator().bitLength() + " and " + gamma.denominator().bitLength()
                    + " bits");
        }
        this.gamma = gamma;
    }

    public Rational gamma() {
        return gamma;
    }

    /** {@code e^{−γ}} rounded to a double (for tests and diagnostics). */
    public double probability() {
        return Math.exp(-gamma.doubleValue());
    }

    /** {@code true} with probability exactly {@code e^{−γ}}. */
    public boolean sample(RandomBits bits) {
        return sample(bits, gamma.numerator(), gamma.denominator());
    }

    /** {@code true} with probability exactly {@code exp(−num/den)}; {@code num >= 0}, {@code den >= 1}. */
    public static boolean sample(RandomBits bits, long num, long den) {
        if (num < 0 || den < 1) {
            throw new IllegalArgumentException("need num >= 0 and den >= 1, got " + num + "/" + den);
        }
        if (num <= den) {
            return atMostOne(bits, num, den);
        }
        long whole = num / den;
        long frac = num % den;
        for (long i = 0; i < whole; i++) {
            if (!atMostOne(bits, 1, 1)) {
                return false;
            }
        }
        return atMostOne(bits, frac, den);
    }

    /**
     * {@code true} with probability exactly {@code exp(−a·b/c)} for {@code a, b >= 0}, {@code c >= 1}: the
     * product is formed exactly (in {@link BigInteger} when it does not fit in a long).
     */
    public static boolean sampleProduct(RandomBits bits, long a, long b, long c) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        if (hi == 0 && lo >= 0) {
            return sample(bits, lo, c);
        }
        return sample(bits, BigInteger.valueOf(a).multiply(BigInteger.valueOf(b)), BigInteger.valueOf(c));
    }

    /** {@code true} with probability exactly {@code exp(−num/den)}; {@code num >= 0}, {@code den >= 1}. */
    public static boolean sample(RandomBits bits, BigInteger num, BigInteger den) {
        if (num.signum() < 0 || den.signum() <= 0) {
            throw new IllegalArgumentException("need num >= 0 and den >= 1, got " + num + "/" + den);
        }
        if (num.bitLength() < 63 && den.bitLength() < 63) {
            return sample(bits, num.longValue(), den.longValue());
        }
        if (num.compareTo(den) <= 0) {
            return atMostOne(bits, num, den);
        }
        BigInteger[] qr = num.divideAndRemainder(den);
        for (BigInteger i = BigInteger.ZERO; i.compareTo(qr[0]) < 0; i = i.add(BigInteger.ONE)) {
            if (!atMostOne(bits, 1, 1)) {
                return false;
            }
        }
        return atMostOne(bits, qr[1], den);
    }

    /** Bernoulli(exp(−num/den)) for {@code 0 <= num <= den}. */
    private static boolean atMostOne(RandomBits bits, long num, long den) {
        if (num == 0) {
            return true;
        }
        long k = 1;
        while (true) {
            long hi = Math.multiplyHigh(den, k);
            long m = den * k;
            boolean a;
            if (hi == 0 && m > 0) {
                a = ExactBits.bernoulli(bits, num, m);
            } else {
                a = ExactBits.bernoulli(bits, BigInteger.valueOf(num),
                        BigInteger.valueOf(den).multiply(BigInteger.valueOf(k)));
            }
            if (!a) {
                return (k & 1) == 1;
            }
            k++;
        }
    }

    private static boolean atMostOne(RandomBits bits, BigInteger num, BigInteger den) {
        if (num.signum() == 0) {
            return true;
        }
        long k = 1;
        while (true) {
            if (!ExactBits.bernoulli(bits, num, den.multiply(BigInteger.valueOf(k)))) {
                return (k & 1) == 1;
            }
            k++;
        }
    }
}
