package io.privacygateway.mechanisms.central.sampling;

import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.RandomBits;
import java.math.BigInteger;

/**
 * Exact rational Bernoulli draws and uniform big integers built from 64-bit words. Every draw here has
 * a probability that is exactly the stated rational number: uniform integers come from
 * {@link ExactSampler#uniformLong} or from rejection of a uniform {@code bitLength(n)}-bit integer, and a
 * Bernoulli{@code (a/b)} is "uniform integer in {@code [0, b)} is {@code < a}".
 */
public final class ExactBits {
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private ExactBits() {}

    /** A fair coin: the sign bit of one word. */
    public static boolean fairCoin(RandomBits bits) {
        return bits.nextLong() < 0;
    }

    /**
     * A uniform integer in {@code [0, n)}, exactly: draw {@code bitLength(n)} uniform bits and reject values
     * {@code >= n} (acceptance probability {@code > 1/2}, so fewer than two attempts on average).
     */
    public static BigInteger uniformBigInteger(RandomBits bits, BigInteger n) {
        if (n == null || n.signum() <= 0) {
            throw new IllegalArgumentException("n must be an integer >= 1, got " + n);
        }
        if (n.compareTo(LONG_MAX) <= 0) {
            return BigInteger.valueOf(ExactSampler.uniformLong(bits, n.longValue()));
        }
        int length = n.bitLength();
        int words = (length + 63) / 64;
        while (true) {
            BigInteger r = BigInteger.ZERO;
            for (int i = 0; i < words; i++) {
                r = r.shiftLeft(64).or(unsigned(bits.nextLong()));
            }
            r = r.shiftRight(words * 64 - length);
            if (r.compareTo(n) < 0) {
                return r;
            }
        }
    }

    /** {@code true} with probability exactly {@code num/den}; requires {@code 0 <= num <= den}, {@code den >= 1}. */
    public static boolean bernoulli(RandomBits bits, long num, long den) {
        if (num < 0 || den < 1 || num > den) {
            throw new IllegalArgumentException("need 0 <= num <= den and den >= 1, got " + num + "/" + den);
        }
        if (num == 0) {
            return false;
        }
        if (num == den) {
            return true;
        }
        return ExactSampler.uniformLong(bits, den) < num;
    }

    /** {@code true} with probability exactly {@code num/den}; requires {@code 0 <= num <= den}, {@code den >= 1}. */
    public static boolean bernoulli(RandomBits bits, BigInteger num, BigInteger den) {
        if (num.signum() < 0 || den.signum() <= 0 || num.compareTo(den) > 0) {
            throw new IllegalArgumentException("need 0 <= num <= den and den >= 1, got " + num + "/" + den);
        }
        if (num.signum() == 0) {
            return false;
        }
        if (num.equals(den)) {
            return true;
        }
        if (den.compareTo(LONG_MAX) <= 0) {
            return ExactSampler.uniformLong(bits, den.longValue()) < num.longValue();
        }
        return uniformBigInteger(bits, den).compareTo(num) < 0;
    }

    static BigInteger unsigned(long word) {
        BigInteger b = BigInteger.valueOf(word);
        return word >= 0 ? b : b.add(BigInteger.ONE.shiftLeft(64));
    }
}
