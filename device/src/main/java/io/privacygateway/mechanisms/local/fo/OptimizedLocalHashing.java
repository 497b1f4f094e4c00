package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.coins.PublicCoins;
import io.privacygateway.mechanisms.coins.SplitMix64;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.workload.MechanismId;

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
public final class OptimizedLocalHashing extends IndexResponseOracle {
    private final int hashStream;
    private final MechanismId id;
    private final long threshold; // 2^32 mod g, Lemire's rejection threshold
    private final long[] valueMix; // mix64((x + 1) * GOLDEN)

    /**
     * @param domainSize {@code k} in {@code [2, 2^24]}
     * @param epsilon the per-report ε
     */
    public OptimizedLocalHashing(int domainSize, Epsilon epsilon) {
        this(domainSize, epsilon, optimalRange(epsilon), PublicCoins.Stream.OLH_HASH, MechanismId.OLH);
    }

    /** Package-private: explicit range and hash stream (the tree's levels use {@code TREE_HASH}). */
    OptimizedLocalHashing(int domainSize, Epsilon epsilon, int range, int hashStream, MechanismId id) {
        super(domainSize, epsilon, (int) Require.inRange("range", range, 2, Integer.MAX_VALUE), -1, true,
                "OLH with range=" + range);
        this.hashStream = hashStream;
        this.id = id;
        this.threshold = (1L << 32) % range;
        this.valueMix = new long[k];
        for (int x = 0; x < k; x++) {
            valueMix[x] = SplitMix64.mix64((x + 1L) * SplitMix64.GOLDEN);
        }
        requireInformative(pStar(), 1.0 / range);
    }

    /** {@code g = round(e^ε + 1)} clamped to {@code [2, 2^31 − 1]} (Wang et al. 2017, §4.4). */
    public static int optimalRange(Epsilon epsilon) {
        double g = Math.rint(StrictMath.exp(epsilon.value()) + 1);
        return (int) Math.max(2, Math.min(Integer.MAX_VALUE, g));
    }

    @Override
    public MechanismId id() {
        return id;
    }

    /** The hash range {@code g}. */
    public int range() {
        return range;
    }

    @Override
    int target(int value, long publicBase) {
        return hash(hashKey(publicBase), value);
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
            long product = (SplitMix64.mix64(state) >>> 32) * range;
            if ((product & 0xFFFFFFFFL) >= threshold) {
                return (int) (product >>> 32);
            }
        }
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
    double qStar() {
        return 1.0 / range;
    }

    @Override
    double pairBothOther() {
        return 1.0 / ((double) range * range);
    }

    @Override
    double pairWithTrue() {
        return pStar() / range;
    }
}
