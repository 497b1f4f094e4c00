package io.privacygateway.mechanisms.continual;

import io.privacygateway.mechanisms.codec.Varints;
import java.io.ByteArrayOutputStream;

/**
 * The binary form of a {@link ContinualState} for a changelogged store, with bounded decoding.
 *
 * <p>Layout (version 1): the version byte {@code 1}; unsigned varints depth h, universe size N and the number of
 * horizons H (which must match the counter that decodes); the origin (zig-zag varint) and the number of windows
 * (varint); for each level {@code 0..h} a flag byte (0/1) and, if 1, the open node's N values; the same for the waiting
 * nodes; then per horizon: its period (zig-zag), first window, number of permanent nodes and public count plus one (0
 * when the count is not public), and N values. Values are zig-zag varints (at most 10 bytes each).
 *
 * <p><b>Bounded decoding.</b> The input is refused (an {@link IllegalArgumentException} naming the defect) when it is
 * longer than {@link #maxBytes}, has another version or shape, an over-long varint, a flag other than 0/1, an impossible
 * window index or node count, or trailing bytes. Nothing is allocated before the shape has been checked, and no
 * allocation exceeds {@code (2h + 2 + H)·N} longs.
 */
public final class ContinualStateCodec {
    static final int VERSION = 1;
    private final int depth;
    private final int universe;
    private final int horizons;

    ContinualStateCodec(int depth, int universe, int horizons) {
        this.depth = depth;
        this.universe = universe;
        this.horizons = horizons;
    }

    /** The largest encoding of a state of this shape. */
    public int maxBytes() {
        long vectors = 2L * (depth + 1) + horizons;
        long b = 1 + 3 * 5 + 2 * 10 + 2L * (depth + 1) + horizons * (10L + 3 * 10) + vectors * universe * 10L;
        if (b > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("state too large to encode: depth " + depth + ", universe " + universe);
        }
        return (int) b;
    }

    public byte[] encode(ContinualState s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 + universe * 4);
        out.write(VERSION);
        Varints.put(out, depth);
        Varints.put(out, universe);
        Varints.put(out, horizons);
        Varints.put(out, Varints.zigzag(s.origin));
        Varints.put(out, s.next);
        for (long[][] level : new long[][][] {s.open, s.waiting}) {
            for (int l = 0; l <= depth; l++) {
                if (level[l] == null) {
                    out.write(0);
                } else {
                    out.write(1);
                    putVector(out, level[l]);
                }
            }
        }
        for (ContinualState.HorizonState h : s.horizons) {
            Varints.put(out, Varints.zigzag(h.period));
            Varints.put(out, h.start);
            Varints.put(out, h.frozenNodes);
            Varints.put(out, h.publicCount + 1);
            putVector(out, h.frozen);
        }
        return out.toByteArray();
    }

    public ContinualState decode(byte[] bytes) {
        if (bytes == null) {
            throw new IllegalArgumentException("continual state: no bytes");
        }
        if (bytes.length > maxBytes()) {
            throw new IllegalArgumentException("continual state: " + bytes.length + " bytes, more than the " + maxBytes()
                    + " a state of this shape can take");
        }
        Varints.Reader r = new Varints.Reader(bytes, "continual state");
        int version = r.u8();
        if (version != VERSION) {
            throw new IllegalArgumentException("continual state: version " + version + ", expected " + VERSION);
        }
        long d = r.varint(Varints.MAX_BYTES);
        long n = r.varint(Varints.MAX_BYTES);
        long hz = r.varint(Varints.MAX_BYTES);
        if (d != depth || n != universe || hz != horizons) {
            throw new IllegalArgumentException("continual state: shape (depth " + d + ", universe " + n + ", horizons "
                    + hz + ") differs from the counter's (" + depth + ", " + universe + ", " + horizons + ")");
        }
        long origin = Varints.unzigzag(r.varint(Varints.MAX_BYTES));
        long next = r.varint(Varints.MAX_BYTES);
        if (next < 0 || next > (Long.MAX_VALUE >> 2)) {
            throw new IllegalArgumentException("continual state: impossible window count " + next);
        }
        long[][] open = new long[depth + 1][];
        long[][] waiting = new long[depth + 1][];
        for (long[][] level : new long[][][] {open, waiting}) {
            for (int l = 0; l <= depth; l++) {
                int flag = r.u8();
                if (flag == 1) {
                    level[l] = vector(r, universe);
                } else if (flag != 0) {
                    throw new IllegalArgumentException("continual state: flag " + flag + " at level " + l);
                }
            }
        }
        ContinualState.HorizonState[] hs = new ContinualState.HorizonState[horizons];
        for (int i = 0; i < horizons; i++) {
            long period = Varints.unzigzag(r.varint(Varints.MAX_BYTES));
            long start = r.varint(Varints.MAX_BYTES);
            long frozenNodes = r.varint(Varints.MAX_BYTES);
            long count = r.varint(Varints.MAX_BYTES) - 1;
            if (start < 0 || start > next || frozenNodes < 0 || frozenNodes > 2L * depth + (next >> depth) + 2 || count < -1) {
                throw new IllegalArgumentException("continual state: horizon " + i + " has first window " + start
                        + " and " + frozenNodes + " permanent nodes after " + next + " windows");
            }
            hs[i] = new ContinualState.HorizonState(period, start, (int) frozenNodes, vector(r, universe), count);
        }
        r.requireEnd();
        return new ContinualState(origin, next, open, waiting, hs);
    }

    private void putVector(ByteArrayOutputStream out, long[] v) {
        for (long x : v) {
            Varints.put(out, Varints.zigzag(x));
        }
    }

    private static long[] vector(Varints.Reader r, int n) {
        if (r.remaining() < n) {
            throw new IllegalArgumentException("continual state: truncated vector at byte " + r.position());
        }
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            v[i] = Varints.unzigzag(r.varint(Varints.MAX_BYTES));
        }
        return v;
    }
}
