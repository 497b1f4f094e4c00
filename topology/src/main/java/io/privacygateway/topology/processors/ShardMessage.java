package io.privacygateway.topology.processors;

import io.privacygateway.topology.state.PartialAggregate;
import io.privacygateway.topology.state.WindowKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What a shard (an ingest task) tells the release step over the internal partials topic, keyed by
 * workload id: either the exact partial aggregate of a window it has closed, or its progress (every
 * window of the workload ending before {@code watermark − grace} is closed at this shard).
 *
 * <p>Binary form: version byte 1; kind byte (1 = partial, 2 = progress); source topic (length-prefixed
 * UTF-8); source partition (int); then for a partial the window key (length-prefixed UTF-8) and the
 * aggregate bytes, for progress the watermark (long).
 */
public record ShardMessage(Kind kind, String sourceTopic, int sourcePartition, WindowKey window,
        PartialAggregate partial, long watermark) {
    private static final byte VERSION = 1;

    /** Message kinds. */
    public enum Kind {
        PARTIAL,
        PROGRESS
    }

    public static ShardMessage partial(String topic, int partition, WindowKey window, PartialAggregate agg) {
        return new ShardMessage(Kind.PARTIAL, topic, partition, window, agg, Long.MIN_VALUE);
    }

    public static ShardMessage progress(String topic, int partition, long watermark) {
        return new ShardMessage(Kind.PROGRESS, topic, partition, null, null, watermark);
    }

    public byte[] toBytes() {
        byte[] t = sourceTopic.getBytes(StandardCharsets.UTF_8);
        if (kind == Kind.PROGRESS) {
            return ByteBuffer.allocate(2 + 4 + t.length + 4 + 8).put(VERSION).put((byte) 2).putInt(t.length).put(t)
                    .putInt(sourcePartition).putLong(watermark).array();
        }
        byte[] w = window.asString().getBytes(StandardCharsets.UTF_8);
        byte[] a = partial.toBytes();
        return ByteBuffer.allocate(2 + 4 + t.length + 4 + 4 + w.length + a.length).put(VERSION).put((byte) 1)
                .putInt(t.length).put(t).putInt(sourcePartition).putInt(w.length).put(w).put(a).array();
    }

    public static ShardMessage fromBytes(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        byte v = b.get();
        if (v != VERSION) {
            throw new IllegalStateException("unknown shard message version " + v);
        }
        byte kind = b.get();
        byte[] t = new byte[b.getInt()];
        b.get(t);
        String topic = new String(t, StandardCharsets.UTF_8);
        int partition = b.getInt();
        if (kind == 2) {
            return progress(topic, partition, b.getLong());
        }
        byte[] w = new byte[b.getInt()];
        b.get(w);
        byte[] rest = new byte[b.remaining()];
        b.get(rest);
        return partial(topic, partition, WindowKey.parse(new String(w, StandardCharsets.UTF_8)),
                PartialAggregate.fromBytes(rest));
    }
}
