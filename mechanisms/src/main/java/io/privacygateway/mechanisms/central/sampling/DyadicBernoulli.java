package io.privacygateway.mechanisms.central.sampling;

import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.RandomBits;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * An exact Bernoulli draw whose probability is a {@code double} {@code p ∈ [0, 1]}, with no rounding:
 * every finite double is a dyadic rational {@code m / 2^k} ({@code k <= 1074 + 52}), so {@code p} itself
 * is realised exactly, however small (e.g. {@code 1e-300}).
 *
 * <p>Method: compare a uniform binary fraction {@code U = 0.b1 b2 b3 …}, generated 64 bits at a time, with
 * the binary expansion of {@code p}, most significant word first, and return {@code U < p}. The first word
 * decides unless it equals {@code p}'s first word (probability {@code 2^-64}), so the expected cost is about
 * one word; at most {@code ⌈k/64⌉} words are used. When all of {@code p}'s words are matched, the remaining
 * bits of {@code U} are {@code >= 0 =} those of {@code p}, so the answer is {@code false}: {@code P(U < p) = p}.
 */
public final class DyadicBernoulli {
    private final double p;
    private final long[] words;

    /**
     * @param field the parameter name used in the error message
     * @param p the probability, finite and in {@code [0, 1]}
     */
    public DyadicBernoulli(String field, double p) {
        Require.inClosedRange(field, p, 0.0, 1.0);
        this.p = p;
        if (p == 0.0 || p == 1.0) {
            this.words = new long[0];
            return;
        }
        // p = num / 2^k exactly; pad to a whole number of 64-bit words after the binary point.
        long bitsOf = Double.doubleToRawLongBits(p);
        int exponent = (int) ((bitsOf >>> 52) & 0x7FF);
        long mantissa = bitsOf & ((1L << 52) - 1);
        int shift; // p = mantissa' * 2^-shift
        if (exponent == 0) {
            shift = 1074;
        } else {
            mantissa |= 1L << 52;
            shift = 1075 - exponent;
        }
        int wordCount = (shift + 63) / 64;
        BigInteger scaled = BigInteger.valueOf(mantissa).shiftLeft(wordCount * 64 - shift);
        this.words = new long[wordCount];
        for (int i = 0; i < wordCount; i++) {
            words[i] = scaled.shiftRight((wordCount - 1 - i) * 64).longValue();
        }
    }

    /** The probability, realised exactly. */
    public double probability() {
        return p;
    }

    /** The exact probability as a decimal. */
    public BigDecimal exact() {
        return new BigDecimal(p);
    }

    /** {@code true} with probability exactly {@link #probability()}. */
    public boolean sample(RandomBits bits) {
        if (p == 0.0) {
            return false;
        }
        if (p == 1.0) {
            return true;
        }
        for (long w : words) {
            int c = Long.compareUnsigned(bits.nextLong(), w);
            if (c < 0) {
                return true;
            }
            if (c > 0) {
                return false;
            }
        }
        return false;
    }
}
