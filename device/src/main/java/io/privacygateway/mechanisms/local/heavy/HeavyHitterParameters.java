package io.privacygateway.mechanisms.local.heavy;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import java.util.Objects;

/**
 * The parameters of the open-domain heavy-hitter protocol ({@link HeavyHitterProtocol}), validated on
 * construction; every error names the offending field.
 *
 * <ul>
 *   <li>{@code epsilon}: the pure ε of one report;</li>
 *   <li>{@code maxBytes} {@code L ∈ [1, 64]}: the longest item, in UTF-8 bytes (items are zero-padded to it);</li>
 *   <li>{@code segmentBytes} {@code b ∈ {1, 2}}: the bytes one level of the prefix tree adds, so there are
 *       {@code G = ⌈L/b⌉} levels;</li>
 *   <li>{@code rows} {@code R ∈ [1, 64]}: the sketch rows (hash functions) of a level;</li>
 *   <li>{@code width} {@code W}, a power of two in {@code [2, 65536]}: the buckets of a row (and the Hadamard
 *       order);</li>
 *   <li>{@code candidates} {@code T ∈ [1, 1024]}: the most prefixes the decoder keeps per level;</li>
 *   <li>{@code payloadBits} {@code t ∈ [1, 8]}: the Hadamard bits of its bucket a report carries (one byte);
 *       by default the variance-optimal {@link #optimalPayloadBits} for ε.</li>
 * </ul>
 * The server state has {@code G·R·(W + 1)} longs; at most {@link #MAX_STATE_LENGTH} = 2^18 can be configured.
 */
public final class HeavyHitterParameters {
    /** The largest state, in longs, that a parameter object may describe. */
    public static final int MAX_STATE_LENGTH = 1 << 18;
    /** The state budget, in longs, of {@link #defaults}. */
    public static final int DEFAULT_STATE_BUDGET = 1 << 15;
    /** The longest item accepted by the protocol, in UTF-8 bytes. */
    public static final int MAX_ITEM_BYTES = 64;

    private final Epsilon epsilon;
    private final int maxBytes;
    private final int segmentBytes;
    private final int rows;
    private final int width;
    private final int candidates;
    private final int payloadBits;
    private final int levels;

    /** With the variance-optimal payload bits for ε ({@link #optimalPayloadBits}). */
    public HeavyHitterParameters(Epsilon epsilon, int maxBytes, int segmentBytes, int rows, int width, int candidates) {
        this(epsilon, maxBytes, segmentBytes, rows, width, candidates,
                optimalPayloadBits(Require.nonNull("epsilon", epsilon)));
    }

    /**
     * @param payloadBits {@code t ∈ [1, 8]}: the Hadamard bits of the bucket a report carries (in one byte)
     */
    public HeavyHitterParameters(Epsilon epsilon, int maxBytes, int segmentBytes, int rows, int width, int candidates,
            int payloadBits) {
        this.epsilon = Require.nonNull("epsilon", epsilon);
        this.maxBytes = (int) Require.inRange("maxBytes", maxBytes, 1, MAX_ITEM_BYTES);
        this.segmentBytes = (int) Require.inRange("segmentBytes", segmentBytes, 1, 2);
        this.rows = (int) Require.inRange("rows", rows, 1, 64);
        Require.inRange("width", width, 2, 1 << 16);
        if (Integer.bitCount(width) != 1) {
            throw new IllegalArgumentException("width must be a power of two, got " + width);
        }
        this.width = width;
        this.candidates = (int) Require.inRange("candidates", candidates, 1, 1024);
        this.payloadBits = (int) Require.inRange("payloadBits", payloadBits, 1, 8);
        this.levels = (maxBytes + segmentBytes - 1) / segmentBytes;
        long state = (long) levels * rows * (width + 1L);
        if (state > MAX_STATE_LENGTH) {
            throw new IllegalArgumentException("rows and width: the state levels·rows·(width + 1) = " + state
                    + " longs exceeds " + MAX_STATE_LENGTH);
        }
    }

    /**
     * The default rule for an expected window of {@code expectedReports} reports:
     * <ul>
     *   <li>{@code b = 2} when {@code L >= 2} (half the levels, so twice the reports per level; measured better
     *       than {@code b = 1} in {@code docs/heavy-hitters.md}, at the price of a slower decode), else 1;</li>
     *   <li>{@code W = 1024} and {@code R = min(8, ⌊2^15 / (G·(W + 1))⌋)}; while {@code R < 2} and {@code W > 256},
     *       {@code W} is halved (with a single row a collision with a heavier prefix hides a prefix completely; two
     *       or more rows let the collision-aware decoder drop the colliding row only); since {@code G <= 32},
     *       {@code W = 256} always leaves {@code R >= 3};</li>
     *   <li>{@code T = 32}: a cap, rarely reached, since only prefixes above the level's threshold are kept (the
     *       decode scores {@code 256^b} extensions of each kept prefix per level). The expected window size does
     *       not change the rule today; it is part of the signature so that a rule that depends on it can replace
     *       it without changing callers.</li>
     * </ul>
     * The state then has at most {@link #DEFAULT_STATE_BUDGET} longs.
     */
    public static HeavyHitterParameters defaults(Epsilon epsilon, int maxBytes, long expectedReports) {
        Require.inRange("maxBytes", maxBytes, 1, MAX_ITEM_BYTES);
        Require.inRange("expectedReports", expectedReports, 1, Long.MAX_VALUE);
        int b = maxBytes >= 2 ? 2 : 1;
        int g = (maxBytes + b - 1) / b;
        int w = 1024;
        int r = Math.min(8, DEFAULT_STATE_BUDGET / (g * (w + 1)));
        while (r < 2 && w > 256) {
            w >>= 1;
            r = Math.min(8, DEFAULT_STATE_BUDGET / (g * (w + 1)));
        }
        // G <= 32 (L <= 64, b = 2), so W = 256 always leaves R >= 3
        return new HeavyHitterParameters(epsilon, maxBytes, b, r, w, 32, optimalPayloadBits(epsilon));
    }

    public Epsilon epsilon() {
        return epsilon;
    }

    /**
     * The {@code t ∈ [1, 8]} that minimises the per-report variance of a zero count, {@code (2^t − 1)/(2^t p − 1)²}
     * with {@code p = e^ε/(e^ε + 2^t − 1)} (optimized local hashing's trade-off with {@code d = 2^t} hash values:
     * the optimum is near {@code 2^t ≈ e^ε + 1}); the smaller {@code t} on a tie.
     */
    public static int optimalPayloadBits(Epsilon epsilon) {
        double e = StrictMath.exp(epsilon.value());
        int best = 1;
        double bestVar = Double.POSITIVE_INFINITY;
        for (int t = 1; t <= 8; t++) {
            double d = 1 << t;
            double p = e / (e + d - 1);
            double a = d * p - 1;
            double v = a > 0 ? (d - 1) / (a * a) : Double.POSITIVE_INFINITY;
            if (v < bestVar) {
                bestVar = v;
                best = t;
            }
        }
        return best;
    }

    /** {@code t}: the Hadamard bits a report carries. */
    public int payloadBits() {
        return payloadBits;
    }

    /** {@code L}. */
    public int maxBytes() {
        return maxBytes;
    }

    /** {@code b}. */
    public int segmentBytes() {
        return segmentBytes;
    }

    /** {@code R}. */
    public int rows() {
        return rows;
    }

    /** {@code W}. */
    public int width() {
        return width;
    }

    /** {@code T}. */
    public int candidates() {
        return candidates;
    }

    /** {@code G = ⌈L/b⌉}. */
    public int levels() {
        return levels;
    }

    /** {@code G·R·(W + 1)}. */
    public int stateLength() {
        return levels * rows * (width + 1);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HeavyHitterParameters p && p.epsilon.equals(epsilon) && p.maxBytes == maxBytes
                && p.segmentBytes == segmentBytes && p.rows == rows && p.width == width && p.candidates == candidates
                && p.payloadBits == payloadBits;
    }

    @Override
    public int hashCode() {
        return Objects.hash(epsilon, maxBytes, segmentBytes, rows, width, candidates, payloadBits);
    }

    @Override
    public String toString() {
        return "HeavyHitterParameters[epsilon=" + epsilon.value() + ", L=" + maxBytes + ", b=" + segmentBytes
                + ", R=" + rows + ", W=" + width + ", T=" + candidates + ", t=" + payloadBits + "]";
    }
}
