package io.privacygateway.topology.release;

import io.privacygateway.mechanisms.workload.Mode;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Which windows of one workload the release step answers, version by version: every window from a version's
 * activation on gets exactly one answer, whether or not any report arrived, until the version is replaced or
 * the workload deleted (the window containing that moment is the version's last). A version registered again
 * (after a deletion, or after another version) gets a new segment from the window containing its new
 * activation (or, if the version's previous segment still covers that window, from the window after it, the
 * earlier segment continuing where they touch), so every window in which the gateway admits its reports is
 * answered exactly once. The schedule depends only on registration times (public), never on the data, so
 * whether an answer exists says nothing about whether any one device took part. Immutable; the release
 * processor keeps one per workload in a changelogged store.
 *
 * @param segments the versions' runs in order; only the last may be open ({@code endStart == Long.MAX_VALUE}); two
 *     segments of one version never share a window
 * @param applied the {@linkplain io.privacygateway.topology.workload.Registration#storeValue() store value} of the
 *     last registration change applied to this schedule, or {@code ""} if not known
 */
public record ReleaseSchedule(List<Segment> segments, String applied) {
    /** At most this many finished segments are kept (older ones are fully released). */
    static final int MAX_SEGMENTS = 16;
    /**
     * The most segments a schedule holds, enforced when one is built (so when it is written) and when it is read.
     * Registration keeps far fewer unfinished ({@code WorkloadCatalog.MAX_OPEN_VERSIONS}); only a release backlog of
     * hundreds of versions could reach it, and then the oldest unfinished segments are given up (counted and
     * logged by the release step) rather than a value written that could not be read back.
     */
    public static final int MAX_STORED = 1024;
    /** The longest content hash a segment holds (UTF-8 bytes). */
    static final int MAX_HASH_BYTES = 128;
    /** The longest applied-change marker (UTF-8 bytes). */
    static final int MAX_APPLIED_BYTES = 512;

    /** @throws IllegalArgumentException if the schedule exceeds a bound its decoder enforces */
    public ReleaseSchedule {
        segments = List.copyOf(segments);
        Objects.requireNonNull(applied, "applied");
        if (segments.size() > MAX_STORED) {
            throw new IllegalArgumentException("a release schedule holds at most " + MAX_STORED + " segments, not "
                    + segments.size());
        }
        if (applied.getBytes(StandardCharsets.UTF_8).length > MAX_APPLIED_BYTES) {
            throw new IllegalArgumentException("applied-change marker longer than " + MAX_APPLIED_BYTES + " bytes");
        }
    }

    public ReleaseSchedule(List<Segment> segments) {
        this(segments, "");
    }

    public static final ReleaseSchedule EMPTY = new ReleaseSchedule(List.of());

    /**
     * One run of a version's windows: {@code [firstStart, endStart)} in steps of the window size, the next one to
     * release being {@code nextStart}. A segment is identified by its content hash and first start.
     */
    public record Segment(String contentHash, Mode mode, long windowMillis, long firstStart, long endStart,
            long nextStart) {
        /** @throws IllegalArgumentException if the hash is longer than the decoder accepts or the size not positive */
        public Segment {
            if (contentHash.getBytes(StandardCharsets.UTF_8).length > MAX_HASH_BYTES || windowMillis <= 0) {
                throw new IllegalArgumentException("bad schedule segment (hash length, window size)");
            }
        }

        /** Whether every window of the segment has been released. */
        public boolean done() {
            return nextStart >= endStart;
        }

        /** Whether the segment has no end yet (its version is the current one). */
        public boolean open() {
            return endStart == Long.MAX_VALUE;
        }

        /** Whether the window starting at {@code start} belongs to this segment and is not yet released. */
        public boolean pending(long start) {
            return start >= nextStart && start < endStart && Math.floorMod(start - firstStart, windowMillis) == 0;
        }

        /** Whether {@code start} lies in this segment's range (released or not). */
        public boolean covers(long start) {
            return start >= firstStart && start < endStart;
        }

        /** Whether {@code o} is this segment at another stage (same version, same first window). */
        public boolean sameRun(Segment o) {
            return o != null && contentHash.equals(o.contentHash) && firstStart == o.firstStart;
        }

        Segment advanced() {
            return new Segment(contentHash, mode, windowMillis, firstStart, endStart, nextStart + windowMillis);
        }

        Segment endingAt(long end) {
            return new Segment(contentHash, mode, windowMillis, firstStart, Math.max(end, firstStart), nextStart);
        }

        Segment reopened() {
            return new Segment(contentHash, mode, windowMillis, firstStart, Long.MAX_VALUE, nextStart);
        }
    }

    /** The latest segment of a version, or {@code null}. */
    public Segment segment(String contentHash) {
        for (int i = segments.size() - 1; i >= 0; i--) {
            if (segments.get(i).contentHash().equals(contentHash)) {
                return segments.get(i);
            }
        }
        return null;
    }

    /** The segment of a version whose range contains the window starting at {@code start}, or {@code null}. */
    public Segment segment(String contentHash, long start) {
        for (Segment s : segments) {
            if (s.contentHash().equals(contentHash) && s.covers(start)) {
                return s;
            }
        }
        return null;
    }

    /** The last (current) segment, or {@code null}. */
    public Segment last() {
        return segments.isEmpty() ? null : segments.get(segments.size() - 1);
    }

    /** This schedule, recording {@code storeValue} as the last registration change applied. */
    public ReleaseSchedule withApplied(String storeValue) {
        return storeValue.equals(applied) ? this : new ReleaseSchedule(segments, storeValue);
    }

    /**
     * The schedule after the registration changed to {@code contentHash} (null: deleted) at {@code since}: the
     * open segment ends with the window (of its own size) containing {@code since}; the version's new segment
     * starts with the window containing {@code since}, or after the version's earlier segments if one still
     * covers that window (a segment of the same version that ends exactly there is reopened instead).
     * Registering the open segment's version again changes nothing.
     */
    public ReleaseSchedule registered(String contentHash, Mode mode, long windowMillis, long since) {
        Segment last = last();
        boolean open = last != null && last.open();
        if (open && contentHash != null && last.contentHash().equals(contentHash)) {
            return this;
        }
        if (!open && contentHash == null) {
            return this;
        }
        List<Segment> next = new ArrayList<>(segments);
        if (open) {
            long end = Math.floorDiv(since, last.windowMillis()) * last.windowMillis() + last.windowMillis();
            next.set(next.size() - 1, last.endingAt(end));
        }
        if (contentHash != null) {
            long first = Math.floorDiv(since, windowMillis) * windowMillis;
            for (Segment s : next) {
                if (s.contentHash().equals(contentHash)) {
                    first = Math.max(first, s.endStart());
                }
            }
            Segment tail = next.isEmpty() ? null : next.get(next.size() - 1);
            if (tail != null && tail.contentHash().equals(contentHash) && tail.endStart() == first) {
                next.set(next.size() - 1, tail.reopened());
            } else {
                next.add(new Segment(contentHash, mode, windowMillis, first, Long.MAX_VALUE, first));
            }
        }
        return new ReleaseSchedule(compacted(next), applied);
    }

    /**
     * The segments without the oldest finished ones beyond {@link #MAX_SEGMENTS}, and, if still more than
     * {@link #MAX_STORED}, without the oldest (unfinished) ones beyond it; the last (current) segment always stays.
     */
    private static List<Segment> compacted(List<Segment> segments) {
        List<Segment> next = new ArrayList<>(segments);
        int done = 0;
        for (Segment s : next) {
            done += s.done() ? 1 : 0;
        }
        for (int i = 0; i < next.size() - 1 && (done > MAX_SEGMENTS || next.size() > MAX_STORED); ) {
            if (next.get(i).done()) {
                next.remove(i);
                done--;
            } else {
                i++;
            }
        }
        while (next.size() > MAX_STORED) {
            next.remove(0);
        }
        return next;
    }

    /** The schedule with {@code s}'s next window released. */
    public ReleaseSchedule advance(Segment s) {
        List<Segment> next = new ArrayList<>(segments);
        next.set(next.indexOf(s), s.advanced());
        return new ReleaseSchedule(next, applied);
    }

    public byte[] toBytes() {
        byte[] mark = applied.getBytes(StandardCharsets.UTF_8);
        int size = 1 + 4 + 4 + mark.length;
        List<byte[]> hashes = new ArrayList<>();
        for (Segment s : segments) {
            byte[] h = s.contentHash().getBytes(StandardCharsets.UTF_8);
            hashes.add(h);
            size += 4 + h.length + 1 + 8 * 4;
        }
        ByteBuffer b = ByteBuffer.allocate(size).put((byte) 2).putInt(segments.size());
        for (int i = 0; i < segments.size(); i++) {
            Segment s = segments.get(i);
            b.putInt(hashes.get(i).length).put(hashes.get(i)).put(s.mode() == Mode.LOCAL ? (byte) 1 : (byte) 2)
                    .putLong(s.windowMillis()).putLong(s.firstStart()).putLong(s.endStart()).putLong(s.nextStart());
        }
        b.putInt(mark.length).put(mark);
        return b.array();
    }

    /** Decodes a schedule (version 1, without the applied change, or 2). */
    public static ReleaseSchedule fromBytes(byte[] bytes) {
        try {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            byte version = b.get();
            if (version != 1 && version != 2) {
                throw new IllegalArgumentException("unknown schedule version");
            }
            int n = b.getInt();
            if (n < 0 || n > MAX_STORED) {
                throw new IllegalArgumentException("bad segment count " + n);
            }
            List<Segment> out = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int hl = b.getInt();
                if (hl < 0 || hl > MAX_HASH_BYTES) {
                    throw new IllegalArgumentException("bad hash length");
                }
                byte[] h = new byte[hl];
                b.get(h);
                Mode m = b.get() == 1 ? Mode.LOCAL : Mode.CENTRAL;
                out.add(new Segment(new String(h, StandardCharsets.UTF_8), m, b.getLong(), b.getLong(), b.getLong(),
                        b.getLong()));
            }
            String applied = "";
            if (version == 2) {
                int ml = b.getInt();
                if (ml < 0 || ml > MAX_APPLIED_BYTES) {
                    throw new IllegalArgumentException("bad applied-change length");
                }
                byte[] m = new byte[ml];
                b.get(m);
                applied = new String(m, StandardCharsets.UTF_8);
            }
            return new ReleaseSchedule(out, applied);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("truncated schedule", e);
        }
    }
}
