package io.privacygateway.mechanisms.coins;

import io.privacygateway.mechanisms.codec.Hex;
import java.nio.charset.StandardCharsets;

/**
 * Public coins of the wire format, version 1 ({@code docs/wire-format.md} §"Public coins").
 *
 * <p>For a workload with content hash {@code H} (32 bytes), the SipHash-2-4 key is {@code H[0..16)}.
 * A report with coordinates {@code (deviceId, period, sequence)} has the base word
 * <pre>base = SipHash-2-4(key, UTF-8(deviceId) ‖ int64_le(period) ‖ int32_le(sequence))</pre>
 * and public stream {@code s} (a level index or a purpose code, see {@link Stream}) is the
 * {@link SplitMix64} generator seeded with {@code base XOR mix64((s + 1) · 0x9E3779B97F4A7C15)}.
 *
 * <p>Privacy does not depend on these coins being secret: every mechanism that uses them is ε-LDP for
 * every value of the coins (see each mechanism). They only need to be fixed before the device sees its
 * value, which the derivation guarantees, and reproducible by the server.
 */
public final class PublicCoins {
    /** Well-known stream numbers. Levels of the Gaussian-sign randomizer use streams 0, 1, 2, .... */
    public static final class Stream {
        /** OLH: the hash function of the report. */
        public static final int OLH_HASH = 0x100;
        /** Tree mechanism: the tree level a report describes. */
        public static final int TREE_LEVEL = 0x200;
        /** Tree mechanism: the hash function of the level's OLH, when the level uses OLH. */
        public static final int TREE_HASH = 0x201;
        /**
         * Open-domain heavy hitters ({@code local.heavy.HeavyHitterProtocol}): the report's prefix-tree level, sketch
         * row and Hadamard index, drawn in that order.
         */
        public static final int HEAVY_HITTER = 0x300;
        /**
         * Vector means over the ℓ2 ball ({@code local.vector.BallCandidates}): candidate {@code j} is drawn from
         * stream {@code VECTOR_CANDIDATE + j}; streams {@code 0x400..0x4FF} are reserved for it.
         */
        public static final int VECTOR_CANDIDATE = 0x400;
        /** Vector means over a box ({@code local.vector.BoxCoordinates}): the report's sampled coordinates. */
        public static final int VECTOR_COORDINATES = 0x500;

        private Stream() {}
    }

    private final SipHash24 sip;

    /** Coins for the workload with this lower-case hex SHA-256 content hash. */
    public PublicCoins(String contentHashHex) {
        byte[] h = Hex.parse(contentHashHex);
        if (h.length != 32) {
            throw new IllegalArgumentException("content hash must be 32 bytes of hex, got " + h.length + " bytes");
        }
        byte[] key = new byte[16];
        System.arraycopy(h, 0, key, 0, 16);
        this.sip = SipHash24.ofKeyBytes(key);
    }

    /** The base word of a report. */
    public long base(ReportCoordinates c) {
        return base(c.deviceId(), c.period(), c.sequence());
    }

    /** The base word of a report (no allocation for ASCII device ids). */
    public long base(String deviceId, long period, int sequence) {
        SipHash24.State s = sip.start();
        int n = deviceId.length();
        boolean ascii = true;
        for (int i = 0; i < n && ascii; i++) {
            ascii = deviceId.charAt(i) < 0x80;
        }
        if (ascii) {
            int i = 0;
            for (; i + 8 <= n; i += 8) {
                long w = 0;
                for (int k = 7; k >= 0; k--) {
                    w = (w << 8) | deviceId.charAt(i + k);
                }
                s.append(w, 8);
            }
            if (i < n) {
                long w = 0;
                for (int k = n - 1; k >= i; k--) {
                    w = (w << 8) | deviceId.charAt(k);
                }
                s.append(w, n - i);
            }
        } else {
            for (byte b : deviceId.getBytes(StandardCharsets.UTF_8)) {
                s.update(b);
            }
        }
        return s.updateLong(period).updateInt(sequence).finish();
    }

    /** The seed of public stream {@code stream} of a report with this base word. */
    public static long streamSeed(long base, int stream) {
        return base ^ SplitMix64.mix64((stream + 1L) * SplitMix64.GOLDEN);
    }

    /** A fresh generator for public stream {@code stream}. */
    public static SplitMix64 stream(long base, int stream) {
        return new SplitMix64(streamSeed(base, stream));
    }
}
