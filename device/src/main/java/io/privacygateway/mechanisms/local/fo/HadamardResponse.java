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
 * Hadamard response (Acharya, Sun and Zhang 2019, "Hadamard Response: Estimating Distributions Privately,
 * Efficiently, and with Little Communication", AISTATS; the basic scheme of their §3 for one block).
 *
 * <p><b>Mechanism.</b> {@code K} is the smallest power of two {@code > k}; {@code H(a, j) =
 * (−1)^popcount(a & j)} is the Sylvester–Hadamard matrix of order {@code K}. Value {@code x} owns the set
 * {@code C_x = {j ∈ [K] : H(x + 1, j) = +1}} of size {@code K/2} (row 0, all ones, is unused). The device
 * outputs {@code j ∈ [K]} with probability {@code 2π/K} for {@code j ∈ C_x} and {@code 2(1 − π)/K}
 * otherwise, ideally {@code π = e^ε/(e^ε + 1)}. Here {@code π = N/2^53} with {@code N} the largest grid
 * numerator with {@code N <= L (2^53 − N)}, {@code L <= e^ε} certified ({@link Grid}). Sampling (exact):
 * {@code j = uniformInt(K)}, {@code B = bernoulli(π)}; if {@code [j ∈ C_x] ≠ B}, flip the bit of {@code j}
 * at the lowest set bit of {@code x + 1} (a bijection between {@code C_x} and its complement).
 *
 * <p><b>Guarantee.</b> ε-LDP exactly: every output has probability {@code 2π/K} or {@code 2(1−π)/K}
 * under every input, and {@code π/(1 − π) <= L <= e^ε}.
 *
 * <p><b>Server (fast decode).</b> The state is the histogram of the {@code K} outputs (O(1) per report).
 * The support count of {@code x} is {@code #{j ∈ C_x} = (n + T(x + 1))/2} where {@code T} is the
 * Walsh–Hadamard transform of the histogram (O(K log K) once per window, exact in integers). Distinct
 * non-zero rows are orthogonal, so {@code |C_x ∩ C_v| = K/4} and {@code q* = 1/2} exactly; {@code p* = π};
 * {@code p̂_x = T(x + 1)/(n (2π − 1))} and
 * {@code Var(p̂_x) = [f_x π(1−π) + (1−f_x)/4]/(n (π − 1/2)²)} ≈ {@code ((e^ε+1)/(e^ε−1))²/n}. Query
 * covariances (non-zero when rows {@code x+1, y+1, v+1} are XOR-dependent) are computed exactly with two
 * further transforms.
 *
 * <p><b>Wire format.</b> The output {@code j ∈ [K]}, unsigned big-endian, {@code ⌈log₂K / 8⌉} bytes.
 */
public final class HadamardResponse extends AbstractOracle {
    private final int bigK;
    private final long inNumerator;
    private final DyadicProbability in;
    private final double pi;
    private final int width;

    /**
     * @param domainSize {@code k} in {@code [2, 2^24]}
     * @param epsilon the per-report ε
     */
    public HadamardResponse(int domainSize, Epsilon epsilon) {
        super(domainSize, epsilon);
        this.bigK = Integer.highestOneBit(k) << 1;
        BigDecimal l = Grid.expLower(eps);
        long nk = Grid.largestWithRatio(l, BigDecimal.ONE);
        BigInteger n = BigInteger.valueOf(nk);
        BigInteger rest = BigInteger.valueOf(Grid.ONE - nk);
        if (!Grid.ratioAtMost(n, rest, l) || !Grid.ratioAtMost(rest, n, l)) {
            throw new IllegalArgumentException("epsilon=" + eps.value()
                    + " cannot be realised on the 2^-53 probability grid for Hadamard response");
        }
        this.inNumerator = nk;
        this.in = new DyadicProbability(nk);
        this.pi = in.value();
        this.width = IndexCodec.widthFor(bigK);
        requireInformative(pi, 0.5);
    }

    @Override
    public MechanismId id() {
        return MechanismId.HADAMARD_RESPONSE;
    }

    /** {@code K}: the Hadamard order and output range. */
    public int order() {
        return bigK;
    }

    /** The exact probability {@code π} that the output lies in the true value's set. */
    public DyadicProbability inSetProbability() {
        return in;
    }

    /** Whether {@code j ∈ C_x}. */
    static boolean inSet(int x, int j) {
        return (Integer.bitCount((x + 1) & j) & 1) == 0;
    }

    @Override
    public int payloadBytes() {
        return width;
    }

    @Override
    public byte[] randomize(int value, long publicBase, SecretDraws draws) {
        checkValue(value);
        int j = draws.uniformInt(bigK);
        boolean want = draws.bernoulli(in);
        if (inSet(value, j) != want) {
            j ^= Integer.lowestOneBit(value + 1);
        }
        return IndexCodec.encode(j, width);
    }

    @Override
    public int stateLength() {
        return bigK;
    }

    @Override
    public boolean accumulate(byte[] payload, long publicBase, long[] state) {
        return countIndex(payload, width, bigK, state);
    }

    @Override
    public Rational outputProbability(int value, byte[] payload, long publicBase) {
        checkValue(value);
        int j = IndexCodec.decode(payload, width, bigK);
        if (j < 0) {
            return Rational.ZERO;
        }
        long num = inSet(value, j) ? inNumerator : Grid.ONE - inNumerator;
        return Rational.dyadic(num).divide(bigK / 2);
    }
}
