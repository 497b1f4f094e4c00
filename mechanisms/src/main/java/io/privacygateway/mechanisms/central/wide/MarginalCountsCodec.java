package io.privacygateway.mechanisms.central.wide;

import io.privacygateway.mechanisms.param.Require;
import java.io.ByteArrayOutputStream;

/**
 * The binary form of a {@link MarginalCounts} for a changelogged store, with bounded decoding.
 *
 * <p>Layout (version 1): the version byte {@code 1}; unsigned LEB128 varints d, k and n; then the
 * {@code C(d,k)·2^k} cell counts as unsigned varints, in query order. A varint is at most 9 bytes (63 bits) and
 * must be minimal (no trailing zero groups).
 *
 * <p><b>Bounded decoding.</b> {@link #decode} refuses (an {@link IllegalArgumentException} naming the defect)
 * input longer than {@link #maxBytes()}, another version, a d or k other than the workload's, a non-minimal or
 * over-long varint, a truncated input, trailing bytes, and any count that breaks an invariant of
 * {@link MarginalCounts#of} (negative, above n, a subset not summing to n, inconsistent marginals). The only
 * allocation is the workload's own {@code C(d,k)·2^k} longs, made after the shape has been checked.
 */
public final class MarginalCountsCodec {
    static final int VERSION = 1;
    /** 9 groups of 7 bits hold every count (at most 63 bits). */
    private static final int MAX_VARINT = 9;

    private final MarginalWorkload workload;

    public MarginalCountsCodec(MarginalWorkload workload) {
        this.workload = Require.nonNull("workload", workload);
    }

    /** The largest encoding of an aggregate of this workload. */
    public int maxBytes() {
        return 1 + 3 * MAX_VARINT + workload.queryCount() * MAX_VARINT;
    }

    public byte[] encode(MarginalCounts counts) {
        Require.nonNull("counts", counts);
        if (!counts.workload().equals(workload)) {
            throw new IllegalArgumentException("aggregate of " + counts.workload() + ", codec for " + workload);
        }
        long[] cells = counts.cellsView();
        ByteArrayOutputStream out = new ByteArrayOutputStream(16 + cells.length * 3);
        out.write(VERSION);
        putVarint(out, workload.attributeCount());
        putVarint(out, workload.way());
        putVarint(out, counts.n());
        for (long c : cells) {
            putVarint(out, c);
        }
        return out.toByteArray();
    }

    public MarginalCounts decode(byte[] bytes) {
        if (bytes == null) {
            throw new IllegalArgumentException("marginal counts: no bytes");
        }
        if (bytes.length > maxBytes()) {
            throw new IllegalArgumentException("marginal counts: " + bytes.length + " bytes, more than the " + maxBytes()
                    + " an aggregate of " + workload + " can take");
        }
        Reader r = new Reader(bytes);
        int version = r.u8();
        if (version != VERSION) {
            throw new IllegalArgumentException("marginal counts: version " + version + ", expected " + VERSION);
        }
        long d = r.varint();
        long k = r.varint();
        if (d != workload.attributeCount() || k != workload.way()) {
            throw new IllegalArgumentException("marginal counts: shape d=" + d + ", k=" + k + ", expected d="
                    + workload.attributeCount() + ", k=" + workload.way());
        }
        long n = r.varint();
        if (n > MarginalCounts.MAX_REPORTS) {
            throw new IllegalArgumentException("marginal counts: n = " + n + " above " + MarginalCounts.MAX_REPORTS);
        }
        long[] cells = new long[workload.queryCount()];
        for (int q = 0; q < cells.length; q++) {
            cells[q] = r.varint();
        }
        if (r.pos != bytes.length) {
            throw new IllegalArgumentException("marginal counts: " + (bytes.length - r.pos) + " trailing bytes");
        }
        return MarginalCounts.of(workload, n, cells);
    }

    private static void putVarint(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    private static final class Reader {
        private final byte[] b;
        private int pos;

        Reader(byte[] b) {
            this.b = b;
        }

        int u8() {
            if (pos >= b.length) {
                throw new IllegalArgumentException("marginal counts: truncated at byte " + pos);
            }
            return b[pos++] & 0xFF;
        }

        /** An unsigned, minimal varint of at most 9 bytes (63 bits). */
        long varint() {
            long v = 0;
            for (int i = 0; i < MAX_VARINT; i++) {
                int x = u8();
                long group = x & 0x7F;
                v |= group << (7 * i);
                if ((x & 0x80) == 0) {
                    if (i > 0 && group == 0) {
                        throw new IllegalArgumentException("marginal counts: non-minimal varint at byte " + (pos - 1));
                    }
                    return v;
                }
            }
            throw new IllegalArgumentException("marginal counts: varint longer than " + MAX_VARINT + " bytes at byte "
                    + (pos - 1));
        }
    }
}
