package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.DyadicProbability;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Subset selection (Ye and Barg 2018, "Optimal schemes for discrete distribution estimation under
 * locally differential privacy", IEEE Trans. Inf. Theory; the "k-subset mechanism" of Wang et al. 2016,
 * "Mutual information optimally local private discrete distribution estimation").
 *
 * <p><b>Mechanism.</b> The device reports a {@code d}-subset {@code S ⊂ [k]} with
 * {@code P(S | x) ∝ e^ε} if {@code x ∈ S} and {@code ∝ 1} otherwise. Equivalently: with probability
 * {@code π = d e^ε/(d e^ε + k − d)} report {@code x} plus a uniform {@code (d − 1)}-subset of the other
 * {@code k − 1} values, otherwise a uniform {@code d}-subset of the other values. Here {@code π = N/2^53}
 * with {@code N} the largest grid numerator with {@code N (k − d) <= L d (2^53 − N)}, {@code L <= e^ε}
 * certified ({@link Grid}). So {@code P(S | x) = π/C(k−1, d−1)} for {@code x ∈ S} and
 * {@code (1 − π)/C(k−1, d)} otherwise.
 *
 * <p><b>Sampling (exact, with value-independent draws).</b> One {@code bernoulli(π)}; a uniform
 * {@code d}-subset {@code T} of the other {@code k − 1} values by Floyd's algorithm ({@code d} draws
 * {@code uniformInt(k − d)}, ..., {@code uniformInt(k − 1)}); and, if {@code d > 1}, one
 * {@code uniformInt(d)} choosing a position {@code i}. Output {@code T} on a miss; on a hit, {@code T}
 * without its {@code i}-th element (in drawing order) plus {@code x}. Removing a uniformly chosen element of
 * a uniform {@code d}-subset leaves a uniform {@code (d−1)}-subset (each {@code (d−1)}-subset arises from
 * {@code k − d} supersets, each with probability {@code 1/(C(k−1, d)·d)}), so the law is the one above.
 * The draws are the same for every value and every coin; drawing a {@code (d−1)}-subset on a hit and a
 * {@code d}-subset on a miss would not be.
 *
 * <p><b>Guarantee.</b> ε-LDP exactly: for {@code x ∈ S, x' ∉ S} the ratio is
 * {@code [π/(1 − π)]·(k − d)/d <= L <= e^ε}; the reverse ratio is checked {@code <= L} at construction;
 * if both or neither are in {@code S} the probabilities are equal.
 *
 * <p><b>Subset size.</b> {@code d ∈ [1, k − 1]} minimising the closed-form total variance
 * {@code Σ_x Var(p̂_x)} at uniform frequencies with the ideal (unrounded) probabilities, smallest
 * {@code d} on ties. Ye and Barg's optimum is {@code d ≈ k/(e^ε + 1)}; the tests check that the scan lands
 * on {@code ⌊k/(e^ε+1)⌋} or {@code ⌈k/(e^ε+1)⌉} (or 1).
 *
 * <p><b>Server.</b> {@code p* = π}, {@code q* = [π (d − 1) + (1 − π) d]/(k − 1)};
 * {@code Var(p̂_x) = [f_x p*(1−p*) + (1−f_x) q*(1−q*)]/(n (p*−q*)²)}, with the pairwise inclusion
 * probabilities of a uniform subset for query covariances.
 *
 * <p><b>Wire format.</b> The subset as a {@code k}-bit map, {@code ⌈k/8⌉} bytes, bit {@code x} = bit
 * {@code x mod 8} of byte {@code ⌊x/8⌋}; exactly {@code d} bits set, padding bits 0.
 */
public final class SubsetSelection extends BitVectorOracle {
    private final int d;
    private final long inNumerator;
    private final DyadicProbability include;
    private final double pStar;
    private final double qStar;
    private final double pair0;
    private final double pair1;
    private final int bytes;
    private final int padMask;

    /** With the variance-optimal subset size {@link #optimalSubsetSize}. */
    public SubsetSelection(int domainSize, Epsilon epsilon) {
        this(domainSize, epsilon, optimalSubsetSize(domainSize, epsilon));
    }

    /**
     * @param domainSize {@code k} in {@code [2, 2^24]}
     * @param epsilon the per-report ε
     * @param subsetSize {@code d} in {@code [1, k − 1]}
     */
    public SubsetSelection(int domainSize, Epsilon epsilon, int subsetSize) {
        super(domainSize, epsilon);
        Require.inRange("subsetSize", subsetSize, 1, k - 1L);
        this.d = subsetSize;
        BigDecimal l = Grid.expLower(eps);
        long nk = Grid.largestWithRatio(l.multiply(Grid.bd(d)), Grid.bd(k - (long) d));
        BigInteger n = BigInteger.valueOf(nk);
        BigInteger rest = BigInteger.valueOf(Grid.ONE - nk);
        BigInteger out = BigInteger.valueOf(k - (long) d);
        BigInteger in = BigInteger.valueOf(d);
        if (!Grid.ratioAtMost(n.multiply(out), rest.multiply(in), l)
                || !Grid.ratioAtMost(rest.multiply(in), n.multiply(out), l)) {
            throw new IllegalArgumentException("epsilon=" + eps.value()
                    + " cannot be realised on the 2^-53 probability grid for subset selection with domainSize=" + k
                    + ", subsetSize=" + d);
        }
        this.inNumerator = nk;
        this.include = new DyadicProbability(nk);
        double pi = include.value();
        this.pStar = pi;
        this.qStar = (pi * (d - 1) + (1 - pi) * d) / (k - 1);
        this.pair0 = k > 2 ? (pi * (d - 1.0) * (d - 2.0) + (1 - pi) * (double) d * (d - 1.0)) / ((k - 1.0) * (k - 2.0)) : 0;
        this.pair1 = pi * (d - 1.0) / (k - 1.0);
        this.bytes = BitVector.bytesFor(k);
        this.padMask = BitVector.padMask(k);
        requireInformative(pStar, qStar);
    }

    /**
     * The subset size {@code d ∈ [1, k − 1]} minimising {@code Σ_x Var(p̂_x)} at uniform frequencies with
     * the ideal probabilities (smallest on ties); close to {@code k/(e^ε + 1)} (Ye and Barg 2018).
     */
    public static int optimalSubsetSize(int domainSize, Epsilon epsilon) {
        Require.inRange("domainSize", domainSize, 2, MAX_DOMAIN);
        double e = StrictMath.exp(epsilon.value());
        int k = domainSize;
        int best = 1;
        double bestV = Double.POSITIVE_INFINITY;
        for (int d = 1; d < k; d++) {
            double pi = d * e / (d * e + k - d);
            double q = (pi * (d - 1) + (1 - pi) * d) / (k - 1);
            double v = (pi * (1 - pi) + (k - 1) * q * (1 - q)) / ((pi - q) * (pi - q));
            if (v < bestV) {
                bestV = v;
                best = d;
            }
        }
        return best;
    }

    static BigInteger binomial(int n, int r) {
        r = Math.min(r, n - r);
        BigInteger c = BigInteger.ONE;
        for (int i = 1; i <= r; i++) {
            c = c.multiply(BigInteger.valueOf(n - r + i)).divide(BigInteger.valueOf(i));
        }
        return c;
    }

    @Override
    public MechanismId id() {
        return MechanismId.SUBSET_SELECTION;
    }

    /** The subset size {@code d}. */
    public int subsetSize() {
        return d;
    }

    /** The exact probability {@code π} that the subset contains the true value. */
    public DyadicProbability inclusionProbability() {
        return include;
    }

    @Override
    public int payloadBytes() {
        return bytes;
    }

    @Override
    public byte[] randomize(int value, long publicBase, SecretDraws draws) {
        checkValue(value);
        boolean hit = draws.bernoulli(include);
        // Floyd's algorithm: a uniform d-subset of the k−1 other values, indexed 0..k−2 (mapped past value).
        int others = k - 1;
        byte[] chosen = new byte[(others + 7) >>> 3];
        int[] picks = new int[d];
        for (int j = others - d, i = 0; j < others; j++, i++) {
            int t = draws.uniformInt(j + 1);
            int pick = BitVector.isSet(chosen, t) ? j : t;
            BitVector.set(chosen, pick);
            picks[i] = pick;
        }
        int drop = d > 1 ? draws.uniformInt(d) : 0; // d is public: the same draws for every value
        byte[] out = new byte[bytes];
        for (int i = 0; i < d; i++) {
            if (!(hit && i == drop)) {
                BitVector.set(out, skip(picks[i], value));
            }
        }
        if (hit) {
            BitVector.set(out, value);
        }
        return out;
    }

    private static int skip(int i, int value) {
        return i >= value ? i + 1 : i;
    }

    @Override
    boolean wellFormed(byte[] payload) {
        if (!BitVector.hasLayout(payload, bytes, padMask)) {
            return false;
        }
        int count = 0;
        for (byte b : payload) {
            count += Integer.bitCount(b & 0xFF);
        }
        return count == d;
    }

    @Override
    public Rational outputProbability(int value, byte[] payload, long publicBase) {
        checkValue(value);
        if (!wellFormed(payload)) {
            return Rational.ZERO;
        }
        // binomials computed on demand: this hook is for tests, and C(k−1, d) is huge for large k
        return BitVector.isSet(payload, value)
                ? Rational.dyadic(inNumerator).divide(binomial(k - 1, d - 1))
                : Rational.dyadic(Grid.ONE - inNumerator).divide(binomial(k - 1, d));
    }

    @Override
    double pStar() {
        return pStar;
    }

    @Override
    double qStar() {
        return qStar;
    }

    @Override
    double pairBothOther() {
        return pair0;
    }

    @Override
    double pairWithTrue() {
        return pair1;
    }
}
