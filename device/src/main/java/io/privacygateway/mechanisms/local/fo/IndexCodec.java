package io.privacygateway.mechanisms.local.fo;

/**
 * Fixed-width unsigned big-endian encoding of an index in {@code [0, range)}: 1 byte for
 * {@code range <= 2^8}, 2 for {@code <= 2^16}, 3 for {@code <= 2^24}, 4 otherwise
 * ({@code range <= 2^31 − 1}).
 */
final class IndexCodec {
    private IndexCodec() {}

    static int widthFor(long range) {
        if (range <= 0 || range > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("index range must be in [1, 2^31-1], got " + range);
        }
        if (range <= 1L << 8) {
            return 1;
        }
        if (range <= 1L << 16) {
            return 2;
        }
        if (range <= 1L << 24) {
            return 3;
        }
        return 4;
    }

    static byte[] encode(int value, int width) {
        byte[] out = new byte[width];
        for (int i = width - 1; i >= 0; i--) {
            out[i] = (byte) value;
            value >>>= 8;
        }
        return out;
    }

    /** The decoded index, or {@code -1} if the payload has the wrong length or the index is {@code >= range}. */
    static int decode(byte[] payload, int width, long range) {
        if (payload == null || payload.length != width) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < width; i++) {
            v = (v << 8) | (payload[i] & 0xFFL);
        }
        return v < range ? (int) v : -1;
    }
}
