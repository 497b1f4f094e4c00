package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.coins.PublicCoins;
import io.privacygateway.mechanisms.coins.SplitMix64;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.DyadicProbability;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Optimized local hashing (OLH; Wang et al. 2017, "Locally Differentially Private Protocols for
 * Frequency Estimation", §4.4, "Optimal Local Hashing").
 *
 * <p><b>Mechanism.</b> A hash function {@code h: [k] → [g]} is chosen by <em>public</em> coins; the device
 * reports GRR over {@code [g]} of {@code h(x)}: {@code h(x)} with probability {@code p'}, otherwise a
 * uniform other element of {@code [g]}. The range is {@code g = round(e^ε + 1)} (the paper's optimum
 * {@code g = e^ε + 1}, rounded to the nearest integer), clamped to {@code [2, 2^31 − 1]}. {@code p'} is
 * GRR's certified grid probability over {@code [g]} (see {@link GeneralizedRandomizedResponse}).
 *
 * <p><b>Hash family (part of the wire format).</b> With {@code b} the report's public base word and
 * {@code s} the hash stream ({@link PublicCoins.Stream#OLH_HASH}, or {@code TREE_HASH} inside the tree),
 * the key is {@code key = PublicCoins.stream(b, s).nextLong()} and
 * <pre>h(x) = ExactSampler.uniformInt(new SplitMix64(PublicCoins.streamSeed(key, x)), g)</pre>
 * i.e. the first exact uniform draw in {@code [g]} of SplitMix64 seeded with
 * {@code key XOR mix64((x + 1)·0x9E3779B97F4A7C15)}. Modelling SplitMix64 outputs of distinct seeds as
 * independent uniform words, the {@code h(x)} are independent and exactly uniform on {@code [g]}
 * (Lemire rejection), so distinct values collide with probability exactly {@code 1/g}.
 *
 * <p><b>Guarantee.</b> ε-LDP exactly for <em>every</em> key: given the key the report is GRR over
 * {@code [g]} of {@code h(x)}, whose probabilities {@code p', q'} satisfy {@code p'/q' <= e^ε} on the grid;
 * inputs with equal hashes have identical output distributions. The hash is public, so it costs nothing.
 *
 * <p><b>Server.</b> A report {@code y} supports every {@code x} with {@code h(x) = y} (O(k) per report).
 * {@code p* = p'}, {@code q* = 1/g} (ideal hash); supports of distinct values are uncorrelated, so
 * {@code Var(p̂_x) = [f_x p'(1−p') + (1−f_x)(1/g)(1−1/g)]/(n (p' − 1/g)²)} ≈ {@code 4e^ε/(n (e^ε − 1)²)}
 * at the optimal {@code g}.
 *
 * <p><b>Wire format.</b> The reported element of {@code [g]}, unsigned big-endian, 1–4 bytes.
 */
public final class OptimizedLocalHashing extends SupportCountOracle implements IndexOracle {
    private final int g;
    private final int hashStream;
    private final MechanismId id;
    private final long keepNumerator;
    private final DyadicProbability keep;
    private final double p;
    private final long threshold; // 2^32 mod g, Lemire's rejection threshold
    private final long[] valueMix; // mix64((x + 1) * GOLDEN)
    private final int width;

    /**
     * @param domainSize {@code k} in {@code [2, 2^24]}
     * @param epsilon the per-report ε
     */
    public OptimizedLocalHashing(int domainSize, Epsilon epsilon) {
        this(domainSize, epsilon, optimalRange(epsilon), PublicCoins.Stream.OLH_HASH, MechanismId.OLH);
    }

    /** Package-private: explicit range and hash stream (the tree's levels use {@code TREE_HASH}). */
    OptimizedLocalHashing(int domainSize, Epsilon epsilon, int range, int hashStream, MechanismId id) {
        super(domainSize, epsilon);
        Require.inRange("range", range, 2, Integer.MAX_VALUE);
        this.g = range;
        this.hashStream = hashStream;
        this.id = id;
        BigDecimal l = Grid.expLower(eps);
        long nk = Grid.largestWithRatio(l, Grid.bd(g - 1L));
        BigInteger n = BigInteger.valueOf(nk);
        BigInteger rest = BigInteger.valueOf(Grid.ONE - nk);
        BigInteger gm1 = BigInteger.valueOf(g - 1L);
        if (!Grid.ratioAtMost(n.multiply(gm1), rest, l) || !Grid.ratioAtMost(rest, n.multiply(gm1), l)) {
            throw new IllegalArgumentException("epsilon=" + eps.value()
                    + " cannot be realised on the 2^-53 probability grid for OLH with range=" + g);
        }
        this.keepNumerator = nk;
        this.keep = new DyadicProbability(nk);
        this.p = keep.value();
        this.threshold = (1L << 32) % g;
        this.valueMix = new long[k];
        for (int x = 0; x < k; x++) {
            valueMix[x] = SplitMix64.mix64((x + 1L) * SplitMix64.GOLDEN);
        }
        this.width = IndexCodec.widthFor(g);
        requireInformative(p, 1.0 / g);
    }

    /** {@code g = round(e^ε + 1)} clamped to {@code [2, 2^31 − 1]} (Wang et al. 2017, §4.4). */
    public static int optimalRange(Epsilon epsilon) {
        double g = Math.rint(Math.exp(epsilon.value()) + 1);
        return (int) Math.max(2, Math.min(Integer.MAX_VALUE, g));
    }

    @Override
    public MechanismId id() {
        return id;
    }

    /** The hash range {@code g}. */
    public int range() {
        return g;
    }

    /** The hash key of a report: the first word of its public hash stream. */
    long hashKey(long publicBase) {
        return PublicCoins.stream(publicBase, hashStream).nextLong();
    }

    /** {@code h_key(x)}: the first exact uniform draw in {@code [g]} of SplitMix64 seeded with streamSeed(key, x). */
    int hash(long key, int x) {
        long state = key ^ valueMix[x];
        while (true) {
            state += SplitMix64.GOLDEN;
            long product = (SplitMix64.mix64(state) >>> 32) * g;
            if ((product & 0xFFFFFFFFL) >= threshold) {
                return (int) (product >>> 32);
            }
        }
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
        return g;
    }

    @Override
    public int randomizeIndex(int value, long publicBase, RandomBits secret) {
        int hx = hash(hashKey(publicBase), value);
        if (ExactSampler.bernoulli(secret, keep)) {
            return hx;
        }
        int t = ExactSampler.uniformInt(secret, g - 1);
        return t >= hx ? t + 1 : t;
    }

    @Override
    public boolean accumulate(byte[] payload, long publicBase, long[] state) {
        checkState(state);
        int y = IndexCodec.decode(payload, width, g);
        if (y < 0) {
            return false;
        }
        accumulateIndex(y, publicBase, state, 0);
        return true;
    }

    @Override
    public void accumulateIndex(int y, long publicBase, long[] state, int offset) {
        long key = hashKey(publicBase);
        for (int x = 0; x < k; x++) {
            if (hash(key, x) == y) {
                state[offset + x]++;
            }
        }
    }

    @Override
    public Rational outputProbability(int value, byte[] payload, long publicBase) {
        checkValue(value);
        int y = IndexCodec.decode(payload, width, g);
        return y < 0 ? Rational.ZERO : indexProbability(value, y, publicBase);
    }

    @Override
    public Rational indexProbability(int value, int y, long publicBase) {
        if (y == hash(hashKey(publicBase), value)) {
            return Rational.dyadic(keepNumerator);
        }
        return Rational.dyadic(Grid.ONE - keepNumerator).divide(g - 1L);
    }

    @Override
    double pStar() {
        return p;
    }

    @Override
    double qStar() {
        return 1.0 / g;
    }

    @Override
    double pairBothOther() {
        return 1.0 / ((double) g * g);
    }

    @Override
    double pairWithTrue() {
        return p / g;
    }
}
