package io.privacygateway.topology.state;

import java.nio.ByteBuffer;

/**
 * A shard's exact partial aggregate of one workload window: the protocol's integer state (fixed-point
 * sums or counts) and the number of reports. Merging partials is element-wise addition, so the final
 * aggregate does not depend on arrival order or on how reports were spread over shards.
 *
 * <p>Binary form (big-endian): version byte 1, content hash (length-prefixed UTF-8), n (long), state
 * length (int), state (longs). Immutable apart from {@link #plus}, which returns a new value.
 */
public record PartialAggregate(String contentHash, long n, long[] state) {
    private static final byte VERSION = 1;

    public PartialAggregate {
        state = state.clone();
    }

    /** An empty aggregate for a protocol with {@code length} counters. */
    public static PartialAggregate empty(String contentHash, int length) {
        return new PartialAggregate(contentHash, 0, new long[length]);
    }

    @Override
    public long[] state() {
        return state.clone();
    }

    /** The element-wise sum; {@link Math#addExact} so an overflow can never pass silently. */
    public PartialAggregate plus(PartialAggregate o) {
        if (!contentHash.equals(o.contentHash) || state.length != o.state.length) {
            throw new IllegalArgumentException("cannot merge aggregates of different workloads or protocols");
        }
        long[] s = state.clone();
        for (int i = 0; i < s.length; i++) {
            s[i] = Math.addExact(s[i], o.state[i]);
        }
        return new PartialAggregate(contentHash, Math.addExact(n, o.n), s);
    }

    public byte[] toBytes() {
        byte[] h = contentHash.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(1 + 4 + h.length + 8 + 4 + 8 * state.length);
        b.put(VERSION).putInt(h.length).put(h).putLong(n).putInt(state.length);
        for (long v : state) {
            b.putLong(v);
        }
        return b.array();
    }

    public static PartialAggregate fromBytes(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        byte v = b.get();
        if (v != VERSION) {
            throw new IllegalStateException("unknown partial aggregate version " + v);
        }
        byte[] h = new byte[b.getInt()];
        b.get(h);
        long n = b.getLong();
        long[] s = new long[b.getInt()];
        for (int i = 0; i < s.length; i++) {
            s[i] = b.getLong();
        }
        return new PartialAggregate(new String(h, java.nio.charset.StandardCharsets.UTF_8), n, s);
    }
}
