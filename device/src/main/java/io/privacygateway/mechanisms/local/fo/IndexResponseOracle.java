package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.DyadicProbability;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.random.Rational;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Randomized response over an index range {@code [0, g)} around a public target index: the report is the
 * target {@code t(x)} with probability {@code p} and each of the other {@code g − 1} indices with
 * probability {@code (1 − p)/(g − 1)}. GRR is the case {@code t(x) = x}, {@code g = k}; OLH the case
 * {@code t(x) = H(x)} for a public hash {@code H} into {@code [0, g)} (Wang et al. 2017, §4.1 and §4.4).
 *
 * <p>Guarantee: {@code p} is the largest value on the 2^-53 grid with {@code p(g−1)/(1−p) ≤ L} where
 * {@code L ≤ e^ε} is a certified lower bound; the constructor also checks the reverse ratio, so every pair
 * of inputs has output-probability ratio at most {@code e^ε} (ε-LDP).
 *
 * <p><b>Secret draws.</b> Always exactly two, in this order: {@code bernoulli(p)} (keep the target?) and
 * {@code uniformInt(g − 1)} (the replacement, used only on a miss). Drawing the replacement on a hit too
 * costs one word but makes the device's work independent of its value and of the coin: a device that drew
 * the replacement only on a miss would reveal the coin, and with it much of its value, through its timing.
 */
abstract class IndexResponseOracle extends SupportCountOracle implements IndexOracle {
    final int range;
    private final long keepNumerator;
    private final DyadicProbability keep;
    private final int width;

    /**
     * @param range {@code g ≥ 2}
     * @param keepNumerator an explicit keep numerator, or {@code < 0} for the certified choice
     * @param certify whether to check both privacy ratios (tests switch it off to build controls)
     * @param what names the mechanism and its range in the error message
     */
    IndexResponseOracle(int k, Epsilon eps, int range, long keepNumerator, boolean certify, String what) {
        super(k, eps);
        this.range = range;
        BigDecimal l = Grid.expLower(eps);
        long nk = keepNumerator >= 0 ? keepNumerator : Grid.largestWithRatio(l, Grid.bd(range - 1L));
        if (certify) {
            // p/q = N (g−1)/(2^53 − N) <= L  and  q/p = (2^53 − N)/(N (g−1)) <= L
            BigInteger n = BigInteger.valueOf(nk);
            BigInteger rest = BigInteger.valueOf(Grid.ONE - nk);
            BigInteger gm1 = BigInteger.valueOf(range - 1L);
            if (!Grid.ratioAtMost(n.multiply(gm1), rest, l) || !Grid.ratioAtMost(rest, n.multiply(gm1), l)) {
                throw new IllegalArgumentException("epsilon=" + eps.value()
                        + " cannot be realised on the 2^-53 probability grid for " + what);
            }
        }
        this.keepNumerator = nk;
        this.keep = new DyadicProbability(nk);
        this.width = IndexCodec.widthFor(range);
    }

    /** The public target index of {@code value} for a report with this public base. */
    abstract int target(int value, long publicBase);

    /** The exact keep probability {@code p} as a grid value. */
    public final DyadicProbability keepProbability() {
        return keep;
    }

    @Override
    public final int payloadBytes() {
        return width;
    }

    @Override
    public final int indexRange() {
        return range;
    }

    @Override
    public final byte[] randomize(int value, long publicBase, SecretDraws draws) {
        checkValue(value);
        return IndexCodec.encode(randomizeIndex(value, publicBase, draws), width);
    }

    @Override
    public final int randomizeIndex(int value, long publicBase, SecretDraws draws) {
        int t = target(value, publicBase);
        boolean hit = draws.bernoulli(keep);
        int other = draws.uniformInt(range - 1);
        int replacement = other >= t ? other + 1 : other;
        return hit ? t : replacement;
    }

    @Override
    public final boolean accumulate(byte[] payload, long publicBase, long[] state) {
        checkState(state);
        int y = IndexCodec.decode(payload, width, range);
        if (y < 0) {
            return false;
        }
        accumulateIndex(y, publicBase, state, 0);
        return true;
    }

    @Override
    public final Rational outputProbability(int value, byte[] payload, long publicBase) {
        checkValue(value);
        int y = IndexCodec.decode(payload, width, range);
        return y < 0 ? Rational.ZERO : indexProbability(value, y, publicBase);
    }

    @Override
    public final Rational indexProbability(int value, int y, long publicBase) {
        if (y == target(value, publicBase)) {
            return Rational.dyadic(keepNumerator);
        }
        return Rational.dyadic(Grid.ONE - keepNumerator).divide(range - 1L);
    }

    @Override
    double pStar() {
        return keep.value();
    }
}
