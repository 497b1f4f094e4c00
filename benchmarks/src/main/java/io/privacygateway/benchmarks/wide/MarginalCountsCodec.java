package io.privacygateway.benchmarks.wide;

import io.privacygateway.mechanisms.central.wide.MarginalCounts;
import io.privacygateway.mechanisms.central.wide.MarginalWorkload;
import io.privacygateway.mechanisms.codec.Varints;
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
        long[] cells = counts.cells();
        ByteArrayOutputStream out = new ByteArrayOutputStream(16 + cells.length * 3);
        out.write(VERSION);
        Varints.put(out, workload.attributeCount());
        Varints.put(out, workload.way());
        Varints.put(out, counts.n());
        for (long c : cells) {
            Varints.put(out, c);
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
        Varints.Reader r = new Varints.Reader(bytes, "marginal counts");
        int version = r.u8();
        if (version != VERSION) {
            throw new IllegalArgumentException("marginal counts: version " + version + ", expected " + VERSION);
        }
        long d = r.varint(MAX_VARINT);
        long k = r.varint(MAX_VARINT);
        if (d != workload.attributeCount() || k != workload.way()) {
            throw new IllegalArgumentException("marginal counts: shape d=" + d + ", k=" + k + ", expected d="
                    + workload.attributeCount() + ", k=" + workload.way());
        }
        long n = r.varint(MAX_VARINT);
        if (n > MarginalCounts.MAX_REPORTS) {
            throw new IllegalArgumentException("marginal counts: n = " + n + " above " + MarginalCounts.MAX_REPORTS);
        }
        long[] cells = new long[workload.queryCount()];
        for (int q = 0; q < cells.length; q++) {
            cells[q] = r.varint(MAX_VARINT);
        }
        r.requireEnd();
        return MarginalCounts.of(workload, n, cells);
    }
}
