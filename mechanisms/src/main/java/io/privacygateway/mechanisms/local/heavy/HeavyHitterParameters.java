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
 *   <li>{@code candidates} {@code T ∈ [1, 1024]}: the most prefixes the decoder keeps per level.</li>
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
    private final int levels;

    public HeavyHitterParameters(Epsilon epsilon, int maxBytes, int segmentBytes, int rows, int width, int candidates) {
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
     *       or more rows let the collision-aware decoder drop the colliding row only); if still {@code R = 0},
     *       {@code R = 1} and {@code W} the largest power of two with {@code G·(W + 1) <= 2^15};</li>
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
        while (r == 0) {
            r = 1;
            w >>= 1;
            if ((long) g * (w + 1) > DEFAULT_STATE_BUDGET) {
                r = 0;
            }
        }
        return new HeavyHitterParameters(epsilon, maxBytes, b, r, w, 32);
    }

    public Epsilon epsilon() {
        return epsilon;
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
                && p.segmentBytes == segmentBytes && p.rows == rows && p.width == width && p.candidates == candidates;
    }

    @Override
    public int hashCode() {
        return Objects.hash(epsilon, maxBytes, segmentBytes, rows, width, candidates);
    }

    @Override
    public String toString() {
        return "HeavyHitterParameters[epsilon=" + epsilon.value() + ", L=" + maxBytes + ", b=" + segmentBytes
                + ", R=" + rows + ", W=" + width + ", T=" + candidates + "]";
    }
}
