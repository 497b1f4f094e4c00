package io.privacygateway.topology.state;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The exact aggregate of one workload window at one shard (or merged over shards): the protocol's integer
 * state (fixed-point sums or counts) and the number of reports. <b>Mutable</b>, so a report is added in place
 * ({@link #state()} is the live array); merging is element-wise {@link Math#addExact} addition, so the final
 * aggregate does not depend on arrival order or on how reports were spread over shards.
 *
 * <p>Binary form (big-endian): version byte 1, content hash (length-prefixed UTF-8, at most 128 bytes), n
 * (long), state length (int), state (longs). Decoding checks every length against the bytes present.
 */
public final class WindowAggregate {
    private static final byte VERSION = 1;
    /** The longest content hash an aggregate holds (UTF-8 bytes), enforced when written and when read. */
    static final int MAX_HASH_BYTES = 128;
    private final String contentHash;
    private long n;
    private final long[] state;

    public WindowAggregate(String contentHash, long n, long[] state) {
        this.contentHash = contentHash;
        this.n = n;
        this.state = state;
    }

    /** An empty aggregate of {@code length} counters. */
    public static WindowAggregate empty(String contentHash, int length) {
        return new WindowAggregate(contentHash, 0, new long[length]);
    }

    public String contentHash() {
        return contentHash;
    }

    public long n() {
        return n;
    }

    /** The live state (mutated in place by the protocol's {@code accumulate}). */
    public long[] state() {
        return state;
    }

    /** Counts one more accepted report (after its payload was added to {@link #state()}). */
    public void countOne() {
        n = Math.addExact(n, 1);
    }

    /** Adds {@code o} into this aggregate. */
    public void add(WindowAggregate o) {
        if (!contentHash.equals(o.contentHash) || state.length != o.state.length) {
            throw new IllegalArgumentException("cannot merge aggregates of different workloads or protocols");
        }
        for (int i = 0; i < state.length; i++) {
            state[i] = Math.addExact(state[i], o.state[i]);
        }
        n = Math.addExact(n, o.n);
    }

    /** The serialized size in bytes. */
    public int sizeInBytes() {
        return 1 + 4 + contentHash.length() + 8 + 4 + 8 * state.length;
    }

    /**
     * The binary form.
     *
     * @throws IllegalStateException if the content hash is longer than {@link #fromBytes} accepts
     */
    public byte[] toBytes() {
        byte[] h = contentHash.getBytes(StandardCharsets.UTF_8);
        if (h.length > MAX_HASH_BYTES) {
            throw new IllegalStateException("a window aggregate's content hash is longer than " + MAX_HASH_BYTES);
        }
        ByteBuffer b = ByteBuffer.allocate(1 + 4 + h.length + 8 + 4 + 8 * state.length);
        b.put(VERSION).putInt(h.length).put(h).putLong(n).putInt(state.length);
        for (long v : state) {
            b.putLong(v);
        }
        return b.array();
    }

    /**
     * Decodes an aggregate.
     *
     * @throws IllegalArgumentException if the bytes are not a well-formed aggregate
     */
    public static WindowAggregate fromBytes(byte[] bytes) {
        try {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            byte v = b.get();
            if (v != VERSION) {
                throw new IllegalArgumentException("unknown window aggregate version " + v);
            }
            int hl = b.getInt();
            if (hl < 0 || hl > MAX_HASH_BYTES || hl > b.remaining()) {
                throw new IllegalArgumentException("bad content hash length " + hl);
            }
            byte[] h = new byte[hl];
            b.get(h);
            long n = b.getLong();
            int len = b.getInt();
            if (n < 0 || len < 0 || len != b.remaining() / 8 || b.remaining() % 8 != 0) {
                throw new IllegalArgumentException("bad aggregate header (n " + n + ", length " + len + ")");
            }
            long[] s = new long[len];
            for (int i = 0; i < len; i++) {
                s[i] = b.getLong();
            }
            return new WindowAggregate(new String(h, StandardCharsets.UTF_8), n, s);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("truncated window aggregate", e);
        }
    }
}
