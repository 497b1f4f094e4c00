package io.privacygateway.topology.wire;

import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.topology.state.WindowAggregate;
import io.privacygateway.topology.state.WindowKey;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What a shard (an ingest task of one report-topic partition) tells the release step over the gateway's
 * internal partials topic, keyed by workload id: the exact {@link Partial} aggregate of a window it has
 * closed, or its {@link Progress} (every window of the workload closing at or before {@code watermark} is
 * closed at this shard).
 *
 * <p>The partials topic is a trust boundary (it carries exact, un-noised central counts): only the gateway's
 * principal may read or write it, and everything read from it is validated here — version, kind, mode,
 * partition, key shape and every length against the bytes present and against {@link #MAX_BYTES} — so a
 * malformed message is refused with {@link IllegalArgumentException} instead of crashing the release step or
 * driving an allocation.
 *
 * <p>Binary form (big-endian): version byte 2; kind byte (1 partial, 2 progress); mode byte (1 local, 2
 * central); source partition (int); then a partial: window key (length-prefixed UTF-8) and aggregate bytes
 * (the rest); a progress: the watermark (long).
 */
public sealed interface ShardMessage permits ShardMessage.Partial, ShardMessage.Progress {
    /** The largest message accepted (the size check of registration keeps real partials far below). */
    int MAX_BYTES = 16 << 20;
    byte VERSION = 2;

    /** The report mode of the shard that sent it. */
    Mode mode();

    /** The report-topic partition of the shard that sent it. */
    int sourcePartition();

    byte[] toBytes();

    /** The exact aggregate of a window closed at a shard. */
    record Partial(Mode mode, int sourcePartition, WindowKey window, WindowAggregate aggregate) implements ShardMessage {
        @Override
        public byte[] toBytes() {
            byte[] w = window.asString().getBytes(StandardCharsets.UTF_8);
            byte[] a = aggregate.toBytes();
            return ByteBuffer.allocate(7 + 4 + w.length + a.length).put(VERSION).put((byte) 1).put(modeByte(mode))
                    .putInt(sourcePartition).putInt(w.length).put(w).put(a).array();
        }
    }

    /** A shard's watermark: every window closing at or before it is closed at that shard. */
    record Progress(Mode mode, int sourcePartition, long watermark) implements ShardMessage {
        @Override
        public byte[] toBytes() {
            return ByteBuffer.allocate(7 + 8).put(VERSION).put((byte) 2).put(modeByte(mode)).putInt(sourcePartition)
                    .putLong(watermark).array();
        }
    }

    private static byte modeByte(Mode m) {
        return m == Mode.LOCAL ? (byte) 1 : (byte) 2;
    }

    /**
     * Decodes and validates a message.
     *
     * @param maxPartition partitions of the source topic are {@code [0, maxPartition)}
     * @throws IllegalArgumentException if the bytes are not a valid message
     */
    static ShardMessage fromBytes(byte[] bytes, int maxPartition) {
        if (bytes == null || bytes.length < 7 || bytes.length > MAX_BYTES) {
            throw new IllegalArgumentException("bad shard message size " + (bytes == null ? -1 : bytes.length));
        }
        try {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            byte v = b.get();
            if (v != VERSION) {
                throw new IllegalArgumentException("unknown shard message version " + v);
            }
            byte kind = b.get();
            byte m = b.get();
            Mode mode = switch (m) {
                case 1 -> Mode.LOCAL;
                case 2 -> Mode.CENTRAL;
                default -> throw new IllegalArgumentException("unknown mode " + m);
            };
            int partition = b.getInt();
            if (partition < 0 || partition >= maxPartition) {
                throw new IllegalArgumentException("partition " + partition + " outside [0, " + maxPartition + ")");
            }
            if (kind == 2) {
                if (b.remaining() != 8) {
                    throw new IllegalArgumentException("bad progress length");
                }
                return new Progress(mode, partition, b.getLong());
            }
            if (kind != 1) {
                throw new IllegalArgumentException("unknown kind " + kind);
            }
            int wl = b.getInt();
            if (wl <= 0 || wl > 512 || wl > b.remaining()) {
                throw new IllegalArgumentException("bad window key length " + wl);
            }
            byte[] w = new byte[wl];
            b.get(w);
            byte[] rest = new byte[b.remaining()];
            b.get(rest);
            WindowKey key = WindowKey.parse(new String(w, StandardCharsets.UTF_8));
            WindowAggregate agg = WindowAggregate.fromBytes(rest);
            if (!agg.contentHash().equals(key.contentHash())) {
                throw new IllegalArgumentException("aggregate and window key name different versions");
            }
            return new Partial(mode, partition, key, agg);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("truncated shard message", e);
        }
    }
}
