package io.privacygateway.mechanisms.codec;

import java.io.ByteArrayOutputStream;

/**
 * Unsigned LEB128 varints (7 bits per byte, low groups first, high bit = more) and the zigzag map for signed
 * values: the binary form of the state the gateway keeps for the mechanisms (running totals, marginal cells). The
 * writer always writes the minimal encoding; {@link Reader} refuses anything else, so every value has exactly one
 * encoding and a decoder never reads more than it was given.
 */
public final class Varints {
    /** The longest encoding of a 64-bit value. */
    public static final int MAX_BYTES = 10;

    private Varints() {}

    /** Writes {@code v} (read as unsigned) in its minimal encoding. */
    public static void put(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    /** Maps signed to unsigned so that small magnitudes have short encodings. */
    public static long zigzag(long v) {
        return (v << 1) ^ (v >> 63);
    }

    /** The inverse of {@link #zigzag}. */
    public static long unzigzag(long z) {
        return (z >>> 1) ^ -(z & 1);
    }

    /**
     * A bounded reader over a byte array: every read checks what is left and fails with
     * {@link IllegalArgumentException} naming {@code what} and the byte position, never reading past the end.
     */
    public static final class Reader {
        private final byte[] b;
        private final String what;
        private int pos;

        /** A reader of {@code b}; {@code what} names the format in error messages. */
        public Reader(byte[] b, String what) {
            this.b = b;
            this.what = what;
        }

        /** The position of the next byte. */
        public int position() {
            return pos;
        }

        /** The bytes not read yet. */
        public int remaining() {
            return b.length - pos;
        }

        /** One unsigned byte. */
        public int u8() {
            if (pos >= b.length) {
                throw new IllegalArgumentException(what + ": truncated at byte " + pos);
            }
            return b[pos++] & 0xFF;
        }

        /**
         * A minimal varint of at most {@code maxBytes} bytes ({@code 9}: a non-negative value below 2^63;
         * {@value #MAX_BYTES}: any 64-bit value).
         */
        public long varint(int maxBytes) {
            if (maxBytes < 1 || maxBytes > MAX_BYTES) {
                throw new IllegalArgumentException("maxBytes must lie in [1, " + MAX_BYTES + "], got " + maxBytes);
            }
            long v = 0;
            for (int i = 0; i < maxBytes; i++) {
                int x = u8();
                long group = x & 0x7F;
                if (i == MAX_BYTES - 1 && (x & 0xFE) != 0) {
                    throw new IllegalArgumentException(what + ": varint beyond 64 bits at byte " + (pos - 1));
                }
                v |= group << (7 * i);
                if ((x & 0x80) == 0) {
                    if (i > 0 && group == 0) {
                        throw new IllegalArgumentException(what + ": non-minimal varint at byte " + (pos - 1));
                    }
                    return v;
                }
            }
            throw new IllegalArgumentException(what + ": varint longer than " + maxBytes + " bytes at byte "
                    + (pos - 1));
        }

        /** Fails unless every byte was read. */
        public void requireEnd() {
            if (pos != b.length) {
                throw new IllegalArgumentException(what + ": " + (b.length - pos) + " trailing bytes");
            }
        }
    }
}
