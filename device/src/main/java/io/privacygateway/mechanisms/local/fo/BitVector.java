package io.privacygateway.mechanisms.local.fo;

/**
 * The bit-vector payload of the unary oracles ({@link OptimizedUnaryEncoding}, {@link SubsetSelection}): {@code k}
 * bits in {@code ⌈k/8⌉} bytes, bit {@code x} is bit {@code x mod 8} (least significant first) of byte
 * {@code ⌊x/8⌋}, and the padding bits of the last byte are 0.
 */
final class BitVector {
    private BitVector() {}

    /** {@code ⌈bits/8⌉}: the payload length of a vector of {@code bits >= 1} bits. */
    static int bytesFor(int bits) {
        return (bits + 7) >>> 3;
    }

    /** The padding bits of the last byte of a vector of {@code bits >= 1} bits (0 when {@code bits} is a multiple of 8). */
    static int padMask(int bits) {
        int used = bits & 7;
        return used == 0 ? 0 : (0xFF << used) & 0xFF;
    }

    /**
     * Whether {@code payload} has the layout: non-null, exactly {@code bytes} long ({@code bytes >= 1}), and no padding
     * bit of its last byte set ({@code padMask} from {@link #padMask}). Says nothing about how many bits are set.
     */
    static boolean hasLayout(byte[] payload, int bytes, int padMask) {
        return payload != null && payload.length == bytes && (payload[bytes - 1] & padMask) == 0;
    }

    /** Sets bit {@code x} ({@code 0 <= x < 8·bits.length}). */
    static void set(byte[] bits, int x) {
        bits[x >>> 3] |= (byte) (1 << (x & 7));
    }

    /** Whether bit {@code x} ({@code 0 <= x < 8·bits.length}) is set. */
    static boolean isSet(byte[] bits, int x) {
        return ((bits[x >>> 3] >>> (x & 7)) & 1) != 0;
    }

    /**
     * Adds 1 to {@code state[x]} for every set bit {@code x} of {@code payload}: the support counts of one report.
     * Precondition: every set bit indexes {@code state} (true for a payload with {@link #hasLayout the layout} of a
     * {@code state.length}-bit vector).
     */
    static void addSetBits(byte[] payload, long[] state) {
        for (int i = 0; i < payload.length; i++) {
            int b = payload[i] & 0xFF;
            while (b != 0) {
                state[(i << 3) + Integer.numberOfTrailingZeros(b)]++;
                b &= b - 1;
            }
        }
    }
}
