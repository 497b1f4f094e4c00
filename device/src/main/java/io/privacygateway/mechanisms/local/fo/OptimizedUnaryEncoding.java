package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.DyadicProbability;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Optimized unary encoding (OUE; Wang et al. 2017, "Locally Differentially Private Protocols for
 * Frequency Estimation", §4.2, "Optimized Unary Encoding").
 *
 * <p><b>Mechanism.</b> Encode {@code x} as the one-hot vector {@code e_x ∈ {0,1}^k} and flip every bit
 * independently: the 1-bit stays 1 with probability {@code p = 1/2}; each 0-bit becomes 1 with probability
 * {@code q}, ideally {@code 1/(e^ε + 1)}. Here {@code q = M/2^53} with {@code M = 2^53 − N}, {@code N} the
 * largest grid numerator with {@code N <= L (2^53 − N)}, {@code L <= e^ε} certified ({@link Grid}); so
 * {@code q >= 1/(e^ε+1)} (rounded <em>up</em>) and {@code (1 − q)/q <= e^ε} exactly.
 *
 * <p><b>Guarantee.</b> ε-LDP exactly: for outputs {@code B} and inputs {@code x ≠ x'} only bits {@code x}
 * and {@code x'} differ in distribution, and the ratio is largest for {@code B_x = 1, B_x' = 0}:
 * {@code [p (1 − q)]/[q (1 − p)] = (1 − q)/q <= e^ε}; the reverse case gives {@code q/(1 − q) <= 1}.
 * Secret randomness: {@code k + 1} independent {@link ExactSampler#bernoulli} draws, one 64-bit word each,
 * in an order and with probabilities that do not depend on the value: bit {@code x} is drawn with
 * probability {@code q} for every {@code x}, then one draw with probability 1/2 replaces the value's bit.
 * (Drawing the value's bit with 1/2 in its place would put the value's position into the sequence of
 * draw parameters.)
 * (An exact batched sampler, e.g. comparing uniform bits lazily against the numerator's binary expansion
 * at about 2 bits per draw, would use ~32× fewer words; it belongs in {@code ExactSampler} and is not used
 * here.)
 *
 * <p><b>Wire format.</b> {@code ⌈k/8⌉} bytes; bit {@code x} is bit {@code x mod 8} (least significant
 * first) of byte {@code ⌊x/8⌋}; padding bits must be 0. Server: support count = sum of bit vectors;
 * {@code p* = 1/2}, {@code q* = q}, bits independent. Variance:
 * {@code Var(p̂_x) = [f_x/4 + (1 − f_x) q(1 − q)]/(n (1/2 − q)²)} ≈ {@code 4e^ε/(n (e^ε − 1)²)}.
 */
public final class OptimizedUnaryEncoding extends BitVectorOracle {
    private final long oneNumerator;
    private final DyadicProbability q;
    private final double qd;
    private final int bytes;
    private final int padMask;

    /**
     * @param domainSize {@code k} in {@code [2, 2^24]}
     * @param epsilon the per-report ε
     */
    public OptimizedUnaryEncoding(int domainSize, Epsilon epsilon) {
        this(domainSize, epsilon, -1, true);
    }

    /** Package-private: explicit numerator of {@code q} (mis-rounded test controls use {@code certify = false}). */
    OptimizedUnaryEncoding(int domainSize, Epsilon epsilon, long qNumerator, boolean certify) {
        super(domainSize, epsilon);
        BigDecimal l = Grid.expLower(eps);
        long m = qNumerator >= 0 ? qNumerator : Grid.ONE - Grid.largestWithRatio(l, BigDecimal.ONE);
        if (certify) {
            BigInteger mm = BigInteger.valueOf(m);
            BigInteger rest = BigInteger.valueOf(Grid.ONE - m);
            // (1−q)/q <= L, and q <= 1/2 so that q/(1−q) <= 1
            if (m == 0 || !Grid.ratioAtMost(rest, mm, l) || mm.shiftLeft(1).compareTo(BigInteger.valueOf(Grid.ONE)) > 0) {
                throw new IllegalArgumentException("epsilon=" + eps.value()
                        + " cannot be realised on the 2^-53 probability grid for OUE (q numerator " + m + ")");
            }
        }
        this.oneNumerator = m;
        this.q = new DyadicProbability(m);
        this.qd = q.value();
        this.bytes = BitVector.bytesFor(k);
        this.padMask = BitVector.padMask(k);
        requireInformative(0.5, qd);
    }

    @Override
    public MechanismId id() {
        return MechanismId.OUE;
    }

    /** The exact probability {@code q} that a 0-bit is reported as 1. */
    public DyadicProbability flipProbability() {
        return q;
    }

    @Override
    public int payloadBytes() {
        return bytes;
    }

    @Override
    public byte[] randomize(int value, long publicBase, SecretDraws draws) {
        checkValue(value);
        byte[] out = new byte[bytes];
        for (int x = 0; x < k; x++) {
            if (draws.bernoulli(q)) {
                BitVector.set(out, x);
            }
        }
        int own = draws.bernoulli(DyadicProbability.HALF) ? 1 : 0;
        int mask = 1 << (value & 7);
        out[value >>> 3] = (byte) ((out[value >>> 3] & ~mask) | (own << (value & 7)));
        return out;
    }

    @Override
    boolean wellFormed(byte[] payload) {
        return BitVector.hasLayout(payload, bytes, padMask);
    }

    @Override
    public Rational outputProbability(int value, byte[] payload, long publicBase) {
        checkValue(value);
        if (!wellFormed(payload)) {
            return Rational.ZERO;
        }
        int ones = 0;
        for (int x = 0; x < k; x++) {
            if (x != value && BitVector.isSet(payload, x)) {
                ones++;
            }
        }
        int zeros = k - 1 - ones;
        BigInteger num = BigInteger.valueOf(oneNumerator).pow(ones)
                .multiply(BigInteger.valueOf(Grid.ONE - oneNumerator).pow(zeros));
        BigInteger den = BigInteger.ONE.shiftLeft(53 * (k - 1) + 1); // the true bit contributes 1/2 either way
        return Rational.of(num, den);
    }

    @Override
    double pStar() {
        return 0.5;
    }

    @Override
    double qStar() {
        return qd;
    }

    @Override
    double pairBothOther() {
        return qd * qd;
    }

    @Override
    double pairWithTrue() {
        return 0.5 * qd;
    }
}
