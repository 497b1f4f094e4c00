package io.privacygateway.topology.answers;

import io.privacygateway.schemas.avro.WindowAnswer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * The key of one published answer in the {@link AnswersStore}: workload id, window start, horizon and workload
 * version, encoded so that the store's byte order (RocksDB's) is the order of (workload, window start, horizon,
 * version). A range of window starts of one workload is then one contiguous key range.
 *
 * <p>Layout: the workload id in UTF-8 (ids match {@code [A-Za-z0-9._-]{1,100}}, so never contain {@code 0x00}),
 * {@code 0x00}, the window start as 8 big-endian bytes with the sign bit flipped (so negative times sort first), the
 * horizon in UTF-8 (empty for a single window) and {@code 0x00}, the version as 4 big-endian bytes.
 *
 * <p>One key per (workload, version, horizon, window): the gateway releases each such window once, so the store
 * holds each published answer once, and a duplicate written under at-least-once processing replaces its twin.
 *
 * @param workload the workload id
 * @param windowStart the window start (epoch milliseconds)
 * @param horizon the horizon ({@code ""} for a single window)
 * @param version the workload version
 */
public record AnswerKey(String workload, long windowStart, String horizon, int version) {
    /** The longest encoded key: a 100-character id, 0x00, 8 bytes, a horizon of at most 200 bytes, 0x00, 4 bytes. */
    public static final int MAX_HORIZON_BYTES = 200;

    public AnswerKey {
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(horizon, "horizon");
        if (workload.isEmpty() || workload.indexOf('\0') >= 0 || horizon.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("a workload id must be non-empty; ids and horizons contain no NUL");
        }
        if (horizon.getBytes(StandardCharsets.UTF_8).length > MAX_HORIZON_BYTES) {
            throw new IllegalArgumentException("horizon longer than " + MAX_HORIZON_BYTES + " bytes");
        }
    }

    /** The key of an answer record. */
    public static AnswerKey of(WindowAnswer a) {
        return new AnswerKey(a.getWorkloadId(), a.getWindowStart().toEpochMilli(),
                a.getHorizon() == null ? "" : a.getHorizon(), a.getWorkloadVersion());
    }

    /** The encoded key. */
    public byte[] encode() {
        byte[] id = workload.getBytes(StandardCharsets.UTF_8);
        byte[] h = horizon.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(id.length + 1 + 8 + h.length + 1 + 4).put(id).put((byte) 0)
                .putLong(windowStart ^ Long.MIN_VALUE).put(h).put((byte) 0).putInt(version).array();
    }

    /**
     * Decodes a key made by {@link #encode()}.
     *
     * @throws IllegalArgumentException if {@code bytes} is not such a key
     */
    public static AnswerKey decode(byte[] bytes) {
        int zero = indexOf(bytes, 0);
        if (zero < 1 || bytes.length < zero + 1 + 8 + 1 + 4 || bytes[bytes.length - 5] != 0) {
            throw new IllegalArgumentException("not an answer key");
        }
        String id = new String(bytes, 0, zero, StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.wrap(bytes);
        long start = b.getLong(zero + 1) ^ Long.MIN_VALUE;
        String h = new String(bytes, zero + 9, bytes.length - 5 - (zero + 9), StandardCharsets.UTF_8);
        int version = b.getInt(bytes.length - 4);
        AnswerKey k = new AnswerKey(id, start, h, version);
        if (!Arrays.equals(k.encode(), bytes)) {
            throw new IllegalArgumentException("not an answer key");
        }
        return k;
    }

    /** The smallest key of {@code workload} whose window starts at or after {@code windowStart}. */
    public static byte[] lowerBound(String workload, long windowStart) {
        byte[] id = workload.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(id.length + 9).put(id).put((byte) 0).putLong(windowStart ^ Long.MIN_VALUE).array();
    }

    private static int indexOf(byte[] b, int v) {
        for (int i = 0; i < b.length; i++) {
            if (b[i] == v) {
                return i;
            }
        }
        return -1;
    }
}
