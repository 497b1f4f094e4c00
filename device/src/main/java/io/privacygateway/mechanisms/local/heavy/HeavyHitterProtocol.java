package io.privacygateway.mechanisms.local.heavy;

import io.privacygateway.mechanisms.codec.Hex;
import io.privacygateway.mechanisms.coins.PublicCoins;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.coins.SipHash24;
import io.privacygateway.mechanisms.coins.SplitMix64;
import io.privacygateway.mechanisms.local.ReportAccumulator;
import io.privacygateway.mechanisms.local.fo.Grid;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.DyadicProbability;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.workload.InvalidValueException;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Open-domain heavy hitters under local DP: a prefix tree over the item's bytes with a Hadamard-response count
 * sketch per level (the TreeHist / count-mean-sketch family: Bassily, Nissim, Stemmer and Thakurta, "Practical
 * locally private heavy hitters", NeurIPS 2017; Apple's differential-privacy team, "Learning with privacy at
 * scale", 2017). See {@code docs/heavy-hitters.md}.
 *
 * <p><b>Item.</b> A string of 1 to {@code L} UTF-8 bytes without a {@code 0x00} byte, zero-padded to
 * {@code G·b} bytes ({@code L} rounded up to a multiple of {@code b}). Level {@code g ∈ [0, G)} sees the prefix
 * of bytes {@code [0, (g+1)·b)}.
 *
 * <p><b>Public coins.</b> Stream {@link PublicCoins.Stream#HEAVY_HITTER} of the report's base word gives, by
 * exact uniform draws in this order, the level {@code g ∈ [G]}, the row {@code r ∈ [R]} and {@code t} Hadamard
 * indices {@code j_0, …, j_{t−1} ∈ [W]}. The bucket of a prefix is {@code c = h_{g,r}(prefix) = SipHash-2-4(k₂,
 * int32_le(g) ‖ int32_le(r) ‖ prefix) mod W}, with {@code k₂} the bytes {@code [16, 32)} of the workload's content
 * hash (the report base uses bytes {@code [0, 16)}).
 *
 * <p><b>Device.</b> The bucket's true symbol is {@code v = Σ_s parity(j_s & c)·2^s ∈ [2^t]} ({@code t} bits of the
 * Hadamard code of {@code c}). Two secret draws, whatever the item: {@code keep = bernoulli(π)} and
 * {@code u = uniformInt(2^t − 1)}; the payload is one byte, {@code v} if {@code keep}, else {@code v XOR (1 + u)}
 * (uniform over the other symbols). {@code π = N/2^53} with {@code N} the largest grid numerator with
 * {@code N (2^t − 1) <= L_ε (2^53 − N)}, {@code L_ε <= e^ε} certified. With {@code t = 1} this is the one-bit
 * Hadamard response of the count-mean sketch (and {@code π} is
 * {@link io.privacygateway.mechanisms.local.fo.HadamardResponse}'s); a larger {@code t} is optimized local hashing
 * with {@code 2^t} hash values over the linear hash family {@code c ↦ (parity(j_s & c))_s}, which for distinct
 * buckets collides with probability exactly {@code 2^−t}. {@code t} is chosen by
 * {@link HeavyHitterParameters#optimalPayloadBits} (about {@code log₂(e^ε + 1)}): at ε = 4 it cuts the variance
 * per report about 14-fold against {@code t = 1}.
 *
 * <p><b>Guarantee.</b> ε-LDP for every value of the public coins: with the coins fixed, the payload is a function
 * {@code v} of the item with probability {@code π}, and each other symbol with probability
 * {@code (1 − π)/(2^t − 1)}, so every payload has one of these two probabilities under every item and their ratio
 * is at most {@code L_ε <= e^ε} both ways (checked exactly at construction). The device's work (one SipHash of
 * {@code 8 + (g+1)·b} bytes, two draws) does not depend on the item.
 *
 * <p><b>Server.</b> {@code 1[y = v(c)] = 2^−t Σ_{m ⊆ [t]} (−1)^{popcount(y & m)} H(j_m, c)} with
 * {@code j_m = XOR_{s ∈ m} j_s} and {@code H(j, c) = (−1)^{popcount(j & c)}}: the term {@code m = ∅} is 1, the
 * others are Hadamard characters. So the state holds, per level and row, {@code s[g][r][j]} (each report adds
 * {@code (−1)^{popcount(y & m)}} at {@code j_m} for every non-empty {@code m}) and the report count
 * {@code n[g][r]}: {@code G·R·(W + 1)} longs. A report changes the state by at most {@code 2^t − 1 < 2^8} in
 * absolute sum, so a window of up to {@link #maxReportsPerWindow()} = 2^54 reports cannot overflow (every
 * intermediate of the estimate's integer Walsh–Hadamard transform is bounded by the absolute sum of the state).
 *
 * <p><b>Estimate and decode.</b> The gateway's ({@code HeavyHitterEstimator}, module {@code mechanisms}).
 */
public final class HeavyHitterProtocol implements ReportAccumulator {
    /** The largest window whose aggregate is exact. */
    public static final long MAX_REPORTS = 1L << 54;

    final HeavyHitterParameters params;
    final PublicCoins coins;
    final SipHash24 bucketHash;
    final int levels;
    final int rows;
    final int width;
    final int b;
    final int paddedBytes;
    final int bits;
    final int symbols;
    final DyadicProbability keep;
    final double pi;

    /**
     * @param params the validated parameters
     * @param contentHashHex the workload's SHA-256 content hash, lower-case hex (keys the public coins and the
     *     bucket hash)
     */
    public HeavyHitterProtocol(HeavyHitterParameters params, String contentHashHex) {
        if (params == null) {
            throw new IllegalArgumentException("params is required");
        }
        if (contentHashHex == null) {
            throw new IllegalArgumentException("contentHashHex is required");
        }
        this.params = params;
        this.coins = new PublicCoins(contentHashHex);
        byte[] h = Hex.parse(contentHashHex);
        this.bucketHash = SipHash24.ofKeyBytes(Arrays.copyOfRange(h, 16, 32));
        this.levels = params.levels();
        this.rows = params.rows();
        this.width = params.width();
        this.b = params.segmentBytes();
        this.paddedBytes = levels * b;
        this.bits = params.payloadBits();
        this.symbols = 1 << bits;
        BigDecimal l = Grid.expLower(params.epsilon());
        BigDecimal others = BigDecimal.valueOf(symbols - 1);
        long nk = Grid.largestWithRatio(l, others);
        // P(y = v) = N/2^53, P(y = v') = (2^53 − N)/(2^53 (D − 1)) for each v' ≠ v: both ratios must be <= L
        BigDecimal in = BigDecimal.valueOf(nk).multiply(others);
        BigDecimal out = BigDecimal.valueOf(Grid.ONE - nk);
        if (in.compareTo(l.multiply(out)) > 0 || out.compareTo(l.multiply(in)) > 0
                || BigDecimal.valueOf(nk).multiply(BigDecimal.valueOf(symbols)).compareTo(BigDecimal.valueOf(Grid.ONE)) <= 0) {
            throw new IllegalArgumentException("epsilon=" + params.epsilon().value()
                    + " cannot be realised on the 2^-53 probability grid for the heavy-hitter sketch with t=" + bits);
        }
        this.keep = new DyadicProbability(nk);
        this.pi = keep.value();
    }

    /** The parameters. */
    public HeavyHitterParameters parameters() {
        return params;
    }

    /** The exact probability {@code π} that the reported symbol is the true one. */
    public DyadicProbability keepProbability() {
        return keep;
    }

    @Override
    public MechanismId id() {
        return MechanismId.PREFIX_TREE_SKETCH;
    }

    @Override
    public Epsilon epsilon() {
        return params.epsilon();
    }

    /** One byte, a symbol in {@code [0, 2^t)}. */
    @Override
    public int payloadBytes() {
        return 1;
    }

    /** {@code G·R·(W + 1)}. */
    @Override
    public int stateLength() {
        return params.stateLength();
    }

    /** {@value #MAX_REPORTS} (2^54). */
    @Override
    public long maxReportsPerWindow() {
        return MAX_REPORTS;
    }

    // ------------------------------------------------------------------ items and public coins

    /**
     * The item's UTF-8 bytes zero-padded to {@code G·b} bytes.
     *
     * @throws InvalidValueException if the item is null, empty, not encodable as UTF-8 (an unpaired
     *     surrogate), longer than {@code L} bytes or contains the character U+0000; the message never repeats
     *     the item
     */
    public byte[] paddedItem(String item) throws InvalidValueException {
        if (item == null || item.isEmpty()) {
            throw new InvalidValueException("heavy-hitter item must be a non-empty string");
        }
        ByteBuffer enc;
        try {
            enc = StandardCharsets.UTF_8.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).encode(CharBuffer.wrap(item));
        } catch (CharacterCodingException e) {
            throw new InvalidValueException("heavy-hitter item is not valid Unicode (unpaired surrogate)");
        }
        int len = enc.remaining();
        if (len > params.maxBytes()) {
            throw new InvalidValueException("heavy-hitter item has " + len + " UTF-8 bytes, more than the maximum "
                    + params.maxBytes());
        }
        byte[] out = new byte[paddedBytes];
        enc.get(out, 0, len);
        for (int i = 0; i < len; i++) {
            if (out[i] == 0) {
                throw new InvalidValueException("heavy-hitter item contains the character U+0000");
            }
        }
        return out;
    }

    /**
     * A report's public coins.
     *
     * @param level {@code g ∈ [0, G)}
     * @param row {@code r ∈ [0, R)}
     * @param indices the Hadamard indices {@code j_0, …, j_{t−1} ∈ [0, W)}
     */
    public record Coins(int level, int row, int[] indices) {
        public Coins {
            indices = indices.clone();
        }

        @Override
        public int[] indices() {
            return indices.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Coins c && c.level == level && c.row == row && Arrays.equals(c.indices, indices);
        }

        @Override
        public int hashCode() {
            return 31 * (31 * level + row) + Arrays.hashCode(indices);
        }

        @Override
        public String toString() {
            return "Coins[level=" + level + ", row=" + row + ", indices=" + Arrays.toString(indices) + "]";
        }
    }

    /** The public coins of a report. */
    public Coins coins(ReportCoordinates coordinates) {
        return coinsOf(coins.base(coordinates));
    }

    Coins coinsOf(long base) {
        SplitMix64 s = PublicCoins.stream(base, PublicCoins.Stream.HEAVY_HITTER);
        int g = ExactSampler.uniformInt(s, levels);
        int r = ExactSampler.uniformInt(s, rows);
        int[] j = new int[bits];
        for (int i = 0; i < bits; i++) {
            j[i] = ExactSampler.uniformInt(s, width);
        }
        return new Coins(g, r, j);
    }

    /** {@code h_{g,r}}: the bucket of the first {@code (g+1)·b} bytes of {@code padded}. */
    public int bucket(int level, int row, byte[] padded) {
        SipHash24.State st = header(level, row);
        int len = (level + 1) * b;
        for (int i = 0; i < len; i++) {
            st.update(padded[i]);
        }
        return (int) (st.finish() & (width - 1));
    }

    SipHash24.State header(int level, int row) {
        return bucketHash.start().updateInt(level).updateInt(row);
    }

    static int parity(int j, int c) {
        return Integer.bitCount(j & c) & 1;
    }

    /** The true symbol {@code v = Σ_s parity(j_s & c)·2^s} of bucket {@code c} under the report's indices. */
    static int symbol(int[] indices, int c) {
        int v = 0;
        for (int s = 0; s < indices.length; s++) {
            v |= parity(indices[s], c) << s;
        }
        return v;
    }

    // ------------------------------------------------------------------ device

    /** Device side with the production sampler over {@code secret}. */
    public byte[] randomize(String item, ReportCoordinates coordinates, RandomBits secret)
            throws InvalidValueException {
        if (secret == null) {
            throw new IllegalArgumentException("secret is required");
        }
        return randomize(item, coordinates, ExactSampler.draws(secret));
    }

    /**
     * Device side: one secret Bernoulli draw and one uniform draw in {@code [0, 2^t − 1)}, whatever the item and
     * whatever the Bernoulli's outcome; the public work (the coins, one SipHash of {@code 8 + (g+1)·b} bytes)
     * depends only on the coordinates.
     *
     * @throws InvalidValueException for an item outside the domain ({@link #paddedItem})
     */
    public byte[] randomize(String item, ReportCoordinates coordinates, SecretDraws draws)
            throws InvalidValueException {
        byte[] padded = paddedItem(item);
        if (coordinates == null || draws == null) {
            throw new IllegalArgumentException("coordinates and draws are required");
        }
        Coins k = coinsOf(coins.base(coordinates));
        int v = symbol(k.indices, bucket(k.level(), k.row(), padded));
        boolean kept = draws.bernoulli(keep);
        int other = 1 + draws.uniformInt(symbols - 1);
        return new byte[] {(byte) (kept ? v : v ^ other)};
    }

    // ------------------------------------------------------------------ server: accumulate

    int countIndex(int g, int r) {
        return levels * rows * width + g * rows + r;
    }

    /** The index of the first of row {@code (g, r)}'s {@code W} signed counters in the state. */
    int rowStart(int g, int r) {
        return (g * rows + r) * width;
    }

    @Override
    public boolean accumulate(byte[] payload, ReportCoordinates coordinates, long[] state) {
        checkState(state);
        if (coordinates == null) {
            throw new IllegalArgumentException("coordinates are required");
        }
        return add(payload, coins.base(coordinates), state);
    }

    @Override
    public boolean accumulate(byte[] payload, String deviceId, long period, int sequence, long[] state) {
        checkState(state);
        ReportCoordinates.check(deviceId, period, sequence);
        return add(payload, coins.base(deviceId, period, sequence), state);
    }

    private boolean add(byte[] payload, long base, long[] state) {
        if (payload == null || payload.length != 1 || (payload[0] & 0xFF) >= symbols) {
            return false;
        }
        int y = payload[0] & 0xFF;
        Coins k = coinsOf(base);
        int cell = rowStart(k.level(), k.row());
        for (int m = 1; m < symbols; m++) {
            int jm = 0;
            for (int s = 0; s < bits; s++) {
                if ((m >>> s & 1) != 0) {
                    jm ^= k.indices[s];
                }
            }
            state[cell + jm] += (Integer.bitCount(y & m) & 1) == 0 ? 1 : -1;
        }
        state[countIndex(k.level(), k.row())]++;
        return true;
    }

    void checkState(long[] state) {
        if (state == null || state.length != stateLength()) {
            throw new IllegalArgumentException("state must have length " + stateLength() + ", got "
                    + (state == null ? "null" : state.length));
        }
    }
}
