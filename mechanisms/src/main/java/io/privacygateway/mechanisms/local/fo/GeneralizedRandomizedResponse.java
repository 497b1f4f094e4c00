package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.DyadicProbability;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Generalized randomized response (k-RR; Kairouz, Bonawitz and Ramage 2016, "Discrete distribution
 * estimation under local privacy"; "direct encoding" in Wang et al. 2017, "Locally Differentially
 * Private Protocols for Frequency Estimation", §4.1).
 *
 * <p><b>Mechanism.</b> Report the true value with probability {@code p}, otherwise a uniformly random one
 * of the other {@code k − 1} values. Ideal {@code p = e^ε/(e^ε + k − 1)}, {@code q = (1 − p)/(k − 1)}.
 * Here {@code p = N/2^53} with {@code N} the largest grid numerator satisfying
 * {@code N (k − 1) <= L (2^53 − N)}, {@code L <= e^ε} certified ({@link Grid}); hence {@code p/q <= e^ε}
 * exactly. The constructor also checks the reverse ratio {@code q/p <= L}, which can only fail for
 * {@code ε} below about {@code k·2^-53} (rejected).
 *
 * <p><b>Guarantee.</b> ε-LDP exactly: {@code P(y | x) ∈ {p, q}} for every {@code y}, and
 * {@code max/min <= e^ε}. Secret randomness: one {@link ExactSampler#bernoulli} and, with probability
 * {@code 1 − p}, one {@link ExactSampler#uniformInt}{@code (k − 1)}.
 *
 * <p><b>Wire format.</b> The reported index, unsigned big-endian, 1–4 bytes ({@link IndexCodec}).
 * Server: support count = histogram of reports; {@code p* = p}, {@code q* = q}, cross-supports are
 * exclusive. Variance: {@code Var(p̂_x) = [f_x p(1−p) + (1−f_x) q(1−q)]/(n(p−q)²)} ≈
 * {@code (e^ε + k − 2)/(n (e^ε − 1)²)} for small {@code f_x}.
 */
public final class GeneralizedRandomizedResponse extends SupportCountOracle implements IndexOracle {
    private final long keepNumerator;
    private final DyadicProbability keep;
    private final double p;
    private final double q;
    private final int width;

    /**
     * @param domainSize {@code k} in {@code [2, 2^24]}
     * @param epsilon the per-report ε
     */
    public GeneralizedRandomizedResponse(int domainSize, Epsilon epsilon) {
        this(domainSize, epsilon, -1, true);
    }

    /**
     * Package-private: an explicit keep numerator (tests use it to build deliberately mis-rounded
     * controls with {@code certify = false}); {@code keepNumerator < 0} means the certified choice.
     */
    GeneralizedRandomizedResponse(int domainSize, Epsilon epsilon, long keepNumerator, boolean certify) {
        super(domainSize, epsilon);
        BigDecimal l = Grid.expLower(eps);
        BigDecimal others = Grid.bd(k - 1L);
        long nk = keepNumerator >= 0 ? keepNumerator : Grid.largestWithRatio(l, others);
        if (certify) {
            // p/q = N (k−1)/(2^53 − N) <= L  and  q/p = (2^53 − N)/(N (k−1)) <= L
            BigInteger n = BigInteger.valueOf(nk);
            BigInteger rest = BigInteger.valueOf(Grid.ONE - nk);
            BigInteger km1 = BigInteger.valueOf(k - 1L);
            if (!Grid.ratioAtMost(n.multiply(km1), rest, l) || !Grid.ratioAtMost(rest, n.multiply(km1), l)) {
                throw new IllegalArgumentException("epsilon=" + eps.value()
                        + " cannot be realised on the 2^-53 probability grid for GRR with domainSize=" + k);
            }
        }
        this.keepNumerator = nk;
        this.keep = new DyadicProbability(nk);
        this.p = keep.value();
        this.q = (1 - p) / (k - 1);
        this.width = IndexCodec.widthFor(k);
        requireInformative(p, q);
    }

    @Override
    public MechanismId id() {
        return MechanismId.GRR;
    }

    /** The exact keep probability {@code p} as a grid value. */
    public DyadicProbability keepProbability() {
        return keep;
    }

    @Override
    public int payloadBytes() {
        return width;
    }

    @Override
    public byte[] randomize(int value, long publicBase, RandomBits secret) {
        checkValue(value);
        return IndexCodec.encode(randomizeIndex(value, publicBase, secret), width);
    }

    @Override
    public int indexRange() {
        return k;
    }

    @Override
    public int randomizeIndex(int value, long publicBase, RandomBits secret) {
        if (ExactSampler.bernoulli(secret, keep)) {
            return value;
        }
        int t = ExactSampler.uniformInt(secret, k - 1);
        return t >= value ? t + 1 : t;
    }

    @Override
    public boolean accumulate(byte[] payload, long publicBase, long[] state) {
        checkState(state);
        int y = IndexCodec.decode(payload, width, k);
        if (y < 0) {
            return false;
        }
        state[y]++;
        return true;
    }

    @Override
    public void accumulateIndex(int y, long publicBase, long[] state, int offset) {
        state[offset + y]++;
    }

    @Override
    public Rational outputProbability(int value, byte[] payload, long publicBase) {
        checkValue(value);
        int y = IndexCodec.decode(payload, width, k);
        return y < 0 ? Rational.ZERO : indexProbability(value, y, publicBase);
    }

    @Override
    public Rational indexProbability(int value, int y, long publicBase) {
        if (y == value) {
            return Rational.dyadic(keepNumerator);
        }
        return Rational.dyadic(Grid.ONE - keepNumerator).divide(k - 1L);
    }

    @Override
    double pStar() {
        return p;
    }

    @Override
    double qStar() {
        return q;
    }

    @Override
    double pairBothOther() {
        return 0;
    }

    @Override
    double pairWithTrue() {
        return 0;
    }
}
