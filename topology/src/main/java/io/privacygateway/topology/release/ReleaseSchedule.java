package io.privacygateway.topology.release;

import io.privacygateway.mechanisms.workload.Mode;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Which windows of one workload the release step answers, version by version: every window from a version's
 * activation on gets exactly one answer, whether or not any report arrived, until the version is replaced or
 * the workload deleted (the window containing that moment is the version's last). The schedule depends only on
 * registration times (public), never on the data, so whether an answer exists says nothing about whether any
 * one device took part. Immutable; the release processor keeps one per workload in a changelogged store.
 *
 * @param segments the versions in order; only the last may be open ({@code endStart == Long.MAX_VALUE})
 */
public record ReleaseSchedule(List<Segment> segments) {
    /** At most this many finished segments are kept (older ones are fully released). */
    static final int MAX_SEGMENTS = 16;

    public ReleaseSchedule {
        segments = List.copyOf(segments);
    }

    public static final ReleaseSchedule EMPTY = new ReleaseSchedule(List.of());

    /**
     * One version's windows: {@code [firstStart, endStart)} in steps of the window size, the next one to
     * release being {@code nextStart}.
     */
    public record Segment(String contentHash, Mode mode, long windowMillis, long firstStart, long endStart,
            long nextStart) {
        /** Whether every window of the segment has been released. */
        public boolean done() {
            return nextStart >= endStart;
        }

        /** Whether the window starting at {@code start} belongs to this segment and is not yet released. */
        public boolean pending(long start) {
            return start >= nextStart && start < endStart && Math.floorMod(start - firstStart, windowMillis) == 0;
        }

        Segment advanced() {
            return new Segment(contentHash, mode, windowMillis, firstStart, endStart, nextStart + windowMillis);
        }

        Segment endingAt(long end) {
            return new Segment(contentHash, mode, windowMillis, firstStart, Math.max(end, firstStart), nextStart);
        }
    }

    /** The segment of a version, or {@code null}. */
    public Segment segment(String contentHash) {
        for (Segment s : segments) {
            if (s.contentHash().equals(contentHash)) {
                return s;
            }
        }
        return null;
    }

    /** The last (current) segment, or {@code null}. */
    public Segment last() {
        return segments.isEmpty() ? null : segments.get(segments.size() - 1);
    }

    /**
     * The schedule after the registration changed to {@code contentHash} (null: deleted) at {@code since}: the
     * open segment ends with the window (of its own size) containing {@code since}; a new version's segment
     * starts with the window containing {@code since}.
     */
    public ReleaseSchedule registered(String contentHash, Mode mode, long windowMillis, long since) {
        Segment last = last();
        if (last != null && contentHash != null && last.contentHash().equals(contentHash)) {
            return this;
        }
        if (last == null && contentHash == null) {
            return this;
        }
        List<Segment> next = new ArrayList<>(segments);
        if (last != null && last.endStart() == Long.MAX_VALUE) {
            long end = Math.floorDiv(since, last.windowMillis()) * last.windowMillis() + last.windowMillis();
            next.set(next.size() - 1, last.endingAt(end));
        }
        if (contentHash != null && segment(contentHash) == null) {
            long first = Math.floorDiv(since, windowMillis) * windowMillis;
            next.add(new Segment(contentHash, mode, windowMillis, first, Long.MAX_VALUE, first));
        }
        while (next.size() > MAX_SEGMENTS && next.get(0).done()) {
            next.remove(0);
        }
        return new ReleaseSchedule(next);
    }

    /** The schedule with {@code s}'s next window released. */
    public ReleaseSchedule advance(Segment s) {
        List<Segment> next = new ArrayList<>(segments);
        next.set(next.indexOf(s), s.advanced());
        return new ReleaseSchedule(next);
    }

    public byte[] toBytes() {
        int size = 1 + 4;
        List<byte[]> hashes = new ArrayList<>();
        for (Segment s : segments) {
            byte[] h = s.contentHash().getBytes(StandardCharsets.UTF_8);
            hashes.add(h);
            size += 4 + h.length + 1 + 8 * 4;
        }
        ByteBuffer b = ByteBuffer.allocate(size).put((byte) 1).putInt(segments.size());
        for (int i = 0; i < segments.size(); i++) {
            Segment s = segments.get(i);
            b.putInt(hashes.get(i).length).put(hashes.get(i)).put(s.mode() == Mode.LOCAL ? (byte) 1 : (byte) 2)
                    .putLong(s.windowMillis()).putLong(s.firstStart()).putLong(s.endStart()).putLong(s.nextStart());
        }
        return b.array();
    }

    public static ReleaseSchedule fromBytes(byte[] bytes) {
        try {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            if (b.get() != 1) {
                throw new IllegalArgumentException("unknown schedule version");
            }
            int n = b.getInt();
            if (n < 0 || n > 1024) {
                throw new IllegalArgumentException("bad segment count " + n);
            }
            List<Segment> out = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int hl = b.getInt();
                if (hl < 0 || hl > 128) {
                    throw new IllegalArgumentException("bad hash length");
                }
                byte[] h = new byte[hl];
                b.get(h);
                Mode m = b.get() == 1 ? Mode.LOCAL : Mode.CENTRAL;
                out.add(new Segment(new String(h, StandardCharsets.UTF_8), m, b.getLong(), b.getLong(), b.getLong(),
                        b.getLong()));
            }
            return new ReleaseSchedule(out);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("truncated schedule", e);
        }
    }
}
