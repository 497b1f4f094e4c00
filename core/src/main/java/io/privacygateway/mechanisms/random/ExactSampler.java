package io.privacygateway.mechanisms.random;

/**
 * Exact samplers built from uniform 64-bit words: Bernoulli draws on a dyadic grid and uniform integers by
 * rejection. These are the only primitives through which mechanisms use secret randomness, so every output
 * probability is a known rational number.
 *
 * <p><b>Exactness.</b> {@link #bernoulli(RandomBits, long, int)} compares the top {@code gridBits} bits of
 * one uniform word with the numerator: each value of those bits has exactly {@code 2^(64 − gridBits)}
 * preimages, so {@code P(true) = numerator / 2^gridBits} exactly. {@link #uniformInt} is Lemire's
 * multiply-and-reject method (Lemire 2019, "Fast random integer generation in an interval", ACM TOMACS
 * 29(1)) on 32-bit words: a word {@code x} is accepted when the low 32 bits of {@code x·n} are at least
 * {@code 2^32 mod n}, and every output then has exactly {@code ⌊2^32/n⌋} accepted words. Both facts are
 * checked exhaustively by tests through the word-level functions {@link #bernoulliAccepts} and
 * {@link #lemire} (on reduced word sizes for the latter, and analytically on 32 bits).
 *
 * <p><b>Cost.</b> A Bernoulli draw is one word and one comparison whatever its numerator. A uniform
 * integer takes a geometric number of words whose law depends only on {@code n} (rejection probability
 * {@code (2^32 mod n)/2^32 < n/2^32}), independent of the accepted output.
 */
public final class ExactSampler {
    /** The word size of {@link #uniformInt}'s rejection step. */
    static final int UNIFORM_WORD_BITS = 32;

    private ExactSampler() {}

    /** The {@link SecretDraws} of a word source: every draw is the static method of the same name. */
    public static SecretDraws draws(RandomBits bits) {
        if (bits == null) {
            throw new IllegalArgumentException("secret randomness is required");
        }
        return new WordDraws(bits);
    }

    /** Returns {@code true} with probability exactly {@code p.numerator() / 2^53}. */
    public static boolean bernoulli(RandomBits bits, DyadicProbability p) {
        return bernoulli(bits, p.numerator(), DyadicProbability.BITS);
    }

    /**
     * Returns {@code true} with probability exactly {@code numerator / 2^gridBits}: one uniform word
     * {@code w}, {@code true} iff {@code (w >>> (64 − gridBits)) < numerator}.
     *
     * @param numerator in {@code [0, 2^gridBits]}
     * @param gridBits in {@code [1, 62]}
     */
    public static boolean bernoulli(RandomBits bits, long numerator, int gridBits) {
        checkGrid(numerator, gridBits);
        return bernoulliAccepts(bits.nextLong(), numerator, gridBits);
    }

    /** The word-level decision of {@link #bernoulli(RandomBits, long, int)} (unvalidated). */
    static boolean bernoulliAccepts(long word, long numerator, int gridBits) {
        return (word >>> (64 - gridBits)) < numerator;
    }

    static void checkGrid(long numerator, int gridBits) {
        if (gridBits < 1 || gridBits > 62) {
            throw new IllegalArgumentException("gridBits must be in [1, 62], got " + gridBits);
        }
        if (numerator < 0 || numerator > 1L << gridBits) {
            throw new IllegalArgumentException(
                    "numerator must be in [0, 2^" + gridBits + "], got " + numerator);
        }
    }

    /**
     * A uniform integer in {@code [0, n)} with probability exactly {@code 1/n} each (Lemire's
     * multiply-and-reject method on 32-bit words, unbiased).
     */
    public static int uniformInt(RandomBits bits, int n) {
        if (n <= 0) {
            throw new IllegalArgumentException("n must be >= 1, got " + n);
        }
        while (true) {
            long v = lemire(bits.nextLong() >>> (64 - UNIFORM_WORD_BITS), n, UNIFORM_WORD_BITS);
            if (v >= 0) {
                return (int) v;
            }
        }
    }

    /**
     * One step of Lemire's method on {@code wordBits}-bit words: for {@code x ∈ [0, 2^wordBits)} and
     * {@code n ∈ [1, 2^wordBits]}, the output {@code ⌊x·n / 2^wordBits⌋} if the low {@code wordBits} bits of
     * {@code x·n} are at least {@code 2^wordBits mod n}, else {@code −1} (rejected). Unvalidated;
     * {@code wordBits <= 32}.
     */
    static long lemire(long x, long n, int wordBits) {
        long product = x * n;
        long mask = (1L << wordBits) - 1;
        long threshold = (1L << wordBits) % n;
        return (product & mask) >= threshold ? product >>> wordBits : -1;
    }

    /** A uniform long in {@code [0, n)}, exactly, by rejection of the top partial block. */
    public static long uniformLong(RandomBits bits, long n) {
        if (n <= 0) {
            throw new IllegalArgumentException("n must be >= 1, got " + n);
        }
        if ((n & (n - 1)) == 0) {
            return bits.nextLong() & (n - 1);
        }
        long limit = Long.MAX_VALUE - (Long.MAX_VALUE % n);
        while (true) {
            long x = bits.nextLong() >>> 1;
            if (x < limit) {
                return x % n;
            }
        }
    }

    /** A uniform 53-bit grid value in {@code [0, 1)} as a double (public or simulation use). */
    public static double uniformDouble(RandomBits bits) {
        return (bits.nextLong() >>> 11) * 0x1.0p-53;
    }

    /** {@link SecretDraws} over a word source. */
    private static final class WordDraws implements SecretDraws {
        private final RandomBits bits;

        WordDraws(RandomBits bits) {
            this.bits = bits;
        }

        @Override
        public boolean bernoulli(long numerator, int gridBits) {
            return ExactSampler.bernoulli(bits, numerator, gridBits);
        }

        @Override
        public int uniformInt(int n) {
            return ExactSampler.uniformInt(bits, n);
        }
    }
}
