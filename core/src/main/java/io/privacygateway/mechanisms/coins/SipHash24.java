package io.privacygateway.mechanisms.coins;

/**
 * SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input PRF", 2012): 128-bit key,
 * 64-bit output, 2 compression and 4 finalization rounds. Key words and message words are
 * little-endian, as in the reference implementation; tested against its vectors.
 *
 * <p>Used with a <em>public</em> key to derive public coins ({@link PublicCoins}): the requirement is
 * that the output is a fixed, well-mixed function of the report coordinates, not secrecy.
 */
public final class SipHash24 {
    private final long k0;
    private final long k1;

    public SipHash24(long k0, long k1) {
        this.k0 = k0;
        this.k1 = k1;
    }

    /** The key from 16 bytes (bytes 0–7 little-endian → k0, bytes 8–15 → k1). */
    public static SipHash24 ofKeyBytes(byte[] key) {
        if (key.length != 16) {
            throw new IllegalArgumentException("SipHash key must be 16 bytes, got " + key.length);
        }
        return new SipHash24(littleEndian(key, 0, 8), littleEndian(key, 8, 8));
    }

    static long littleEndian(byte[] b, int off, int len) {
        long w = 0;
        for (int i = 0; i < len; i++) {
            w |= (b[off + i] & 0xFFL) << (8 * i);
        }
        return w;
    }

    /** The hash of a byte message. */
    public long hash(byte[] message) {
        State s = start();
        for (byte b : message) {
            s.update(b);
        }
        return s.finish();
    }

    /** Begins an incremental hash. */
    public State start() {
        return new State(k0, k1);
    }

    /** An incremental SipHash-2-4 computation; feed bytes in message order, then {@link #finish()}. */
    public static final class State {
        private long v0;
        private long v1;
        private long v2;
        private long v3;
        private long word;
        private int wordBytes;
        private long length;

        State(long k0, long k1) {
            v0 = k0 ^ 0x736f6d6570736575L;
            v1 = k1 ^ 0x646f72616e646f6dL;
            v2 = k0 ^ 0x6c7967656e657261L;
            v3 = k1 ^ 0x7465646279746573L;
        }

        /** An independent copy of this computation (to hash many messages that share a prefix). */
        public State copy() {
            State c = new State(0, 0);
            c.v0 = v0;
            c.v1 = v1;
            c.v2 = v2;
            c.v3 = v3;
            c.word = word;
            c.wordBytes = wordBytes;
            c.length = length;
            return c;
        }

        public State update(byte b) {
            word |= (b & 0xFFL) << (8 * wordBytes);
            length++;
            if (++wordBytes == 8) {
                compress(word);
                word = 0;
                wordBytes = 0;
            }
            return this;
        }

        /** Feeds a 64-bit value as 8 little-endian bytes. */
        public State updateLong(long x) {
            return append(x, 8);
        }

        /** Feeds a 32-bit value as 4 little-endian bytes. */
        public State updateInt(int x) {
            return append(x & 0xFFFFFFFFL, 4);
        }

        /**
         * Feeds the low {@code count} bytes of {@code x} (1 to 8), least significant first; the bytes
         * above {@code count} must be zero. Equivalent to {@code count} calls of {@link #update(byte)},
         * without the per-byte work.
         */
        public State append(long x, int count) {
            length += count;
            int free = 8 - wordBytes;
            if (count < free) {
                word |= x << (8 * wordBytes);
                wordBytes += count;
                return this;
            }
            compress(wordBytes == 0 ? x : word | (x << (8 * wordBytes)));
            int rest = count - free;
            word = rest == 0 ? 0 : x >>> (8 * free);
            wordBytes = rest;
            return this;
        }

        private void compress(long m) {
            v3 ^= m;
            round();
            round();
            v0 ^= m;
        }

        public long finish() {
            long b = ((length & 0xFFL) << 56) | word;
            compress(b);
            v2 ^= 0xFF;
            round();
            round();
            round();
            round();
            return v0 ^ v1 ^ v2 ^ v3;
        }

        private void round() {
            v0 += v1;
            v1 = Long.rotateLeft(v1, 13);
            v1 ^= v0;
            v0 = Long.rotateLeft(v0, 32);
            v2 += v3;
            v3 = Long.rotateLeft(v3, 16);
            v3 ^= v2;
            v0 += v3;
            v3 = Long.rotateLeft(v3, 21);
            v3 ^= v0;
            v2 += v1;
            v1 = Long.rotateLeft(v1, 17);
            v1 ^= v2;
            v2 = Long.rotateLeft(v2, 32);
        }
    }
}
